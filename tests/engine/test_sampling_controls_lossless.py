"""Penalties, min_p and logit_bias with speculation on: applied identically on the draft and
verify paths at every position (a block's earlier drafts count toward later positions), so
greedy output is token-identical to target-only, sampled output is distributed as
target-only, under one-at-a-time and continuous batching with mixed parameters."""

from __future__ import annotations

import math

import pytest
import torch
from scipy import stats

from engine import generate, score_target
from engine.continuous import ContinuousEngine, Sequence, SequenceRequest
from engine.controllers import make_controller
from engine.controls import History, adjust_rows
from engine.proposers import ProposerConfig
from engine.sampling import SamplingParams, process_logits
from tests.support.tiny_models import PROMPTS

CONTROLS = [
    {"presence_penalty": 1.5},
    {"frequency_penalty": 1.0},
    {"repetition_penalty": 1.8},
    {"logit_bias": ((5, 8.0), (40, -100.0))},
    {"presence_penalty": 0.8, "frequency_penalty": 0.6, "repetition_penalty": 1.3,
     "logit_bias": ((7, 3.0),)},
]


def _reference(logits: torch.Tensor, prompt: list[int], output: list[int],
               c: dict) -> torch.Tensor:
    """The controls by hand, one token at a time (Python loops, no engine code)."""
    out = logits.double().clone()
    for tok, bias in c.get("logit_bias", ()):
        out[tok] += bias
    r = c.get("repetition_penalty", 1.0)
    for tok in set(prompt) | set(output):
        out[tok] = out[tok] / r if out[tok] > 0 else out[tok] * r
    for tok in set(output):
        out[tok] -= c.get("frequency_penalty", 0.0) * output.count(tok)
        out[tok] -= c.get("presence_penalty", 0.0)
    return out


@pytest.mark.parametrize("c", CONTROLS)
def test_controls_match_a_hand_computation_at_every_block_position(c):
    """A block of 4 positions judged at once equals each position with its own history
    (prompt + output + the block's earlier tokens), computed by hand."""
    torch.manual_seed(0)
    vocab, prompt, output, block = 50, [3, 4, 4, 9], [7, 7, 2], [7, 11, 2]
    logits = torch.randn(1, 4, vocab) * 3
    params = SamplingParams(temperature=1.0, **c)
    history = History.of_lists([prompt], [output], vocab, "cpu")
    got = adjust_rows(logits, params, history, torch.tensor([block]))
    for t in range(4):
        want = _reference(logits[0, t], prompt, output + block[:t], c)
        torch.testing.assert_close(got[0, t].double(), want, rtol=0, atol=1e-5)
    # the padded-batch form (engine.batch) agrees with the ragged one
    tokens = torch.tensor([[0, 0, *prompt, *output]])  # two pad columns
    padded = History.of(tokens, 6, vocab, torch.tensor([[2]]))
    torch.testing.assert_close(padded.counts, history.counts)
    assert torch.equal(padded.in_prompt, history.in_prompt)


def test_min_p_drops_what_is_below_its_share_of_the_top_token():
    logits = torch.log(torch.tensor([[0.5, 0.3, 0.12, 0.08]]))
    p = process_logits(logits, SamplingParams(temperature=1.0, min_p=0.2))  # floor 0.1
    assert p[0, 3] == 0 and p[0, 2] > 0
    torch.testing.assert_close(p.sum(), torch.tensor(1.0))


def _target_only_reference(pair, prompt: list[int], n: int, c: dict) -> list[int]:
    """Greedy target-only decoding with the controls applied by hand, full forward per token."""
    out: list[int] = []
    with torch.inference_mode():
        for _ in range(n):
            logits = pair.target(torch.tensor([prompt + out])).logits[0, -1]
            tok = int(_reference(logits, prompt, out, c).argmax())
            out.append(tok)
            if tok in pair.eos_token_ids:
                break
    return out


