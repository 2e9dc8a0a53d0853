"""A grammar (response_format json_schema / json_object, a regex) masks draft and target
alike and advances only with the output: greedy output is token-identical to target-only
under the same grammar (every proposer, one-at-a-time and continuous batching with mixed
rows), it validates against the schema, and sampled output is distributed as target-only's
under the grammar. The matchers are a cache: a mask depends on the prefix alone."""

from __future__ import annotations

import json
import random

import jsonschema
import pytest
import torch

from engine import generate, score_target
from engine.continuous import ContinuousEngine, Sequence, SequenceRequest
from engine.controllers import make_controller
from engine.grammar import MASKED, GrammarConstraint, GrammarError, GrammarSpec
from engine.proposers import ProposerConfig
from engine.sampling import SamplingParams, process_logits
from tests.engine.test_sampling_controls_lossless import _g_test
from tests.support.tiny_models import PROMPTS

SCHEMA = {"type": "object", "additionalProperties": False, "required": ["a", "b", "n"],
          "properties": {"a": {"enum": ["x", "y"]}, "b": {"type": "boolean"},
                         "n": {"type": "integer", "minimum": 0, "maximum": 99}}}


def _constraint(pair, spec: GrammarSpec) -> GrammarConstraint:
    return GrammarConstraint(spec, pair.tokenizer, pair.target.config.vocab_size,
                             sorted(pair.eos_token_ids))


def _allowed(constraint: GrammarConstraint, prefix: list[int], vocab: int) -> torch.Tensor:
    logits = torch.zeros(1, 1, vocab)
    return constraint.apply(logits, [prefix], None)[0, 0] != MASKED


def test_greedy_output_is_identical_to_target_only_and_valid(close_pair):
    spec = GrammarSpec.json_schema(SCHEMA)
    for prompt in PROMPTS[:5]:
        ref = generate(close_pair, prompt, speculative=False, max_new_tokens=40,
                       controls={"grammar": _constraint(close_pair, spec)})
        assert ref.finish_reason == "stop"
        jsonschema.validate(json.loads(ref.text), SCHEMA)
        for proposer in ("draft_model", "ngram"):
            spec_run = generate(close_pair, prompt, speculative=True, gamma=4,
                                proposer=proposer, max_new_tokens=40,
                                controls={"grammar": _constraint(close_pair, spec),
                                          "presence_penalty": 0.0})
            assert spec_run.token_ids == ref.token_ids, (prompt, proposer)
            assert spec_run.stats.proposed_tokens > 0  # speculation stayed on
    unconstrained = generate(close_pair, PROMPTS[0], speculative=False, max_new_tokens=40)
    with pytest.raises(json.JSONDecodeError):
        json.loads(unconstrained.text)  # the grammar is what made it JSON


def test_a_padded_batch_and_a_continuous_batch_with_mixed_rows_agree(close_pair):
    """Rows with and without a grammar, with penalties on top, speculative and target-only,
    prompt lookup and draft model, in one continuous batch and in one padded batch: each
    row equals its own target-only run."""
    spec = GrammarSpec.json_schema(SCHEMA)

    def controls(k: int) -> dict:
        return {"grammar": _constraint(close_pair, spec) if k % 2 == 0 else None,
                "presence_penalty": 0.6 if k % 3 == 0 else 0.0}

    prompts = PROMPTS[:6]
    want = [generate(close_pair, p, speculative=False, max_new_tokens=32,
                     controls=controls(k)).token_ids for k, p in enumerate(prompts)]
    reqs = [SequenceRequest(
        prompt=list(close_pair.tokenizer(p)["input_ids"]),
        params=SamplingParams(**controls(k)), max_new_tokens=32, speculative=k % 4 != 3,
        proposer=ProposerConfig("draft_model" if k % 2 == 0 else "ngram"),
        controller=make_controller("constant", 4, 8) if k % 4 != 3 else None)
        for k, p in enumerate(prompts)]
    eng = ContinuousEngine(close_pair)
    seqs = eng.join([Sequence(close_pair, r) for r in reqs])
    while eng.size:
        eng.step()
    for k, seq in enumerate(seqs):
        assert seq.error is None
        assert seq.completion.token_ids == want[k], k
    # the one-at-a-time core's padded batch: one grammar for every row of ragged prompts
    batch = generate(close_pair, [PROMPTS[0], PROMPTS[3]], speculative=True, gamma=3,
                     max_new_tokens=32, controls={"grammar": _constraint(close_pair, spec)})
    for prompt, row in zip([PROMPTS[0], PROMPTS[3]], batch, strict=True):
        alone = generate(close_pair, prompt, speculative=False, max_new_tokens=32,
                         controls={"grammar": _constraint(close_pair, spec)})
        assert row.token_ids == alone.token_ids


