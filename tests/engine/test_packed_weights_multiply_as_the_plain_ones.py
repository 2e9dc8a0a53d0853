"""oneDNN-packed CPU weights (engine.packed): the same products as F.linear, never stale,
never in autograd's way, and the same tokens from a packed pair as from a plain one."""

from __future__ import annotations

import copy

import pytest
import torch
import torch.nn.functional as F
from transformers import AutoModelForCausalLM

from engine import generate, load_pair, packed
from tests.support.tiny_models import PROMPTS

pytestmark = pytest.mark.skipif(not packed.available(), reason="torch built without oneDNN")


def _linear(bias: bool = True, seed: int = 0) -> torch.nn.Linear:
    torch.manual_seed(seed)
    return torch.nn.Linear(48, 80, bias=bias).eval()


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("shape", [(1, 48), (2, 48), (3, 48), (9, 48), (1, 1, 48), (1, 2, 48),
                                   (2, 5, 48), (4, 1, 48)])
def test_packed_rows_multiply_as_f_linear(shape, bias):
    layer = _linear(bias)
    plain = copy.deepcopy(layer)
    assert packed.pack_linears(layer) == 1
    x = torch.randn(shape)
    with torch.inference_mode():
        got, want = layer(x), plain(x)
    assert got.shape == want.shape
    rows = x.numel() // x.shape[-1]
    if rows < packed.MIN_ROWS:  # one row stays on F.linear: bit for bit
        assert torch.equal(got, want)
    else:
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)


def test_a_strided_input_multiplies_as_a_dense_one():
    layer = _linear()
    plain = copy.deepcopy(layer)
    packed.pack_linears(layer)
    x = torch.randn(3, 96)[:, :48]  # rows 96 floats apart: a view that reshape keeps
    assert not x.is_contiguous() and x.reshape(3, 48).stride() == (96, 1)
    with torch.inference_mode():
        torch.testing.assert_close(layer(x), plain(x), rtol=1e-5, atol=1e-5)


def test_an_edited_weight_is_repacked_before_its_next_use():
    layer = _linear()
    packed.pack_linears(layer)
    x = torch.randn(4, 48)
    with torch.inference_mode():
        before = layer(x)
        layer.weight.mul_(2.0)  # in place: the weight's version moves
        doubled = layer(x)
    torch.testing.assert_close(doubled, F.linear(x, layer.weight, layer.bias), rtol=1e-5,
                               atol=1e-5)
    assert not torch.allclose(doubled, before)
    with torch.no_grad():
        layer.weight.data = torch.zeros_like(layer.weight)  # new storage
    with torch.inference_mode():
        assert torch.allclose(layer(x), layer.bias.expand(4, -1))


def test_a_forward_that_needs_gradients_takes_f_linear():
    layer, plain = _linear(), _linear()
    packed.pack_linears(layer)
    x = torch.randn(5, 48)
    layer(x).square().sum().backward()
    plain(x).square().sum().backward()
    assert torch.equal(layer.weight.grad, plain.weight.grad)


def test_unpacking_and_plain_linears_restore_nn_linear():
    model = torch.nn.Sequential(_linear(seed=1), torch.nn.ReLU(), torch.nn.Linear(80, 8))
    assert packed.pack_linears(model) == 2 and packed.is_packed(model)
    with packed.plain_linears(model):
        assert not packed.is_packed(model)
        assert all(type(m) is torch.nn.Linear for m in model if hasattr(m, "weight"))
    assert packed.is_packed(model)
    twin = copy.deepcopy(model)  # a copy packs lazily on its first multi-row forward
    x = torch.randn(3, 48)
    with torch.inference_mode():
        torch.testing.assert_close(twin(x), model(x))
    assert packed.unpack_linears(model) == 2 and not packed.is_packed(model)


def test_only_cpu_float32_nn_linear_is_packed():
    assert packed.pack_linears(torch.nn.Linear(8, 4).to(torch.bfloat16)) == 0
    conv1d = AutoModelForCausalLM.from_config(__import__("transformers").GPT2Config(
        n_embd=32, n_layer=1, n_head=2, vocab_size=64))
    # gpt2's projections are Conv1D: only its head is an nn.Linear
    assert packed.pack_linears(conv1d) == 1


@pytest.mark.parametrize("arch", ["llama", "qwen2", "gpt2"])
def test_a_packed_pair_decodes_the_tokens_of_a_plain_one(model_dirs, arch):
    """Greedy, target-only and speculative: packing changes the rounding of multi-row
    forwards only, which the tiny models' margins absorb (tests/engine/conftest.py)."""
    draft, target = model_dirs(f"{arch}-draft"), model_dirs(f"{arch}-target")
    plain = load_pair(draft, target, device="cpu", kernels="plain")
    pack = load_pair(draft, target, device="cpu", kernels="packed")
    assert plain.kernels == "plain" and not packed.is_packed(plain.target)
    assert pack.kernels == "packed" and packed.is_packed(pack.target)
    for prompt in PROMPTS[:4]:
        for speculative in (False, True):
            a = generate(plain, prompt, speculative=speculative, max_new_tokens=16, gamma=4)
            b = generate(pack, prompt, speculative=speculative, max_new_tokens=16, gamma=4)
            assert a.token_ids == b.token_ids, (arch, prompt, speculative)
    ids = plain.tokenizer(PROMPTS[0], return_tensors="pt")["input_ids"]
    with torch.inference_mode():
        torch.testing.assert_close(pack.target(input_ids=ids).logits,
                                   plain.target(input_ids=ids).logits, rtol=1e-4, atol=1e-4)


def test_auto_records_what_it_measured_and_bad_values_are_refused(model_dirs):
    draft, target = model_dirs("llama-draft"), model_dirs("llama-target")
    pair = load_pair(draft, target, device="cpu")  # kernels="auto"
    assert pair.kernels in packed.KERNELS
    assert set(pair.kernels_choice["kernels_ms"]) == {"plain", "packed"}
    assert packed.is_packed(pair.target) == (pair.kernels == "packed")
    described = pair.decode_description()
    assert described["kernels"] == pair.kernels and "kernels_ms" in described
    with pytest.raises(ValueError, match="kernels must be one of"):
        load_pair(draft, target, device="cpu", kernels="fast")


@pytest.mark.parametrize(("plain_ms", "packed_ms", "chosen"),
                         [(10.0, 8.9, "packed"), (10.0, 9.5, "plain"), (10.0, 12.0, "plain")])
def test_auto_packs_only_when_clearly_faster(monkeypatch, plain_ms, packed_ms, chosen):
    monkeypatch.setattr(packed, "_forward_ms",
                        lambda *a, **k: {"plain": plain_ms, "packed": packed_ms})
    model = torch.nn.Sequential(_linear())
    choice = packed.choose_kernels(model)
    assert choice.kernels == chosen
    assert packed.is_packed(model) == (chosen == "packed")
