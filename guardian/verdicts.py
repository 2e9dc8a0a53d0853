"""Equivalence verdicts: pure functions that judge a speculative run against target-only.

Owns the verdict definitions of ../shared/DESIGN.md and nothing else (no engine, no I/O):

- greedy: speculative output must be token-identical to target-only. The first position
  where the two differ is a `near_tie` when the target's top-2 logit margin there is below
  the route's tolerance (a legitimate numerical tie), otherwise a `divergence` (a bug).
  After that position the continuations legitimately differ, so nothing past it is compared.
- sampled: samples differ by design, so we check what must still hold: the processed target
  distribution p the verifier used at each emitted position equals target-only's distribution
  p_ref at the same prefix (max total-variation distance below tolerance), and, over a window
  of drafted tokens, observed acceptances match their expectation Σ_x min(p(x), q(x))
  (Leviathan et al. 2023, "Fast Inference from Transformers via Speculative Decoding", §3.1:
  a draft token x ~ q is accepted with probability min(1, p(x)/q(x)), whose mean is Σ min(p, q)).
- sampled, with less evidence (a backend without full distributions, or mirror traffic):
  what single tokens prove — every emitted token has p(x) > 0 (`support_verdict`), and every
  resampled token p(x) > q(x), since the residual norm(max(p - q, 0)) is zero elsewhere
  (`trace_verdict`). The caller records which stronger checks could not run.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from guardian.enums import Verdict

# Below this many drafted tokens the acceptance z-test is too noisy to call a mismatch.
MIN_WINDOW_FOR_ACCEPTANCE_TEST = 64


@dataclass(frozen=True, slots=True)
class VerdictResult:
    verdict: Verdict
    first_divergence_position: int | None = None
    margin_at_divergence: float | None = None
    details: dict[str, Any] = field(default_factory=dict)


def greedy_verdict(
    served_ids: Sequence[int],
    shadow_ids: Sequence[int],
    target_margins: Sequence[float],
    tolerance: float,
) -> VerdictResult:
    """Compare two greedy completions of the same prompt.

    `target_margins[i]` is the target's top-1 minus top-2 logit at completion position i on
    the target-only path (identical prefixes up to the first difference make it the margin
    both paths saw there). A length difference counts as a difference at the shorter length:
    one path stopped where the other emitted a token.
    """
    common = min(len(served_ids), len(shadow_ids))
    first = next((i for i in range(common) if served_ids[i] != shadow_ids[i]), None)
    if first is None and len(served_ids) == len(shadow_ids):
        return VerdictResult("match", details={"compared_tokens": common})
    position = common if first is None else first
    margin = float(target_margins[position]) if position < len(target_margins) else None
    verdict: Verdict = "near_tie" if margin is not None and margin < tolerance else "divergence"
    return VerdictResult(verdict, position, margin, details={
        "compared_tokens": position,
        "served_token": served_ids[position] if position < len(served_ids) else None,
        "shadow_token": shadow_ids[position] if position < len(shadow_ids) else None,
        "length_mismatch": first is None,
    })


def support_verdict(token_probs: Sequence[float]) -> VerdictResult:
    """Every emitted token must have p(x) > 0 under the processed target distribution."""
    zero = next((i for i, p in enumerate(token_probs) if p <= 0.0), None)
    details: dict[str, Any] = {"checks": ["support"], "positions": len(token_probs)}
    if zero is not None:
        return VerdictResult("distribution_mismatch", zero, None, details)
    return VerdictResult("distribution_ok", None, None, details)


def trace_verdict(trace: Sequence[Any]) -> VerdictResult:
    """Judge a sampled speculative run from its trace alone (TraceToken-like items).

    Emitted tokens need p(x) > 0; a resampled token comes from norm(max(p - q, 0)), so it
    needs p(x) > q(x) (q = the draft's probability of that token).
    """
    details: dict[str, Any] = {"checks": ["support", "resampled_residual"],
                               "positions": len(trace)}
    for t in trace:
        if t.target_prob <= 0.0:
            return VerdictResult("distribution_mismatch", t.position, None,
                                 {**details, "failed_check": "support"})
        if t.origin == "resampled" and t.draft_prob is not None and t.target_prob <= t.draft_prob:
            return VerdictResult("distribution_mismatch", t.position, None,
                                 {**details, "failed_check": "resampled_residual"})
    return VerdictResult("distribution_ok", None, None, details)


def total_variation(p: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    """TV distance per row: 0.5 * Σ|p - q|.  (T, V), (T, V) -> (T,)"""
    return 0.5 * (p.float() - q.float()).abs().sum(dim=-1)


def expected_acceptance(p: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    """Probability a draft token x ~ q is accepted against p: Σ_x min(p(x), q(x)).  -> (T,)"""
    return torch.minimum(p.float(), q.float()).sum(dim=-1)


def drafted_observations(origins: Sequence[str], p: torch.Tensor, q: torch.Tensor,
                         ) -> list[tuple[int, float]]:
    """(accepted 0/1, expected acceptance) for every verified draft proposal of one request.

    A draft proposal was verified at each position whose emitted token is `accepted` (1) or
    `resampled` (0: the proposal there was rejected). `bonus`/`target` positions had no
    proposal. The proposal was conditioned on the emitted prefix, so p[i], q[i] (the processed
    target/draft distributions at completion position i) give its acceptance probability.
    """
    expected = expected_acceptance(p, q).tolist()
    return [(1 if origin == "accepted" else 0, expected[i])
            for i, origin in enumerate(origins) if origin in ("accepted", "resampled")]


class AcceptanceWindow:
    """Rolling window of (observed, expected) acceptances for one route and pair."""

    def __init__(self, size: int) -> None:
        self._items: deque[tuple[int, float]] = deque(maxlen=size)

    def extend(self, observations: Sequence[tuple[int, float]]) -> None:
        self._items.extend(observations)

    def __len__(self) -> int:
        return len(self._items)

    def summary(self) -> dict[str, float | int | None]:
        """Observed vs expected accepted counts and the z-score of their difference.

        Each observation is Bernoulli(e_i), so the sum has variance Σ e_i (1 - e_i).
        """
        n = len(self._items)
        observed = sum(o for o, _ in self._items)
        expected = sum(e for _, e in self._items)
        variance = sum(e * (1.0 - e) for _, e in self._items)
        z = (observed - expected) / math.sqrt(variance) if variance > 1e-12 else None
        if z is None and n:
            # Degenerate expectation (all e in {0, 1}): any deviation is impossible under H0.
            z = 0.0 if abs(observed - expected) < 1e-6 else math.inf
        return {"window_tokens": n, "observed_accepted": observed,
                "expected_accepted": expected, "acceptance_z": z}


def sampled_verdict(
    verifier_p: torch.Tensor,
    reference_p: torch.Tensor,
    tolerance: float,
    window: AcceptanceWindow | None = None,
    z_threshold: float = 4.0,
) -> VerdictResult:
    """Judge a sampled speculative run.

    verifier_p: (T, V) target distributions the verifier used at each emitted position.
    reference_p: (T, V) target-only distributions at the same prefixes.
    window: the route's acceptance window, already extended with this request's observations
    (None when the draft's distributions are not available: only the TV check runs).
    """
    if verifier_p.shape != reference_p.shape:
        raise ValueError(f"distribution shapes differ: {tuple(verifier_p.shape)} vs "
                         f"{tuple(reference_p.shape)}")
    tv = total_variation(verifier_p, reference_p)  # (T,)
    over = (tv > tolerance).nonzero().flatten()
    details: dict[str, Any] = {
        "positions": int(tv.numel()),
        "max_tv": float(tv.max()) if tv.numel() else 0.0,
        "mean_tv": float(tv.mean()) if tv.numel() else 0.0,
        "tv_tolerance": tolerance,
    }
    acceptance_bad = False
    if window is not None:
        summary = window.summary()
        details.update(summary)
        z = summary["acceptance_z"]
        decisive = len(window) >= MIN_WINDOW_FOR_ACCEPTANCE_TEST
        details["acceptance_test"] = "decisive" if decisive else "window_too_small"
        acceptance_bad = decisive and z is not None and abs(z) > z_threshold
    else:
        details["acceptance_test"] = "unavailable"
    if over.numel():
        first = int(over[0])
        return VerdictResult("distribution_mismatch", first, None,
                             {**details, "tv_at_divergence": float(tv[first])})
    if acceptance_bad:
        return VerdictResult("distribution_mismatch", None, None, details)
    return VerdictResult("distribution_ok", None, None, details)
