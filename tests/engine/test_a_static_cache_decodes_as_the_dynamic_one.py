"""engine.static: decoding over the static KV cache gives what the DynamicCache gives.

Eager forwards over the static cache attend over exactly the columns written so far, so
they must be bit-identical to the dynamic cache: tokens, p(x), q(x), margins, greedy and
seeded sampling, target-only and speculative (the draft model and prompt lookup), single
prompts and padded batches, every architecture of the tiny pairs. A rejected suffix is
rolled back by moving a length only, so speculative decoding with partial acceptance (the
close pair) checks that stale columns are never read.

A CUDA graph's body attends over all L columns with the rest masked; its arithmetic is
checked here on the CPU by replaying the body eagerly (`_Replay`): the same tokens, and
probabilities within float32 rounding. The real capture is tests/engine/test_cuda.py's.
"""

from __future__ import annotations

import dataclasses

import pytest
import torch

from engine import generate, load_pair
from engine import static as st
from engine.kv import crop_to
from tests.support.tiny_models import PROMPTS

CASES = [
    dict(speculative=False),
    dict(speculative=False, temperature=0.9, seed=5),
    dict(speculative=True, gamma=4),
    dict(speculative=True, gamma=3, temperature=0.8, seed=3),
    dict(speculative=True, proposer="ngram"),
]


def _decode(pair, mode: str, prompts, **kw):
    before = pair.decode
    pair.decode = mode
    try:
        return generate(pair, prompts, max_new_tokens=24, **kw)
    finally:
        pair.decode = before


def _fields(result) -> list[tuple]:
    return [(t.token_id, t.origin, t.draft_prob, t.target_prob, t.target_margin, t.step,
             t.gamma) for t in result.trace]


