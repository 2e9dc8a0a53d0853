"""The continuous engine's proposers (engine/proposers/batched.py) propose, for each row of a
mixed batch, what the one-at-a-time proposers propose for that row's prompt alone.

Greedy, so the draft model's proposal is deterministic: row by row, the batched draft loop
(one ragged forward per depth over every draft row, each at its own depth) drafts the tokens
`DraftModelProposer` drafts alone, and prompt lookup finds the same continuation. Rows at
depth 0 and target-only rows propose nothing; each proposer fills only its own rows.
"""

from __future__ import annotations

import torch

from engine.batch import Batch, DecodeRequest
from engine.continuous import ContinuousEngine, Sequence, SequenceRequest
from engine.controllers import make_controller
from engine.proposers import DraftModelProposer, NgramProposer, ProposerConfig
from engine.sampling import SamplingParams
from tests.support.tiny_models import PROMPTS

GREEDY = SamplingParams()


def _ids(pair, text: str) -> list[int]:
    return list(pair.tokenizer(text, add_special_tokens=True)["input_ids"])


@torch.inference_mode()
def _alone(pair, prompt: list[int], kind: str, depth: int) -> list[int]:
    """What the one-at-a-time proposer proposes first for `prompt` alone."""
    batch = Batch(pair, DecodeRequest([prompt], GREEDY, 16, []), extra_columns=depth + 2)
    proposer = (DraftModelProposer(pair.draft, batch) if kind == "draft_model"
                else NgramProposer(batch, 1, 4))
    proposer.prefill(batch)
    proposal = proposer.propose(batch, batch.width, depth, GREEDY, None)
    return proposal.tokens[0, :proposal.lengths[0]].tolist()


def test_each_row_of_a_mixed_batch_gets_its_one_at_a_time_proposal(close_pair) -> None:
    pair = close_pair
    prompts = [_ids(pair, p) for p in PROMPTS[:4]] + [_ids(pair, "a b c a b c a b")]
    kinds = ["draft_model", "draft_model", "ngram", "draft_model", "ngram"]
    depths = [3, 1, 2, 0, 4]
    speculative = [True, True, True, True, True]
    speculative[3] = False  # a target-only row
    eng = ContinuousEngine(pair)
    eng.join([Sequence(pair, SequenceRequest(
        prompt=p, params=GREEDY, max_new_tokens=16, speculative=s, proposer=ProposerConfig(k),
        controller=make_controller("constant", max(d, 1), 8) if s else None))
        for p, k, d, s in zip(prompts, kinds, depths, speculative, strict=True)])
    with torch.inference_mode():  # as inside ContinuousEngine.step
        props = eng._propose(depths)
    for i, (prompt, kind, depth) in enumerate(zip(prompts, kinds, depths, strict=True)):
        want = _alone(pair, prompt, kind, depth) if speculative[i] and depth else []
        assert props[i].tokens == want, (i, kind, depth)
        if kind == "draft_model" and speculative[i] and depth:
            assert len(want) == depth  # the draft's logits ride along for the trace's q
            assert props[i].logits is not None and props[i].logits.shape[0] == depth
        else:
            assert props[i].logits is None and props[i].q is None
    assert props[4].tokens, "the repeating prompt's lookup finds a continuation"
    # the draft's rows are the speculative draft-model rows alone (not the target-only one)
    assert [prompts.index(list(s.req.prompt)) for s in eng.drafts.rows] == [0, 1]


def test_a_step_commits_the_draft_cache_to_what_the_row_kept(close_pair) -> None:
    """After a step, each draft row's cache holds exactly the committed tokens it has seen:
    the next proposal equals the one-at-a-time proposer's for the new prefix."""
    pair = close_pair
    prompts = [_ids(pair, p) for p in PROMPTS[:3]]
    eng = ContinuousEngine(pair)
    seqs = eng.join([Sequence(pair, SequenceRequest(
        prompt=p, params=GREEDY, max_new_tokens=24, speculative=True,
        controller=make_controller("constant", 3, 8))) for p in prompts])
    for _ in range(3):
        eng.step()
    with torch.inference_mode():
        props = eng._propose([3] * eng.size)
    for seq, prop in zip(eng.rows, props, strict=True):
        assert seq in seqs
        assert prop.tokens == _alone(pair, list(seq.tokens), "draft_model", 3)
