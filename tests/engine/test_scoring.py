"""Teacher-forced scoring agrees with what decoding recorded."""

from __future__ import annotations

import pytest

from engine import generate, score_draft, score_target
from tests.support.tiny_models import PROMPTS


def test_score_draft_is_the_q_a_consistent_drafter_sampled_from(close_pair) -> None:
    res = generate(close_pair, PROMPTS[1], speculative=True, max_new_tokens=24, gamma=4,
                   temperature=0.9, top_k=40, seed=11)
    q = score_draft(close_pair, res.prompt_token_ids, res.token_ids, temperature=0.9, top_k=40)
    drafted = [t for t in res.trace if t.draft_prob is not None]
    assert drafted, "no drafted token in the run"
    for t in drafted:
        # The drafter proposed a token at this position; its recorded q(x) is the teacher-
        # forced q at that prefix, for the token it actually proposed there. For accepted
        # tokens that is the emitted token.
        if t.origin == "accepted":
            assert q[t.position, t.token_id].item() == pytest.approx(t.draft_prob, rel=1e-4)
    assert score_draft(close_pair, res.prompt_token_ids, []) is None


def test_score_target_matches_the_verifier_p(close_pair) -> None:
    res = generate(close_pair, PROMPTS[2], speculative=True, max_new_tokens=16, gamma=3)
    s = score_target(close_pair, res.prompt_token_ids, res.token_ids)
    assert s.argmax_ids == res.token_ids  # greedy: every emitted token is the target's argmax
    for t, p in zip(res.trace, s.token_probs, strict=True):
        assert p == pytest.approx(t.target_prob, rel=1e-4)


def test_teacher_forced_logits_refuse_an_empty_completion(close_pair) -> None:
    """`logits_to_keep=0` keeps every prompt row in transformers: an empty completion would
    return the prompt's logits as if they were the completion's (found in review)."""
    from engine.scoring import draft_logits, target_logits

    for fn in (target_logits, draft_logits):
        with pytest.raises(ValueError, match="at least one completion token"):
            fn(close_pair, [5, 6, 7, 8], [])
        assert fn(close_pair, [5, 6, 7, 8], [9, 10]).shape[0] == 2
