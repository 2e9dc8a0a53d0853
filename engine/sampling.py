"""Logits processing shared by draft and target: temperature, top-k, top-p, sampling.

Speculative decoding is lossless only if the draft's q and the target's p are built by the
*same* transformation of their raw logits, so both sides call `process_logits` and nothing
else. Greedy decoding (temperature 0) never needs these distributions to pick a token
(argmax of the raw logits), but the trace still reports probabilities: for greedy they are
the model's own softmax at temperature 1, which is what a reviewer wants to see next to a
top-2 margin.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True, slots=True)
class SamplingParams:
    temperature: float = 0.0  # 0 = greedy (argmax); >0 divides the logits before softmax
    top_p: float = 1.0  # nucleus mass kept; 1.0 disables (saves a sort over V per row)
    top_k: int = 0  # keep the k largest logits; 0 disables

    def __post_init__(self) -> None:
        if not self.temperature >= 0.0:
            raise ValueError(f"temperature must be >= 0 (0 means greedy), got {self.temperature}")
        if not 0.0 < self.top_p <= 1.0:
            raise ValueError(f"top_p must be in (0, 1], got {self.top_p}")
        if self.top_k < 0:
            raise ValueError(f"top_k must be >= 0 (0 disables it), got {self.top_k}")

    @property
    def greedy(self) -> bool:
        return self.temperature == 0.0


def process_logits(logits: torch.Tensor, params: SamplingParams) -> torch.Tensor:
    """(..., V) raw logits -> (..., V) float32 probabilities the sampler draws from."""
    logits = logits.float()
    if params.greedy:
        return torch.softmax(logits, dim=-1)
    logits = logits / params.temperature
    vocab = logits.shape[-1]
    if 0 < params.top_k < vocab:
        kth = torch.topk(logits, params.top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = torch.softmax(logits, dim=-1)
    if params.top_p < 1.0:
        sorted_probs, order = probs.sort(dim=-1, descending=True)
        # Keep the smallest prefix whose mass reaches top_p; the top-1 token always survives.
        drop = (sorted_probs.cumsum(dim=-1) - sorted_probs) >= params.top_p
        sorted_probs = sorted_probs.masked_fill(drop, 0.0)
        probs = torch.zeros_like(probs).scatter_(-1, order, sorted_probs)
        probs = probs / probs.sum(dim=-1, keepdim=True)
    return probs


def sample(probs: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
    """Draw one token per row: (..., V) probabilities -> (...) int64 token ids."""
    flat = probs.reshape(-1, probs.shape[-1])
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
