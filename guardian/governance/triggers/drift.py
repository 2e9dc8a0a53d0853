"""Drift triggers (one section, two distributions): accepted draft tokens per step, and
emitted token ids, each against the window's frozen reference."""

from __future__ import annotations

from guardian.governance.stats import Measurement, drift_measurement
from guardian.governance.windows import RouteWindow
from guardian.policy import DriftTrigger


def evaluate_accepted_lengths(window: RouteWindow, section: DriftTrigger) -> Measurement:
    return drift_measurement("accepted_length_drift", window.reference_steps, window.current_steps(),
                             section.max_js, section.max_psi, section.min_samples,
                             section.reference_size)


def evaluate_tokens(window: RouteWindow, section: DriftTrigger) -> Measurement:
    return drift_measurement("token_distribution_drift", window.reference_tokens,
                             window.current_tokens(), section.max_js, section.max_psi,
                             section.min_samples, section.reference_size)
