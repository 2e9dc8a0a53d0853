"""Public API behaviour: streaming, chat prompts, scoring, and errors a caller can fix."""

from __future__ import annotations

import pytest
import torch

from engine import chat_prompt, generate, score_target
from tests.support.tiny_models import PROMPTS


def _stream(pair, prompt, **kwargs):
    deltas, tokens = [], []
    result = generate(pair, prompt, on_text=lambda d, t: (deltas.append(d), tokens.extend(t)),
                      **kwargs)
    return result, deltas, tokens


@pytest.mark.parametrize("speculative", [False, True])
def test_streamed_text_adds_up_to_the_result(close_pair, speculative):
    result, deltas, tokens = _stream(close_pair, PROMPTS[0], speculative=speculative,
                                     max_new_tokens=30)
    assert "".join(deltas) == result.text
    assert [t.token_id for t in tokens] == result.token_ids
    assert len(deltas) > 1  # streamed as it went, not all at the end


@pytest.mark.parametrize("speculative", [False, True])
def test_stream_never_releases_text_a_stop_string_cuts(self_pair, speculative):
    free = generate(self_pair, PROMPTS[2], speculative=False, max_new_tokens=30)
    stop = free.text[10:14]
    result, deltas, _ = _stream(self_pair, PROMPTS[2], speculative=speculative,
                                max_new_tokens=30, stop=[stop])
    assert result.finish_reason == "stop"
    assert "".join(deltas) == result.text == free.text[:free.text.index(stop)]
    released = ""
    for d in deltas:
        released += d
        assert result.text.startswith(released)


def test_chat_prompt_renders_the_template(close_pair):
    text = chat_prompt(close_pair, [{"role": "user", "content": "hi"}])
    assert text == "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"
    result = generate(close_pair, text, speculative=True, max_new_tokens=5)
    assert result.prompt_token_ids == close_pair.tokenizer(text)["input_ids"]


def test_token_id_prompts_equal_text_prompts(close_pair):
    text = generate(close_pair, PROMPTS[3], speculative=True, max_new_tokens=10)
    ids = generate(close_pair, text.prompt_token_ids, speculative=True, max_new_tokens=10)
    assert ids.token_ids == text.token_ids
    batch = generate(close_pair, [text.prompt_token_ids], speculative=True, max_new_tokens=10)
    assert isinstance(batch, list) and batch[0].token_ids == text.token_ids


def test_score_target_agrees_with_greedy_decoding(close_pair):
    res = generate(close_pair, PROMPTS[4], speculative=False, max_new_tokens=15,
                   record_distributions=True)
    score = score_target(close_pair, res.prompt_token_ids, res.token_ids)
    assert score.argmax_ids == res.token_ids
    assert score.distributions.shape == (15, len(close_pair.tokenizer))
    assert score.distributions.dtype == torch.float32
    assert torch.allclose(score.distributions, res.target_distributions, atol=1e-5)
    assert score.margins == pytest.approx([t.target_margin for t in res.trace], abs=1e-4)


@pytest.mark.parametrize("kwargs,match", [
    (dict(max_new_tokens=0), "max_new_tokens"),
    (dict(max_new_tokens=5, temperature=-1.0), "temperature"),
    (dict(max_new_tokens=5, top_k=-2), "top_k"),
    (dict(max_new_tokens=5, gamma=0), "gamma"),
    (dict(max_new_tokens=5, gamma_strategy="magic"), "gamma_strategy"),
    (dict(max_new_tokens=5, alternatives=-1), "alternatives"),
])
def test_bad_arguments_say_what_is_wrong(close_pair, kwargs, match):
    with pytest.raises(ValueError, match=match):
        generate(close_pair, "hello", speculative=True, **kwargs)


def test_bad_prompts_say_what_is_wrong(close_pair):
    with pytest.raises(ValueError, match="empty"):
        generate(close_pair, [], speculative=False, max_new_tokens=3)
    with pytest.raises(ValueError, match="outside the vocabulary"):
        generate(close_pair, [1, 99999], speculative=False, max_new_tokens=3)
    with pytest.raises(ValueError, match="context window"):
        generate(close_pair, [5] * 300, speculative=True, max_new_tokens=3)
    with pytest.raises(ValueError, match="single prompt"):
        generate(close_pair, ["a", "b"], speculative=True, max_new_tokens=3,
                 on_text=lambda d, t: None)


@pytest.mark.parametrize("speculative", [False, True])
def test_prefill_time_is_part_of_the_forward_time(close_pair, speculative):
    """prefill_time_s: the prompt forwards only, inside draft + verify time, below the total."""
    res = generate(close_pair, PROMPTS[1], speculative=speculative, max_new_tokens=12, gamma=3)
    st = res.stats
    assert 0.0 < st.prefill_time_s <= st.draft_time_s + st.verify_time_s <= st.total_time_s
    if not speculative:  # target-only: the prefill forward is the first of target_forwards
        assert st.prefill_time_s < st.verify_time_s


@pytest.mark.parametrize("speculative", [False, True])
@pytest.mark.parametrize("temperature", [0.0, 0.8])
def test_alternatives_are_the_choosing_distributions_top_k(close_pair, speculative,
                                                           temperature):
    """`alternatives=k` on the one-at-a-time engine: each emitted token carries the top-k of
    the processed target distribution it was chosen from, taken from the forward that chose
    it, in a batch of prompts of different lengths (left padding) — equal to a teacher-forced
    forward's top-k over the same completion (the distribution is a function of the prefix)."""
    prompts, k = [PROMPTS[0], PROMPTS[7]], 4  # 5 and 12 tokens or so: padded rows
    results = generate(close_pair, prompts, speculative=speculative, max_new_tokens=10,
                       temperature=temperature, top_p=0.9 if temperature else 1.0, seed=5,
                       alternatives=k)
    plain = generate(close_pair, prompts, speculative=speculative, max_new_tokens=10,
                     temperature=temperature, top_p=0.9 if temperature else 1.0, seed=5)
    for res, same in zip(results, plain, strict=True):
        assert res.token_ids == same.token_ids  # asking for them changes no token
        assert all(t.alternatives is None for t in same.trace)
        ref = score_target(close_pair, res.prompt_token_ids, res.token_ids,
                           temperature=temperature, top_p=0.9 if temperature else 1.0
                           ).distributions
        values, ids = torch.topk(ref, k, dim=-1)
        for t, vs, ix in zip(res.trace, values.tolist(), ids.tolist(), strict=True):
            assert t.alternatives is not None and len(t.alternatives) == k
            assert [q for _, q in t.alternatives] == pytest.approx(vs, abs=1e-4)
            strict = [j for j in range(k) if all(abs(vs[j] - v) > 1e-5
                                                 for m, v in enumerate(vs) if m != j)]
            assert [t.alternatives[j][0] for j in strict] == [ix[j] for j in strict]
            if temperature == 0.0:
                assert t.alternatives[0][0] == t.token_id
