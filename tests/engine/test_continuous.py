"""Continuous batching (engine/continuous.py, engine/ragged.py): a request's output in a
shared, changing batch equals its output alone.

Greedy: token-identical (the tiny models' init scale keeps clear argmax margins, so a
reduction-order difference of a bigger batch cannot flip a pick here; the demo-pair
measurement of how often it does lives in `guardian bench serving`). Sampled: with a seed, a
row draws the same numbers in the batch as alone, so it is identical too; unseeded rows are
checked for losslessness against the target's distribution.
"""

from __future__ import annotations

import collections
import random
import time

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from engine import generate
from engine.continuous import ContinuousEngine, Sequence, SequenceRequest
from engine.controllers import make_controller
from engine.proposers import ProposerConfig
from engine.ragged import RaggedCache
from engine.sampling import SamplingParams
from tests.support.tiny_models import PROMPTS


def _ids(pair, text: str) -> list[int]:
    return list(pair.tokenizer(text, add_special_tokens=True)["input_ids"])


def _req(pair, prompt: str, *, speculative: bool, max_new: int = 12, temperature: float = 0.0,
         top_p: float = 1.0, top_k: int = 0, seed: int | None = None, gamma: int = 4,
         proposer: str = "draft_model", stop: list[str] | None = None) -> SequenceRequest:
    return SequenceRequest(
        prompt=_ids(pair, prompt),
        params=SamplingParams(temperature=temperature, top_p=top_p, top_k=top_k),
        max_new_tokens=max_new, stop=list(stop or []), speculative=speculative,
        proposer=ProposerConfig(proposer),
        controller=make_controller("constant", gamma, 8) if speculative else None,
        generator=None if seed is None else torch.Generator().manual_seed(seed))


def _run(pair, reqs: list[SequenceRequest], *, join_every: int = 0,
         gamma_cap=None) -> list[list[int]]:
    """Decode `reqs` in one engine; with join_every=k a new request joins every k steps."""
    eng = ContinuousEngine(pair, gamma_cap=gamma_cap)
    pending = list(enumerate(reqs))
    seqs: dict[int, object] = {}
    steps = 0
    if join_every == 0:  # all join at once: one shared prefill forward per model
        joined = eng.join([Sequence(pair, r) for _, r in pending])
        seqs.update(enumerate(joined))
        pending = []
    while pending or eng.size:
        while pending and (steps % join_every == 0 or not eng.size):
            i, r = pending.pop(0)
            seqs[i] = eng.add(r)
            if join_every:
                break
        eng.step()
        steps += 1
        assert steps < 10_000
    return [seqs[i].completion.token_ids for i in range(len(reqs))]  # type: ignore[attr-defined]


def _mixed(pair) -> list[SequenceRequest]:
    """Different prompts, lengths, sampling, max_tokens, stop strings and proposers."""
    out = []
    for k, prompt in enumerate(PROMPTS):  # "x" is a one-token prompt
        out.append(_req(pair, prompt, speculative=k % 3 != 0, max_new=6 + 3 * k,
                        proposer="ngram" if k % 3 == 2 else "draft_model",
                        gamma=1 + k % 5, stop=["\n\n"] if k % 4 == 1 else None))
    return out


ARCHS = ["llama", "qwen2", "gpt2"]


@pytest.mark.parametrize("arch", ARCHS)
def test_one_row_equals_the_request_level_engine(load, arch):
    pair = load(f"{arch}-close", f"{arch}-target")
    for prompt in PROMPTS[:4]:
        for spec in (False, True):
            alone = generate(pair, prompt, speculative=spec, max_new_tokens=10, gamma=3)
            (cont,) = _run(pair, [_req(pair, prompt, speculative=spec, max_new=10, gamma=3)])
            assert cont == alone.token_ids, (prompt, spec)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("join_every", [0, 2])
def test_greedy_rows_in_a_changing_batch_equal_each_row_alone(load, arch, join_every):
    pair = load(f"{arch}-close", f"{arch}-target")
    reqs = _mixed(pair)
    alone = [_run(pair, [r])[0] for r in _mixed(pair)]
    assert _run(pair, reqs, join_every=join_every) == alone


