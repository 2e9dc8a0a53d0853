"""One verifier (engine/verify.py) judges the one-at-a-time loop and the continuous engine.

- a row's verdict does not depend on the rows judged beside it or on how they are grouped:
  judged in a batch, one group per row (the continuous engine), a seeded row draws exactly
  what it draws judged alone, and its numbers equal `rejection_sample` on its own slice;
- greedy rows accept the leading run of matches, never past what they proposed;
- a fault in one group fails that group's rows alone (`isolate`), or propagates;
- one fault in the shared verifier changes what both engines emit.
"""

from __future__ import annotations

import pytest
import torch

import engine.verify as verify_module
from engine import generate
from engine.continuous import ContinuousEngine, Sequence, SequenceRequest
from engine.controllers import make_controller
from engine.proposers import ProposerConfig
from engine.rejection import rejection_sample
from engine.sampling import SamplingParams, process_logits
from engine.verify import Judging, verify
from tests.support.tiny_models import PROMPTS

V = 11


def _case(seed: int, b: int = 3, t: int = 5) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(logits (B, T, V), proposals x (B, T-1), draft q (B, T-1, V)) at random."""
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn((b, t, V), generator=g) * 2
    q = torch.softmax(torch.randn((b, t - 1, V), generator=g), dim=-1)
    x = torch.multinomial(q.reshape(-1, V), 1, generator=g).view(b, t - 1)
    return logits, x, q


@pytest.mark.parametrize("seed", range(6))
def test_a_seeded_row_draws_in_a_batch_what_it_draws_alone(seed: int) -> None:
    logits, x, q = _case(seed)
    lengths = [4, 2, 0]
    params = SamplingParams(temperature=0.9, top_k=6)

    def groups(rows: list[int], with_q: bool) -> list[Judging]:
        return [Judging([i], params, torch.Generator().manual_seed(100 + i),
                        q[i:i + 1, :lengths[i]] if with_q else None) for i in rows]

    for with_q in (True, False):  # a draft model's q, a point mass (prompt lookup)
        batch = verify(logits, x, lengths, groups([0, 1, 2], with_q))
        for i in range(3):
            alone = verify(logits[i:i + 1], x[i:i + 1], [lengths[i]], [Judging(
                [0], params, torch.Generator().manual_seed(100 + i),
                q[i:i + 1, :lengths[i]] if with_q else None)])
            g = lengths[i]
            assert batch.host.n[i] == alone.host.n[0]
            assert batch.host.own[i][:batch.host.n[i] + 1] == alone.host.own[0][:alone.host.n[0] + 1]
            assert batch.host.p[i][:g + 1] == alone.host.p[0][:g + 1]
            # ... and what rejection_sample itself draws on the row's own slice
            p = process_logits(logits[i:i + 1, :g + 1], params)
            n, nxt = rejection_sample(x[i:i + 1, :g], q[i:i + 1, :g] if with_q else None, p,
                                      torch.Generator().manual_seed(100 + i))
            assert batch.host.n[i] == int(n[0])
            assert batch.host.own[i][int(n[0])] == int(nxt[0])


def test_one_group_of_the_whole_batch_draws_as_the_batched_sampler() -> None:
    """The one-at-a-time loop's group: one generator over every row, per-row lengths."""
    logits, x, q = _case(7)
    lengths = [4, 3, 4]
    params = SamplingParams(temperature=1.1)
    out = verify(logits, x, lengths, [Judging([0, 1, 2], params, torch.Generator().manual_seed(5),
                                              q)])
    n, nxt = rejection_sample(x, q, process_logits(logits, params),
                              torch.Generator().manual_seed(5), torch.tensor(lengths))
    assert out.host.n == n.tolist()
    assert [out.host.own[i][int(n[i])] for i in range(3)] == nxt.tolist()


