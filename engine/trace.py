"""Per-token trace and per-request statistics: the engine's output contract.

Everything downstream (the sidecar's shadow evaluator, the audit store, the benchmarks)
consumes these dataclasses and nothing else from the engine's internals, so fields are
only ever added, never renamed. One exception, made on purpose by the Seams change:
`GenerationStats.draft_tokens` (which counted judged positions, not proposed tokens as its
name suggested) became a read-only property aliasing `judged_tokens`, so `dataclasses.asdict`
no longer emits it; the sidecar's local backend re-adds the key to the stats it serializes
for one release (guardian/backends/local.py).

Vocabulary (../shared/DESIGN.md): a speculative step emits *accepted* draft tokens plus one
*resampled* token (first rejection) or one *bonus* token (all gamma accepted). Target-only
decoding emits tokens of origin *target*.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import torch

from engine.metrics import SpecCounters, alpha

Origin = Literal["accepted", "resampled", "bonus", "target"]
FinishReason = Literal["stop", "length"]


@dataclass(frozen=True, slots=True)
class TokenTrace:
    """One emitted token."""

    position: int  # index in the completion (0 = first generated token)
    token_id: int
    origin: Origin
    draft_prob: float | None  # q(x) under the processed draft distribution; None for "target"/"bonus"
    target_prob: float  # p(x) under the processed target distribution the verifier used
    target_margin: float  # target top-1 minus top-2 raw logit at this position (>= 0)
    step: int  # index of the target forward that emitted this token
    gamma: int  # speculation depth used at that step (0 for target-only)
    # --- evidence for the shadow evaluator's proofs (guardian/equivalence/verdicts/); additive, so
    # None where a producer does not record them. All from the forward that emitted the token.
    top1_id: int | None = None  # target argmax (raw logits) at this position
    top2_id: int | None = None  # target runner-up (raw logits)
    top1_logit: float | None = None  # raw logit of top1_id
    top2_logit: float | None = None  # raw logit of top2_id
    target_logprob: float | None = None  # log softmax(raw logits)[token_id] (temperature 1)
    # The draft token proposed at this position (the rejected one when origin is
    # "resampled"; the token itself when "accepted"); None for "bonus"/"target".
    proposed_token: int | None = None
    # q(proposed_token) under the distribution the proposer actually sampled it from
    # (recorded at proposal time, never re-scored): 1.0 for a point-mass proposal (n-gram).
    proposed_q: float | None = None
    # Probability this proposal was to be accepted, Σ_x min(p(x), q(x)) with the recorded q
    # and the verifier's p (n-gram: p(proposed_token)); None when greedy (acceptance is
    # deterministic there) and for "bonus"/"target".
    accept_expected: float | None = None
    # The most likely tokens of the processed target distribution at this position (the one
    # `target_prob` is under), best first, as (token id, probability): recorded by the
    # continuous engine from the verifying forward itself when the request asks for them
    # (`SequenceRequest.alternatives`); None otherwise.
    alternatives: tuple[tuple[int, float], ...] | None = None


@dataclass(slots=True)
class GenerationStats:
    """Per-request statistics: counters only; every ratio comes from engine.metrics.

    The speculative counters are those of engine.metrics.SpecCounters (`counters`):
    `proposed_tokens` is vLLM's num_draft_tokens, `accepted` its num_accepted_tokens, so
    `acceptance_rate` (accepted / proposed) is comparable with vLLM dashboards; `alpha`
    (accepted / judged) is Leviathan et al.'s per-token acceptance estimate.
    """

    prompt_tokens: int = 0
    completion_tokens: int = 0
    steps: int = 0  # target forwards during decoding (prefill excluded)
    proposed_tokens: int = 0  # draft tokens proposed (vLLM's num_draft_tokens)
    # Draft positions judged: up to and including the first rejection in each step
    # (proposals past the first rejection are discarded unjudged), the denominator of alpha.
    judged_tokens: int = 0
    accepted: int = 0  # draft tokens accepted
    drafted_per_position: list[int] = field(default_factory=list)  # [i] = judged at draft pos i
    accepted_per_position: list[int] = field(default_factory=list)  # [i] = accepted at draft pos i
    draft_time_s: float = 0.0  # proposing (draft forwards; ~0 for prompt lookup)
    verify_time_s: float = 0.0  # target forwards incl. prefill (target-only: all target time)
    total_time_s: float = 0.0
    time_to_first_token_s: float = 0.0
    draft_forwards: int = 0
    target_forwards: int = 0  # includes prefill
    # Prompt prefill forwards (target-only: the first forward, which also emits token 1;
    # speculative: draft + target prefill of all but the last prompt token, emits nothing).
    # Included in draft_time_s / verify_time_s above; kept apart so decode speed can be
    # measured without the prompt-processing phase that speculation does not change.
    prefill_time_s: float = 0.0
    # Continuous batching (engine/continuous.py): mean rows of the shared batch over this
    # request's steps; 0 when it was decoded on its own (engine.generate).
    batch_rows: float = 0.0
    batch_rows_max: int = 0  # most rows of the shared batch at one of its steps (0: alone)
    # Steps at which this speculative row asked for a depth > 0 and the batch's depth cap
    # (engine.capmodel / engine.loadaware) answered 0: speculation off by load, not by choice.
    capped_steps: int = 0
    # Steps at which this row proposed draft tokens while the batch had other rows too.
    shared_spec_steps: int = 0

    @property
    def draft_tokens(self) -> int:
        """Deprecated read-only alias of `judged_tokens` (what this name counted before
        `proposed_tokens` existed); use `counters` instead."""
        return self.judged_tokens

    @property
    def counters(self) -> SpecCounters:
        return SpecCounters(proposed=self.proposed_tokens, judged=self.judged_tokens,
                            accepted=self.accepted, steps=self.steps)

    @property
    def acceptance_rate(self) -> float:
        """accepted / proposed draft tokens (vLLM); 0.0 when nothing was proposed."""
        return self.counters.acceptance_rate

    @property
    def alpha(self) -> float:
        """accepted / judged draft positions (Leviathan et al.); 0.0 when nothing was judged."""
        return self.counters.alpha

    @property
    def mean_acceptance_length(self) -> float:
        """Tokens emitted per target forward = 1 + accepted / steps (vLLM's definition)."""
        return self.counters.mean_acceptance_length

    @property
    def acceptance_per_position(self) -> list[float]:
        """[i] = alpha at draft position i (accepted / judged there)."""
        return [alpha(a, d) for a, d in zip(self.accepted_per_position,
                                            self.drafted_per_position, strict=True)]


@dataclass(slots=True)
class GenerationResult:
    """What `engine.generate` returns for one prompt."""

    prompt_token_ids: list[int]
    token_ids: list[int]
    text: str
    finish_reason: FinishReason
    trace: list[TokenTrace]
    stats: GenerationStats
    speculative: bool
    # Optional (record_distributions=True): processed target distribution p used at each
    # emitted position, shape (len(token_ids), V), float32 on CPU. The shadow evaluator
    # compares it with target-only's distribution at the same prefix.
    target_distributions: torch.Tensor | None = None
    # Optional (record_distributions=True, sampled speculative runs): the full q the proposer
    # sampled each emitted position's proposal from, shape (len(token_ids), V); an all-zero
    # row where there was none (bonus token) or it was a point mass (n-gram: see
    # TokenTrace.proposed_token). Recorded, never re-scored.
    draft_distributions: torch.Tensor | None = None
