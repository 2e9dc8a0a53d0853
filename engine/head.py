"""Float32 logits from a half-precision model: its output projection (lm_head) run in float32.

A bf16 model's logits come out rounded to bf16 — 8 significant bits, so between 16 and 32 one
step is 0.125 — and that rounding is a large part of the noise the equivalence checks must
forgive: on an H100 and an H200 the verify forward and one-token
decoding differed by at most 0.14–0.16 in a logit and exactly 0.125 (one step) in the top two
(docs/benchmarks/tolerance.md), and two top logits rounded to the same value are an exact tie a single
rounding flips. With the projection in float32 the logits keep the hidden state's precision:
on the demo pair in bf16 (CPU) the top-2 disagreement halved, the emitted log-probability's
fell 3.4x and clean traffic flipped half as often, so the tolerances `guardian bench
tolerance` measures shrink and the verdicts catch smaller real errors (the rest of the noise
is the hidden state's own bf16 arithmetic). SGLang offers the same (`--enable-fp32-lm-head`).

The cost: a float32 copy of each model's projection (vocabulary x hidden x 4 bytes: 25 MB
each for the large demo pair's 8,192 x 768, 2.1 GB for a 128k x 4096 head; a tied one keeps
its bf16 embedding too) and a float32 matmul over the positions a forward keeps (a join's
prefill: each row's last, engine.ragged; a verify: γ + 1 per row). Float32 models are left as
they are. The models are for inference: `save_pretrained` would not write the replaced head.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["Float32Head", "float32_logits", "logits_dtype"]


class Float32Head(nn.Module):
    """A Linear output projection computed in float32 (its input cast up first)."""

    def __init__(self, linear: nn.Linear) -> None:
        super().__init__()
        with torch.no_grad():
            # empty_like keeps the source's strides
            weight = torch.empty_like(linear.weight, dtype=torch.float32)
            weight.copy_(linear.weight)
            bias = None if linear.bias is None else linear.bias.detach().float()
        self.in_features, self.out_features = linear.in_features, linear.out_features
        # Buffers, not parameters: the model's parameter count and dtype stay its own.
        self.register_buffer("weight", weight, persistent=False)
        self.register_buffer("bias", bias, persistent=False)

    def forward(self, hidden: torch.Tensor) -> torch.Tensor:
        # `.float()` is free on the float32 copy; it keeps the head working (same values: a
        # bf16 weight is exact in float32) if transformers re-ties it to the bf16 embedding
        # (`tie_weights`) or the model is cast (`.to(torch.bfloat16)`).
        bias = None if self.bias is None else self.bias.float()
        return F.linear(hidden.float(), self.weight.float(), bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, float32"


def _head(model: nn.Module) -> nn.Module | None:
    get = getattr(model, "get_output_embeddings", None)
    return get() if callable(get) else None


def float32_logits(model: nn.Module) -> bool:
    """Run `model`'s output projection in float32 -> whether it changed anything (False for
    a float32 model, or one whose head is not a plain Linear)."""
    head = _head(model)
    if (not isinstance(head, nn.Linear) or head.weight.dtype == torch.float32
            or not head.weight.is_floating_point()):
        return False
    model.set_output_embeddings(Float32Head(head))  # type: ignore[operator]
    return True


def logits_dtype(model: nn.Module) -> torch.dtype:
    """The dtype `model`'s logits come out in: float32 behind a Float32Head, else its own."""
    if isinstance(_head(model), Float32Head):
        return torch.float32
    return next(model.parameters()).dtype
