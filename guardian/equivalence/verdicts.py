"""Equivalence verdicts: pure functions that judge a speculative run against target-only.

Owns the verdict definitions of ../shared/DESIGN.md and nothing else (no engine, no I/O).
What each verdict means and cannot see: VERDICTS.section.md. The functions the shadow
evaluator (and the gate) call:

- greedy: `judge_greedy(PathOutput, PathOutput, tolerance)` — every token its path's argmax,
  log-probs agree along the common prefix (silent corruption), the first flip is a
  `near_tie` only when `near_tie_proof` holds (runner-up swap + both paths' logits within
  the measured tolerance), same tokens ending differently is a `divergence`.
  `judge_external_greedy` for mirrored primaries (one-sided proof). `greedy_verdict` is the
  legacy margin-only rule (a length difference is never a tie there either).
- every judged completion: `stopping_violation` / `stopping_verdict` (EOS last, stop strings
  end at the completing token, max_tokens).
- sampled: `sampled_trace_verdict` (p(x) > 0, resampled p(x) > q(x), accepted = proposed),
  `sampled_verdict` (verifier p vs target-only p, TV), `PitWindow` (randomized PIT by
  origin, KS over tumbling windows), `recorded_observations` + `AcceptanceWindow`
  (acceptance vs Σ min(p, q) from the recorded q; Leviathan et al. 2023 §3.1).
- `speed_anomalies`: speed-only findings (never a correctness verdict).
- `support_verdict` / `trace_verdict`: the older per-token checks, kept for callers.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from guardian.core.enums import Verdict

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
    """Compare two greedy completions of the same prompt (legacy, token ids and margins only;
    the shadow evaluator and the gate use `judge_greedy`, which proves near ties).

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
    # A length difference is never a tie: the same tokens ending elsewhere is a stopping bug
    # (issue 11). Margin-only ties are the legacy rule; `judge_greedy` proves them instead.
    verdict: Verdict = ("near_tie" if first is not None and margin is not None
                        and margin < tolerance else "divergence")
    return VerdictResult(verdict, position, margin, details={
        "compared_tokens": position,
        "served_token": served_ids[position] if position < len(served_ids) else None,
        "shadow_token": shadow_ids[position] if position < len(shadow_ids) else None,
        "length_mismatch": first is None,
    })


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
    details: dict[str, Any] = {"checks": ["support", "resampled_residual"],
                               "positions": len(trace)}
    for t in trace:
        if not t.target_prob > 0.0:  # NaN included
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


# =============================================================================================
# Verdicts you can bet on (issue 11): near ties proven from both paths' logits, silent
# corruption along the common prefix, stopping, per-token sampled checks, windowed
# goodness-of-fit by origin, acceptance expectations from the recorded q, speed anomalies.
# =============================================================================================

# Checks a verdict can name in details["failed_check"].
FAILED_CHECKS = ("token_flip", "not_argmax", "logprob_disagreement", "stopping_length",
                 "stopping_finish_reason", "eos_not_last", "eos_finish_reason", "stop_string_late",
                 "stop_without_cause", "max_tokens", "support", "resampled_residual",
                 "accepted_not_proposed", "verifier_distribution", "pit_accepted", "pit_resampled",
                 "pit_bonus", "acceptance_above_expectation")


@dataclass(frozen=True, slots=True)
class PathOutput:
    """One judged completion: its tokens, its trace (TraceToken-like; may be empty) and how it
    ended. `truncated`: cut at the shadow cap before it ended by itself, so its length and
    finish reason say nothing (only tokens up to the cap are compared)."""

    token_ids: Sequence[int]
    trace: Sequence[Any] = ()
    finish_reason: str | None = None
    truncated: bool = False


def _has(t: Any, *names: str) -> bool:
    return t is not None and all(getattr(t, n, None) is not None for n in names)


def _at(trace: Sequence[Any], i: int) -> Any:
    return trace[i] if i < len(trace) else None


