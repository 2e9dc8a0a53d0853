"""Float32 logits from a half-precision model: its output projection (lm_head) run in float32.

A bf16 model's logits come out rounded to bf16 — 8 significant bits, so between 16 and 32 one
step is 0.125 — and that rounding, not the model's arithmetic, is most of the noise the
equivalence checks must forgive: on an H100 and an H200 the verify forward and one-token
decoding differed by at most 0.14–0.16 in a logit and exactly 0.125 (one step) in the top two
(BENCHMARKS.md), and two top logits rounded to the same value are an exact tie a single
rounding flips. With the projection in float32 the logits keep the hidden state's precision, so
the near-tie, distribution and drafter tolerances `guardian bench tolerance` measures shrink
and the verdicts catch smaller real errors. SGLang offers the same (`--enable-fp32-lm-head`).

The cost: a float32 copy of the projection (vocabulary x hidden x 4 bytes: 12.6 MB for the
large demo pair, 2.1 GB for a 128k x 4096 head) and a float32 matmul for the few rows a decoding
step keeps. Float32 models are left as they are.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["Float32Head", "float32_logits"]


class Float32Head(nn.Module):
    """A Linear output projection computed in float32 (its input cast up first)."""

    def __init__(self, linear: nn.Linear) -> None:
        super().__init__()
        with torch.no_grad():
            # empty_like keeps the source's strides (engine.layout's column-major on CPU)
            weight = torch.empty_like(linear.weight, dtype=torch.float32)
            weight.copy_(linear.weight)
            bias = None if linear.bias is None else linear.bias.detach().float()
        self.in_features, self.out_features = linear.in_features, linear.out_features
        # Buffers, not parameters: the model's parameter count and dtype stay its own.
        self.register_buffer("weight", weight, persistent=False)
        self.register_buffer("bias", bias, persistent=False)

    def forward(self, hidden: torch.Tensor) -> torch.Tensor:
        return F.linear(hidden.float(), self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, float32"


def float32_logits(model: nn.Module) -> bool:
    """Run `model`'s output projection in float32 -> whether it changed anything (False for
    a float32 model, or one whose head is not a plain Linear)."""
    get = getattr(model, "get_output_embeddings", None)
    head = get() if callable(get) else None
    if (not isinstance(head, nn.Linear) or head.weight.dtype == torch.float32
            or not head.weight.is_floating_point()):
        return False
    model.set_output_embeddings(Float32Head(head))  # type: ignore[operator]
    return True
