"""Triggers: continuous checks of a speculative route, each one module plus one entry in
`registry.TRIGGERS` (name -> evaluator, policy section, failure limit).

Importing this package checks the table against the policy schema and registers that check
with the policy loader, so every policy loaded afterwards is refused when they disagree.
"""

from __future__ import annotations

from guardian.governance.triggers.registry import (
    TRIGGERS,
    Trigger,
    check_policy,
    check_sections,
    evaluate_triggers,
    failure_limit,
)
from guardian.policy import register_check

check_sections()  # a table that disagrees with the schema fails at import, not at rollback time
register_check(check_policy)

__all__ = ["TRIGGERS", "Trigger", "check_policy", "check_sections", "evaluate_triggers",
           "failure_limit"]