def near_tie_proof(a_token: int, b_token: int, a: Any, b: Any, tolerance: float
                   ) -> tuple[bool, dict[str, Any]]:
    """Is a flip (path A emitted a_token, path B b_token, at one position) a numerical tie?

    The tolerance model: the two paths compute the same logits up to a perturbation of at most
    `tolerance` on every vocabulary entry (guardian/policy/tolerance.py measures it). Each trace entry
    records its path's top two (top1_id/top2_id/top1_logit/top2_logit), so every token it does
    not record has a logit at or below its runner-up's. A flip is proven numerical when some
    full logit vectors consistent with both records differ by at most `tolerance` everywhere,
    i.e. when the smallest disagreement the records allow (`logit_disagreement_at_flip`) is
    within it: for a token both record, the gap between their logits; for a token only one
    records, how far that logit lies above the other path's runner-up (0 if below); every other
    token can be equal in both. Named by the shape of the tie:

    - `proven` (runner-up swap): each path's token is the other's runner-up;
    - `proven_three_way`: one path records both tokens, the other has a third token second
      (three tokens within the noise — measured on an H200: a one-ulp, 0.0625, flip with a
      third token in the top 2);
    - `proven_multi_way`: neither path records the other's token (a wider tie: the paths may
      share a third token, or each have its own; measured on an H100 on the large bf16
      pair: a 0.0625-margin flip whose tokens were each third or lower in the other path).

    A failed proof is `logits_disagree` for a swap and `not_runner_up_swap` otherwise, as
    before. The three-way and multi-way rules ask nothing the swap rule does not: each is the
    same consistency question on what the records show.
    """
    if not (_has(a, "top1_id", "top2_id", "top1_logit", "top2_logit")
            and _has(b, "top1_id", "top2_id", "top1_logit", "top2_logit")):
        return False, {"near_tie_proof": "unavailable"}
    own = a.top1_id == a_token and b.top1_id == b_token
    if not own:
        return False, {"near_tie_proof": "not_runner_up_swap", "runner_up_swap": False,
                       "logit_disagreement_at_flip": math.inf}
    swapped = a.top2_id == b_token and b.top2_id == a_token
    three_way = not swapped and (a.top2_id == b_token or b.top2_id == a_token)
    disagreement = min_consistent_disagreement(a, b)
    ok = disagreement <= tolerance
    if swapped:
        name = "proven" if ok else "logits_disagree"
    elif ok:
        name = "proven_three_way" if three_way else "proven_multi_way"
    else:
        name = "not_runner_up_swap"
    return ok, {"near_tie_proof": name, "runner_up_swap": swapped,
                "logit_disagreement_at_flip": disagreement}


def min_consistent_disagreement(a: Any, b: Any) -> float:
    """The smallest max |A(x) - B(x)| over full logit vectors consistent with two top-2 trace
    records at one position: a token both record contributes the gap between their logits; a
    token one records contributes how far its logit lies above the other record's runner-up
    (where the unrecorded logit can be at most); every other token contributes nothing.
    Where both records carry the emitted token's log-probability (`target_logprob`, raw,
    temperature 1), each path's log-sum-exp is top1_logit - target_logprob, and two logit
    vectors within the tolerance everywhere have log-sum-exps within it too: that gap counts
    as well (corrupted tail logits can leave the top two alike and move only the rest)."""
    values = [float(v) for v in (a.top1_logit, a.top2_logit, b.top1_logit, b.top2_logit)]
    if not all(math.isfinite(v) for v in values) or a.top1_id == a.top2_id \
            or b.top1_id == b.top2_id or values[1] > values[0] or values[3] > values[2]:
        # A NaN or infinite logit, one token recorded twice or a runner-up above the top:
        # not a record the model can be checked against, so it proves nothing.
        return math.inf
    a_rec = {a.top1_id: values[0], a.top2_id: values[1]}
    b_rec = {b.top1_id: values[2], b.top2_id: values[3]}
    a_cap, b_cap = values[1], values[3]
    gaps = [0.0]
    a_lp, b_lp = getattr(a, "target_logprob", None), getattr(b, "target_logprob", None)
    if a_lp is not None and b_lp is not None:
        lse_gap = abs((values[0] - float(a_lp)) - (values[2] - float(b_lp)))
        if not math.isfinite(lse_gap):
            return math.inf
        gaps.append(lse_gap)
    for x in a_rec.keys() | b_rec.keys():
        if x in a_rec and x in b_rec:
            gaps.append(abs(a_rec[x] - b_rec[x]))
        elif x in a_rec:
            gaps.append(max(0.0, a_rec[x] - b_cap))
        else:
            gaps.append(max(0.0, b_rec[x] - a_cap))
    return max(gaps)


