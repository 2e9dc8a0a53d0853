"""Trigger evaluation: a route's `TriggerPolicy` applied to its `RouteWindow`.

`evaluate_triggers` is pure over the window: one `Measurement` per trigger (pass / fail /
inconclusive). Deciding whether a failure *fires* (failure limits, only counting evaluations
that saw new data, cool-down) is the rollback controller's job.
"""

from __future__ import annotations

from guardian.governance.schema import TriggerPolicy
from guardian.governance.stats import (
    Measurement,
    acceptance_measurement,
    count_measurement,
    drift_measurement,
    latency_measurement,
)
from guardian.governance.windows import RouteWindow

# Trigger name -> the failure limit field that governs it.
TRIGGERS = ("acceptance", "divergence", "latency", "drift_acceptance", "drift_tokens")


def failure_limit(policy: TriggerPolicy, name: str) -> int:
    """Consecutive failing evaluations after which trigger `name` fires."""
    sections = {"acceptance": policy.acceptance, "divergence": policy.divergence,
                "latency": policy.latency}
    return sections.get(name, policy.drift).failure_limit


def evaluate_triggers(window: RouteWindow, policy: TriggerPolicy,
                      now: float | None = None) -> dict[str, Measurement]:
    """Measure every enabled trigger on the window (pruned to `policy.window_s` first)."""
    window.window_s = policy.window_s
    window.prune(now)
    out: dict[str, Measurement] = {}
    if policy.acceptance.enabled:
        a = policy.acceptance
        drafted = sum(s.drafted for s in window.spec)
        accepted = sum(s.accepted for s in window.spec)
        out["acceptance"] = acceptance_measurement(accepted, drafted, a.min_rate, a.min_samples)
    if policy.divergence.enabled:
        out["divergence"] = _divergence(window, policy)
    if policy.latency.enabled:
        lat = policy.latency
        out["latency"] = latency_measurement([v for _, v in window.served_latency],
                                             [v for _, v in window.baseline_latency],
                                             lat.max_ratio, lat.min_samples)
    if policy.drift.enabled:
        d = policy.drift
        out["drift_acceptance"] = drift_measurement(
            "accepted_length_drift", window.reference_steps, window.current_steps(),
            d.max_js, d.max_psi, d.min_samples, d.reference_size)
        out["drift_tokens"] = drift_measurement(
            "token_distribution_drift", window.reference_tokens, window.current_tokens(),
            d.max_js, d.max_psi, d.min_samples, d.reference_size)
    return out


def _divergence(window: RouteWindow, policy: TriggerPolicy) -> Measurement:
    d = policy.divergence
    divergences = [v for v in window.verdicts if v.verdict == "divergence"]
    mismatches = [v for v in window.verdicts if v.verdict == "distribution_mismatch"]
    evidence = [{"request_id": v.request_id, "verdict": v.verdict, "position": v.position,
                 "margin": v.margin, "tolerance": v.tolerance} for v in (divergences + mismatches)[:5]]
    details = {"divergences": len(divergences), "distribution_mismatches": len(mismatches),
               "near_ties": sum(v.verdict == "near_tie" for v in window.verdicts),
               "examples": evidence}
    if d.include_distribution_mismatch and len(mismatches) > d.max_distribution_mismatches:
        return count_measurement("distribution_mismatches", len(mismatches),
                                 d.max_distribution_mismatches, len(window.verdicts), 1, details)
    return count_measurement("divergences", len(divergences), d.max_divergences,
                             len(window.verdicts), 1, details)
