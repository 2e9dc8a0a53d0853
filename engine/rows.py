"""A continuous batch's rows: the request, its row's bookkeeping, and per-row step helpers.

Owns `SequenceRequest` (one request to decode in the shared batch), `Sequence` (its tokens,
completion, stats and draft-cache count `d_seen`; a fault of its caller's `on_text` ends this
row alone), `RowProposal` (a row's drafts for one step), `row_history` (a row's penalty
history), `row_step` (a row's step as the host copy judged it), `prefill_rows` (joiners'
prompts into a ragged cache, one row each, in order) and `commit_row` (one row's step
committed to its tokens, stats, controller and completion). The batch itself, and the
cache invariants it keeps per row, are `engine.continuous.ContinuousEngine`'s:

Cache invariants per row after each step (T = the row's committed tokens, prompt included):
the target cache holds T - 1 of them (the last is fed with the next proposal); the draft cache
holds `d_seen` <= T - 1 (its missing tokens are fed first in the next draft loop; a row that
joins while the depth cap is 0 starts with none, so its draft is prefilled only once it first
speculates).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import torch

from engine.controllers import GammaController
from engine.controls import History
from engine.loading import Pair
from engine.proposers import ProposerConfig
from engine.ragged import RaggedCache
from engine.sampling import SamplingParams
from engine.step import HostVerdict, RowStep, with_alternatives
from engine.stopping import Completion, OnText
from engine.trace import GenerationStats, TokenTrace

__all__ = ["RowProposal", "Sequence", "SequenceRequest", "commit_row", "prefill_rows", "row_history",
           "row_step"]


@dataclass(slots=True)
class SequenceRequest:
    """One request to decode in the shared batch."""

    prompt: list[int]
    params: SamplingParams
    max_new_tokens: int
    stop: list[str] = field(default_factory=list)
    speculative: bool = False
    proposer: ProposerConfig = field(default_factory=ProposerConfig)
    controller: GammaController | None = None  # speculative rows only
    generator: torch.Generator | None = None
    on_text: OnText | None = None
    record_distributions: bool = False
    # Top-k alternatives per emitted token (TokenTrace.alternatives) taken from the verifying
    # forward's processed target distribution; 0: none. What a client's logprobs need, without
    # a second forward over the prefix per step.
    alternatives: int = 0
    # A seeded sampled row's depth follows its own controller only, never the batch's load
    # cap (`ContinuousEngine._gammas`, `join`): its draws depend on its depths, so the same
    # seed on the same path gives the same tokens at any load (the shadow's `seed_replay`
    # check relies on it). Its controller must not read the clock either
    # (engine.controllers.pinned_strategy).
    pinned_depth: bool = False


class Sequence:
    """A request's row: its tokens, completion, stats and cache bookkeeping."""

    def __init__(self, pair: Pair, req: SequenceRequest) -> None:
        if not req.prompt:
            raise ValueError("prompt is empty; send at least one token of text")
        if len(req.prompt) >= pair.max_context:
            raise ValueError(f"prompt has {len(req.prompt)} tokens but the pair's context window "
                             f"is {pair.max_context}; shorten the prompt")
        if req.max_new_tokens < 1:
            raise ValueError(f"max_new_tokens must be >= 1, got {req.max_new_tokens}")
        if req.speculative and req.controller is None:
            raise ValueError("a speculative sequence needs a gamma controller")
        self.req = req
        self.tokens = list(req.prompt)
        self.completion = Completion(pair.tokenizer, pair.eos_token_ids, req.stop,
                                     req.max_new_tokens,
                                     None if req.on_text is None else self._emit)
        self.stats = GenerationStats(prompt_tokens=len(req.prompt))
        self.uses_draft = req.speculative and req.proposer.kind == "draft_model"
        self.d_seen = 0  # tokens the draft cache holds (draft-model rows)
        self.steps = 0
        self.started = time.perf_counter()
        self.first_token_at: float | None = None
        self.error: BaseException | None = None  # set when its on_text raised

    @property
    def finished(self) -> bool:
        return self.completion.finished or self.error is not None

    def _emit(self, delta: str, traces: list[TokenTrace]) -> None:
        """The caller's on_text; what it raises (cancellation, preemption) ends this row
        alone, at this step boundary."""
        if self.error is not None or self.req.on_text is None:
            return
        try:
            self.req.on_text(delta, traces)
        except BaseException as exc:
            self.error = exc

    def finish(self) -> None:
        total = time.perf_counter() - self.started
        self.stats.completion_tokens = len(self.completion.token_ids)
        self.stats.total_time_s = total
        self.stats.time_to_first_token_s = (self.first_token_at or self.started) - self.started
        if not self.completion.finished:
            self.completion.finish("length")


