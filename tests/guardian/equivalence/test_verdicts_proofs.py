"""Issue 11 verdicts: near ties proven from both paths' logits, silent corruption, stopping,
per-token sampled checks, PIT goodness-of-fit by origin, speed anomalies."""

from __future__ import annotations

import random

import pytest
import torch

from guardian.backends import TraceToken
from guardian.equivalence.verdicts import (
    AcceptanceWindow,
    PathOutput,
    PitWindow,
    judge_external_greedy,
    judge_greedy,
    ks_uniform,
    near_tie_proof,
    origin_distribution,
    randomized_pit,
    recorded_observations,
    sampled_trace_verdict,
    speed_anomalies,
    stopping_violation,
)

TOL = 1e-3


def tok(pos: int, token: int, *, top2: int = 99, l1: float = 5.0, l2: float = 3.0,
        lp: float = -0.5, origin: str = "target", proposed: int | None = None,
        p: float = 0.5, q: float | None = None, expected: float | None = None) -> TraceToken:
    return TraceToken(pos, token, origin, q, p, l1 - l2, pos, 0,  # type: ignore[arg-type]
                      top1_id=token, top2_id=top2, top1_logit=l1, top2_logit=l2,
                      target_logprob=lp, proposed_token=proposed, proposed_q=q,
                      accept_expected=expected)


def path(ids, trace, finish="length", truncated=False) -> PathOutput:
    return PathOutput(ids, trace, finish, truncated)


def test_identical_paths_match_and_record_the_disagreement() -> None:
    a = [tok(0, 5, l1=4.0), tok(1, 6, l1=2.0)]
    b = [tok(0, 5, l1=4.0 + 2e-5), tok(1, 6, l1=2.0)]
    v = judge_greedy(path([5, 6], a), path([5, 6], b), TOL)
    assert v.verdict == "match"
    assert v.details["logit_disagreement"] == pytest.approx(2e-5, rel=1e-3)
    assert "logprob_disagreement" in v.details


def test_flip_is_a_near_tie_only_when_proven() -> None:
    # A emits 5 with runner-up 9; B emits 9 with runner-up 5; logits within tolerance
    a = [tok(0, 1), tok(1, 5, top2=9, l1=3.0000, l2=2.9999)]
    b = [tok(0, 1), tok(1, 9, top2=5, l1=3.0001, l2=2.9999 + 1e-4)]
    v = judge_greedy(path([1, 5], a), path([1, 9], b), TOL)
    assert (v.verdict, v.first_divergence_position) == ("near_tie", 1)
    assert v.details["near_tie_proof"] == "proven"
    # the same flip with logits further apart than the tolerance: a divergence
    b_far = [tok(0, 1), tok(1, 9, top2=5, l1=3.01, l2=2.9999)]
    v = judge_greedy(path([1, 5], a), path([1, 9], b_far), TOL)
    assert (v.verdict, v.details["failed_check"]) == ("divergence", "token_flip")
    assert v.details["near_tie_proof"] == "logits_disagree"
    # neither path has the other's token as its runner-up, and the other's token would have
    # to sit further above this path's runner-up than the tolerance allows: a divergence
    a_other = [tok(0, 1), tok(1, 5, top2=8, l1=3.0000, l2=2.9960)]
    b_third = [tok(0, 1), tok(1, 9, top2=7, l1=3.0, l2=2.9999)]
    v = judge_greedy(path([1, 5], a_other), path([1, 9], b_third), TOL)
    assert (v.verdict, v.details["near_tie_proof"]) == ("divergence", "not_runner_up_swap")
    assert v.details["logit_disagreement_at_flip"] == pytest.approx(0.004)


