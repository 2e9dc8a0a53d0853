"""The rejection sampler that makes speculative decoding lossless.

Leviathan, Kalman & Matias 2023, "Fast Inference from Transformers via Speculative
Decoding" (arXiv:2211.17192) and Chen et al. 2023, "Accelerating Large Language Model
Decoding with Speculative Sampling" (arXiv:2302.01318).

Terms: the draft proposed tokens x_1..x_gamma, sampled from its processed distributions q_i;
one target forward gave the processed distributions p_1..p_{gamma+1} at the same positions.
Draft token x_i is *accepted* with probability min(1, p_i(x_i) / q_i(x_i)); at the first
rejection the step emits a *resampled* token from norm(max(0, p_i - q_i)); when every draft
token is accepted it emits a *bonus* token from p_{gamma+1}. So a step's output is

    output = accepted draft tokens + (one resampled token | one bonus token)

and every emitted token is distributed exactly as the target alone would have sampled it.
Greedy decoding is the temperature -> 0 limit: accept iff x_i == argmax p_i, and the
resampled/bonus token is the target's argmax.

A deterministic proposer (n-gram prompt lookup) proposes x with q = δ_x (the point mass):
then min(1, p(x)/q(x)) = p(x) and the residual is norm(max(0, p - δ_x)), p without x.

Pure tensor functions over a batch: shapes (B, gamma) for tokens, (B, gamma[+1], V) for
distributions. They return the per-row accepted count n and the token that follows the
accepted prefix (resampled when n < gamma, bonus when n == gamma). Rows may propose fewer
than gamma tokens (`lengths`); their later positions are never judged.
"""

from __future__ import annotations

import torch

from engine.sampling import sample


def leading_true(accept: torch.Tensor) -> torch.Tensor:
    """Number of leading True values per row: (B, gamma) bool -> (B,) int64."""
    return accept.long().cumprod(dim=-1).sum(dim=-1)


def greedy_accept(
    draft_tokens: torch.Tensor, target_argmax: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Greedy verification.

    draft_tokens (B, gamma), target_argmax (B, gamma+1) -> (n (B,), next_token (B,)).
    """
    n = leading_true(draft_tokens == target_argmax[:, :-1])
    next_token = target_argmax.gather(1, n.unsqueeze(1)).squeeze(1)
    return n, next_token


def rejection_sample(
    draft_tokens: torch.Tensor,  # (B, gamma) int64, x_i ~ q_i
    q: torch.Tensor | None,  # (B, gamma, V) processed draft distributions; None: q_i = δ_{x_i}
    p: torch.Tensor,  # (B, gamma+1, V) processed target distributions
    generator: torch.Generator | None = None,
    lengths: torch.Tensor | None = None,  # (B,) tokens row i proposed; None: all gamma
) -> tuple[torch.Tensor, torch.Tensor]:
    """Sampled verification -> (n (B,), next_token (B,)): resampled if n < length else bonus.

    A deterministic proposal (q None) is a point mass: x_i is accepted with probability
    p_i(x_i) and the residual norm(max(0, p_i - δ_{x_i})) is p_i without x_i. Row i's
    positions from lengths[i] on were not proposed: never accepted, and the token at
    n == lengths[i] is that row's bonus token, drawn from p there.
    """
    batch, gamma = draft_tokens.shape
    p_x = p[:, :gamma].gather(-1, draft_tokens.unsqueeze(-1)).squeeze(-1)  # (B, gamma)
    # min(1, p/q) with q = δ_x is p(x): a point mass has q(x) = 1.
    q_x = torch.ones_like(p_x) if q is None else q.gather(-1, draft_tokens.unsqueeze(-1)).squeeze(-1)
    u = torch.rand(q_x.shape, generator=generator, device=q_x.device)
    # u < p/q written without the division; q(x) > 0 because x was sampled from q.
    accept = u * q_x < p_x
    if lengths is not None:
        accept &= torch.arange(gamma, device=accept.device) < lengths.unsqueeze(1)
    n = leading_true(accept)
    rows = torch.arange(batch, device=p.device)
    p_n = p[rows, n]  # (B, V)
    # Past the last proposed position the "residual" is p itself: that is the bonus token.
    if q is None:
        q_n = p.new_zeros((batch, p.shape[-1]))
        if gamma:
            x_n = draft_tokens.gather(1, n.clamp_max(gamma - 1).unsqueeze(1))  # (B, 1)
            judged = n < (gamma if lengths is None else lengths)
            q_n.scatter_(1, x_n, judged.unsqueeze(1).to(q_n.dtype))
    else:
        q_n = torch.cat([q, q.new_zeros((batch, 1, q.shape[-1]))], dim=1)[rows, n]
        if lengths is not None:
            q_n = q_n * (n < lengths).unsqueeze(1).to(q_n.dtype)
    residual = (p_n - q_n).clamp_min(0.0)
    mass = residual.sum(dim=-1, keepdim=True)
    # mass == 0 only when p_n == q_n, where rejection has probability 0; falling back to p_n
    # keeps the function total without changing the distribution.
    residual = torch.where(mass > 0, residual / mass.clamp_min(1e-30), p_n)
    return n, sample(residual, generator)