@pytest.mark.parametrize("arch", ["llama", "gpt2"])
def test_seeded_sampled_rows_draw_the_same_tokens_in_a_batch_as_alone(load, arch):
    pair = load(f"{arch}-close", f"{arch}-target")

    def reqs():
        return [_req(pair, p, speculative=k % 2 == 0, temperature=0.7 + 0.1 * (k % 3),
                     top_p=0.9 if k % 2 else 1.0, top_k=20 if k % 3 == 1 else 0, seed=100 + k,
                     proposer="ngram" if k % 4 == 3 else "draft_model", max_new=10 + k)
                for k, p in enumerate(PROMPTS)]

    alone = [_run(pair, [r])[0] for r in reqs()]
    assert _run(pair, reqs(), join_every=1) == alone
    # ... and the batch is not a no-op: seeds matter.
    other = [_req(pair, PROMPTS[0], speculative=True, temperature=0.8, seed=s) for s in range(6)]
    assert len({tuple(t) for t in _run(pair, other)}) > 1


def test_greedy_speculative_rows_equal_target_only_rows(load):
    pair = load("llama-close", "llama-target")
    reqs = [_req(pair, p, speculative=spec, max_new=16) for p in PROMPTS for spec in (True, False)]
    out = _run(pair, reqs)
    assert out[0::2] == out[1::2]


def test_rows_commit_their_own_accepted_counts(load):
    """With a self pair every draft is accepted: a row beside a badly drafted row still
    emits gamma + 1 tokens per step (no waiting on the batch's least accepted row)."""
    pair = load("llama-target", "llama-target")
    eng = ContinuousEngine(pair)
    a = eng.add(_req(pair, PROMPTS[0], speculative=True, gamma=4, max_new=40))
    b = eng.add(_req(pair, PROMPTS[1], speculative=False, max_new=40))
    assert len(b.completion.token_ids) == 1  # a target-only row's first token: at the join
    eng.step()
    eng.step()
    assert len(a.completion.token_ids) == 10 and len(b.completion.token_ids) == 3
    assert a.stats.accepted == 8 and a.stats.proposed_tokens == 8


def test_gamma_cap_zero_turns_speculation_off_without_changing_output(load):
    pair = load("llama-close", "llama-target")
    reqs = _mixed(pair)
    want = _run(pair, _mixed(pair))
    capped = ContinuousEngine(pair, gamma_cap=lambda size: 0)
    seqs = [capped.add(r) for r in reqs]
    while capped.size:
        capped.step()
    assert [s.completion.token_ids for s in seqs] == want
    # no draft forward after the prefill
    assert all(s.stats.proposed_tokens == 0 and s.stats.draft_forwards <= 1 for s in seqs)


class _CountOps(TorchDispatchMode):
    """Counts the aten ops dispatched inside it, by name."""

    def __init__(self) -> None:
        super().__init__()
        self.ops: collections.Counter[str] = collections.Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops[str(func.overloadpacket)] += 1
        return func(*args, **(kwargs or {}))


def test_a_speculative_batch_at_cap_zero_does_target_only_work(load):
    """Where the depth cap is 0 the speculative route is meant to decode exactly as
    target-only (so it cannot be slower in that band but for noise): the same target forwards,
    no draft forward at all, the same heavy ops; at most a bookkeeping op per step more (the
    empty draft cache's row selection as rows leave)."""
    pair = load("llama-close", "llama-target")

    def decode(speculative: bool):
        eng = ContinuousEngine(pair, gamma_cap=lambda size: 0)
        # The batch already runs at cap 0 when they join (a speculative joiner of an empty
        # batch keeps its last prompt token for a first step whose cap is not known yet).
        eng.join([Sequence(pair, _req(pair, PROMPTS[7], speculative=True, max_new=12))])
        eng.step()
        calls: collections.Counter[str] = collections.Counter()
        hooks = [pair.draft.register_forward_hook(lambda *a: calls.update(["draft"])),
                 pair.target.register_forward_hook(lambda *a: calls.update(["target"]))]
        count, steps = _CountOps(), 0
        try:
            with count:  # the join (one prefill) and every step
                seqs = eng.join([Sequence(pair, _req(pair, p, speculative=speculative,
                                                     max_new=10)) for p in PROMPTS[:6]])
                while eng.size:
                    eng.step()
                    steps += 1
        finally:
            for h in hooks:
                h.remove()
        return [s.completion.token_ids for s in seqs], count.ops, calls, steps

    plain, spec = decode(False), decode(True)
    assert spec[0] == plain[0]
    # the prefill and one target forward a step; no draft forward, not even at the join
    assert spec[2] == plain[2] == {"target": plain[3] + 1}
    heavy = ("mm", "matmul", "linear", "attention", "softmax", "embedding", "rms", "norm")
    for op in set(plain[1]) | set(spec[1]):
        if any(h in op for h in heavy):
            assert spec[1][op] == plain[1][op], op
    assert 0 <= sum(spec[1].values()) - sum(plain[1].values()) <= plain[3]


