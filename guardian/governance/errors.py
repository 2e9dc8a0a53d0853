"""The refusal every governance act raises (promotion, rollback, re-enable, gate check).

Its own module so promotion, rollback and route state can all raise it without importing
each other.
"""

from __future__ import annotations


class GovernanceRefused(PermissionError):
    """A governance action that is not allowed now; the message says why and what to do."""
