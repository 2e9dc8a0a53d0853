"""Speculative-decoding counters and the quantities derived from them (vLLM style).

This module is the ONE place that turns counters into ratios; the engine trace, the
demo-pair evaluation, shadow windows, the gate, governance, telemetry and the dashboard all
call it. Counters are stored; ratios are derived here. It imports nothing (no torch), so the
dashboard and database-only CLI commands can use it without loading the inference stack.

Counters of a request, a window or a whole route (`SpecCounters`):
- `proposed`: draft tokens proposed (vLLM's `num_draft_tokens`): gamma per speculative step.
- `judged`: draft positions judged: up to and including the first rejection of each step
  (proposals after the first rejection are discarded unjudged).
- `accepted`: draft tokens accepted (vLLM's `num_accepted_tokens`).
- `steps`: speculative steps = target verify forwards during decoding (prefill excluded).

Derived:
- `acceptance_rate` = accepted / proposed — vLLM's `num_accepted_tokens / num_draft_tokens`,
  comparable with vLLM dashboards;
- `alpha` = accepted / judged — Leviathan et al.'s per-token acceptance estimate, the alpha
  of the expected-speedup formula below;
- `mean_acceptance_length` = 1 + accepted / steps — tokens emitted per target forward,
  counting the resampled/bonus token (vLLM's definition).

Expected speedup of Leviathan et al. 2023 (Theorem 3.8 with cost ratio c):

    speedup(alpha, gamma, c) = (1 - alpha^(gamma+1)) / ((1 - alpha) (gamma c + 1))

where c = cost of one draft forward / cost of one target forward. The formula assumes the
(gamma+1)-token verify forward costs the same as a 1-token target forward; on a CPU it
does not (measured 1.4x on the demo pair), so `expected_speedup` takes that ratio as
`verify_cost` (default 1.0 = the paper's formula).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


def acceptance_rate(accepted: float, proposed: float) -> float:
    """accepted / proposed draft tokens (vLLM); 0.0 when nothing was proposed."""
    return accepted / proposed if proposed else 0.0


def alpha(accepted: float, judged: float) -> float:
    """accepted / judged draft positions (Leviathan et al.); 0.0 when nothing was judged."""
    return accepted / judged if judged else 0.0


def mean_acceptance_length(accepted: float, steps: float) -> float:
    """Tokens emitted per target forward = 1 + accepted / steps; 0.0 without steps."""
    return 1.0 + accepted / steps if steps else 0.0


@dataclass(frozen=True, slots=True)
class SpecCounters:
    """The stored speculative counters of a request, a window or a route (see module doc)."""

    proposed: int = 0
    judged: int = 0
    accepted: int = 0
    steps: int = 0

    @property
    def acceptance_rate(self) -> float:
        return acceptance_rate(self.accepted, self.proposed)

    @property
    def alpha(self) -> float:
        return alpha(self.accepted, self.judged)

    @property
    def mean_acceptance_length(self) -> float:
        return mean_acceptance_length(self.accepted, self.steps)

    def __add__(self, other: SpecCounters) -> SpecCounters:
        return SpecCounters(self.proposed + other.proposed, self.judged + other.judged,
                            self.accepted + other.accepted, self.steps + other.steps)

    @classmethod
    def total(cls, items: Iterable[SpecCounters]) -> SpecCounters:
        # Field by field: the rollback controller sums a window of thousands at every pass.
        items = list(items)
        return cls(sum(c.proposed for c in items), sum(c.judged for c in items),
                   sum(c.accepted for c in items), sum(c.steps for c in items))

    @classmethod
    def from_stats(cls, stats: Mapping[str, Any] | None) -> SpecCounters:
        """Counters from a stats mapping as stored in the audit trail (GenerationStats as a
        dict). Records written before `proposed_tokens` / `judged_tokens` existed carry only
        `draft_tokens`, which counted judged positions: read it as such, and as proposed
        too (the best lower bound those records hold)."""
        if not stats:
            return cls()
        legacy = int(stats.get("draft_tokens") or 0)
        judged = int(stats.get("judged_tokens", legacy) or 0)
        proposed = int(stats.get("proposed_tokens", legacy) or 0)
        return cls(proposed=proposed, judged=judged, accepted=int(stats.get("accepted") or 0),
                   steps=int(stats.get("steps") or 0))

    def ratios(self) -> dict[str, float]:
        """The derived ratios, under the names used everywhere (stats JSON, API, metrics)."""
        return {"acceptance_rate": self.acceptance_rate, "alpha": self.alpha,
                "mean_acceptance_length": self.mean_acceptance_length}

    def as_dict(self) -> dict[str, float | int]:
        """Counters (under the keys GenerationStats stores them, so `from_stats` reads this
        back) and their derived ratios."""
        return {"proposed_tokens": self.proposed, "judged_tokens": self.judged,
                "accepted": self.accepted, "steps": self.steps, **self.ratios()}


def expected_tokens_per_step(alpha: float, gamma: int) -> float:
    """E[tokens emitted per target forward] with i.i.d. acceptance alpha."""
    if alpha >= 1.0:
        return float(gamma + 1)
    return (1.0 - alpha ** (gamma + 1)) / (1.0 - alpha)


def expected_speedup(alpha: float, gamma: int, c: float, verify_cost: float = 1.0) -> float:
    """Expected wall-clock speedup over target-only decoding (1.0 for gamma = 0).

    verify_cost: cost of one verify forward over gamma+1 tokens / one 1-token forward.
    """
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    if c < 0.0:
        raise ValueError(f"cost ratio c must be >= 0, got {c}")
    if verify_cost <= 0.0:
        raise ValueError(f"verify_cost must be > 0, got {verify_cost}")
    return expected_tokens_per_step(alpha, gamma) / (gamma * c + (verify_cost if gamma else 1.0))


def optimal_gamma(alpha: float, c: float, gamma_max: int, gamma_min: int = 1) -> int:
    """The gamma in [gamma_min, gamma_max] with the highest expected speedup (smallest on ties)."""
    return max(range(gamma_min, gamma_max + 1), key=lambda g: (expected_speedup(alpha, g, c), -g))


#: Batch-size bands of the load-aware speculation cap (engine.loadaware) and the dashboard.
BANDS: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64, 128)


def band_of(size: int) -> int:
    """The band a batch of `size` rows falls in: the largest band start <= size."""
    return max(b for b in BANDS if b <= max(1, size))


def sustained(sizes: deque[int], size: int) -> int:
    """The largest batch size of the window `sizes` once `size` joins it (the oldest falling
    out of a full window), without changing it: what a depth cap's `peek` bands by."""
    return max([*sizes, size][-(sizes.maxlen or 1):])
