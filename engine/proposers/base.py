"""The proposer seam: what proposes a speculative step's tokens, and the contract it returns.

A `Proposer` proposes up to gamma tokens per row for the next speculative step, together
with the distribution q each was sampled from, or none when the proposer is deterministic
(prompt lookup): then q is the point mass δ_x and the rejection sampler accepts x with
probability p(x) and resamples from norm(max(0, p - δ_x)). The verifier never asks which
proposer it is talking to; a new proposer (EAGLE/Medusa-style heads, say) is one more
module beside draft_model.py and ngram.py plus one entry in `ProposerKind`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

import torch

from engine.sampling import SamplingParams, token_probs

if TYPE_CHECKING:
    from engine.batch import Batch

# Must equal guardian.core.enums.ProposerKind (a test keeps them equal).
ProposerKind = Literal["draft_model", "ngram"]


@dataclass(frozen=True, slots=True)
class Proposal:
    """One step's proposed tokens. Rows may propose fewer than gamma tokens (or none)."""

    tokens: torch.Tensor  # (B, gamma) int64; row i's columns from lengths[i] on are filler
    lengths: list[int]  # tokens row i proposed, <= gamma (host side: the trace needs it)
    # (B, gamma, V) processed distributions the tokens were sampled from; None when the
    # proposal is deterministic, i.e. q = δ_x (no one-hot is ever materialised).
    q: torch.Tensor | None = None
    # (B, gamma, V) raw logits of a greedy draft model, kept only so the trace can report
    # q(x) as its softmax at temperature 1 (sampling.py's greedy convention), computed at
    # the emitted tokens alone. Verification does not read it.
    draft_logits: torch.Tensor | None = None
    forwards: int = 0  # draft-model forwards spent proposing (0 for prompt lookup)

    @classmethod
    def empty(cls, batch_size: int, device: torch.device) -> Proposal:
        """Nothing proposed: the step is a plain target step (one bonus token per row)."""
        return cls(torch.empty((batch_size, 0), dtype=torch.long, device=device),
                   [0] * batch_size)

    @property
    def gamma(self) -> int:
        return self.tokens.shape[1]

    def lengths_tensor(self) -> torch.Tensor | None:
        """(B,) proposal lengths, or None when every row proposed the full gamma."""
        if all(n == self.gamma for n in self.lengths):
            return None
        return torch.tensor(self.lengths, device=self.tokens.device)

    def q_at(self, tokens: torch.Tensor) -> torch.Tensor:
        """q(token) at each proposal position: (B, gamma) ids -> (B, gamma) float32.

        For the trace: the tokens are those the step emitted there (a resampled token's
        q is the proposer's probability of *that* token, 0 under a point mass).
        """
        if self.q is not None:
            return self.q.gather(-1, tokens.unsqueeze(-1)).squeeze(-1)
        if self.draft_logits is not None:
            return token_probs(self.draft_logits, tokens)
        return (tokens == self.tokens).float()


class Proposer(Protocol):
    """Proposes tokens for one request's batch; owns whatever state that takes (a KV cache,
    the token history). One instance per request."""

    def prefill(self, batch: Batch) -> int:
        """See all but the last prompt token before the first step -> forwards it ran."""
        ...

    def propose(self, batch: Batch, committed: int, gamma: int, params: SamplingParams,
                generator: torch.Generator | None) -> Proposal:
        """Propose up to `gamma` tokens per row to follow columns [0, committed)."""
        ...

    def commit(self, committed: int, emitted: list[list[int]]) -> None:
        """The step appended `emitted[i]` to row i; columns [0, committed) are now final.
        Forget anything proposed past them."""
        ...