@pytest.mark.parametrize("c", CONTROLS)
def test_greedy_speculative_equals_target_only_and_the_hand_reference(close_pair, c):
    changed = 0
    for prompt in PROMPTS[:5]:
        kw = dict(max_new_tokens=24, controls=c)
        ref = generate(close_pair, prompt, speculative=False, **kw)
        plain = generate(close_pair, prompt, speculative=False, max_new_tokens=24)
        changed += ref.token_ids != plain.token_ids
        hand = _target_only_reference(close_pair, ref.prompt_token_ids, 24, c)
        assert ref.token_ids == hand[:len(ref.token_ids)], prompt
        for proposer in ("draft_model", "ngram"):
            spec = generate(close_pair, prompt, speculative=True, gamma=4, proposer=proposer,
                            **kw)
            assert spec.token_ids == ref.token_ids, (prompt, proposer)
            # speculation stayed on (prompt lookup proposes only where the text repeats)
            assert spec.stats.proposed_tokens > 0 or proposer == "ngram"
    assert changed  # the controls are not a no-op on these prompts


def test_a_self_draft_accepts_every_token_under_penalties(self_pair):
    """draft == target: if the draft built q with the same counts as the verifier's p (its
    own earlier drafts included), every draft token is accepted, greedy and sampled."""
    c = CONTROLS[-1]
    for temperature in (0.0, 1.0):
        for prompt in PROMPTS[:4]:
            r = generate(self_pair, prompt, speculative=True, gamma=4, max_new_tokens=20,
                         temperature=temperature, seed=3, controls=c)
            assert r.stats.proposed_tokens > 0
            assert r.stats.accepted == r.stats.judged_tokens, (prompt, temperature)
    # ... and in a continuous batch, each row's drafts judged with its own history
    reqs = [_req(self_pair, p, speculative=True, c=c, temperature=t, seed=k, gamma=4,
                 max_new=20) for k, p in enumerate(PROMPTS[:4]) for t in (0.0, 1.0)]
    eng = ContinuousEngine(self_pair)
    seqs = eng.join([Sequence(self_pair, r) for r in reqs])
    while eng.size:
        eng.step()
    for seq in seqs:
        assert seq.error is None and seq.stats.proposed_tokens > 0
        assert seq.stats.accepted == seq.stats.judged_tokens


def _g_test(observed: torch.Tensor, expected: torch.Tensor) -> float:
    keep = expected >= 5
    obs = torch.cat([observed[keep], observed[~keep].sum().view(1)])
    exp = torch.cat([expected[keep], expected[~keep].sum().view(1)])
    if exp[-1] < 5:
        obs, exp = obs[:-1], exp[:-1]
    exp = exp / exp.sum() * obs.sum()
    return float(stats.power_divergence(obs.numpy(), exp.numpy(),
                                        lambda_="log-likelihood").pvalue)


def test_sampled_pairs_of_tokens_follow_the_penalised_target(close_pair):
    """4000 rows of one prompt in a continuous batch (each row commits its own accepted
    count), 2 tokens each from one draft-and-verify step where x1 is accepted: the joint
    law of (x1, x2) matches p(x1) p(x2 | x1) of target-only decoding under the same
    penalties, computed by hand (G-test, p > 1e-4), and x2 == x1 as often as the penalty
    allows. A verifier that left the block's first draft out of the second position's
    counts fails both."""
    c = {"presence_penalty": -2.0, "frequency_penalty": -1.0, "repetition_penalty": 1.2}
    prompt = PROMPTS[1]
    params = dict(temperature=1.0, top_k=12)
    torch.manual_seed(99)  # unseeded rows draw from torch's global generator
    rows = []
    for _ in range(20):
        eng = ContinuousEngine(close_pair)
        seqs = eng.join([Sequence(close_pair, _req(close_pair, prompt, speculative=True,
                                                   c=c, temperature=1.0, top_k=12, max_new=2,
                                                   gamma=3))
                         for _ in range(200)])
        while eng.size:
            eng.step()
        rows += [s.completion for s in seqs]
    prompt_ids = list(close_pair.tokenizer(prompt, add_special_tokens=True)["input_ids"])
    # most pairs came from one step: x1 accepted, x2 the bonus judged with x1 in its counts
    assert sum(len(r.trace) == 2 and r.trace[0].step == r.trace[1].step for r in rows) > 1000
    sp = SamplingParams(**params)

    def p_next(output: list[int]) -> torch.Tensor:  # by hand: full forward, _reference
        with torch.inference_mode():
            logits = close_pair.target(torch.tensor([prompt_ids + output])).logits[0, -1]
        return process_logits(_reference(logits, prompt_ids, output, c).float(), sp)

    p1 = p_next([])
    torch.testing.assert_close(  # the engine's teacher-forced scoring agrees
        score_target(close_pair, prompt_ids, [0], controls=c, **params).distributions[0], p1)
    pairs: dict[tuple[int, int], int] = {}
    for r in rows:
        key = (r.token_ids[0], r.token_ids[1] if len(r.token_ids) > 1 else -1)
        pairs[key] = pairs.get(key, 0) + 1
    firsts = sorted({a for a, _ in pairs})
    cond = {a: p_next([a]) for a in firsts}
    cells = [(a, b) for a in firsts for b in range(p1.numel()) if cond[a][b] > 0]
    expected = torch.tensor([float(p1[a] * cond[a][b]) for a, b in cells]) * len(rows)
    observed = torch.tensor([float(pairs.get(cell, 0)) for cell in cells])
    assert observed.sum() == sum(v for (a, b), v in pairs.items() if b >= 0), \
        "a pair the penalised target gives probability 0 was sampled"
    assert _g_test(observed.double(), expected.double()) > 1e-4
    same = sum(v for (a, b), v in pairs.items() if a == b)
    want = sum(float(p1[a] * cond[a][a]) for a in firsts) * len(rows)
    assert abs(same - want) < 4 * math.sqrt(max(want, 1)) + 5, (same, want)


