"""Acceptance trigger: the window's alpha (accepted / judged draft positions, from the summed
stored counters) below `triggers.acceptance.min_alpha` (why alpha: policy/triggers.py)."""

from __future__ import annotations

from guardian.governance.stats import Measurement, acceptance_measurement
from guardian.governance.windows import RouteWindow
from guardian.policy import AcceptanceTrigger


def evaluate(window: RouteWindow, section: AcceptanceTrigger) -> Measurement:
    return acceptance_measurement(window.counters(), section.min_alpha, section.min_samples)