def test_multi_way_tie_is_proven_only_when_consistent_with_the_tolerance() -> None:
    """Neither path records the other's token (measured on an H100, bf16: a 0.0625-margin flip
    with each token third or lower in the other path). Proven exactly when full logit vectors
    consistent with both top-2 records can lie within TOL of each other everywhere."""
    a = [tok(0, 1), tok(1, 5, top2=8, l1=3.0000, l2=2.9995)]
    b = [tok(0, 1), tok(1, 9, top2=7, l1=2.9998, l2=2.9994)]
    v = judge_greedy(path([1, 5], a), path([1, 9], b), TOL)
    assert (v.verdict, v.details["near_tie_proof"]) == ("near_tie", "proven_multi_way")
    assert v.details["runner_up_swap"] is False
    # B's logit for 5 is at most its runner-up 2.9994, A's is 3.0: at least 6e-4 apart
    assert v.details["logit_disagreement_at_flip"] == pytest.approx(6e-4)
    # A shared third token whose logits disagree across the paths: not numerical
    b_shared = [tok(0, 1), tok(1, 9, top2=8, l1=2.9998, l2=2.9970)]
    a_shared = [tok(0, 1), tok(1, 5, top2=8, l1=3.0000, l2=2.9995)]
    v = judge_greedy(path([1, 5], a_shared), path([1, 9], b_shared), TOL)
    assert (v.verdict, v.details["failed_check"]) == ("divergence", "token_flip")
    # ... and agreeing: proven
    b_shared_ok = [tok(0, 1), tok(1, 9, top2=8, l1=2.9998, l2=2.9992)]
    v = judge_greedy(path([1, 5], a_shared), path([1, 9], b_shared_ok), TOL)
    assert (v.verdict, v.details["near_tie_proof"]) == ("near_tie", "proven_multi_way")
    # A's runner-up far below B's top: A's logit for 9 is at most 2.99, B's is 3.0 -> no
    a_low = [tok(0, 1), tok(1, 5, top2=8, l1=3.0000, l2=2.9900)]
    b_hi = [tok(0, 1), tok(1, 9, top2=7, l1=3.0000, l2=2.9995)]
    v = judge_greedy(path([1, 5], a_low), path([1, 9], b_hi), TOL)
    assert v.verdict == "divergence"


def test_a_tie_must_agree_with_both_paths_log_sum_exp() -> None:
    """Logits within the tolerance everywhere have log-sum-exps within it: records whose top
    two agree but whose emitted log-probabilities say the rest of the vocabulary moved (a
    corrupted tail) prove no tie — neither a swap nor a wider one (found in review)."""
    a = [tok(0, 1), tok(1, 5, top2=9, l1=5.0, l2=5.0, lp=-0.70)]
    b = [tok(0, 1), tok(1, 9, top2=5, l1=5.0, l2=5.0, lp=-1.20)]  # lse 5.7 vs 6.2
    v = judge_greedy(path([1, 5], a), path([1, 9], b), 0.1)
    assert (v.verdict, v.details["near_tie_proof"]) == ("divergence", "logits_disagree")
    assert v.details["logit_disagreement_at_flip"] == pytest.approx(0.5)
    assert judge_greedy(path([1, 5], a), path([1, 9], b), 0.5).verdict == "near_tie"
    wide_a = [tok(0, 1), tok(1, 11, top2=33, l1=10.0, l2=9.5, lp=-0.7)]  # lse 10.7
    wide_b = [tok(0, 1), tok(1, 22, top2=44, l1=10.0, l2=9.2, lp=-3.0)]  # lse 13.0
    v = judge_greedy(path([1, 11], wide_a), path([1, 22], wide_b), 1.0)
    assert v.verdict == "divergence"
    assert judge_greedy(path([1, 11], wide_a), path([1, 22], wide_b), 2.31).verdict == "near_tie"
    # a NaN log-probability proves nothing
    nan_b = [tok(0, 1), tok(1, 9, top2=5, l1=5.0, l2=5.0, lp=float("nan"))]
    assert judge_greedy(path([1, 5], a), path([1, 9], nan_b), 1e9).verdict == "divergence"


@pytest.mark.parametrize("bad", [
    {"l1": float("nan")}, {"l2": float("nan")}, {"l1": float("inf")},
    {"l2": float("-inf")}, {"top2": 5}, {"l1": 2.9, "l2": 3.0}])
def test_a_record_the_model_cannot_check_proves_no_tie(bad) -> None:
    """NaN/infinite logits, one token recorded twice or a runner-up above the top (a hostile
    or broken trace) never make a flip a near tie, whatever the tolerance."""
    a = [tok(0, 1), tok(1, 5, **{"top2": 8, "l1": 3.0, "l2": 2.9999, **bad})]
    b = [tok(0, 1), tok(1, 9, top2=5, l1=3.0, l2=2.9999)]
    for x, y, ix, iy in ((a, b, 5, 9), (b, a, 9, 5)):
        v = judge_greedy(path([1, ix], x), path([1, iy], y), 1e9)
        assert v.verdict == "divergence", (bad, v.details)


