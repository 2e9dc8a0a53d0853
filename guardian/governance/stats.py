"""Pure statistics for triggers and gates (no I/O, no torch; counter ratios come from
`engine.metrics`): divergences between histograms,
percentiles, and measurements with Argo Rollouts-style outcomes.

An `Measurement` is one metric evaluated on one window: `pass`, `fail`, or `inconclusive`
when the window holds fewer than the minimum sample size — too little evidence to act either
way (Argo's AnalysisRun "Inconclusive" phase). `FailureCounter` turns a series of
measurements into a decision: fire after `failure_limit` consecutive failures; a pass resets
it, an inconclusive leaves it as it is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.metrics import SpecCounters
from guardian.core.enums import Outcome

# Added to every bin before normalising: an empty bin would make PSI infinite and tell the
# operator nothing beyond "a token appeared that the reference never saw".
SMOOTHING = 0.5


@dataclass(frozen=True, slots=True)
class Measurement:
    name: str
    outcome: Outcome
    value: float | None  # the measured quantity (None when nothing could be measured)
    threshold: float | None
    samples: int
    min_samples: int
    details: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _normalise(counts: Mapping[Any, float], keys: Sequence[Any]) -> list[float]:
    smoothed = [float(counts.get(k, 0.0)) + SMOOTHING for k in keys]
    total = sum(smoothed)
    return [c / total for c in smoothed]


def aligned(reference: Mapping[Any, float], current: Mapping[Any, float]
            ) -> tuple[list[float], list[float]]:
    """Both histograms over the union of their bins, smoothed and normalised."""
    keys = sorted(set(reference) | set(current), key=repr)
    return _normalise(reference, keys), _normalise(current, keys)


def js_divergence(p: Sequence[float], q: Sequence[float]) -> float:
    """Jensen-Shannon divergence in bits (0 = identical, 1 = disjoint) of two distributions."""
    if len(p) != len(q):
        raise ValueError(f"distributions have different lengths: {len(p)} vs {len(q)}")
    m = [(a + b) / 2 for a, b in zip(p, q, strict=True)]

    def kl(a: Sequence[float], b: Sequence[float]) -> float:
        return sum(x * math.log2(x / y) for x, y in zip(a, b, strict=True) if x > 0)

    return max(0.0, 0.5 * kl(p, m) + 0.5 * kl(q, m))


def psi(expected: Sequence[float], actual: Sequence[float]) -> float:
    """Population stability index Σ (a - e) ln(a / e) of `actual` against `expected`."""
    if len(expected) != len(actual):
        raise ValueError(f"distributions have different lengths: {len(expected)} vs {len(actual)}")
    return sum((a - e) * math.log(a / e) for e, a in zip(expected, actual, strict=True)
               if a > 0 and e > 0)


def histogram(values: Iterable[Any]) -> dict[Any, int]:
    out: dict[Any, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in 0..100) of a non-empty sequence."""
    if not values:
        raise ValueError("percentile of an empty sequence")
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100.0
    lo, hi = math.floor(rank), math.ceil(rank)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (rank - lo)


# --- measurements ------------------------------------------------------------------------
def acceptance_measurement(counters: SpecCounters, min_alpha: float,
                           min_samples: int) -> Measurement:
    """alpha (accepted / judged draft positions) of the window's summed counters; fails below
    `min_alpha`, inconclusive under `min_samples` judged positions. acceptance_rate (accepted /
    proposed, gamma-dependent) rides along in the details."""
    details = counters.as_dict()
    alpha = counters.alpha if counters.judged else None
    if counters.judged < min_samples:
        return Measurement("alpha", "inconclusive", alpha, min_alpha, counters.judged,
                           min_samples, details)
    return Measurement("alpha", "fail" if counters.alpha < min_alpha else "pass",
                       alpha, min_alpha, counters.judged, min_samples, details)


def count_measurement(name: str, count: int, limit: int, samples: int,
                      min_samples: int = 1, details: dict[str, Any] | None = None) -> Measurement:
    """Fails when more than `limit` bad events were seen among `samples`."""
    if count > limit:  # bad events are evidence on their own, whatever the sample size
        return Measurement(name, "fail", float(count), float(limit), samples, min_samples,
                           details or {})
    outcome: Outcome = "inconclusive" if samples < min_samples else "pass"
    return Measurement(name, outcome, float(count), float(limit), samples, min_samples,
                       details or {})


def latency_measurement(served: Sequence[float], baseline: Sequence[float], max_ratio: float,
                        min_samples: int) -> Measurement:
    """p95(served speculative) / p95(target-only baseline); fails above `max_ratio`."""
    n = min(len(served), len(baseline))
    if n < min_samples:
        return Measurement("p95_latency_ratio", "inconclusive", None, max_ratio, n, min_samples,
                           {"served_samples": len(served), "baseline_samples": len(baseline)})
    p_served, p_base = percentile(served, 95), percentile(baseline, 95)
    ratio = p_served / p_base if p_base > 0 else math.inf
    return Measurement("p95_latency_ratio", "fail" if ratio > max_ratio else "pass", ratio,
                       max_ratio, n, min_samples,
                       {"p95_served_s": p_served, "p95_baseline_s": p_base,
                        "served_samples": len(served), "baseline_samples": len(baseline)})


def drift_measurement(name: str, reference: Mapping[Any, float], current: Mapping[Any, float],
                      max_js: float, max_psi: float, min_samples: int,
                      reference_size: int) -> Measurement:
    """JS and PSI of `current` against `reference`; fails when either passes its threshold."""
    n_ref, n_cur = int(sum(reference.values())), int(sum(current.values()))
    if n_ref < reference_size or n_cur < min_samples:
        return Measurement(name, "inconclusive", None, max_js, n_cur, min_samples,
                           {"reference_samples": n_ref, "reference_size": reference_size})
    p, q = aligned(reference, current)
    js, index = js_divergence(p, q), psi(p, q)
    outcome: Outcome = "fail" if js > max_js or index > max_psi else "pass"
    return Measurement(name, outcome, js, max_js, n_cur, min_samples,
                       {"js_bits": js, "psi": index, "max_psi": max_psi,
                        "reference_samples": n_ref, "bins": len(p)})


class FailureCounter:
    """Consecutive failures of one trigger; fires at `failure_limit`."""

    def __init__(self) -> None:
        self.consecutive = 0

    def update(self, m: Measurement, failure_limit: int) -> bool:
        if m.outcome == "fail":
            self.consecutive += 1
        elif m.outcome == "pass":
            self.consecutive = 0
        return self.consecutive >= failure_limit

    def reset(self) -> None:
        self.consecutive = 0
