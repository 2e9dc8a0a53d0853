"""Fixtures of the fault suite: the demo pair (shared with the engine tests)."""