def _logit_gap(a: Any, b: Any) -> float | None:
    """|A - B| of the raw logits both paths report for the same token ids at one position."""
    if not (_has(a, "top1_id", "top1_logit") and _has(b, "top1_id", "top1_logit")):
        return None
    gaps = []
    if a.top1_id == b.top1_id:
        gaps.append(abs(a.top1_logit - b.top1_logit))
    if _has(a, "top2_id", "top2_logit") and _has(b, "top2_id", "top2_logit") \
            and a.top2_id == b.top2_id:
        gaps.append(abs(a.top2_logit - b.top2_logit))
    return max(gaps) if gaps else None


def judge_greedy(spec: PathOutput, ref: PathOutput, tolerance: float) -> VerdictResult:
    """Greedy: the speculative completion against target-only, with proofs.

    1. Every emitted token is its own path's argmax (trace top1_id): else `divergence`
       (`not_argmax`) at that position.
    2. Along the common prefix the target log-probabilities of the emitted tokens agree within
       `tolerance`: else `divergence` (`logprob_disagreement`) at the first such position,
       even when no token flipped (silent corruption: wrong cache/positions that do not flip).
    3. At the first flipped token: `near_tie` only when `near_tie_proof` holds, else
       `divergence` (`token_flip`). Nothing after a flip is compared.
    4. Same tokens, different length or finish reason (neither truncated): `divergence`
       (`stopping_length` / `stopping_finish_reason`). A length difference is never a tie.
    Details always carry the measured logit and log-prob disagreement over compared positions.
    """
    a_ids, b_ids = list(spec.token_ids), list(ref.token_ids)
    common = min(len(a_ids), len(b_ids))
    max_logit = max_lp = 0.0
    details: dict[str, Any] = {"tolerance": tolerance, "checks": [
        "argmax", "logprob_agreement", "near_tie_proof", "stopping_equal"]}

    def result(verdict: Verdict, position: int | None, margin: float | None, check: str | None,
               **extra: Any) -> VerdictResult:
        details.update(extra)
        details["logit_disagreement"] = max_logit
        details["logprob_disagreement"] = max_lp
        if check:
            details["failed_check"] = check
        return VerdictResult(verdict, position, margin, details)

    for i in range(common):
        a, b = _at(spec.trace, i), _at(ref.trace, i)
        for t, tok, who in ((a, a_ids[i], "speculative"), (b, b_ids[i], "target_only")):
            if _has(t, "top1_id") and t.top1_id != tok:
                return result("divergence", i, _margin(b), "not_argmax", compared_tokens=i,
                              path=who, emitted_token=tok, argmax_token=t.top1_id)
        gap = _logit_gap(a, b)
        if gap is not None:
            max_logit = max(max_logit, gap)
        if a_ids[i] != b_ids[i]:
            ok, proof = near_tie_proof(a_ids[i], b_ids[i], a, b, tolerance)
            return result("near_tie" if ok else "divergence", i, _margin(b),
                          None if ok else "token_flip", compared_tokens=i,
                          served_token=a_ids[i], shadow_token=b_ids[i], **proof)
        if _has(a, "target_logprob") and _has(b, "target_logprob"):
            lp = abs(a.target_logprob - b.target_logprob)
            max_lp = max(max_lp, lp)
            if lp > tolerance:
                return result("divergence", i, _margin(b), "logprob_disagreement",
                              compared_tokens=i, logprob_disagreement_at=lp)
    if len(a_ids) != len(b_ids) and not (spec.truncated or ref.truncated):
        return result("divergence", common, None, "stopping_length", compared_tokens=common,
                      speculative_length=len(a_ids), target_only_length=len(b_ids),
                      length_mismatch=True)
    if (spec.finish_reason and ref.finish_reason and spec.finish_reason != ref.finish_reason
            and not (spec.truncated or ref.truncated)):
        return result("divergence", common, None, "stopping_finish_reason",
                      compared_tokens=common, speculative_finish=spec.finish_reason,
                      target_only_finish=ref.finish_reason)
    return result("match", None, None, None, compared_tokens=common)


def _margin(t: Any) -> float | None:
    m = getattr(t, "target_margin", None) if t is not None else None
    return None if m is None else float(m)