class _Forwards:
    """Counts `model`'s forwards (a hook) while in use."""

    def __init__(self, model) -> None:
        self.model, self.n = model, 0

    def __enter__(self):
        self.hook = self.model.register_forward_hook(lambda *a: setattr(self, "n", self.n + 1))
        return self

    def __exit__(self, *exc) -> None:
        self.hook.remove()


@pytest.mark.parametrize("arch", ARCHS)
def test_a_target_only_row_gets_its_first_token_from_the_joins_prefill(load, arch):
    """As one-at-a-time target-only decoding: the whole prompt in the prefill, the first
    token from its logits at once, not one decode step later (the TTFT of a batched server
    at low load); the same tokens, forwards, steps and trace step indices as alone."""
    pair = load(f"{arch}-close", f"{arch}-target")
    for prompt in (PROMPTS[0], PROMPTS[4]):  # PROMPTS[4] is one token
        ids = _ids(pair, prompt)
        with torch.inference_mode():
            want = int(pair.target(torch.tensor([ids])).logits[0, -1].argmax())
        eng = ContinuousEngine(pair)
        with _Forwards(pair.target) as fw:
            seq = eng.add(_req(pair, prompt, speculative=False, max_new=6))
        assert fw.n == 1 and seq.completion.token_ids == [want]
        assert seq.first_token_at is not None and seq.stats.steps == 0
        assert [t.origin for t in seq.completion.trace] == ["target"]
        with _Forwards(pair.target) as fw:
            while eng.size:
                eng.step()
        alone = generate(pair, prompt, speculative=False, max_new_tokens=6)
        assert seq.completion.token_ids == alone.token_ids
        assert fw.n == 5  # six tokens: the prefill's and five decode steps
        assert (seq.stats.target_forwards, seq.stats.steps) == (6, 5)
        assert [t.step for t in seq.completion.trace] == list(range(6))


def test_a_row_done_at_its_first_token_leaves_without_a_forward(load):
    pair = load("llama-close", "llama-target")
    eng = ContinuousEngine(pair)
    one = eng.add(_req(pair, PROMPTS[0], speculative=False, max_new=1))
    assert one.completion.token_ids and one.finished
    with _Forwards(pair.target) as fw:
        done = eng.step()
    assert done == [one] and fw.n == 0 and eng.size == 0
    assert one.completion.finish_reason == "length" and eng.last_step == {}
    assert one.stats.time_to_first_token_s is not None


def test_which_joiners_take_their_first_token_at_the_join(load):
    """Those that will not speculate at their first step. A speculative joiner of an empty
    batch keeps its last prompt token for a speculative first step (its cap is not known
    yet; guessing from an earlier batch would make a seeded request's draws depend on it);
    so does one joining a batch that speculates; one joining a batch at cap 0 does not."""
    pair = load("llama-close", "llama-target")
    for cap, want in ((0, 1), (3, 0)):
        eng = ContinuousEngine(pair, gamma_cap=lambda size, cap=cap: cap)
        first = eng.add(_req(pair, PROMPTS[1], speculative=True, max_new=20))
        assert first.completion.token_ids == []  # empty batch: a speculative first step
        eng.step()
        joiner = eng.add(_req(pair, PROMPTS[2], speculative=True, max_new=20))
        assert len(joiner.completion.token_ids) == want, cap
        before = len(first.completion.token_ids) + len(joiner.completion.token_ids)
        eng.step()
        after = len(first.completion.token_ids) + len(joiner.completion.token_ids)
        # The join's token counts with the next step's (the load-aware cap's goodput).
        assert eng.last_step["tokens"] == after - before + want, cap


class _PeekableZero:
    """A depth cap of 0 that can say so before it is asked (as ModelledGamma and a pinned
    LoadAwareGamma can: `peek`)."""

    def __call__(self, size: int) -> int:
        return 0

    def peek(self, size: int) -> int:
        return 0


