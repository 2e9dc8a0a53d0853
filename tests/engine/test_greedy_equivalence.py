"""Greedy speculative decoding must be token-identical to target-only decoding and to
transformers' own `generate(do_sample=False)` on the target — whatever the draft does."""

from __future__ import annotations

import dataclasses

import pytest
import torch

from engine import Pair, generate
from tests.support.tiny_models import PROMPTS


def hf_greedy(pair: Pair, prompt: str, max_new_tokens: int) -> list[int]:
    ids = pair.tokenizer(prompt, return_tensors="pt")["input_ids"]
    out = pair.target.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False,
                               max_new_tokens=max_new_tokens, eos_token_id=sorted(pair.eos_token_ids),
                               pad_token_id=pair.pad_token_id)
    return out[0, ids.shape[1]:].tolist()


def _check_equivalence(pair: Pair, cases: dict[str, list[int]]) -> None:
    for prompt, gammas in cases.items():
        baseline = generate(pair, prompt, speculative=False, max_new_tokens=24)
        assert baseline.token_ids == hf_greedy(pair, prompt, 24), prompt
        for gamma in gammas:
            spec = generate(pair, prompt, speculative=True, max_new_tokens=24, gamma=gamma)
            assert spec.token_ids == baseline.token_ids, (prompt, gamma)
            assert spec.text == baseline.text
            assert spec.finish_reason == baseline.finish_reason


@pytest.mark.parametrize("which", ["llama_pair", "close_pair", "self_pair"])
def test_speculative_matches_target_only_and_transformers(which, request):
    """Every prompt, every gamma in 1..8 (each prompt sees two gammas; the slow test does all)."""
    cases = {p: [1 + i % 8, 1 + (i + 4) % 8] for i, p in enumerate(PROMPTS)}
    _check_equivalence(request.getfixturevalue(which), cases)


@pytest.mark.slow
@pytest.mark.parametrize("which", ["llama_pair", "close_pair", "self_pair"])
def test_speculative_equivalence_full_sweep(which, request):
    _check_equivalence(request.getfixturevalue(which), {p: list(range(1, 9)) for p in PROMPTS})


def test_acceptance_paths_are_exercised(self_pair, close_pair, llama_pair):
    """The fixtures really cover full, partial and (almost) no acceptance."""
    full = generate(self_pair, PROMPTS[0], speculative=True, max_new_tokens=30, gamma=4)
    assert full.stats.acceptance_rate == full.stats.alpha == 1.0
    assert {t.origin for t in full.trace} == {"accepted", "bonus"}
    assert full.stats.mean_acceptance_length == pytest.approx(5.0)
    # alpha (accepted / judged) is the per-token acceptance estimate; acceptance_rate
    # (accepted / proposed, vLLM) also counts proposals discarded after a rejection.
    partial = generate(close_pair, PROMPTS[0], speculative=True, max_new_tokens=60, gamma=4)
    assert 0.2 < partial.stats.alpha < 1.0
    assert partial.stats.acceptance_rate < partial.stats.alpha
    assert {"accepted", "resampled"} <= {t.origin for t in partial.trace}
    none = generate(llama_pair, PROMPTS[0], speculative=True, max_new_tokens=30, gamma=4)
    assert none.stats.alpha < 0.3


@pytest.mark.parametrize("arch", ["gpt2", "qwen2"])
def test_other_architectures(arch, load):
    for draft in (f"{arch}-draft", f"{arch}-close", f"{arch}-target"):
        pair = load(draft, f"{arch}-target")
        for prompt in PROMPTS[:4]:
            baseline = generate(pair, prompt, speculative=False, max_new_tokens=20)
            assert baseline.token_ids == hf_greedy(pair, prompt, 20)
            for gamma in (1, 3, 6):
                spec = generate(pair, prompt, speculative=True, max_new_tokens=20, gamma=gamma)
                assert spec.token_ids == baseline.token_ids, (draft, prompt, gamma)
        singles = [generate(pair, p, speculative=False, max_new_tokens=12) for p in PROMPTS]
        batch = generate(pair, PROMPTS, speculative=True, max_new_tokens=12, gamma=3)
        assert [r.token_ids for r in batch] == [s.token_ids for s in singles], draft


@pytest.mark.parametrize("which", ["llama_pair", "close_pair", "self_pair"])
def test_batches_with_padding_match_single_prompts(which, request):
    pair = request.getfixturevalue(which)
    singles = [generate(pair, p, speculative=False, max_new_tokens=16) for p in PROMPTS]
    for speculative in (False, True):
        for gamma in (1, 4, 7):
            batch = generate(pair, PROMPTS, speculative=speculative, max_new_tokens=16,
                             gamma=gamma)
            assert [r.token_ids for r in batch] == [s.token_ids for s in singles], gamma
            assert [r.prompt_token_ids for r in batch] == [s.prompt_token_ids for s in singles]


def _with_eos(pair: Pair, token_id: int) -> Pair:
    return dataclasses.replace(pair, eos_token_ids={token_id})