def test_greedy_rows_accept_the_leading_matches_within_their_proposal() -> None:
    logits, _, _ = _case(3)
    argmax = logits.argmax(-1)
    x = argmax[:, :-1].clone()
    x[0, 2] = (x[0, 2] + 1) % V  # row 0: matches, matches, miss, match
    lengths = [4, 2, 0]  # row 1 matches everywhere but proposed 2; row 2 proposed nothing
    out = verify(logits, x, lengths, [Judging([i], SamplingParams()) for i in range(3)])
    assert out.host.n == [2, 2, 0]
    assert out.host.own[0][:3] == argmax[0, :3].tolist()  # the target's token at the miss
    assert out.host.own[1][2] == int(argmax[1, 2])  # the bonus after its two drafts
    assert out.host.q[0][:2] == [1.0, 1.0] and out.host.q[0][2] == 0.0  # point mass at own


def test_a_fault_in_one_group_fails_its_rows_alone() -> None:
    logits, x, q = _case(4)
    lengths = [4, 4, 4]
    bad = torch.full((1, 4, V + 1), 1.0 / (V + 1))  # a q over the wrong vocabulary
    ok = SamplingParams(temperature=0.8)
    groups = [Judging([0], ok, torch.Generator().manual_seed(1), q[0:1]),
              Judging([1], ok, torch.Generator().manual_seed(2), bad),
              Judging([2], ok, torch.Generator().manual_seed(3), q[2:3])]
    out = verify(logits, x, lengths, groups, isolate=True)
    assert set(out.faults) == {1}
    alone = verify(logits[2:3], x[2:3], [4], [Judging([0], ok, torch.Generator().manual_seed(3),
                                                       q[2:3])])
    assert out.host.n[2] == alone.host.n[0] and out.host.own[2] == alone.host.own[0]
    with pytest.raises(RuntimeError):
        verify(logits, x, lengths, groups)


def _off_by_one(real):
    def accept(draft_tokens: torch.Tensor, target_argmax: torch.Tensor):
        n, nxt = real(draft_tokens, target_argmax)
        return torch.clamp(n + 1, max=draft_tokens.shape[1]), nxt
    return accept


def _continuous(pair, prompts: list[str]) -> list[list[int]]:
    eng = ContinuousEngine(pair)
    seqs = eng.join([Sequence(pair, SequenceRequest(
        prompt=list(pair.tokenizer(p, add_special_tokens=True)["input_ids"]),
        params=SamplingParams(), max_new_tokens=16, speculative=True,
        proposer=ProposerConfig("draft_model"), controller=make_controller("constant", 4, 8)))
        for p in prompts])
    while eng.size:
        eng.step()
    return [s.completion.token_ids for s in seqs]


def test_one_fault_in_the_verifier_reaches_both_engines(llama_pair, monkeypatch) -> None:
    prompts = PROMPTS[:3]
    target = [r.token_ids for r in generate(llama_pair, prompts, speculative=False,
                                            max_new_tokens=16)]
    one_at_a_time = [generate(llama_pair, p, speculative=True, max_new_tokens=16,
                              gamma=4).token_ids for p in prompts]
    assert one_at_a_time == target and _continuous(llama_pair, prompts) == target
    monkeypatch.setattr(verify_module, "greedy_accept", _off_by_one(verify_module.greedy_accept))
    assert [generate(llama_pair, p, speculative=True, max_new_tokens=16,
                     gamma=4).token_ids for p in prompts] != target
    assert _continuous(llama_pair, prompts) != target
    # target-only decoding never goes through the verifier's acceptance
    assert [r.token_ids for r in generate(llama_pair, prompts, speculative=False,
                                          max_new_tokens=16)] == target


def test_a_group_of_scattered_rows_judges_as_each_row_alone() -> None:
    """Rows 0 and 2 in one greedy group with recorded distributions: the same verdict and
    the same p as one group per row (the group's rows need not be consecutive)."""
    logits, x, _q = _case(9)
    lengths = [3, 4, 2]
    greedy = SamplingParams()
    together = verify(logits, x, lengths, [
        Judging([0, 2], greedy, draft_logits=torch.randn((2, 4, V)), keep_p=True),
        Judging([1], greedy)])
    apart = verify(logits, x, lengths, [Judging([i], greedy, keep_p=i != 1) for i in range(3)])
    assert together.host.n == apart.host.n and together.host.own == apart.host.own
    assert together.host.p == apart.host.p
    for i in (0, 2):  # p over the group's width (4) against the row's own (lengths[i] + 1)
        width = lengths[i] + 1
        assert torch.equal(together.p[i][:width], apart.p[i][:width])
    assert 1 not in together.p
