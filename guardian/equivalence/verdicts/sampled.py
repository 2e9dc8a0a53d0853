"""Sampled verdicts: `sampled_trace_verdict` (p(x) > 0, resampled p(x) > q(x), accepted =
proposed), `sampled_verdict` (verifier p vs target-only p, total variation), acceptance
expectations (Leviathan et al. 2023, §3.1), `seed_replay_verdict` (a seed repeats its tokens)
and the older per-token `support_verdict` / `trace_verdict`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from guardian.equivalence.verdicts.calibration import AcceptanceWindow
from guardian.equivalence.verdicts.result import VerdictResult, first_difference

# Below this many drafted tokens the acceptance z-test is too noisy to call a mismatch.
MIN_WINDOW_FOR_ACCEPTANCE_TEST = 64


def support_verdict(token_probs: Sequence[float]) -> VerdictResult:
    """Every emitted token must have p(x) > 0 under the processed target distribution."""
    # `not p > 0`: a NaN probability (a broken forward) proves no support either.
    zero = next((i for i, p in enumerate(token_probs) if not p > 0.0), None)
    details: dict[str, Any] = {"checks": ["support"], "positions": len(token_probs)}
    if zero is not None:
        return VerdictResult("distribution_mismatch", zero, None, details)
    return VerdictResult("distribution_ok", None, None, details)


def trace_verdict(trace: Sequence[Any]) -> VerdictResult:
    """Judge a sampled speculative run from its trace alone (TraceToken-like items).

    Emitted tokens need p(x) > 0; a resampled token comes from norm(max(p - q, 0)), so it
    needs p(x) > q(x) (q = the draft's probability of that token).
    """
    return _trace_result(trace, ("support", "resampled_residual"))


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


def sampled_trace_verdict(trace: Sequence[Any]) -> VerdictResult:
    """Per-token checks of a sampled run's trace: every emitted token has p(x) > 0; every
    resampled token p(x) > q(x) (the residual norm(max(p - q, 0)) has no mass elsewhere;
    q(x) = the recorded q of that token); an accepted token is the one proposed there."""
    return _trace_result(trace, ("support", "resampled_residual", "accepted_proposed"))


def _trace_result(trace: Sequence[Any], checks: tuple[str, ...]) -> VerdictResult:
    """The per-token `checks` over `trace`, token by token in that order: the first failure
    as a `distribution_mismatch` naming it, else `distribution_ok`."""
    details: dict[str, Any] = {"checks": list(checks), "positions": len(trace)}
    for t in trace:
        failed = None
        if not t.target_prob > 0.0:  # NaN included
            failed = "support"
        elif ("resampled_residual" in checks and t.origin == "resampled"
              and t.draft_prob is not None and t.target_prob <= t.draft_prob):
            failed = "resampled_residual"
        elif ("accepted_proposed" in checks and t.origin == "accepted"
              and getattr(t, "proposed_token", None) is not None
              and t.proposed_token != t.token_id):
            failed = "accepted_not_proposed"
        if failed is not None:
            return VerdictResult("distribution_mismatch", t.position, None,
                                 {**details, "failed_check": failed})
    return VerdictResult("distribution_ok", None, None, details)


def reported_probability_verdict(trace: Sequence[Any], ids: Sequence[int], reference: Any,
                                 tolerance: float) -> tuple[int, float, float] | None:
    """The first position whose reported p(x) (the trace's `target_prob`: what a client's
    `logprobs` shows) is more than `tolerance` from the re-scored target distribution's p(x),
    as (position, reported, re-scored); None when every reported one agrees. A correct run's
    pointwise gap is at most the TV the verifier check bounds by the same tolerance; a zeroed
    (p = 1) or constant logprob is not."""
    for t in trace:
        p = getattr(t, "target_prob", None)
        i = t.position
        if not isinstance(p, float | int) or p != p or i >= len(ids):
            continue
        ref = float(reference[i][ids[i]])
        if abs(float(p) - ref) > tolerance:
            return i, float(p), ref
    return None


def seed_replay_verdict(served: Sequence[int], replay: Sequence[int], compared: int,
                        ) -> VerdictResult | None:
    """A seeded request run again with its seed on the path that served it: its first
    `compared` tokens must repeat (TensorRT-LLM's one-model speculation ignored per-request
    seeds, NVIDIA/TensorRT-LLM#19487; every distribution check passes such a run). -> the
    divergence at the first token that differs, or None."""
    a, b = list(served[:compared]), list(replay[:compared])
    if a == b:
        return None
    first = first_difference(a, b)
    return VerdictResult("divergence", first, None, {
        "failed_check": "seed_replay", "compared_tokens": compared,
        "served_token": a[first] if first < len(a) else None,
        "replayed_token": b[first] if first < len(b) else None})
