"""Acceptance trigger: the window's acceptance_rate (accepted / proposed draft tokens, from
the summed stored counters) below `triggers.acceptance.min_rate`."""

from __future__ import annotations

from guardian.governance.stats import Measurement, acceptance_measurement
from guardian.governance.windows import RouteWindow
from guardian.policy import AcceptanceTrigger


def evaluate(window: RouteWindow, section: AcceptanceTrigger) -> Measurement:
    return acceptance_measurement(window.counters(), section.min_rate, section.min_samples)