@pytest.mark.parametrize("arch", ["llama", "qwen2", "gpt2"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(f"{k}{v}" for k, v in c.items()))
def test_static_cache_is_bit_identical_to_the_dynamic_one(load, arch, case):
    pair = load(f"{arch}-close", f"{arch}-target")
    prompts = PROMPTS[:3]  # different lengths: a left-padded batch
    dynamic = _decode(pair, "dynamic", prompts, **case)
    static = _decode(pair, "static", prompts, **case)
    for a, b in zip(dynamic, static, strict=True):
        assert b.token_ids == a.token_ids
        assert _fields(b) == _fields(a)
    single = _decode(pair, "static", PROMPTS[3], **case)
    assert single.token_ids == _decode(pair, "dynamic", PROMPTS[3], **case).token_ids


class _Replay:
    """Stands in for a CUDA graph on the CPU: each replay runs the graph's body eagerly."""

    def __init__(self, cache: st.StaticKV, model, graph: st._Graph, keep: int) -> None:
        self.cache, self.model, self.graph, self.keep = cache, model, graph, keep

    def replay(self) -> None:
        self.graph.logits = self.cache._graphed(self.model, self.graph.ids, self.keep)


@pytest.fixture
def cpu_graphs(monkeypatch):
    """Mode 'graphs' on the CPU, with `_Replay` for the capture; -> the caches made."""
    made: list[st.StaticKV] = []
    checkout = st.checkout

    def capture(self, model, ids, start, keep):
        graph = st._Graph(None, ids.clone(), None)
        graph.graph = _Replay(self, model, graph, keep)
        self._graphs[(ids.shape[1], keep)] = graph
        return graph

    def graphs_checkout(model, rows, columns, mode, limit):
        cache = checkout(model, rows, columns, "static", limit)
        cache.mode = mode
        made.append(cache)
        return cache

    monkeypatch.setattr(st.StaticKV, "_capture", capture)
    monkeypatch.setattr(st, "checkout", graphs_checkout)
    return made


@pytest.mark.parametrize("case", CASES[:4], ids=lambda c: "-".join(f"{k}{v}" for k, v in c.items()))
def test_a_graph_body_over_every_column_decodes_the_same_tokens(load, cpu_graphs, case):
    pair = load("llama-close", "llama-target")
    dynamic = _decode(pair, "dynamic", PROMPTS[:3], **case)
    graphed = _decode(pair, "graphs", PROMPTS[:3], **case)
    assert cpu_graphs and sum(c.replays for c in cpu_graphs) > 0
    for a, b in zip(dynamic, graphed, strict=True):
        assert b.token_ids == a.token_ids
        for x, y in zip(a.trace, b.trace, strict=True):
            assert y.target_prob == pytest.approx(x.target_prob, abs=1e-5)


def test_a_released_cache_is_reused_with_its_graphs(llama_pair):
    model = llama_pair.target
    st._pools.pop(model, None)
    first = st.checkout(model, 1, 40, "static", 1024)
    assert first.length == st.LENGTH_BUCKET  # rounded up, so similar decodes share it
    st.release(model, first)
    again = st.checkout(model, 1, 100, "static", 1024)
    assert again is first
    other = st.checkout(model, 1, 100, "static", 1024)  # the first is checked out
    assert other is not first
    st.release(model, again)
    st.release(model, other)
    assert st.checkout(model, 1, 300, "static", 1024).length == 2 * st.LENGTH_BUCKET
    assert st.checkout(model, 1, 300, "static", 260).length == 300  # the decode needs 300


def test_the_pool_keeps_a_bounded_number_of_free_caches(llama_pair):
    model = llama_pair.target
    st._pools.pop(model, None)
    made = [st.checkout(model, rows, 40, "static", 1024) for rows in range(1, 8)]
    for cache in made:
        st.release(model, cache)
    assert st._pools[model] == made[-st.FREE_CACHES:]  # the oldest went first
    assert st.checkout(model, 1, 40, "static", 1024) is not made[0]
    assert st.checkout(model, 7, 40, "static", 1024) is made[-1]


def test_a_forward_past_the_cache_is_refused(llama_pair):
    model = llama_pair.target
    cache = st.checkout(model, 1, 8, "static", 8)
    ids = torch.ones(1, 4, dtype=torch.long)
    with pytest.raises(ValueError, match="reaches column 10 of a 8-column cache"):
        cache.forward(model, ids, 6, True)


def test_rollback_of_a_static_cache_moves_no_data(llama_pair):
    cache = st.checkout(llama_pair.target, 1, 16, "static", 16)
    before = [k.clone() for k in cache.keys]
    crop_to(cache, 3)  # the next forward's start is the rollback
    assert all(torch.equal(a, b) for a, b in zip(before, cache.keys, strict=True))


def test_graphs_need_cuda_and_fall_back_to_the_static_cache_on_a_cpu(llama_pair):
    assert st.checkout(llama_pair.target, 1, 8, "graphs", 8).mode == "static"
    with pytest.raises(ValueError, match="mode 'static' or 'graphs'"):
        st.checkout(llama_pair.target, 1, 8, "dynamic", 8)


def test_load_pair_takes_a_decode_mode_and_refuses_others(model_dirs):
    pair = load_pair(model_dirs("llama-draft"), model_dirs("llama-target"), device="cpu",
                     decode="static")
    assert pair.decode == "static"
    auto = load_pair(model_dirs("llama-draft"), model_dirs("llama-target"), device="cpu",
                     decode="auto")
    assert auto.decode_choice is not None
    assert set(auto.decode_choice["ms_by_mode"]) == {"dynamic", "static"}  # no graphs on a CPU
    assert auto.decode in ("dynamic", "static")
    with pytest.raises(ValueError, match="decode must be one of"):
        load_pair(model_dirs("llama-draft"), model_dirs("llama-target"), device="cpu",
                  decode="fast")


def test_choose_measures_each_mode_and_keeps_dynamic_unless_clearly_faster(llama_pair):
    choice = st.choose(llama_pair.target, context=8, steps=6)
    assert set(choice.ms_by_mode) == {"dynamic", "static"}
    assert all(ms > 0 for ms in choice.ms_by_mode.values())
    fastest = min(choice.ms_by_mode, key=choice.ms_by_mode.__getitem__)
    if choice.mode != "dynamic":
        assert choice.mode == fastest
        assert choice.ms_by_mode[fastest] <= 0.9 * choice.ms_by_mode["dynamic"]


def test_the_sidecar_chooses_its_decode_mode_and_records_it(model_dirs, monkeypatch):
    from guardian.backends import local
    from guardian.settings import Settings

    dirs = {"draft_dir": model_dirs("llama-draft"), "target_dir": model_dirs("llama-target")}
    threads = torch.get_num_threads()
    try:
        auto = local.LocalEngineBackend.from_settings(Settings(**dirs, torch_threads=1,
                                                               batching="off"))
        described = auto.engine_description()
        assert described["decode"] == auto.pair.decode
        assert set(described["decode_ms"]) == {"dynamic", "static"}
        pinned = local.LocalEngineBackend.from_settings(Settings(**dirs, torch_threads=1,
                                                                 decode="static"))
        assert pinned.engine_description()["decode"] == "static"
        assert "decode_ms" not in pinned.engine_description()
        pinned.shutdown()
    finally:
        torch.set_num_threads(threads)


def test_settle_times_the_decode_mode_once_under_the_settled_thread_count(llama_pair,
                                                                          monkeypatch):
    from engine import loading, threads

    seen = []
    monkeypatch.setattr(loading, "choose_decode",
                        lambda pair: seen.append((pair, torch.get_num_threads())))
    before = torch.get_num_threads()
    pair = dataclasses.replace(llama_pair)
    try:
        threads.settle(pair, before + 1)  # no decode asked: the mode stays as loaded
        assert seen == [] and pair.decode == "dynamic"
        threads.settle(pair, before + 1, "auto")
        assert seen == [(pair, before + 1)]  # once, after the threads were set
        threads.settle(pair, before, "static")
        assert pair.decode == "static" and len(seen) == 1
    finally:
        torch.set_num_threads(before)
