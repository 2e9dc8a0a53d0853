"""Proposers: what drafts a speculative step's tokens (the Proposer seam, see base.py).

- `draft_model`: a small model of the same tokenizer samples gamma tokens from its q.
- `ngram`: prompt lookup, no model; a deterministic proposal (q = δ_x).

`ProposerConfig` is what a caller picks per request; `build` makes the per-request proposer
of the one-at-a-time loop. The continuous engine's, over all of its rows at once:
engine/proposers/batched.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import get_args

from engine.batch import Batch
from engine.loading import Pair
from engine.proposers.base import Proposal, Proposer, ProposerKind
from engine.proposers.draft_model import DraftModelProposer
from engine.proposers.ngram import NgramProposer, prompt_lookup

PROPOSER_KINDS: tuple[str, ...] = get_args(ProposerKind)


def _draft_model(pair: Pair, batch: Batch, config: ProposerConfig) -> Proposer:
    return DraftModelProposer(pair.draft, batch)


def _ngram(pair: Pair, batch: Batch, config: ProposerConfig) -> Proposer:
    return NgramProposer(batch, config.prompt_lookup_min, config.prompt_lookup_max)


# The registration a new proposer adds (with its name in `ProposerKind`; a test checks that
# every kind has a builder and that the kinds equal guardian.core.enums.ProposerKind).
BUILDERS: dict[str, Callable[[Pair, Batch, ProposerConfig], Proposer]] = {
    "draft_model": _draft_model,
    "ngram": _ngram,
}


@dataclass(frozen=True, slots=True)
class ProposerConfig:
    kind: ProposerKind = "draft_model"
    # Prompt lookup's suffix lengths (vLLM's prompt_lookup_min / prompt_lookup_max): longer
    # matches predict better, shorter ones match more often; the longest that occurs wins.
    prompt_lookup_min: int = 1
    prompt_lookup_max: int = 4

    def __post_init__(self) -> None:
        if self.kind not in PROPOSER_KINDS:
            raise ValueError(f"unknown proposer {self.kind!r}; use one of "
                             f"{', '.join(map(repr, PROPOSER_KINDS))}")
        if not 1 <= self.prompt_lookup_min <= self.prompt_lookup_max:
            raise ValueError("need 1 <= prompt_lookup_min <= prompt_lookup_max, got "
                             f"{self.prompt_lookup_min} and {self.prompt_lookup_max}")

    def build(self, pair: Pair, batch: Batch) -> Proposer:
        return BUILDERS[self.kind](pair, batch, self)


__all__ = ["BUILDERS", "PROPOSER_KINDS", "DraftModelProposer", "NgramProposer", "Proposal", "Proposer",
           "ProposerConfig", "ProposerKind", "prompt_lookup"]