def judge_external_greedy(ids: Sequence[int], argmax_ids: Sequence[int],
                          margins: Sequence[float] | None, runner_up_ids: Sequence[int] | None,
                          tolerance: float) -> VerdictResult:
    """Greedy mirror traffic: a primary's completion against the target's teacher-forced view.

    Only the target's logits are known, so the proof is one-sided: a flip is a `near_tie`
    only when the primary's token is the target's runner-up and the target's top-2 margin is
    within 2 * tolerance (if the primary's logits were within `tolerance` of the target's,
    a flip needs exactly that). Without runner-up ids the flip is a `divergence`.
    """
    first = next((i for i, (x, y) in enumerate(zip(ids, argmax_ids, strict=False)) if x != y),
                 None)
    details: dict[str, Any] = {"compared_tokens": len(ids) if first is None else first,
                               "tolerance": tolerance, "near_tie_proof": "one_sided"}
    if first is None:
        return VerdictResult("match", None, None, details)
    margin = float(margins[first]) if margins is not None and first < len(margins) else None
    runner = runner_up_ids[first] if runner_up_ids and first < len(runner_up_ids) else None
    ok = runner is not None and runner == ids[first] and margin is not None \
        and margin <= 2 * tolerance
    details.update({"served_token": ids[first], "shadow_token": argmax_ids[first],
                    "runner_up_swap": runner == ids[first] if runner is not None else None})
    if not ok:
        details["failed_check"] = "token_flip"
        if runner is None:
            details["near_tie_proof"] = "unavailable"
    return VerdictResult("near_tie" if ok else "divergence", first, margin, details)


def stopping_violation(ids: Sequence[int], finish_reason: str | None, *,
                       eos_token_ids: Iterable[int] | None, stop: Sequence[str] | None,
                       max_tokens: int | None, decode: Callable[[Sequence[int]], str] | None
                       ) -> tuple[str, int] | None:
    """How a completion ended, checked on its own: (failed check, position) or None.

    - no more than `max_tokens` tokens;
    - EOS only as the last token, and a completion ending in EOS has finish reason `stop`;
    - a stop string ends the completion at the token that completes it: the text of all but
      the last token contains no stop string, and a `stop` finish that is not EOS has one.
    `decode` turns ids into text (EOS ids are removed first, as the engine's text skips them);
    without it the stop-string checks are skipped. Unknown EOS ids skip the EOS checks.
    """
    ids = list(ids)
    if max_tokens is not None and len(ids) > max_tokens:
        return "max_tokens", max_tokens
    eos = set(eos_token_ids or ())
    if eos:
        for i, t in enumerate(ids[:-1]):
            if t in eos:
                return "eos_not_last", i
        if ids and ids[-1] in eos and finish_reason not in (None, "stop"):
            return "eos_finish_reason", len(ids) - 1
    stops = [s for s in (stop or []) if s]
    if decode is None or not ids:
        return None

    def text(n: int) -> str:
        return decode([t for t in ids[:n] if t not in eos])

    if stops:
        def has_stop(n: int) -> bool:
            s = text(n)
            return any(x in s for x in stops)

        whole = text(len(ids))
        if "\ufffd" in whole or any("\ufffd" in x for x in stops):
            # Not monotone: bytes completing a character shorten the text, and a run of
            # byte-fallback tokens can turn into U+FFFD, so a stop string a prefix held may
            # be gone from the whole text. Every prefix, in order.
            first = next((n for n in range(1, len(ids)) if has_stop(n)), None)
            if first is not None:
                return "stop_string_late", first - 1
            if has_stop(len(ids)):
                return None
        elif has_stop(len(ids)):
            # The first prefix whose text holds a stop string (monotone: binary search).
            lo, hi = 1, len(ids)
            while lo < hi:
                mid = (lo + hi) // 2
                if has_stop(mid):
                    hi = mid
                else:
                    lo = mid + 1
            if lo < len(ids):
                return "stop_string_late", lo - 1
            return None
    if finish_reason == "stop" and not (eos and ids[-1] in eos):
        return "stop_without_cause", len(ids) - 1
    return None


def stopping_verdict(ids: Sequence[int], finish_reason: str | None, *,
                     eos_token_ids: Iterable[int] | None, stop: Sequence[str] | None,
                     max_tokens: int | None, decode: Callable[[Sequence[int]], str] | None,
                     greedy: bool = True, path: str = "") -> VerdictResult | None:
    """`stopping_violation` as a verdict (`divergence` greedy, `distribution_mismatch`
    sampled), or None when the completion ended correctly."""
    bad = stopping_violation(ids, finish_reason, eos_token_ids=eos_token_ids, stop=stop,
                             max_tokens=max_tokens, decode=decode)
    if bad is None:
        return None
    check, position = bad
    return VerdictResult("divergence" if greedy else "distribution_mismatch", position, None,
                         {"failed_check": check, "path": path, "checks": ["stopping"],
                          "finish_reason": finish_reason, "completion_tokens": len(ids)})


