"""One check of a gate report (name, outcome, value against its threshold, detail): the unit
both the gate (guardian.governance.gates) and its batched phase (gatebatch) report in."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Check:
    name: str
    outcome: str  # pass | fail | skipped
    value: float | None
    threshold: float | None
    detail: str
