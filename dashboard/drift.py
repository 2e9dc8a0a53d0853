"""Drift of the acceptance distribution against a reference window: JS divergence and PSI.

Pure functions over histograms (counts per bin), no Streamlit and no database. The observed
quantity is the per-request acceptance rate α, binned into `N_BINS` equal bins on [0, 1]: when
the draft stops predicting the target (new traffic mix, a changed model), α's distribution
moves before its mean does. Five bins, because with tens of runs per bucket finer bins score
sampling noise as drift.

* Jensen-Shannon divergence, base 2: symmetric, bounded in [0, 1], defined with empty bins.
* Population stability index: Σ (a - r) ln(a / r) over bins of proportions; the usual reading
  is < 0.1 stable, 0.1-0.25 moderate shift, > 0.25 significant shift. Counts get a pseudo-count
  of `PSEUDO_COUNT` per bin (Laplace smoothing): PSI is infinite with an empty bin, and a tiny
  epsilon instead makes a stable route with a few dozen runs per bucket score like a shift.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

N_BINS = 5
PSEUDO_COUNT = 0.5


@dataclass(frozen=True)
class DriftThresholds:
    """Trigger thresholds drawn on the charts; from the policy's `drift:` section if present."""

    js_divergence: float = 0.1
    psi: float = 0.25
    min_requests: int = 50  # a bucket with fewer requests is too noisy to score

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any] | None) -> DriftThresholds:
        if not raw:
            return cls()
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in raw.items() if k in names})


def bin_index(alpha: float, n_bins: int = N_BINS) -> int:
    """Bin of an acceptance rate; α = 1.0 goes to the last bin."""
    return min(max(int(alpha * n_bins), 0), n_bins - 1)


def normalise(counts: Sequence[float]) -> list[float]:
    total = float(sum(counts))
    if total <= 0:
        raise ValueError("cannot normalise an empty histogram")
    return [c / total for c in counts]


def js_divergence(p_counts: Sequence[float], q_counts: Sequence[float]) -> float:
    """Jensen-Shannon divergence (base 2) of two histograms over the same bins, in [0, 1]."""
    if len(p_counts) != len(q_counts):
        raise ValueError("histograms must have the same bins")
    p, q = normalise(p_counts), normalise(q_counts)

    def kl(a: list[float], m: list[float]) -> float:
        return sum(x * math.log2(x / y) for x, y in zip(a, m, strict=True) if x > 0)

    m = [(x + y) / 2 for x, y in zip(p, q, strict=True)]
    return max(0.0, min(1.0, 0.5 * kl(p, m) + 0.5 * kl(q, m)))


def psi(actual_counts: Sequence[float], reference_counts: Sequence[float],
        pseudo_count: float = PSEUDO_COUNT) -> float:
    """Population stability index of `actual` against `reference` (0 when identical)."""
    if len(actual_counts) != len(reference_counts):
        raise ValueError("histograms must have the same bins")
    normalise(actual_counts), normalise(reference_counts)  # reject empty histograms
    a = normalise([x + pseudo_count for x in actual_counts])
    r = normalise([x + pseudo_count for x in reference_counts])
    return sum((x - y) * math.log(x / y) for x, y in zip(a, r, strict=True))