def sampled_trace_verdict(trace: Sequence[Any]) -> VerdictResult:
    """Per-token checks of a sampled run's trace: every emitted token has p(x) > 0; every
    resampled token p(x) > q(x) (the residual norm(max(p - q, 0)) has no mass elsewhere;
    q(x) = the recorded q of that token); an accepted token is the one proposed there."""
    details: dict[str, Any] = {"checks": ["support", "resampled_residual", "accepted_proposed"],
                               "positions": len(trace)}
    for t in trace:
        if not t.target_prob > 0.0:  # NaN included
            return VerdictResult("distribution_mismatch", t.position, None,
                                 {**details, "failed_check": "support"})
        if t.origin == "resampled" and t.draft_prob is not None and t.target_prob <= t.draft_prob:
            return VerdictResult("distribution_mismatch", t.position, None,
                                 {**details, "failed_check": "resampled_residual"})
        proposed = getattr(t, "proposed_token", None)
        if t.origin == "accepted" and proposed is not None and proposed != t.token_id:
            return VerdictResult("distribution_mismatch", t.position, None,
                                 {**details, "failed_check": "accepted_not_proposed"})
    return VerdictResult("distribution_ok", None, None, details)


# --- goodness of fit: randomized PIT by origin ----------------------------------------------
PIT_ORIGINS = ("accepted", "resampled", "bonus")


def origin_distribution(origin: str, p: torch.Tensor, q: torch.Tensor | None,
                        proposed: int | None) -> torch.Tensor | None:
    """The distribution a correct engine draws a token of this origin from, at one position:
    bonus/target ~ p; accepted ~ min(p, q) / Σ min(p, q); resampled ~ max(p - q, 0) / mass.
    q = the recorded full q, or a point mass on `proposed` when q is absent / all zero (an
    n-gram proposal). None when there is nothing to test (no mass, or an accepted point mass:
    the token is determined)."""
    p = p.float()
    if origin in ("bonus", "target"):
        return p
    point = q is None or float(q.sum()) <= 0.0
    if point:
        if proposed is None:
            return None
        if origin == "accepted":
            return None
        d = p.clone()
        d[proposed] = 0.0
    else:
        d = torch.minimum(p, q.float()) if origin == "accepted" else (p - q.float()).clamp_min(0)
    mass = float(d.sum())
    return d / mass if mass > 0 else None


def randomized_pit(d: torch.Tensor, token: int, v: float) -> float:
    """u = F(x-) + v * d(x), v ~ U(0,1): exactly U(0,1) when x ~ d (Brockwell 2007).

    F runs over tokens in order of decreasing probability under d (ties by id), so a token
    the claimed distribution finds unlikely lands near 1: a sampler drawing from the wrong
    distribution piles mass there, which the KS test sees (token-id order would scatter it).
    """
    dx = float(d[token])
    above = float(d[d > dx].sum())
    ties = int(((d == dx)[:token]).sum()) if token else 0
    return min(1.0, max(0.0, above + ties * dx + v * dx))


def ks_uniform(us: Sequence[float]) -> tuple[float, float]:
    """One-sample Kolmogorov-Smirnov against U(0,1): (D, asymptotic p-value, Stephens' form)."""
    n = len(us)
    if not n:
        return 0.0, 1.0
    xs = sorted(us)
    d = max(max((i + 1) / n - x, x - i / n) for i, x in enumerate(xs))
    lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * d
    if lam < 1e-3:
        return d, 1.0
    p = 2.0 * sum((-1) ** (k - 1) * math.exp(-2.0 * k * k * lam * lam) for k in range(1, 101))
    return d, min(1.0, max(0.0, p))


# A window per origin is tested once it holds PIT_MIN_SAMPLE values, then emptied (tumbling
# windows: the tests are independent, so the false-alarm rate per test is exactly PIT_ALPHA
# and over N tests at most N * PIT_ALPHA).
PIT_MIN_SAMPLE = 200
PIT_ALPHA = 1e-4


