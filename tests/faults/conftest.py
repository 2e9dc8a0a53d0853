"""Fixtures of the fault suite: the demo pair (shared with the engine tests)."""

from tests.engine.conftest import demo_pair_paths  # noqa: F401  (fixture)
