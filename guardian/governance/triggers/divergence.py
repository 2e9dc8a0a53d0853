"""Divergence trigger: shadow verdicts that say the speculative path changed the output
(greedy `divergence`; sampled `distribution_mismatch` with its own limit)."""

from __future__ import annotations

from guardian.governance.stats import Measurement, count_measurement
from guardian.governance.windows import RouteWindow
from guardian.policy import DivergenceTrigger


def evaluate(window: RouteWindow, section: DivergenceTrigger) -> Measurement:
    divergences = [v for v in window.verdicts if v.verdict == "divergence"]
    mismatches = [v for v in window.verdicts if v.verdict == "distribution_mismatch"]
    evidence = [{"request_id": v.request_id, "verdict": v.verdict, "position": v.position,
                 "margin": v.margin, "tolerance": v.tolerance} for v in (divergences + mismatches)[:5]]
    details = {"divergences": len(divergences), "distribution_mismatches": len(mismatches),
               "near_ties": sum(v.verdict == "near_tie" for v in window.verdicts),
               "examples": evidence}
    if section.include_distribution_mismatch and len(mismatches) > section.max_distribution_mismatches:
        return count_measurement("distribution_mismatches", len(mismatches),
                                 section.max_distribution_mismatches, len(window.verdicts), 1, details)
    return count_measurement("divergences", len(divergences), section.max_divergences,
                             len(window.verdicts), 1, details)