@pytest.mark.parametrize("which", ["self_pair", "close_pair"])
def test_eos_inside_a_draft_block(which, request):
    """Declare a token the target emits mid-completion as EOS: both modes stop right there."""
    pair = request.getfixturevalue(which)
    for prompt in PROMPTS[:4]:
        free = generate(pair, prompt, speculative=False, max_new_tokens=30)
        for cut in (2, 5, 9):
            eos = free.token_ids[cut]
            first = free.token_ids.index(eos)
            eos_pair = _with_eos(pair, eos)
            baseline = generate(eos_pair, prompt, speculative=False, max_new_tokens=30)
            assert baseline.token_ids == free.token_ids[:first + 1]
            assert baseline.finish_reason == "stop"
            for gamma in (3, 5, 8):
                spec = generate(eos_pair, prompt, speculative=True, max_new_tokens=30,
                                gamma=gamma)
                assert spec.token_ids == baseline.token_ids
                assert spec.finish_reason == "stop"
                assert spec.text == baseline.text


def test_stop_sequences(self_pair, close_pair):
    for pair in (self_pair, close_pair):
        for prompt in PROMPTS[:4]:
            free = generate(pair, prompt, speculative=False, max_new_tokens=30)
            stop = free.text[7:10]  # a 3-character string that certainly occurs
            assert stop
            baseline = generate(pair, prompt, speculative=False, max_new_tokens=30, stop=[stop])
            assert baseline.finish_reason == "stop"
            assert baseline.text == free.text[:free.text.index(stop)]
            assert stop not in baseline.text
            for gamma in (2, 4, 8):
                spec = generate(pair, prompt, speculative=True, max_new_tokens=30, gamma=gamma,
                                stop=[stop, "never-emitted"])
                assert (spec.token_ids, spec.text, spec.finish_reason) == (
                    baseline.token_ids, baseline.text, baseline.finish_reason)


def test_max_new_tokens_inside_a_block(self_pair, close_pair):
    for pair in (self_pair, close_pair):
        free = generate(pair, PROMPTS[1], speculative=False, max_new_tokens=40)
        for limit in (1, 2, 3, 7, 13):
            for gamma in (4, 8):
                spec = generate(pair, PROMPTS[1], speculative=True, max_new_tokens=limit,
                                gamma=gamma)
                assert spec.token_ids == free.token_ids[:limit]
                assert spec.finish_reason == "length"
                assert spec.stats.completion_tokens == limit


def test_context_window_limit(self_pair):
    """A completion that runs into max_context ends with 'length' at the same token."""
    pair = dataclasses.replace(self_pair, max_context=20)
    prompt = PROMPTS[0]
    baseline = generate(pair, prompt, speculative=False, max_new_tokens=100)
    spec = generate(pair, prompt, speculative=True, max_new_tokens=100, gamma=6)
    n_prompt = len(baseline.prompt_token_ids)
    assert len(baseline.token_ids) == 20 - n_prompt
    assert spec.token_ids == baseline.token_ids
    assert spec.finish_reason == baseline.finish_reason == "length"


@pytest.mark.parametrize("strategy", ["heuristic", "goodput"])
def test_adaptive_gamma_is_lossless(close_pair, strategy):
    for prompt in PROMPTS[:4]:
        baseline = generate(close_pair, prompt, speculative=False, max_new_tokens=40)
        spec = generate(close_pair, prompt, speculative=True, max_new_tokens=40, gamma=2,
                        gamma_strategy=strategy, gamma_max=6)
        assert spec.token_ids == baseline.token_ids
        # gamma 0 only where a single token was left to emit (nothing worth drafting)
        assert all(1 <= t.gamma <= 6 or t.position == 39 for t in spec.trace)
        assert len({t.gamma for t in spec.trace}) > 1


def test_trace_contract(close_pair):
    result = generate(close_pair, PROMPTS[2], speculative=True, max_new_tokens=40, gamma=4,
                      record_distributions=True)
    assert [t.position for t in result.trace] == list(range(len(result.token_ids)))
    assert [t.token_id for t in result.trace] == result.token_ids
    stats = result.stats
    assert stats.steps == len({t.step for t in result.trace})
    assert stats.accepted == sum(t.origin == "accepted" for t in result.trace)
    assert sum(stats.accepted_per_position) == stats.accepted
    assert sum(stats.drafted_per_position) == stats.judged_tokens
    # every step emitted at least one token, so the trace names every step's gamma
    assert stats.proposed_tokens == sum({t.step: t.gamma for t in result.trace}.values())
    assert stats.proposed_tokens >= stats.judged_tokens >= stats.accepted
    assert stats.target_forwards == stats.steps + 1  # + prefill
    for t in result.trace:
        assert (t.draft_prob is None) == (t.origin == "bonus")
        assert 0.0 < t.target_prob <= 1.0 and t.target_margin >= 0.0
        # greedy: every emitted token is the target's argmax
    dists = result.target_distributions
    assert dists is not None and dists.shape == (len(result.token_ids), len(close_pair.tokenizer))
    assert dists.argmax(dim=-1).tolist() == result.token_ids
    picked = dists[torch.arange(len(result.token_ids)), result.token_ids]
    assert picked.tolist() == pytest.approx([t.target_prob for t in result.trace], rel=1e-4)
    baseline = generate(close_pair, PROMPTS[2], speculative=False, max_new_tokens=40,
                        record_distributions=True)
    assert all(t.origin == "target" and t.draft_prob is None for t in baseline.trace)
    assert torch.allclose(baseline.target_distributions, dists, atol=1e-5)
    assert baseline.stats.steps == len(baseline.token_ids) - 1
