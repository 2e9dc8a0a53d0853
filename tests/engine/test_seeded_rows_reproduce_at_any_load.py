"""A seeded sampled speculative row draws the same tokens at any load.

The continuous engine caps every row's depth by batch size (`gamma_cap`), and a sampled
row's draws depend on its depths: the same seed at another load would give another answer.
A row with `pinned_depth` (what guardian.backends.local sets for a seeded sampled request)
follows its own controller only, so the same seed on the same path repeats its tokens
whatever shares the batch - what the shadow's `seed_replay` check holds the engine to.
"""

from __future__ import annotations

import torch

from engine.continuous import ContinuousEngine, SequenceRequest
from engine.controllers import make_controller, pinned_strategy
from engine.proposers import ProposerConfig
from engine.sampling import SamplingParams
from tests.support.tiny_models import PROMPTS


def _req(pair, prompt: str, seed: int, *, pinned: bool, proposer: str = "draft_model",
         max_new: int = 16) -> SequenceRequest:
    return SequenceRequest(
        prompt=list(pair.tokenizer(prompt, add_special_tokens=True)["input_ids"]),
        params=SamplingParams(temperature=0.9, top_p=0.95), max_new_tokens=max_new,
        speculative=True, proposer=ProposerConfig(proposer),
        controller=make_controller("heuristic", 3, 6),
        generator=torch.Generator().manual_seed(seed), pinned_depth=pinned)


def _alone(pair, req: SequenceRequest) -> list[int]:
    eng = ContinuousEngine(pair, gamma_cap=lambda size: 4)
    seq = eng.add(req)
    while eng.size:
        eng.step()
    return seq.completion.token_ids


def _loaded(pair, req: SequenceRequest, seed: int) -> list[int]:
    """`req` decoded among other rows, with a cap that follows the load: 0 (no speculation)
    from three rows on, 1 at two, 4 alone; the other rows join and leave as it runs."""
    eng = ContinuousEngine(pair, gamma_cap=lambda size: 4 if size == 1 else 1 if size == 2 else 0)
    others = [_req(pair, p, 1000 + seed + k, pinned=False, max_new=4 + 3 * k)
              for k, p in enumerate(PROMPTS[1:4])]
    eng.add(others[0])
    eng.step()
    seq = eng.add(req)
    pending = others[1:]
    while eng.size:
        if pending:
            eng.add(pending.pop(0))
        eng.step()
    return seq.completion.token_ids


def test_a_pinned_row_draws_the_same_tokens_alone_and_under_a_load_following_cap(load):
    pair = load("llama-close", "llama-target")
    for proposer in ("draft_model", "ngram"):
        for seed in range(4):
            alone = _alone(pair, _req(pair, PROMPTS[0], seed, pinned=True, proposer=proposer))
            loaded = _loaded(pair, _req(pair, PROMPTS[0], seed, pinned=True, proposer=proposer),
                             seed)
            assert loaded == alone, (proposer, seed)


def test_an_unpinned_row_follows_the_cap_so_its_draws_change_with_load(load):
    """The property above is not free: without the pin the same seed at another load gives
    other tokens (so the test above can fail)."""
    pair = load("llama-close", "llama-target")
    differ = 0
    for seed in range(6):
        alone = _alone(pair, _req(pair, PROMPTS[0], seed, pinned=False))
        loaded = _loaded(pair, _req(pair, PROMPTS[0], seed, pinned=False), seed)
        differ += loaded != alone
    assert differ >= 1


def test_a_pinned_row_drafts_at_a_step_whose_cap_is_zero(load):
    pair = load("llama-close", "llama-target")
    eng = ContinuousEngine(pair, gamma_cap=lambda size: 0)
    pinned = eng.add(_req(pair, PROMPTS[0], 1, pinned=True))
    free = eng.add(_req(pair, PROMPTS[1], 2, pinned=False))
    while eng.size:
        eng.step()
    assert pinned.stats.proposed_tokens > 0
    assert free.stats.proposed_tokens == 0


def test_goodput_reads_the_clock_so_a_pinned_row_runs_the_heuristic_rule():
    assert pinned_strategy("goodput", True) == "heuristic"
    assert pinned_strategy("goodput", False) == "goodput"
    assert pinned_strategy("constant", True) == "constant"
