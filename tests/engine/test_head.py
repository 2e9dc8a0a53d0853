"""Float32 logits from a bf16 model (engine/head.py): the output projection in float32."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from engine import load_pair
from engine.head import Float32Head, float32_logits


@pytest.mark.parametrize("arch", ["llama", "qwen2", "gpt2"])
def test_bf16_models_get_float32_logits_and_fp32_models_are_left_alone(model_dirs, arch) -> None:  # type: ignore[no-untyped-def]
    draft, target = model_dirs(f"{arch}-close"), model_dirs(f"{arch}-target")
    half = load_pair(draft, target, device="cpu", dtype="bfloat16", fp32_logits=False)
    full = load_pair(draft, target, device="cpu", dtype="bfloat16")
    for model in (full.draft, full.target):
        assert isinstance(model.get_output_embeddings(), Float32Head)
    # the models' parameters stay bf16 (the float32 copy is a buffer, never saved)
    assert {p.dtype for p in full.target.parameters()} == {torch.bfloat16}
    assert "lm_head.weight" not in full.target.state_dict()
    ids = torch.tensor([[5, 17, 42, 9, 3, 77, 12]])
    with torch.inference_mode():
        hidden = full.target.model(ids).last_hidden_state if arch != "gpt2" else \
            full.target.transformer(ids).last_hidden_state
        got = full.target(ids).logits
        old = half.target(ids).logits
    assert got.dtype == torch.float32 and old.dtype == torch.bfloat16
    head = half.target.get_output_embeddings()
    want = hidden.float() @ head.weight.float().T
    if head.bias is not None:
        want = want + head.bias.float()
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
    # bf16 logits are the float32 ones rounded to 8 significant bits: within one step ...
    torch.testing.assert_close(old.float(), got, rtol=2 ** -8, atol=0)
    # ... and most float32 logits are not bf16 values at all (the precision the head kept)
    assert (got.to(torch.bfloat16).float() != got).float().mean() > 0.9
    fp32 = load_pair(draft, target, device="cpu")
    assert isinstance(fp32.target.get_output_embeddings(), nn.Linear)


def test_float32_logits_keeps_the_weight_layout_and_refuses_what_it_cannot_change() -> None:
    lin = nn.Linear(8, 16, bias=True).to(torch.bfloat16)
    lin.weight.data = lin.weight.data.t().contiguous().t()  # any layout is kept
    head = Float32Head(lin)
    assert head.weight.dtype == torch.float32 and head.weight.stride() == lin.weight.stride()
    assert head.bias is not None and head.bias.dtype == torch.float32
    x = torch.randn(3, 8, dtype=torch.bfloat16)
    torch.testing.assert_close(head(x), x.float() @ lin.weight.float().T + lin.bias.float())
    assert "float32" in repr(head)

    class NoHead(nn.Module):
        def get_output_embeddings(self) -> None:
            return None

    assert float32_logits(NoHead()) is False
    assert float32_logits(nn.Linear(2, 2)) is False  # no get_output_embeddings at all


def test_the_float32_head_survives_retying_and_casting(model_dirs) -> None:  # type: ignore[no-untyped-def]
    """transformers' tie_weights() puts the (bf16) input embedding back as the head's weight,
    and .to(bf16) casts its buffer: the head keeps working with the same values (a bf16
    weight is exact in float32)."""
    from engine.head import logits_dtype

    pair = load_pair(model_dirs("gpt2-close"), model_dirs("gpt2-target"), device="cpu",
                     dtype="bfloat16")  # gpt2 ties its head to the token embedding
    ids = torch.tensor([[5, 17, 42, 9]])
    with torch.inference_mode():
        before = pair.target(ids).logits
        pair.target.tie_weights()
        retied = pair.target(ids).logits
        pair.target.to(torch.bfloat16)
        cast = pair.target(ids).logits
    assert before.dtype == retied.dtype == cast.dtype == torch.float32
    torch.testing.assert_close(retied, before, rtol=0, atol=0)
    torch.testing.assert_close(cast, before, rtol=0, atol=0)
    assert logits_dtype(pair.target) == torch.float32
    plain = load_pair(model_dirs("gpt2-close"), model_dirs("gpt2-target"), device="cpu",
                      dtype="bfloat16", fp32_logits=False)
    assert logits_dtype(plain.target) == torch.bfloat16


def test_a_join_projects_only_the_positions_it_keeps(model_dirs) -> None:  # type: ignore[no-untyped-def]
    """A join's prefill feeds whole prompts but keeps one logit row per request: the (float32)
    head sees only the distinct last positions, not every prompt position x the vocabulary."""
    from engine.continuous import ContinuousEngine, Sequence, SequenceRequest
    from engine.controllers import ConstantGamma
    from engine.sampling import SamplingParams

    pair = load_pair(model_dirs("llama-close"), model_dirs("llama-target"), device="cpu",
                     dtype="bfloat16")
    shapes: list[tuple[int, ...]] = []
    hook = pair.target.get_output_embeddings().register_forward_hook(
        lambda _m, args, _out: shapes.append(tuple(args[0].shape)))
    try:
        engine = ContinuousEngine(pair, gamma_cap=lambda _size: 2)
        engine.join([Sequence(pair, SequenceRequest(
            prompt=list(range(5, 5 + n)), params=SamplingParams(), max_new_tokens=4,
            speculative=True, controller=ConstantGamma(2))) for n in (30, 20, 20)])
        assert shapes == [(3, 2, 64)]  # prefill of 29/19/19 tokens: positions 28 and 18 only
        engine.step()
        # the verify forward keeps every fed position (each is judged): γ + 1 = 3
        assert shapes[-1] == (3, 3, 64)
    finally:
        hook.remove()