def _req(pair, prompt: str, *, speculative: bool, c: dict, temperature: float = 0.0,
         seed: int | None = None, proposer: str = "draft_model", gamma: int = 3,
         max_new: int = 14, top_k: int = 0) -> SequenceRequest:
    return SequenceRequest(
        prompt=list(pair.tokenizer(prompt, add_special_tokens=True)["input_ids"]),
        params=SamplingParams(temperature=temperature, top_k=top_k, **c),
        max_new_tokens=max_new,
        speculative=speculative, proposer=ProposerConfig(proposer),
        controller=make_controller("constant", gamma, 8) if speculative else None,
        generator=None if seed is None else torch.Generator().manual_seed(seed))


def _run(pair, reqs: list[SequenceRequest]) -> list[list[int]]:
    eng = ContinuousEngine(pair)
    seqs = []
    for r in reqs:  # one joins every step: the batch keeps changing
        seqs.append(eng.add(r))
        eng.step()
        assert all(s.error is None for s in seqs), [s.error for s in seqs]
    while eng.size:
        eng.step()
    return [s.completion.token_ids for s in seqs]


def test_continuous_batch_with_mixed_controls_equals_target_only_and_alone(close_pair):
    """Rows of one batch with different controls (and none), proposers and paths: greedy
    rows equal target-only decoding of the same request; seeded sampled rows draw what they
    draw alone."""
    mixed = [CONTROLS[k % len(CONTROLS)] if k % 3 else {} for k in range(len(PROMPTS))]
    greedy = [_req(close_pair, p, speculative=k % 2 == 0, c=mixed[k],
                   proposer="ngram" if k % 4 == 2 else "draft_model")
              for k, p in enumerate(PROMPTS)]
    batched = _run(close_pair, greedy)
    for k, prompt in enumerate(PROMPTS):
        alone = generate(close_pair, prompt, speculative=False, max_new_tokens=14,
                         controls=mixed[k])
        assert batched[k] == alone.token_ids, (prompt, mixed[k])

    def sampled() -> list[SequenceRequest]:
        return [_req(close_pair, p, speculative=True, c=mixed[k], temperature=0.9,
                     seed=50 + k) for k, p in enumerate(PROMPTS)]

    alone = [_run(close_pair, [r])[0] for r in sampled()]
    assert _run(close_pair, sampled()) == alone


def test_a_bias_outside_the_vocabulary_fails_its_row_alone(close_pair):
    bad = _req(close_pair, PROMPTS[0], speculative=True, c={"logit_bias": ((10**6, 1.0),)})
    good = _req(close_pair, PROMPTS[1], speculative=True, c={})
    eng = ContinuousEngine(close_pair)
    seqs = eng.join([Sequence(close_pair, bad), Sequence(close_pair, good)])
    while eng.size:
        eng.step()
    assert "outside the vocabulary" in str(seqs[0].error)
    assert seqs[1].error is None and len(seqs[1].completion.token_ids) == 14