def test_three_way_tie_is_proven_only_when_consistent_with_the_tolerance() -> None:
    """A has 9 second; B has a third token 7 second (three tokens within the noise, as bf16
    logits often are). Proven when 9's logits agree, 5 and 9 are within 2 * TOL in A, and B's
    runner-up reaches within TOL of A's logit for 5 (where B's unrecorded logit for 5 must be)."""
    a = [tok(0, 1), tok(1, 5, top2=9, l1=3.0000, l2=2.9995)]
    b = [tok(0, 1), tok(1, 9, top2=7, l1=2.9998, l2=2.9996)]
    v = judge_greedy(path([1, 5], a), path([1, 9], b), TOL)
    assert (v.verdict, v.details["near_tie_proof"]) == ("near_tie", "proven_three_way")
    assert v.details["runner_up_swap"] is False
    # the same from the other side: B holds both tokens
    v = judge_greedy(path([1, 9], [*b[:1], tok(1, 9, top2=5, l1=3.0, l2=2.9995)]),
                     path([1, 5], [*a[:1], tok(1, 5, top2=7, l1=2.9998, l2=2.9996)]), TOL)
    assert (v.verdict, v.details["near_tie_proof"]) == ("near_tie", "proven_three_way")
    # B's runner-up far below: B's logit for 5 is at most 2.5, A's is 3.0 -> not numerical
    b_far = [tok(0, 1), tok(1, 9, top2=7, l1=2.9998, l2=2.5)]
    v = judge_greedy(path([1, 5], a), path([1, 9], b_far), TOL)
    assert (v.verdict, v.details["near_tie_proof"]) == ("divergence", "not_runner_up_swap")
    # 5 and 9 further apart in A than two tolerances: no perturbation within TOL reorders them
    a_wide = [tok(0, 1), tok(1, 5, top2=9, l1=3.0030, l2=2.9998)]
    v = judge_greedy(path([1, 5], a_wide), path([1, 9], b), TOL)
    assert (v.verdict, v.details["failed_check"]) == ("divergence", "token_flip")
    # 9's logits disagree across the paths
    b_off = [tok(0, 1), tok(1, 9, top2=7, l1=2.9970, l2=2.9969)]
    v = judge_greedy(path([1, 5], a), path([1, 9], b_off), TOL)
    assert v.verdict == "divergence"


def test_flip_without_evidence_is_never_excused() -> None:
    a = [TraceToken(0, 5, "target", None, 0.5, 1e-6, 0, 0)]  # type: ignore[arg-type]
    b = [TraceToken(0, 9, "target", None, 0.5, 1e-6, 0, 0)]  # type: ignore[arg-type]
    v = judge_greedy(path([5], a), path([9], b), TOL)
    assert (v.verdict, v.details["near_tie_proof"]) == ("divergence", "unavailable")


def test_silent_corruption_is_a_divergence_without_any_flip() -> None:
    a = [tok(0, 5, lp=-0.5), tok(1, 6, lp=-0.7), tok(2, 7, lp=-0.2)]
    b = [tok(0, 5, lp=-0.5), tok(1, 6, lp=-0.9), tok(2, 7, lp=-0.2)]
    v = judge_greedy(path([5, 6, 7], a), path([5, 6, 7], b), TOL)
    assert (v.verdict, v.first_divergence_position) == ("divergence", 1)
    assert v.details["failed_check"] == "logprob_disagreement"


def test_emitted_token_that_is_not_its_paths_argmax_is_a_divergence() -> None:
    a = [tok(0, 5), TraceToken(1, 6, "accepted", 0.2, 0.1, 2.0, 1, 4, top1_id=8)]  # type: ignore[arg-type]
    b = [tok(0, 5), tok(1, 6)]
    v = judge_greedy(path([5, 6], a), path([5, 6], b), TOL)
    assert (v.verdict, v.details["failed_check"], v.first_divergence_position) == (
        "divergence", "not_argmax", 1)


def test_same_tokens_different_length_or_finish_is_a_divergence() -> None:
    a = [tok(0, 5), tok(1, 6), tok(2, 7)]
    v = judge_greedy(path([5, 6, 7], a), path([5, 6], a[:2], "stop"), TOL)
    assert (v.verdict, v.details["failed_check"], v.first_divergence_position) == (
        "divergence", "stopping_length", 2)
    v = judge_greedy(path([5, 6], a[:2], "stop"), path([5, 6], a[:2], "length"), TOL)
    assert (v.verdict, v.details["failed_check"]) == ("divergence", "stopping_finish_reason")
    # cut at the shadow cap: length and finish reason are not comparable
    v = judge_greedy(path([5, 6], a[:2], "stop", truncated=True), path([5, 6], a[:2]), TOL)
    assert v.verdict == "match"


