"""Logits processing shared by draft and target: temperature, min_p, top-k, top-p, sampling.

(The controls that read the token history - penalties, logit_bias - adjust the raw logits
before this, in engine.controls.)

Speculative decoding is lossless only if the draft's q and the target's p are built by the
*same* transformation of their raw logits, so both sides call `process_logits` and nothing
else. Greedy decoding (temperature 0) never needs these distributions to pick a token
(argmax of the raw logits), but the trace still reports probabilities: for greedy they are
the model's own softmax at temperature 1, which is what a reviewer wants to see next to a
top-2 margin.

Numeric safety: every temperature > 0 and top_p > 0 the API accepts gives a finite
distribution. A tiny temperature (5e-324 is 0 in float32; 1e-30 overflows logits / t) is
computed as softmax((logits - max) / t), the same distribution without the overflow, which
tends to the argmax (uniform over exact ties) as t -> 0; a top_p below the top-1 token's mass
(1e-300 is 0 in float32) keeps the top-1 token. `sample` never hands torch.multinomial a
row with NaN, inf, negative entries or no mass (a device-side assert on CUDA).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import torch

if TYPE_CHECKING:
    from engine.grammar import GrammarConstraint

# Below this temperature logits / t may overflow float32 (|logit| > 3.4e38 * t); the shifted
# form is used there only, so ordinary temperatures compute exactly as before.
_SMALL_T = 1e-3
_TINY = torch.finfo(torch.float32).tiny


@dataclass(frozen=True, slots=True)
class SamplingParams:
    temperature: float = 0.0  # 0 = greedy (argmax); >0 divides the logits before softmax
    top_p: float = 1.0  # nucleus mass kept; 1.0 disables (saves a sort over V per row)
    top_k: int = 0  # keep the k largest logits; 0 disables
    # Drop tokens whose probability (after temperature) is below min_p x the top token's; 0
    # disables. Applied before top-k / top-p, as vLLM does.
    min_p: float = 0.0
    # History-dependent controls, applied to the raw logits by engine.controls (both paths
    # alike, draft tokens of the block included): OpenAI's presence / frequency penalties
    # over the output, vLLM's repetition penalty over prompt + output, and logit_bias as
    # (token id, bias) pairs.
    presence_penalty: float = 0.0
    frequency_penalty: float = 0.0
    repetition_penalty: float = 1.0
    logit_bias: tuple[tuple[int, float], ...] = ()
    # The request's structure (engine.grammar): tokens it refuses are masked out of the raw
    # logits on every path, after the penalties (engine.controls). One per request.
    grammar: GrammarConstraint | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not self.temperature >= 0.0:
            raise ValueError(f"temperature must be >= 0 (0 means greedy), got {self.temperature}")
        if not 0.0 < self.top_p <= 1.0:
            raise ValueError(f"top_p must be in (0, 1], got {self.top_p}")
        if self.top_k < 0:
            raise ValueError(f"top_k must be >= 0 (0 disables it), got {self.top_k}")
        if not 0.0 <= self.min_p <= 1.0:
            raise ValueError(f"min_p must be in [0, 1], got {self.min_p}")
        if not self.repetition_penalty > 0.0:
            raise ValueError(f"repetition_penalty must be > 0, got {self.repetition_penalty}")
        for name in ("presence_penalty", "frequency_penalty"):
            if not -2.0 <= getattr(self, name) <= 2.0:
                raise ValueError(f"{name} must be in [-2, 2], got {getattr(self, name)}")
        if any(t < 0 or b != b for t, b in self.logit_bias):
            raise ValueError("logit_bias takes (token id >= 0, finite bias) pairs")

    @property
    def greedy(self) -> bool:
        return self.temperature == 0.0


def process_logits(logits: torch.Tensor, params: SamplingParams) -> torch.Tensor:
    """(..., V) raw logits -> (..., V) float32 probabilities the sampler draws from."""
    logits = logits.float()
    if params.greedy:
        return torch.softmax(logits, dim=-1)
    if params.temperature < _SMALL_T:
        # Shift first: (l - max) / t is <= 0 and at most -inf, never NaN; clamp t so a
        # float32-underflowing temperature divides by the smallest normal instead of 0.
        logits = logits - logits.amax(dim=-1, keepdim=True)
        logits = logits / max(params.temperature, _TINY)
    else:
        logits = logits / params.temperature
    vocab = logits.shape[-1]
    if params.min_p > 0.0:
        # p(x) < min_p * max p  <=>  logit(x) < max logit + log(min_p): no softmax needed
        floor = logits.amax(dim=-1, keepdim=True) + math.log(params.min_p)
        logits = logits.masked_fill(logits < floor, float("-inf"))
    if 0 < params.top_k < vocab:
        kth = torch.topk(logits, params.top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = torch.softmax(logits, dim=-1)
    if params.top_p < 1.0:
        sorted_probs, order = probs.sort(dim=-1, descending=True)
        # Keep the smallest prefix whose mass reaches top_p; the top-1 token always survives.
        drop = (sorted_probs.cumsum(dim=-1) - sorted_probs) >= params.top_p
        drop[..., 0] = False  # top_p may round to 0 in float32 (e.g. 1e-300)
        sorted_probs = sorted_probs.masked_fill(drop, 0.0)
        probs = torch.zeros_like(probs).scatter_(-1, order, sorted_probs)
        probs = probs / probs.sum(dim=-1, keepdim=True)
    return probs


def sample(probs: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
    """Draw one token per row: (..., V) probabilities -> (...) int64 token ids."""
    flat = probs.reshape(-1, probs.shape[-1])
    # Without a host sync: invalid entries -> 0, and a row left without mass puts all of it on
    # its largest entry. A valid row passes unchanged.
    flat = torch.where(torch.isfinite(flat) & (flat > 0), flat, 0.0)
    empty = flat.sum(dim=-1, keepdim=True) <= 0
    flat = torch.where(empty, torch.zeros_like(flat).scatter_(
        -1, flat.argmax(dim=-1, keepdim=True), 1.0), flat)
    return torch.multinomial(flat, 1, generator=generator).view(probs.shape[:-1])


def token_probs(logits: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    """softmax(logits)[tokens] without materialising the softmax: (..., V), (...) -> (...)."""
    logits = logits.float()
    picked = logits.gather(-1, tokens.unsqueeze(-1)).squeeze(-1)
    return torch.exp(picked - torch.logsumexp(logits, dim=-1))


def top2_margin(logits: torch.Tensor) -> torch.Tensor:
    """Top-1 minus top-2 raw logit per row: (..., V) -> (...) float32, >= 0."""
    top = torch.topk(logits.float(), 2, dim=-1).values
    return top[..., 0] - top[..., 1]
