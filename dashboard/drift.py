"""Drift of the accepted-length distribution against a reference window: JS divergence, PSI.

The observed quantity is the one the rollback trigger watches (`guardian.governance`): the
number of draft tokens accepted per speculative step (0..γ). When the draft stops predicting
the target (new traffic mix, a changed model) that distribution moves before α's mean does.
Scores come from `guardian.governance.stats` (same smoothing, same bins), so the dashboard
draws exactly the numbers the trigger compares with its thresholds:

* Jensen-Shannon divergence in bits: symmetric, in [0, 1];
* population stability index Σ (a - r) ln(a / r): < 0.1 stable, 0.1-0.25 moderate shift,
  > 0.25 significant shift.

Both histograms get a pseudo-count of 0.5 per bin first (an empty bin makes PSI infinite).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from guardian.governance import stats as gstats
from guardian.governance import windows
from guardian.policy import DriftTrigger

_DEFAULT = DriftTrigger()


@dataclass(frozen=True)
class DriftThresholds:
    """Trigger thresholds drawn on the charts: a route's `triggers.drift` policy if present."""

    js_divergence: float = _DEFAULT.max_js
    psi: float = _DEFAULT.max_psi
    reference_size: int = _DEFAULT.reference_size  # steps: the reference window is the first ones
    min_samples: int = _DEFAULT.min_samples  # steps: a bucket with fewer is too noisy to score

    @classmethod
    def from_trigger(cls, raw: Mapping[str, Any] | None) -> DriftThresholds:
        """From a `triggers.drift` mapping (max_js, max_psi, reference_size, min_samples)."""
        if not raw:
            return cls()
        d = cls()
        return cls(js_divergence=float(raw.get("max_js", d.js_divergence)),
                   psi=float(raw.get("max_psi", d.psi)),
                   reference_size=int(raw.get("reference_size", d.reference_size)),
                   min_samples=int(raw.get("min_samples", d.min_samples)))


def accepted_lengths(drafted_per_position: Sequence[float],
                     accepted_per_position: Sequence[float]) -> Counter:
    """Steps by number of accepted draft tokens, from the engine's per-position counters:
    the rollback trigger's own derivation (`guardian.governance.windows.accepted_lengths`)."""
    return windows.accepted_lengths({"drafted_per_position": list(drafted_per_position),
                                     "accepted_per_position": list(accepted_per_position)})


def scores(reference: Mapping[Any, float], current: Mapping[Any, float]) -> tuple[float, float]:
    """(JS divergence in bits, PSI) of `current` against `reference` histograms."""
    if not sum(reference.values()) or not sum(current.values()):
        raise ValueError("cannot score drift against an empty histogram")
    p, q = gstats.aligned(reference, current)
    return gstats.js_divergence(p, q), gstats.psi(p, q)