@dataclass(slots=True)
class RowProposal:
    """One row's drafts for one step of the continuous engine (the one-at-a-time loop's,
    a whole batch's at once: `engine.proposers.Proposal`)."""

    tokens: list[int]  # host ids (len = this row's proposal length)
    q: torch.Tensor | None = None  # (g, V) sampled draft distributions (sampled draft rows)
    logits: torch.Tensor | None = None  # (g, V) raw draft logits (greedy draft rows)



def row_history(seq: Sequence, drafts: list[int], vocab: int, device: torch.device) -> History:
    """A row's penalty history: its prompt, and its output so far plus `drafts`."""
    prompt = len(seq.req.prompt)
    return History.of_lists([seq.tokens[:prompt]], [seq.tokens[prompt:] + drafts], vocab,
                            device)


def row_step(seq: Sequence, host: HostVerdict, i: int, n: int, proposed: int) -> RowStep:
    """Row i's step as `host` judged it; a target-only row's token is plain `target`."""
    step = host.row(i, n, proposed)
    if not seq.req.speculative:
        step = RowStep(step.tokens, ["target"], step.p, [None], step.margins, 0, 0, 0,
                       step.evidence)
    return step


def prefill_rows(model: torch.nn.Module, seqs: list[Sequence], into: RaggedCache,
                 device: torch.device, filler: int, whole: list[bool] | None = None,
                 ) -> tuple[int, torch.Tensor | None, list[int]]:
    """One forward over the sequences' prompts but their last token (`whole[i]`: all of
    sequence i's prompt), appended to `into` -> (forwards run, logits at each fed row's
    last fed token (F, 1, V) or None, the fed rows' indices into `seqs`). A one-token
    prompt not fed whole has nothing to prefill: its row joins empty (a row with no valid
    column must not be a forward's query: it would attend to nothing)."""
    if not seqs:
        return 0, None, []
    feeds = [s.tokens if whole is not None and whole[i] else s.tokens[:-1]
             for i, s in enumerate(seqs)]
    fed = [i for i, f in enumerate(feeds) if f]
    part = RaggedCache.empty_rows(device, len(fed))
    logits = None
    if fed:
        logits, _ = part.forward(model, [feeds[i] for i in fed], filler, last_only=True)
    rows = [None] * len(seqs)
    for k, i in enumerate(fed):
        rows[i] = k
    # Keep the joiners' order: prefilled rows and empty rows interleaved as given.
    if len(fed) == len(seqs):
        into.extend(part)
    else:
        empty = RaggedCache.empty_rows(device, 1)
        for i in range(len(seqs)):
            if rows[i] is None:
                into.extend(empty)
                empty = RaggedCache.empty_rows(device, 1)
            else:
                one = RaggedCache(device)
                one.extend(part)
                one.select([rows[i]])
                into.extend(one)
    return (1 if fed else 0), logits, fed


def commit_row(seq: Sequence, step: RowStep, record: tuple[torch.Tensor,
               torch.Tensor | None] | None, n: int, draft_s: float, verify_s: float,
               verified_at: float, batch_rows: int,
               alternatives: list[tuple[tuple[int, float], ...]] | None = None,
               prefill: bool = False) -> None:
    """Commit one row's step. `prefill`: its first token, from the join's prefill (whose
    forward and time the join already counted). `batch_rows`: the batch's size at this step."""
    traces = with_alternatives(step.traces(len(seq.completion.token_ids), seq.steps),
                               alternatives)
    dists = qdists = None
    if record is not None:
        p, q = record
        dists = p[:n + 1].float().cpu().unsqueeze(0)
        if not seq.req.params.greedy and seq.req.speculative:
            vocab = p.shape[-1]
            qq = q.float() if q is not None else p.new_zeros((len(step.tokens) - 1, vocab))
            qq = torch.cat([qq, qq.new_zeros((1, vocab))])[:n + 1]
            qdists = qq.cpu().unsqueeze(0)
    seq.tokens.extend(step.tokens)
    seq.first_token_at = seq.first_token_at or verified_at
    stats = seq.stats
    if not prefill or seq.req.speculative:
        # Every step a speculative row emitted at is a step (its trace's steps), its first
        # token from a join at cap 0 too, as one-at-a-time speculation counts its first
        # step; a target-only row's prefill is not a decoding step, as one at a time.
        stats.batch_rows += (batch_rows - stats.batch_rows) / (stats.steps + 1)
        stats.batch_rows_max = max(stats.batch_rows_max, batch_rows)
        stats.steps += 1
    if not prefill:
        stats.target_forwards += 1
        stats.draft_time_s += draft_s
        stats.verify_time_s += verify_s
    if seq.req.speculative:
        step.count(stats)
        stats.shared_spec_steps += int(bool(step.proposed) and batch_rows >= 2)
        if seq.req.controller is not None and step.proposed:
            seq.req.controller.update(step.proposed, step.judged, step.accepted, draft_s,
                                      verify_s)
    seq.steps += 1
    seq.completion.extend(step.tokens, traces, dists[0] if dists is not None else None,
                          qdists[0] if qdists is not None else None)