def test_external_near_tie_is_one_sided() -> None:
    assert judge_external_greedy([1, 2], [1, 2], [3.0, 3.0], [4, 4], TOL).verdict == "match"
    v = judge_external_greedy([1, 9], [1, 2], [3.0, 1e-4], [4, 9], TOL)
    assert (v.verdict, v.first_divergence_position) == ("near_tie", 1)
    assert judge_external_greedy([1, 9], [1, 2], [3.0, 0.1], [4, 9], TOL).verdict == "divergence"
    assert judge_external_greedy([1, 8], [1, 2], [3.0, 1e-4], [4, 9], TOL).verdict == "divergence"
    assert judge_external_greedy([1, 9], [1, 2], [3.0, 1e-4], None, TOL).verdict == "divergence"


# --- stopping -------------------------------------------------------------------------------
def _decode(ids) -> str:
    return "".join(chr(ord("a") + t) for t in ids)


@pytest.mark.parametrize(("ids", "finish", "stop", "max_tokens", "expected"), [
    ([1, 2, 3], "length", [], 3, None),
    ([1, 2, 3, 4], "length", [], 3, ("max_tokens", 3)),
    ([1, 0, 3], "stop", [], 8, ("eos_not_last", 1)),
    ([1, 2, 0], "stop", [], 8, None),
    ([1, 2, 0], "length", [], 8, ("eos_finish_reason", 2)),
    ([1, 2, 3], "stop", ["cd"], 8, None),  # "bcd": the last token completes "cd"
    ([1, 2, 3, 4], "stop", ["cd"], 8, ("stop_string_late", 2)),  # one token too late
    ([1, 2, 3, 4], "length", ["bc"], 4, ("stop_string_late", 1)),
    ([1, 2, 3], "stop", ["zz"], 8, ("stop_without_cause", 2)),
])
def test_stopping_rules(ids, finish, stop, max_tokens, expected) -> None:
    assert stopping_violation(ids, finish, eos_token_ids={0}, stop=stop, max_tokens=max_tokens,
                              decode=_decode) == expected


# --- sampled per-token -------------------------------------------------------------------------
def test_sampled_trace_checks_support_residual_and_accepted_proposal() -> None:
    ok = [tok(0, 5, origin="accepted", proposed=5, p=0.4, q=0.5),
          tok(1, 6, origin="resampled", proposed=3, p=0.3, q=0.1), tok(2, 7, origin="bonus")]
    assert sampled_trace_verdict(ok).verdict == "distribution_ok"
    bad = sampled_trace_verdict([ok[0], tok(1, 6, origin="resampled", proposed=3, p=0.1, q=0.3)])
    assert bad.details["failed_check"] == "resampled_residual"
    bad = sampled_trace_verdict([tok(0, 5, origin="accepted", proposed=4, p=0.4, q=0.5)])
    assert bad.details["failed_check"] == "accepted_not_proposed"
    bad = sampled_trace_verdict([ok[0], tok(1, 6, origin="bonus", p=0.0)])
    assert (bad.details["failed_check"], bad.first_divergence_position) == ("support", 1)


def test_origin_distributions() -> None:
    p = torch.tensor([0.5, 0.3, 0.2, 0.0])
    q = torch.tensor([0.2, 0.6, 0.1, 0.1])
    assert torch.allclose(origin_distribution("bonus", p, None, None), p)
    acc = origin_distribution("accepted", p, q, 1)
    assert torch.allclose(acc, torch.tensor([0.2, 0.3, 0.1, 0.0]) / 0.6)
    res = origin_distribution("resampled", p, q, 1)
    assert torch.allclose(res, torch.tensor([0.3, 0.0, 0.1, 0.0]) / 0.4)
    # n-gram: a point mass on the proposal; the residual is p without it
    res = origin_distribution("resampled", p, torch.zeros(4), 0)
    assert torch.allclose(res, torch.tensor([0.0, 0.6, 0.4, 0.0]))
    assert origin_distribution("accepted", p, None, 0) is None


def test_randomized_pit_is_uniform_under_the_null_and_not_under_a_fault() -> None:
    rng = random.Random(1)
    d = torch.tensor([0.1, 0.6, 0.3])
    ok = [randomized_pit(d, rng.choices([0, 1, 2], [0.1, 0.6, 0.3])[0], rng.random())
          for _ in range(2000)]
    assert ks_uniform(ok)[1] > 1e-3
    wrong = [randomized_pit(d, rng.choices([0, 1, 2], [0.3, 0.4, 0.3])[0], rng.random())
             for _ in range(2000)]
    assert ks_uniform(wrong)[1] < 1e-6


