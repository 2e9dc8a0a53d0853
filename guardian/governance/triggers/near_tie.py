"""Near-tie trigger: the share of greedy shadow verdicts that are proven near ties
(`triggers.near_tie`, policy/triggers.py says why a rising rate matters)."""

from __future__ import annotations

from guardian.governance.stats import Measurement
from guardian.governance.windows import RouteWindow
from guardian.policy import NearTieTrigger

GREEDY_VERDICTS = ("match", "near_tie", "divergence")


def near_tie_rate(window: RouteWindow) -> tuple[int, int]:
    """(near ties, greedy verdicts) in the window."""
    greedy = [v for v in window.verdicts if v.verdict in GREEDY_VERDICTS]
    return sum(v.verdict == "near_tie" for v in greedy), len(greedy)


def evaluate(window: RouteWindow, section: NearTieTrigger) -> Measurement:
    ties, n = near_tie_rate(window)
    rate = ties / n if n else None
    details = {"near_ties": ties, "greedy_verdicts": n}
    if n < section.min_samples:
        return Measurement("near_tie_rate", "inconclusive", rate, section.max_rate, n,
                           section.min_samples, details)
    return Measurement("near_tie_rate", "fail" if ties / n > section.max_rate else "pass",
                       rate, section.max_rate, n, section.min_samples, details)