@pytest.mark.parametrize("peekable", [True, False])
def test_a_speculative_joiner_of_an_empty_batch_at_cap_zero(load, peekable):
    """Joining an empty batch, a speculative row takes its first token at the join where the
    depth cap can tell it is 0 without being asked (`peek`): the same forwards as a
    target-only row. Where it cannot (a plain callable; asking would change a learner's
    state), the row keeps its last prompt token for its first step - the documented one
    target forward more. The same tokens either way."""
    pair = load("llama-close", "llama-target")

    def run(speculative: bool):
        cap = _PeekableZero() if peekable else (lambda size: 0)
        eng = ContinuousEngine(pair, gamma_cap=cap)
        with _Forwards(pair.target) as fw:
            seq = eng.add(_req(pair, PROMPTS[0], speculative=speculative, max_new=8))
            while eng.size:
                eng.step()
        return seq, fw.n

    (spec, n_spec), (plain, n_plain) = run(True), run(False)
    assert spec.completion.token_ids == plain.completion.token_ids
    assert n_spec == n_plain + (0 if peekable else 1)
    assert n_plain == 8


def test_a_speculative_row_counts_its_join_token_as_a_step(load):
    """Joined at cap 0 and given its first token there, a speculative row still has one
    step per trace step (as one-at-a-time speculation counts its first step); acceptance
    length and the vLLM-style counters read `stats.steps`."""
    pair = load("llama-close", "llama-target")
    caps = iter([0, 0] + [3] * 50)
    eng = ContinuousEngine(pair, gamma_cap=lambda size: next(caps))
    eng.add(_req(pair, PROMPTS[1], speculative=True, max_new=30))
    eng.step()  # the batch now runs at cap 0
    row = eng.add(_req(pair, PROMPTS[2], speculative=True, max_new=12))
    assert len(row.completion.token_ids) == 1  # joined whole
    while eng.size:
        eng.step()
    steps = {t.step for t in row.completion.trace}
    assert row.stats.steps == len(steps) == max(steps) + 1
    assert row.stats.accepted + row.stats.steps == len(row.completion.token_ids)


def test_a_join_token_is_not_credited_to_a_later_unrelated_step(load):
    """A row done at its join leaves at a step that runs no forward: its token is not added
    to the next step that does (the load-aware cap learns tokens per step)."""
    pair = load("llama-close", "llama-target")
    eng = ContinuousEngine(pair)
    eng.add(_req(pair, PROMPTS[0], speculative=False, max_new=1))
    eng.step()  # it leaves; no forward
    assert eng.last_step == {}
    row = eng.add(_req(pair, PROMPTS[1], speculative=True, max_new=10))
    eng.step()
    assert eng.last_step["tokens"] == len(row.completion.token_ids)


def test_the_first_tokens_time_is_taken_once_it_is_on_the_host(load, monkeypatch):
    """On a GPU the prefill is only launched when it returns: the first token's time is
    taken after the host copy (which waits for the device), as a step's is."""
    import engine.continuous as continuous

    pair = load("llama-close", "llama-target")
    copied: list[float] = []
    real = continuous.HostVerdict.copy

    def slow_copy(*args, **kwargs):
        time.sleep(0.05)  # a device still busy with the forward
        out = real(*args, **kwargs)
        copied.append(time.perf_counter())
        return out

    monkeypatch.setattr(continuous.HostVerdict, "copy", staticmethod(slow_copy))
    eng = ContinuousEngine(pair)
    seq = eng.add(_req(pair, PROMPTS[0], speculative=False, max_new=4))
    assert copied and seq.first_token_at is not None and seq.first_token_at >= copied[0]


