"""Moved to `guardian.policy.loading`. Kept only because
tests/guardian/governance/test_gate_promotion.py still imports `load_policy_file` from here."""

from guardian.policy.loading import PolicyReloader, load_policy_file  # noqa: F401
