"""Proposers: what drafts a speculative step's tokens (the Proposer seam, see base.py).

- `draft_model`: a small model of the same tokenizer samples gamma tokens from its q.
- `ngram`: prompt lookup, no model; a deterministic proposal (q = δ_x).

`ProposerConfig` is what a caller picks per request; `build` makes the per-request proposer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from engine.batch import Batch
from engine.loading import Pair
from engine.proposers.base import Proposal, Proposer, ProposerKind
from engine.proposers.draft_model import DraftModelProposer
from engine.proposers.ngram import NgramProposer, prompt_lookup

PROPOSER_KINDS: tuple[str, ...] = get_args(ProposerKind)


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
        if self.kind == "ngram":
            return NgramProposer(batch, self.prompt_lookup_min, self.prompt_lookup_max)
        return DraftModelProposer(pair.draft, batch)


__all__ = ["PROPOSER_KINDS", "DraftModelProposer", "NgramProposer", "Proposal", "Proposer",
           "ProposerConfig", "ProposerKind", "prompt_lookup"]
