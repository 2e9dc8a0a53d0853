"""The local engine's top-k alternatives (BackendRequest.top_logprobs) on a tiny real pair."""

from __future__ import annotations

import dataclasses
import math

import pytest

from guardian.backends import BackendRequest, Sampling
from guardian.backends.base import LOGPROB_FLOOR, TokenLogprob
from guardian.backends.local import LocalEngineBackend
from tests.support.tiny_models import save_tiny_pair


@pytest.fixture(scope="module")
def pair_dirs(tmp_path_factory):
    return save_tiny_pair(tmp_path_factory.mktemp("pair"))


@pytest.fixture(scope="module", params=[False, True], ids=["one-at-a-time", "batched"])
def backend(request, pair_dirs):
    """Both cores: each records the alternatives from the forward that chose each token."""
    out = LocalEngineBackend.load(*pair_dirs, device="cpu", batching=request.param)
    yield out
    out.shutdown()


@pytest.mark.parametrize("speculative", [True, False])
def test_greedy_alternatives_agree_with_the_trace(backend, speculative: bool) -> None:
    req = BackendRequest(prompt_ids=backend.encode("the cat"), max_new_tokens=8,
                         speculative=speculative, top_logprobs=3)
    res = backend.generate(req)
    assert res.trace and len(res.trace) == len(res.token_ids)
    for t in res.trace:
        alts = t.top_logprobs
        assert len(alts) == 3
        assert [a.logprob for a in alts] == sorted((a.logprob for a in alts), reverse=True)
        assert alts[0].token_id == t.token_id  # greedy: the emitted token is the argmax
        assert math.isclose(math.exp(alts[0].logprob), t.target_prob, rel_tol=1e-3)
        # the raw top-2 logit margin equals the top-2 logprob gap (greedy: raw softmax)
        assert math.isclose(alts[0].logprob - alts[1].logprob, t.target_margin, abs_tol=1e-3)
        assert t.token == backend.decode([t.token_id])


def test_streamed_alternatives_equal_the_whole_ones(backend) -> None:
    req = BackendRequest(prompt_ids=backend.encode("a dog"), max_new_tokens=6,
                         speculative=True, top_logprobs=2, sampling=Sampling(), seed=1)
    seen = []
    res = backend.generate(req, lambda _d, rows: seen.extend(rows))
    whole = backend.generate(req)
    assert [t.token_id for t in seen] == res.token_ids == whole.token_ids
    for a, b in zip(seen, whole.trace, strict=True):
        assert [x.token_id for x in a.top_logprobs] == [x.token_id for x in b.top_logprobs]
        assert all(math.isclose(x.logprob, y.logprob, abs_tol=1e-4)
                   for x, y in zip(a.top_logprobs, b.top_logprobs, strict=True))


def test_no_alternatives_unless_asked(backend) -> None:
    res = backend.generate(BackendRequest(prompt_ids=backend.encode("x"), max_new_tokens=4,
                                          speculative=False))
    assert all(t.top_logprobs == () and t.token is None for t in res.trace)


@pytest.mark.parametrize("unit", ["a", " the", "\u00e9", "\U0001f600", "x1 "])
def test_text_past_max_prompt_chars_cannot_fit_the_context(backend, unit: str) -> None:
    """The bound the API refuses untokenized text by (`ServingCore.check_text`) is safe: text
    just past it tokenizes to more than the context holds, however repetitive."""
    n = backend.max_prompt_chars // len(unit) + 1
    assert len(backend.encode(unit * n)) > backend.max_context


def _teacher_forced(backend: LocalEngineBackend, res, sampling: Sampling, k: int) -> list:
    """`res.trace` with the k most likely tokens of the processed target distribution at each
    position, from one teacher-forced forward over the completion (the reference)."""
    import torch

    probs = backend._score(res.prompt_token_ids, list(res.token_ids), sampling).distributions
    values, ids = torch.topk(probs, k, dim=-1)
    logs = torch.log(values).clamp_min(LOGPROB_FLOOR).tolist()
    piece = backend._piece
    return [dataclasses.replace(tok, token=piece(int(tok.token_id)), top_logprobs=tuple(
                TokenLogprob(piece(int(i)), float(lp), int(i))
                for i, lp in zip(row_ids, row_logs, strict=True)))
            for tok, row_ids, row_logs in zip(res.trace, ids.tolist(), logs, strict=True)]


@pytest.mark.parametrize("batching", [False, True], ids=["one-at-a-time", "batched"])
def test_no_core_scores_anything_more_for_alternatives(pair_dirs, monkeypatch,
                                                       batching: bool) -> None:
    """On both cores the alternatives come from the forward that chose each token: no
    teacher-forced forward, streamed or not (a streamed request's per-step scoring of its
    whole prefix was O(T) forwards per request, on the engine thread that every row of a
    batch waited for), and they equal the ones a teacher-forced forward over the completion
    gives."""
    from guardian.backends.base import watch_only

    batched = LocalEngineBackend.load(*pair_dirs, device="cpu", batching=batching)
    try:
        calls = []
        score = batched._score
        monkeypatch.setattr(batched, "_score", lambda *a, **k: calls.append(1) or score(*a, **k))
        for sampling in (Sampling(temperature=0.0), Sampling(temperature=0.8, top_p=0.9)):
            req = BackendRequest(prompt_ids=batched.encode("a dog"), max_new_tokens=12,
                                 speculative=True, top_logprobs=4, sampling=sampling, seed=3)
            streamed: list = []
            res = batched.generate(req, lambda _d, rows, out=streamed: out.extend(rows))
            watched = batched.generate(req, watch_only(lambda _d, _rows: None))
            assert calls == []
            assert res.token_ids == watched.token_ids
            assert [t.token_id for t in streamed] == res.token_ids
            ref = _teacher_forced(batched, res, req.sampling, 4)  # (calls _score)
            calls.clear()
            for got in (streamed, res.trace, watched.trace):
                for a, b in zip(got, ref, strict=True):
                    assert len(a.top_logprobs) == 4 and a.token == b.token
                    assert [x.token_id for x in a.top_logprobs] == \
                        [x.token_id for x in b.top_logprobs]
                    assert all(math.isclose(x.logprob, y.logprob, abs_tol=1e-4)
                               for x, y in zip(a.top_logprobs, b.top_logprobs, strict=True))
                    assert all(x.token == y.token for x, y in zip(a.top_logprobs,
                                                                    b.top_logprobs, strict=True))
    finally:
        batched.shutdown()


def test_a_shadow_sampled_request_keeps_its_alternatives(backend) -> None:
    """A sampled request picked for a shadow check runs with evidence (the distributions the
    check needs): the top_logprobs it asked for come with it (they were dropped: a client
    asking `logprobs: 3` got only the emitted token's)."""
    req = BackendRequest(prompt_ids=backend.encode("import os"), max_new_tokens=8,
                         speculative=True, top_logprobs=3,
                         sampling=Sampling(temperature=1.0), seed=11)
    res, evidence = backend.generate_with_evidence(req)
    plain = backend.generate(req)
    assert evidence.probs is not None and len(res.trace) == len(res.token_ids) == 8
    assert res.token_ids == plain.token_ids
    for a, b in zip(res.trace, plain.trace, strict=True):
        assert len(a.top_logprobs) == 3 and a.token == b.token
        assert [x.token_id for x in a.top_logprobs] == [x.token_id for x in b.top_logprobs]
    bare = backend.generate_with_evidence(dataclasses.replace(req, top_logprobs=0))[0]
    assert all(t.top_logprobs == () for t in bare.trace)
