"""Gamma controllers: how many draft tokens to propose at the next speculative step.

All controllers share one tiny protocol: `gamma()` before a step, `update(...)` after it.
- constant: always the configured gamma.
- heuristic (transformers' assisted-generation rule): +1 after a fully accepted step,
  -1 after a partially accepted one, clamped to [1, gamma_max].
- goodput: maximise the expected speedup (engine.metrics.expected_speedup) from the
  running alpha (accepted / judged positions, decayed) and the measured draft/target cost
  ratio c.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from engine import metrics
from engine.metrics import optimal_gamma

GammaStrategy = Literal["constant", "heuristic", "goodput"]


class GammaController(Protocol):
    def gamma(self) -> int: ...

    def update(
        self, gamma: int, drafted: int, accepted: int, draft_time_s: float, verify_time_s: float
    ) -> None:
        """gamma: depth used; drafted/accepted: draft positions verified / accepted
        (a step rejected at position i verified i+1 positions); times: wall time of the
        step's draft forwards (gamma of them) and its single target forward."""
        ...


@dataclass
class ConstantGamma:
    value: int

    def gamma(self) -> int:
        return self.value

    def update(self, gamma: int, drafted: int, accepted: int,
               draft_time_s: float, verify_time_s: float) -> None:
        return None


@dataclass
class HeuristicGamma:
    value: int
    gamma_max: int

    def gamma(self) -> int:
        return self.value

    def update(self, gamma: int, drafted: int, accepted: int,
               draft_time_s: float, verify_time_s: float) -> None:
        if gamma <= 0 or drafted <= 0:
            return  # nothing was proposed (e.g. prompt lookup found no match): no evidence
        # Every judged position accepted = no rejection this step: all gamma tokens of a draft
        # model, or a shorter prompt-lookup proposal taken whole (which `accepted >= gamma`
        # would count as a rejection and walk gamma down to 1).
        if accepted >= drafted:
            self.value = min(self.value + 1, self.gamma_max)
        else:
            self.value = max(self.value - 1, 1)


@dataclass
class GoodputGamma:
    """Chooses argmax_gamma (1 - a^(g+1)) / ((1 - a)(g c + 1)) from running estimates."""

    value: int  # used until the first measurement arrives
    gamma_max: int
    # EMA weight of the newest step: high enough to follow a topic change within ~10 steps,
    # low enough that one slow forward (GC, a noisy neighbour) does not swing gamma.
    smoothing: float = 0.2
    # Prior pseudo-counts so the first steps do not jump to the extremes (alpha 0 or 1).
    prior_drafted: float = 4.0
    prior_alpha: float = 0.6
    alpha_ema: float | None = None
    cost_ratio_ema: float | None = None

    def __post_init__(self) -> None:
        self._drafted = self.prior_drafted
        self._accepted = self.prior_drafted * self.prior_alpha

    @property
    def alpha(self) -> float:
        return metrics.alpha(self._accepted, self._drafted)  # decayed counts, judged positions

    def gamma(self) -> int:
        if self.cost_ratio_ema is None:
            return self.value
        return optimal_gamma(min(self.alpha, 0.999), self.cost_ratio_ema, self.gamma_max)

    def update(self, gamma: int, drafted: int, accepted: int,
               draft_time_s: float, verify_time_s: float) -> None:
        if gamma <= 0 or drafted <= 0 or verify_time_s <= 0.0:
            return
        # Geometric-acceptance MLE is accepted / verified positions; decay old evidence
        # so alpha tracks the current request's content.
        keep = 1.0 - self.smoothing
        self._drafted = keep * self._drafted + drafted
        self._accepted = keep * self._accepted + accepted
        self.alpha_ema = self.alpha
        c = (draft_time_s / gamma) / verify_time_s
        if self.cost_ratio_ema is None:
            self.cost_ratio_ema = c
        else:
            self.cost_ratio_ema = keep * self.cost_ratio_ema + self.smoothing * c


def pinned_strategy(strategy: str, pinned: bool) -> str:
    """The strategy a pinned row (a seeded sampled request: engine.rows.SequenceRequest
    .pinned_depth) runs: goodput reads the clock (its cost ratio), so its depths - and with
    them its draws - would differ from run to run; such a row runs the heuristic rule
    (acceptance only) instead. Other strategies read only the row's own acceptances."""
    return "heuristic" if pinned and strategy == "goodput" else strategy


def make_controller(strategy: str, gamma: int, gamma_max: int) -> GammaController:
    if gamma < 1 or gamma_max < 1:
        raise ValueError(f"gamma and gamma_max must be >= 1, got gamma={gamma}, "
                         f"gamma_max={gamma_max}")
    if strategy == "constant":
        return ConstantGamma(gamma)
    if strategy == "heuristic":
        return HeuristicGamma(min(gamma, gamma_max), gamma_max)
    if strategy == "goodput":
        return GoodputGamma(min(gamma, gamma_max), gamma_max)
    raise ValueError(f"unknown gamma_strategy {strategy!r}; use 'constant', 'heuristic' or "
                     "'goodput'")