class PitWindow:
    """Randomized-PIT values of emitted tokens for one route and pair, split by origin; a KS
    test per origin over tumbling windows of `min_sample` values at level `alpha`."""

    def __init__(self, min_sample: int = PIT_MIN_SAMPLE, alpha: float = PIT_ALPHA,
                 seed: int = 0) -> None:
        self.min_sample, self.alpha = min_sample, alpha
        self._u: dict[str, list[float]] = {o: [] for o in PIT_ORIGINS}
        self.tests: dict[str, int] = dict.fromkeys(PIT_ORIGINS, 0)
        self._gen = torch.Generator().manual_seed(seed)

    def add(self, origins: Sequence[str], token_ids: Sequence[int], p: torch.Tensor,
            q: torch.Tensor | None, proposed: Sequence[int | None]) -> None:
        """One request's emitted tokens: p (T, V) target-only reference distributions, q (T, V)
        recorded proposal distributions (or None), proposed[i] the proposed token."""
        vs = torch.rand(len(token_ids), generator=self._gen).tolist()
        for i, (origin, tok) in enumerate(zip(origins, token_ids, strict=True)):
            key = "bonus" if origin == "target" else origin
            if key not in self._u or i >= p.shape[0]:
                continue
            d = origin_distribution(origin, p[i], None if q is None else q[i], proposed[i])
            if d is not None:
                self._u[key].append(randomized_pit(d, tok, vs[i]))

    def evaluate(self) -> dict[str, dict[str, Any]]:
        """Per origin: pass / fail / inconclusive (fewer than min_sample values so far)."""
        out: dict[str, dict[str, Any]] = {}
        for origin, us in self._u.items():
            if len(us) < self.min_sample:
                out[origin] = {"outcome": "inconclusive", "n": len(us),
                               "min_sample": self.min_sample}
                continue
            d, pval = ks_uniform(us)
            self.tests[origin] += 1
            out[origin] = {"outcome": "fail" if pval < self.alpha else "pass", "n": len(us),
                           "ks_d": d, "p_value": pval, "alpha": self.alpha}
            us.clear()
        return out


# --- acceptance from the recorded q and speed anomalies --------------------------------------
def recorded_observations(trace: Sequence[Any]) -> list[tuple[int, float]]:
    """(accepted 0/1, expected acceptance) for every judged proposal whose expectation the
    engine recorded (Σ min(p, q) with the q the proposer sampled from; never re-scored)."""
    return [(1 if t.origin == "accepted" else 0, float(t.accept_expected)) for t in trace
            if t.origin in ("accepted", "resampled")
            and getattr(t, "accept_expected", None) is not None]


def speed_anomalies(trace: Sequence[Any], *, greedy: bool,
                    window: AcceptanceWindow | None = None, z_threshold: float = 4.0,
                    rescored_q: Sequence[float] | None = None,
                    drafter_tolerance: float = 1e-3) -> dict[str, Any]:
    """Anomalies that cost speed but not correctness (never a divergence):

    - `rejected_argmax` (greedy): a proposal equal to the target's argmax was rejected;
    - `acceptance_below_expectation` (greedy windows only: the shadow evaluator judges a
      sampled window's deviation either way as a distribution mismatch): the window's
      observed acceptances are more than `z_threshold` standard deviations below Σ min(p, q)
      from the recorded q;
    - `drafter_inconsistent`: the q the drafter recorded for its proposals differs from a
      clean re-score of the same prefixes (`rescored_q[i]` = q(proposed) at trace position i)
      by more than `drafter_tolerance` (e.g. a draft cache that was never cropped).
    """
    found: dict[str, Any] = {}
    if greedy:
        bad = [t.position for t in trace if t.origin == "resampled"
               and getattr(t, "proposed_token", None) is not None
               and getattr(t, "top1_id", None) is not None and t.proposed_token == t.top1_id]
        if bad:
            found["rejected_argmax"] = {"positions": bad[:10], "count": len(bad)}
    if window is not None and len(window) >= MIN_WINDOW_FOR_ACCEPTANCE_TEST:
        s = window.summary()
        z = s["acceptance_z"]
        if z is not None and z < -z_threshold:
            found["acceptance_below_expectation"] = s
    if rescored_q is not None:
        gaps = [(t.position, abs(float(t.proposed_q) - float(rescored_q[t.position])))
                for t in trace if t.origin in ("accepted", "resampled")
                and getattr(t, "proposed_q", None) is not None and t.position < len(rescored_q)]
        worst = max(gaps, key=lambda g: g[1], default=None)
        if worst is not None and worst[1] > drafter_tolerance:
            found["drafter_inconsistent"] = {"position": worst[0], "q_gap": worst[1],
                                             "tolerance": drafter_tolerance}
    return found
