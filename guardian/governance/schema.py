"""Moved to `guardian.policy` (triggers, gate). Kept only because guardian/governance/gates.py,
guardian/cli/gate.py and tests/guardian/governance/test_gate_checks.py still import it."""

from __future__ import annotations

from guardian.policy import GatePolicy, RoutePolicy, TriggerPolicy

__all__ = ["GatePolicy", "TriggerPolicy", "route_governance"]


def route_governance(route: RoutePolicy) -> RoutePolicy:
    """Old accessor: a RoutePolicy now always carries `.triggers` and `.gate` itself."""
    return route