def test_sampled_rows_are_lossless_in_a_batch(load):
    """Unseeded sampled speculative rows in a batch: the first token's frequencies match the
    target's distribution (chi-square, generous threshold; 600 draws)."""
    pair = load("llama-draft", "llama-target")
    torch.manual_seed(0)
    prompt = _ids(pair, PROMPTS[1])
    with torch.inference_mode():
        logits = pair.target(torch.tensor([prompt])).logits[0, -1]
    probs = torch.softmax(logits.float(), -1)
    counts = torch.zeros_like(probs)
    rng = random.Random(1)
    for _ in range(50):
        eng = ContinuousEngine(pair)
        seqs = [eng.add(_req(pair, PROMPTS[1], speculative=True, temperature=1.0, max_new=1,
                             gamma=rng.randint(1, 4))) for _ in range(12)]
        while eng.size:
            eng.step()
        for s in seqs:
            counts[s.completion.token_ids[0]] += 1
    n = counts.sum()
    expected = probs * n
    big = expected >= 5
    chi2 = float((((counts - expected) ** 2) / expected.clamp_min(1e-9))[big].sum())
    rest = float(counts[~big].sum()), float(expected[~big].sum())
    dof = int(big.sum())
    assert chi2 < dof + 6 * dof ** 0.5 + 20, (chi2, dof, rest)
    assert abs(rest[0] - rest[1]) < 4 * max(rest[1], 1) ** 0.5 + 10


def test_ragged_cache_join_leave_and_compact_keep_logits(load):
    """Padding, positions and masks per row: a row's logits after joins, holes, leaves and a
    compaction equal its logits alone."""
    assert_ragged_rows_keep_logits(load("llama-close", "llama-target"), rtol=1e-4, atol=1e-4)


def assert_ragged_rows_keep_logits(pair, *, rtol: float, atol: float) -> None:
    """Row `a` beside row `b` through a join, holes from dropped drafts, `b` leaving and a
    compaction: its logits stay its logits alone, within `rtol`/`atol` (also run on CUDA in
    bf16, tests/engine/test_cuda.py)."""
    model = pair.target
    a, b = _ids(pair, PROMPTS[0]), _ids(pair, PROMPTS[7])
    alone = RaggedCache.empty_rows(pair.device, 1)
    la, _ = alone.forward(model, [a], 0)
    together = RaggedCache.empty_rows(pair.device, 1)
    together.forward(model, [b[:3]], 0)
    other = RaggedCache.empty_rows(pair.device, 1)
    other.forward(model, [a[:2]], 0)
    together.extend(other)
    together.forward(model, [b[3:5], a[2:]], 0)
    _, first = together.forward(model, [[5, 6, 7], []], 0)
    together.drop(0, first, 3)  # rejected drafts of row 0 become holes
    lt, _ = together.forward(model, [[9], [11]], 0)
    la2, _ = alone.forward(model, [[11]], 0)
    torch.testing.assert_close(lt[1, -1].float(), la2[0, -1].float(), rtol=rtol, atol=atol)
    together.select([1])
    together.compact()
    assert together.width == together.lengths[0] == len(a) + 1
    l3, _ = together.forward(model, [[12]], 0)
    l4, _ = alone.forward(model, [[12]], 0)
    torch.testing.assert_close(l3[0, -1].float(), l4[0, -1].float(), rtol=rtol, atol=atol)
    assert la.shape[1] == len(a)


class _FaultyController:
    """A speculative row whose depth controller has a bug (raises at its first update)."""

    def __init__(self, where: str) -> None:
        self.where = where

    def gamma(self) -> int:
        if self.where == "gamma":
            raise RuntimeError("controller bug in gamma()")
        return 3

    def update(self, *args, **kwargs) -> None:
        raise RuntimeError("controller bug in update()")


class _BadGenerator:
    """Not a torch.Generator: torch.multinomial refuses it (a row's own bad parameter)."""


