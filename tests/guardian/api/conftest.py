"""Fixtures: an app around the fake backend, with one API key per role."""
from __future__ import annotations

from tests.support.api import (  # noqa: F401  (helpers, importable from here too)
    KEYS,
    auth,
    keystore,
    policy,
)