def test_a_mask_depends_on_the_prefix_only(close_pair):
    """Interleaved prefixes (a speculative block, a rejected suffix, another choice) through
    one constraint give the masks a fresh matcher gives for each prefix."""
    spec = GrammarSpec.json_schema(SCHEMA)
    vocab = close_pair.target.config.vocab_size
    ref = generate(close_pair, PROMPTS[1], speculative=False, max_new_tokens=40,
                   controls={"grammar": _constraint(close_pair, spec)}).token_ids
    shared = _constraint(close_pair, spec)
    rng = random.Random(5)
    for _ in range(40):
        cut = rng.randrange(len(ref))
        prefix = ref[:cut]
        assert torch.equal(_allowed(shared, prefix, vocab),
                           _allowed(_constraint(close_pair, spec), prefix, vocab)), cut
    # a block judged at once equals its positions judged one by one
    logits = torch.zeros(1, 6, vocab)
    block = shared.apply(logits, [ref[:2]], torch.tensor([ref[2:7]]))[0] != MASKED
    for t in range(6):
        assert torch.equal(block[t], _allowed(_constraint(close_pair, spec), ref[:2 + t], vocab))
    # a refused draft leaves the rest of its block unconstrained, never an empty mask
    bad = int((~_allowed(shared, ref[:3], vocab)).nonzero()[0])
    after = shared.apply(logits[:, :3], [ref[:3]], torch.tensor([[bad, ref[4]]]))[0]
    assert (after[1:] != MASKED).all()
    # ... and neither it nor a refused prefix leaves a matcher broken for the valid ones
    shared.apply(logits[:, :1], [[*ref[:3], bad]], None)
    for cut in (3, 4, 8, 2):
        assert torch.equal(_allowed(shared, ref[:cut], vocab),
                           _allowed(_constraint(close_pair, spec), ref[:cut], vocab)), cut


def test_a_schema_the_grammar_engine_cannot_compile_is_refused(close_pair):
    with pytest.raises(GrammarError):
        _constraint(close_pair, GrammarSpec.lark("start: undefined_rule"))


def test_sampled_pairs_of_tokens_follow_the_constrained_target(close_pair):
    """2,000 rows of one prompt in continuous batches, 2 tokens each from one draft-and-verify
    step under a regex: the joint law of (x1, x2) matches m1(x1) m2(x2 | x1) of the masked
    target computed with a fresh matcher and a full forward per position (G-test), and no
    pair the grammar refuses is ever sampled."""
    spec = GrammarSpec.regex(r"[a-h ]{1,4}[i-z]{1,4}")
    prompt = PROMPTS[2]
    torch.manual_seed(7)
    rows = []
    for _ in range(10):
        eng = ContinuousEngine(close_pair)
        seqs = eng.join([Sequence(close_pair, SequenceRequest(
            prompt=list(close_pair.tokenizer(prompt)["input_ids"]),
            params=SamplingParams(temperature=1.0, grammar=_constraint(close_pair, spec)),
            max_new_tokens=2, speculative=True, proposer=ProposerConfig("draft_model"),
            controller=make_controller("constant", 3, 8))) for _ in range(200)])
        while eng.size:
            eng.step()
        assert all(s.error is None for s in seqs)
        rows += [s.completion for s in seqs]
    assert sum(len(r.trace) == 2 and r.trace[0].step == r.trace[1].step for r in rows) > 500
    prompt_ids = list(close_pair.tokenizer(prompt)["input_ids"])
    sp = SamplingParams(temperature=1.0)

    def p_next(output: list[int]) -> torch.Tensor:
        with torch.inference_mode():
            logits = close_pair.target(torch.tensor([prompt_ids + output])).logits[0, -1]
        fresh = _constraint(close_pair, spec)
        return process_logits(fresh.apply(logits.float().view(1, 1, -1), [output], None)[0, 0],
                              sp)

    p1 = p_next([])
    torch.testing.assert_close(score_target(  # teacher-forced scoring masks alike
        close_pair, prompt_ids, [int(p1.argmax())], temperature=1.0,
        controls={"grammar": _constraint(close_pair, spec)}).distributions[0], p1)
    pairs: dict[tuple[int, int], int] = {}
    for r in rows:
        key = (r.token_ids[0], r.token_ids[1] if len(r.token_ids) > 1 else -1)
        pairs[key] = pairs.get(key, 0) + 1
    firsts = sorted({a for a, _ in pairs})
    assert all(p1[a] > 0 for a in firsts), "a first token the grammar refuses was sampled"
    cond = {a: p_next([a]) for a in firsts}
    cells = [(a, b) for a in firsts for b in range(p1.numel()) if cond[a][b] > 0]
    expected = torch.tensor([float(p1[a] * cond[a][b]) for a, b in cells]) * len(rows)
    observed = torch.tensor([float(pairs.get(cell, 0)) for cell in cells])
    assert observed.sum() == sum(v for (a, b), v in pairs.items() if b >= 0), \
        "a pair the constrained target gives probability 0 was sampled"
    assert _g_test(observed.double(), expected.double()) > 1e-4
