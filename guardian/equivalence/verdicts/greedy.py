"""Greedy verdicts: `judge_greedy` (every token its path's argmax, log-probs agreeing along the
common prefix, a first flip a `near_tie` only when `near_tie_proof` holds), `judge_external_greedy`
for mirrored primaries (one-sided proof), and the legacy margin-only `greedy_verdict`."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from guardian.core.enums import Verdict
from guardian.equivalence.verdicts.result import PathOutput, VerdictResult, _at, _has, _margin


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


def _shown_gap(a: Any, b: Any) -> float | None:
    """|log p_a(x) - log p_b(x)| of the probabilities both records report for the emitted
    token (what a client's `logprobs` shows), where both are positive and finite."""
    pa, pb = getattr(a, "target_prob", None), getattr(b, "target_prob", None)
    if not (isinstance(pa, float | int) and isinstance(pb, float | int)):
        return None
    if not (0.0 < pa <= 1.0 and 0.0 < pb <= 1.0):
        return None
    return abs(math.log(pa) - math.log(pb))


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
       even when no token flipped (silent corruption: wrong cache/positions that do not flip);
       so do the log-probabilities a client is shown (log `target_prob`, where both paths
       report one): else `divergence` (`reported_logprob`: a zeroed or constant logprob).
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
        shown = _shown_gap(a, b)
        if shown is not None and shown > tolerance:
            return result("divergence", i, _margin(b), "reported_logprob", compared_tokens=i,
                          reported_logprob_disagreement_at=shown)
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
