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
    lin.weight.data = lin.weight.data.t().contiguous().t()  # column-major, as on CPU
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