def test_a_row_that_raises_inside_a_step_fails_alone(load):
    # One row's fault inside a step (its sampling, its controller) must end that row only;
    # before, the whole step raised and every row of the batch failed with it.
    pair = load("llama-close", "llama-target")
    good = [_req(pair, PROMPTS[0], speculative=True, max_new=14),
            _req(pair, PROMPTS[1], speculative=False, max_new=10),
            _req(pair, PROMPTS[2], speculative=True, max_new=12, temperature=0.8, seed=7),
            _req(pair, PROMPTS[3], speculative=True, max_new=9, proposer="ngram")]
    alone = [_run(pair, [r])[0] for r in _mixed_copy(pair, good)]
    bad_update = _req(pair, PROMPTS[5], speculative=True, max_new=12)
    bad_update.controller = _FaultyController("update")  # type: ignore[assignment]
    bad_gamma = _req(pair, PROMPTS[6], speculative=True, max_new=12)
    bad_gamma.controller = _FaultyController("gamma")  # type: ignore[assignment]
    bad_draft = _req(pair, PROMPTS[7], speculative=True, max_new=12, temperature=0.9)
    bad_draft.generator = _BadGenerator()  # type: ignore[assignment]  # fails in the draft loop
    bad_verify = _req(pair, PROMPTS[4], speculative=False, max_new=12, temperature=0.9)
    bad_verify.generator = _BadGenerator()  # type: ignore[assignment]  # fails in verification
    reqs = [*_mixed_copy(pair, good), bad_update, bad_gamma, bad_draft, bad_verify]
    eng = ContinuousEngine(pair)
    seqs = eng.join([Sequence(pair, r) for r in reqs])
    steps = 0
    while eng.size:
        eng.step()  # never raises for one row's fault
        steps += 1
        assert steps < 1000
    assert [s.completion.token_ids for s in seqs[:4]] == alone
    assert all(s.error is None for s in seqs[:4])
    for s in seqs[4:]:
        assert isinstance(s.error, Exception), s.error
        assert s.finished
    # The engine is still consistent: a request joining now decodes as it would alone.
    late = _mixed_copy(pair, good[:1])[0]
    (seq,) = eng.join([Sequence(pair, late)])
    while eng.size:
        eng.step()
    assert seq.completion.token_ids == alone[0]


def _mixed_copy(pair, reqs: list[SequenceRequest]) -> list[SequenceRequest]:
    """Fresh copies (own controllers and generators) of requests built by `_req`."""
    out = []
    for r in reqs:
        seed = None if r.generator is None else r.generator.initial_seed()
        out.append(SequenceRequest(
            prompt=list(r.prompt), params=r.params, max_new_tokens=r.max_new_tokens,
            stop=list(r.stop), speculative=r.speculative, proposer=r.proposer,
            controller=make_controller("constant", 4, 8) if r.speculative else None,
            generator=None if seed is None else torch.Generator().manual_seed(seed)))
    return out


@pytest.mark.parametrize("arch", ["llama", "qwen2"])
def test_alternatives_are_the_verifying_distributions_top_k(load, arch):
    """`SequenceRequest.alternatives`: each emitted token carries the top-k of the processed
    target distribution it was chosen from, taken from the verifying forward of a mixed,
    changing batch; they equal a teacher-forced forward's top-k over the same completion (the
    distribution is a function of the prefix), and rows that did not ask carry none."""
    from engine.scoring import score_target

    pair = load(f"{arch}-close", f"{arch}-target")
    reqs = _mixed(pair)
    for k, r in enumerate(reqs):
        if k % 2 == 0:
            r.alternatives = 3 + k
            if k % 4 == 2:  # sampled rows too, with their own processing
                r.params = SamplingParams(temperature=0.8, top_p=0.9, top_k=0)
                r.generator = torch.Generator().manual_seed(k)
    eng = ContinuousEngine(pair)
    seqs = [eng.add(reqs[0])]
    for r in reqs[1:]:
        eng.step()
        seqs.append(eng.add(r))
    while eng.size:
        eng.step()
    checked = 0
    for r, seq in zip(reqs, seqs, strict=True):
        traces = seq.completion.trace
        if not r.alternatives:
            assert all(t.alternatives is None for t in traces)
            continue
        p = r.params
        ref = score_target(pair, r.prompt, seq.completion.token_ids, temperature=p.temperature,
                           top_p=p.top_p, top_k=p.top_k).distributions
        values, ids = torch.topk(ref, r.alternatives, dim=-1)
        for t, vs, ix in zip(traces, values.tolist(), ids.tolist(), strict=True):
            assert t.alternatives is not None and len(t.alternatives) == r.alternatives
            got_ids = [i for i, _ in t.alternatives]
            got_p = [q for _, q in t.alternatives]
            assert got_p == sorted(got_p, reverse=True)
            assert got_p == pytest.approx(vs, abs=1e-4)
            # the same ids, up to the order of exact near ties
            strict = [j for j in range(len(vs)) if all(abs(vs[j] - v) > 1e-5
                                                       for m, v in enumerate(vs) if m != j)]
            assert [got_ids[j] for j in strict] == [ix[j] for j in strict]
            if t.token_id in got_ids:  # p(x) of the emitted token is the same number
                assert got_p[got_ids.index(t.token_id)] == pytest.approx(t.target_prob, abs=1e-6)
            checked += 1
    assert checked > 20
