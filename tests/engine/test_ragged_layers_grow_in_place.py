"""engine.ragged.GrowLayer: the continuous engine's cache layers grow in place.

A forward writes its columns into a buffer of spare capacity instead of concatenating a copy
of the whole layer. What a model reads must not change: the layer's keys are a prefix view
of the buffer, `crop` keeps them one, a rebuilt row set is adopted by one copy, and the
continuous engine decodes the same tokens with the layers grown in place as with
transformers' concatenating DynamicLayer: greedy and seeded sampled, rows joining every step,
every architecture of the tiny pairs.
"""

from __future__ import annotations

import pytest
import torch

from engine import ragged
from tests.engine.test_continuous import _mixed, _req, _run
from tests.support.tiny_models import PROMPTS


def test_a_one_row_cache_concatenates_as_transformers_does():
    view, buf = ragged._append(torch.tensor([]), None, torch.randn(1, 2, 3, 4))
    more = torch.randn(1, 2, 1, 4)
    grown, buf = ragged._append(view, buf, more)
    assert buf is None and torch.equal(grown, torch.cat([view, more], dim=-2))


def test_a_forward_writes_in_place_until_the_buffer_is_full():
    new = torch.randn(2, 3, 5, 4)
    view, buf = ragged._append(torch.tensor([]), None, new)
    assert torch.equal(view, new) and buf.shape[-2] == ragged._MIN_CAPACITY
    first = buf.data_ptr()
    for _ in range(11):  # 5 + 11 x 5 = 60 <= 64: in place
        more = torch.randn(2, 3, 5, 4)
        before = view.clone()
        view, buf = ragged._append(view, buf, more)
        assert buf.data_ptr() == first
        assert torch.equal(view[..., :-5, :], before) and torch.equal(view[..., -5:, :], more)
    kept = view.clone()
    view, buf = ragged._append(view, buf, torch.randn(2, 3, 5, 4))  # 65 > 64: grows x2
    assert buf.data_ptr() != first and buf.shape[-2] == 2 * 65
    assert torch.equal(view[..., :60, :], kept)


def test_a_cropped_view_stays_a_prefix_and_a_foreign_tensor_is_adopted_by_a_copy():
    view, buf = ragged._append(torch.tensor([]), None, torch.randn(2, 2, 10, 4))
    cropped = view[..., :7, :]  # what DynamicLayer.crop leaves
    again, same = ragged._append(cropped, buf, torch.ones(2, 2, 1, 4))
    assert same is buf and again.shape[-2] == 8 and torch.equal(again[..., 7, :],
                                                                torch.ones(2, 2, 4))
    foreign = torch.randn(3, 2, 6, 4)  # a row set rebuilt by select / extend / compact
    adopted, fresh = ragged._append(foreign, buf, torch.zeros(3, 2, 1, 4))
    assert fresh is not buf and torch.equal(adopted[..., :6, :], foreign)


def _both(fn):
    out = {}
    for grow in (True, False):
        before = ragged.GROW
        ragged.GROW = grow
        try:
            out[grow] = fn()
        finally:
            ragged.GROW = before
    return out


@pytest.mark.parametrize("arch", ["llama", "qwen2", "gpt2"])
@pytest.mark.parametrize("join_every", [0, 1])
def test_the_engine_decodes_the_same_tokens_with_layers_grown_in_place(load, arch, join_every):
    pair = load(f"{arch}-close", f"{arch}-target")
    out = _both(lambda: _run(pair, _mixed(pair), join_every=join_every))
    assert out[True] == out[False]


def test_seeded_sampled_rows_draw_the_same_tokens_with_layers_grown_in_place(load):
    pair = load("llama-close", "llama-target")

    def reqs():
        return [_req(pair, p, speculative=True, temperature=0.9, seed=7 + i, max_new=16)
                for i, p in enumerate(PROMPTS)]

    out = _both(lambda: _run(pair, reqs(), join_every=1))
    assert out[True] == out[False]


def test_the_engines_cache_layers_are_grown_in_place(load):
    pair = load("llama-close", "llama-target")
    from engine.continuous import ContinuousEngine, Sequence

    eng = ContinuousEngine(pair)
    eng.join([Sequence(pair, _req(pair, p, speculative=False, max_new=8)) for p in PROMPTS[:3]])
    eng.step()
    layer = eng.target.cache.layers[0]
    assert isinstance(layer, ragged.GrowLayer)
    ptr = layer._kbuf.data_ptr()
    eng.step()
    assert eng.target.cache.layers[0]._kbuf.data_ptr() == ptr  # no copy of the layer
