"""The trace's evidence fields (engine/trace.py): top-2 ids and raw logits, log-probabilities,
the proposal and its recorded q, the acceptance expectation — checked against independent
forwards of the target and against the proposer's own distributions."""

from __future__ import annotations

import math

import pytest
import torch

from engine import generate, score_target
from tests.support.tiny_models import PROMPTS


def _raw_logits(pair, prompt_ids, completion_ids) -> torch.Tensor:
    ids = torch.tensor([prompt_ids + completion_ids[:-1]])
    with torch.inference_mode():
        out = pair.target(input_ids=ids, logits_to_keep=len(completion_ids))
    return out.logits[0].float()


@pytest.mark.parametrize("speculative", [False, True])
@pytest.mark.parametrize("temperature", [0.0, 0.9])
def test_top2_and_logprob_match_a_teacher_forced_forward(close_pair, speculative, temperature):
    res = generate(close_pair, PROMPTS[0], speculative=speculative, max_new_tokens=24,
                   temperature=temperature, seed=3, gamma=3)
    logits = _raw_logits(close_pair, res.prompt_token_ids, res.token_ids)
    top = torch.topk(logits, 2, dim=-1)
    logprobs = torch.log_softmax(logits, dim=-1)
    for t in res.trace:
        assert t.top1_id == int(top.indices[t.position, 0])
        assert t.top2_id == int(top.indices[t.position, 1])
        assert t.top1_logit == pytest.approx(float(top.values[t.position, 0]), abs=1e-4)
        assert t.top2_logit == pytest.approx(float(top.values[t.position, 1]), abs=1e-4)
        assert t.target_logprob == pytest.approx(float(logprobs[t.position, t.token_id]), abs=1e-4)
        assert t.top1_logit - t.top2_logit == pytest.approx(t.target_margin, abs=1e-5)
        if not speculative:
            assert t.proposed_token is None and t.accept_expected is None


def test_rejected_proposal_is_recorded(close_pair):
    res = generate(close_pair, PROMPTS[0], speculative=True, max_new_tokens=60, gamma=4)
    resampled = [t for t in res.trace if t.origin == "resampled"]
    assert resampled, "the close pair should reject some proposals"
    for t in res.trace:
        if t.origin == "accepted":
            assert t.proposed_token == t.token_id
        elif t.origin == "resampled":
            # greedy: a rejected proposal is never the target's argmax, which is what's emitted
            assert t.proposed_token is not None and t.proposed_token != t.token_id
        else:
            assert t.proposed_token is None and t.proposed_q is None
        if t.origin != "bonus":
            assert 0.0 < t.proposed_q <= 1.0
            assert t.accept_expected is None  # greedy: acceptance is deterministic


def test_sampled_expectation_uses_the_recorded_q(close_pair):
    """Σ min(p, q) with the q the drafter sampled from: recompute it from the recorded
    distributions (p = verifier's, q = recorded) and compare."""
    res = generate(close_pair, PROMPTS[1], speculative=True, max_new_tokens=40, gamma=3,
                   temperature=0.8, top_k=40, seed=5, record_distributions=True)
    p, q = res.target_distributions, res.draft_distributions
    assert q is not None and q.shape == p.shape
    judged = 0
    for t in res.trace:
        if t.origin == "bonus":
            assert t.accept_expected is None and float(q[t.position].sum()) == 0.0
            continue
        judged += 1
        assert float(q[t.position].sum()) == pytest.approx(1.0, abs=1e-4)
        assert t.accept_expected == pytest.approx(
            float(torch.minimum(p[t.position], q[t.position]).sum()), abs=1e-5)
        assert t.proposed_q == pytest.approx(float(q[t.position, t.proposed_token]), abs=1e-6)
        assert t.draft_prob == pytest.approx(float(q[t.position, t.token_id]), abs=1e-6)
    assert judged > 5


def test_ngram_expectation_is_p_of_the_proposal(close_pair):
    prompt = "the quick brown fox. the quick brown fox. the quick"
    res = generate(close_pair, prompt, speculative=True, max_new_tokens=40, gamma=3,
                   temperature=1.0, seed=2, proposer="ngram", record_distributions=True)
    p = res.target_distributions
    judged = [t for t in res.trace if t.origin in ("accepted", "resampled")]
    assert judged
    for t in judged:
        assert t.proposed_q == 1.0
        assert t.accept_expected == pytest.approx(float(p[t.position, t.proposed_token]), abs=1e-6)


def test_scoring_reports_runner_up(close_pair):
    res = generate(close_pair, PROMPTS[2], speculative=False, max_new_tokens=12)
    score = score_target(close_pair, res.prompt_token_ids, res.token_ids)
    assert score.runner_up_ids == [t.top2_id for t in res.trace]
    for lp, t in zip(score.logprobs, res.trace, strict=True):
        assert math.isclose(lp, t.target_logprob, abs_tol=1e-4)
