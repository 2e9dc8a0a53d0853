"""Latency trigger: p95 of the served speculative path against the target-only baseline."""

from __future__ import annotations

from guardian.governance.stats import Measurement, latency_measurement
from guardian.governance.windows import RouteWindow
from guardian.policy import LatencyTrigger


def evaluate(window: RouteWindow, section: LatencyTrigger) -> Measurement:
    return latency_measurement([v for _, v in window.served_latency],
                               [v for _, v in window.baseline_latency],
                               section.max_ratio, section.min_samples)