def _sample_requests(window: PitWindow, n_req: int, *, fault: bool, seed: int) -> list[dict]:
    g = torch.Generator().manual_seed(seed)
    results = []
    for _ in range(n_req):
        p = torch.softmax(torch.randn(20, 12, generator=g) * 2, -1)
        q = torch.softmax(torch.randn(20, 12, generator=g) * 2, -1)
        origins, tokens, proposed = [], [], []
        for i in range(20):
            x = int(torch.multinomial(q[i], 1, generator=g))
            if float(torch.rand(1, generator=g)) < min(1.0, float(p[i, x] / q[i, x])):
                origins.append("accepted")
                tokens.append(x)
            else:
                origins.append("resampled")
                resid = (p[i] - q[i]).clamp_min(0)
                # the fault: resample from p instead of the residual
                tokens.append(int(torch.multinomial(p[i] if fault else resid, 1, generator=g)))
            proposed.append(x)
        window.add(origins, tokens, p, q, proposed)
        results.append(window.evaluate())
    return results


def test_pit_window_stays_quiet_on_a_correct_sampler_and_catches_a_wrong_residual() -> None:
    clean = _sample_requests(PitWindow(min_sample=200), 150, fault=False, seed=0)
    outcomes = [r[o]["outcome"] for r in clean for o in r]
    assert "fail" not in outcomes and "pass" in outcomes
    assert clean[0]["resampled"]["outcome"] == "inconclusive"
    faulty = _sample_requests(PitWindow(min_sample=200), 150, fault=True, seed=0)
    assert any(r["resampled"]["outcome"] == "fail" for r in faulty)


# --- acceptance and speed anomalies -----------------------------------------------------------
def test_recorded_observations_and_speed_anomalies() -> None:
    trace = [tok(0, 5, origin="accepted", proposed=5, q=0.5, expected=0.8),
             tok(1, 6, origin="resampled", proposed=3, q=0.2, expected=0.6),
             tok(2, 7, origin="bonus")]
    assert recorded_observations(trace) == [(1, 0.8), (0, 0.6)]
    # greedy: a rejected proposal that was the target's argmax costs speed only
    greedy = [tok(0, 5, origin="resampled", proposed=5)]
    assert "rejected_argmax" in speed_anomalies(greedy, greedy=True)
    w = AcceptanceWindow(1000)
    w.extend([(0, 0.9)] * 200)
    assert "acceptance_below_expectation" in speed_anomalies([], greedy=False, window=w)
    found = speed_anomalies(trace, greedy=False, rescored_q=[0.5, 0.4, 0.0])
    assert found["drafter_inconsistent"]["position"] == 1
    assert speed_anomalies(trace, greedy=False, rescored_q=[0.5, 0.2, 0.0]) == {}
    assert near_tie_proof(1, 2, None, None, TOL)[0] is False


def test_a_stop_string_a_later_byte_took_away_is_still_late() -> None:
    """With byte-fallback tokens a prefix's text can hold a stop string the whole text no
    longer has: <0xC3><0xA9> is "é", one more <0xA9> makes the run three U+FFFD. A completion
    that ran past "é" is late (binary search over the prefixes, which assumed the predicate
    monotone, called it fine); one that stopped at it is not."""
    from tests.engine.test_stopping_with_byte_fallback_tokenizers import TOK, ids

    def decode(xs):
        return TOK.decode(list(xs), skip_special_tokens=True)

    late = ids("▁hello", 0xC3, 0xA9, 0xA9, "▁x")
    assert "é" not in decode(late) and "é" in decode(late[:3])
    assert stopping_violation(late, "length", eos_token_ids=set(), stop=["é"], max_tokens=9,
                              decode=decode) == ("stop_string_late", 2)
    assert stopping_violation(late[:3], "stop", eos_token_ids=set(), stop=["é"], max_tokens=9,
                              decode=decode) is None
    # A stop string holding U+FFFD: present while a character is incomplete, gone after.
    emoji = ids("▁hello", 0xF0, 0x9F, 0x98, 0x80)
    assert stopping_violation(emoji, "length", eos_token_ids=set(), stop=["o\ufffd"],
                              max_tokens=9, decode=decode) == ("stop_string_late", 1)
