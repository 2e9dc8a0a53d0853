"""Injected faults in the continuous batching engine (the one `guardian serve` runs by default).

The verifier both engines share (engine/verify.py: acceptance, residual, bonus, the host
copy) is patched where it lives, `engine.verify`, as tests/faults/faults.py patches it for the
one-at-a-time loop. The rest of the continuous step is its own: it keeps its caches in
`engine.ragged.RaggedCache`, runs its own batched draft loop and commits each row itself, so
these faults also patch the module attributes of `engine.continuous`, `engine.rows` and
`engine.proposers.batched` (its batched proposers) and the methods of `RaggedCache` /
`ContinuousEngine` (class attributes, so the engine a running
`BatchScheduler` already built sees them), and restore them on exit.

Each is a bug a batched engine could ship: a per-row off-by-one, a row index or count taken
from another row, a mask or position rule that holds only while rows have no holes. Each
breaks speculative rows only: a target-only row feeds one token per step, never has a
rejected column to drop, and in a batch of target-only rows (the shadow's reference, decoded
while serving is idle) has no hole either, so its output is unchanged. `min_rows = 2` marks
the cross-row bugs: a request decoded alone never shows them (a lone row's rejected columns
sit at the cache's right edge and are cropped; there is no other row to take a value from).

Patches that must touch only the verify step of `ContinuousEngine` use the thread-local
engine that the patched `ContinuousEngine._verify` sets while it runs (the engine thread),
so the target cache's verify forward and drops can be told from the prefill and the draft's.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from collections.abc import Callable, Iterator
from typing import Any

import torch

import engine.continuous as continuous
import engine.proposers.batched as batched
import engine.rows as engine_rows
import engine.stopping as stopping
import engine.verify as verify
from engine.ragged import RaggedCache
from engine.sampling import SamplingParams
from tests.faults.faults import (
    Fault,
    _draft_keeps_unfiltered_q,
    _faulty_rejection_sample,
    _params,
    _patch,
    _stack,
    block_text_drops_piece,
    eos_ignoring_extend,
    stop_late_extend,
    unseeded_like,
)

_local = threading.local()


# --- plumbing -----------------------------------------------------------------------------
@contextlib.contextmanager
def _marking_verify() -> Iterator[None]:
    """While `ContinuousEngine._verify` runs, `_local.engine` is that engine."""
    orig = continuous.ContinuousEngine._verify

    def _verify(self: continuous.ContinuousEngine, *args: Any, **kwargs: Any) -> Any:
        _local.engine, _local.step = self, {}
        try:
            return orig(self, *args, **kwargs)
        finally:
            _local.engine, _local.step = None, {}

    with _patch(continuous.ContinuousEngine, "_verify", _verify):
        yield


def _verifying(cache: RaggedCache, which: str = "target") -> bool:
    eng = getattr(_local, "engine", None)
    return eng is not None and cache is getattr(eng, which)


def _forward_editing(edit: Callable[[RaggedCache, list[list[int]], dict[str, Any]], None],
                     ) -> contextlib.AbstractContextManager[None]:
    """RaggedCache.forward whose model call gets its keyword arguments through `edit(cache,
    feeds, kwargs)` first (positions, attention mask), computed from the cache's state before
    the forward."""
    orig = RaggedCache.forward

    def forward(self: RaggedCache, model: Any, feeds: list[list[int]], filler: int,
                last_only: bool = False) -> tuple[torch.Tensor, int]:
        def call(**kwargs: Any) -> Any:
            edit(self, feeds, kwargs)
            return model(**kwargs)

        return orig(self, call, feeds, filler, last_only)

    return _patch(RaggedCache, "forward", forward)


def _row_depths(evidence: dict[str, torch.Tensor] | None, n_row: torch.Tensor) -> torch.Tensor:
    """(B,) each row's proposal length this step (its judged positions: the engine records a
    proposed q, or 1.0 for a point mass, at exactly those; NaN elsewhere)."""
    if not evidence or "proposed_q" not in evidence:
        return torch.zeros_like(n_row)
    return (~torch.isnan(evidence["proposed_q"])).long().sum(dim=1)


def _host_verdict_rewriting(rewrite: Callable[[dict[str, Any], torch.Tensor], dict[str, Any]],
                            ) -> contextlib.AbstractContextManager[None]:
    """verify.HostVerdict whose `copy` hands its arguments (n_row, own, p_x, q_x, margin,
    evidence) and each row's proposal depth to `rewrite`, and copies what it returns."""
    orig = verify.HostVerdict

    class FaultyHostVerdict(orig):  # type: ignore[misc,valid-type]
        @classmethod
        def copy(cls, n_row: torch.Tensor, own: torch.Tensor, p_x: torch.Tensor,
                 q_x: torch.Tensor, margin: torch.Tensor,
                 evidence: dict[str, torch.Tensor] | None = None) -> Any:
            args = {"n_row": n_row, "own": own, "p_x": p_x, "q_x": q_x, "margin": margin,
                    "evidence": evidence}
            return orig.copy(**rewrite(args, _row_depths(evidence, n_row)))

    return _patch(verify, "HostVerdict", FaultyHostVerdict)


def _host_verdict_editing(edit: Callable[[torch.Tensor, torch.Tensor, torch.Tensor], None],
                          ) -> contextlib.AbstractContextManager[None]:
    """verify.HostVerdict whose `copy` lets `edit(n_row, own, depths)` change the per-row
    accepted counts and output tokens in place before they go to the host."""
    def rewrite(args: dict[str, Any], depths: torch.Tensor) -> dict[str, Any]:
        edit(args["n_row"], args["own"], depths)
        return args

    return _host_verdict_rewriting(rewrite)


def _completion_with(extend: Callable[..., int]) -> contextlib.AbstractContextManager[None]:
    """Rows that join the continuous engine get a Completion whose `extend` is `extend`
    (engine.rows.Sequence builds one per row; the request-level engine is untouched)."""
    FaultyCompletion = type("FaultyCompletion", (stopping.Completion,), {"extend": extend})
    return _patch(engine_rows, "Completion", FaultyCompletion)


# --- per-row KV cache crop after partial acceptance ------------------------------------------
def cb_target_drop_keeps_first_rejected() -> contextlib.AbstractContextManager[None]:
    """After a partial acceptance a row forgets one column too few of the target cache: the
    first rejected draft token stays a valid column (and counts in the row's length), so every
    later position of that row attends to it one position off."""
    orig = RaggedCache.drop

    def drop(self: RaggedCache, row: int, first: int, count: int) -> None:
        if _verifying(self) and count > 0:
            first, count = first + 1, count - 1
        orig(self, row, first, count)

    return _stack(_marking_verify(), _patch(RaggedCache, "drop", drop))


def cb_target_drop_uses_first_rows_count() -> contextlib.AbstractContextManager[None]:
    """The per-row crop of the target cache reads the accepted count of the batch's first row
    (`host.n[0]` for `host.n[i]`): a row that accepted more than row 0 loses accepted
    columns, one that accepted fewer keeps rejected ones. Alone, a row is row 0: invisible."""
    orig_forward, orig_drop = RaggedCache.forward, RaggedCache.drop

    def forward(self: RaggedCache, model: Any, feeds: list[list[int]], filler: int,
                last_only: bool = False) -> tuple[torch.Tensor, int]:
        logits, first = orig_forward(self, model, feeds, filler, last_only)
        if _verifying(self):  # the verify forward: where its columns start, how many
            _local.step.update(first=first, width=logits.shape[1])
        return logits, first

    def drop(self: RaggedCache, row: int, first: int, count: int) -> None:
        step = getattr(_local, "step", None) or {}
        if _verifying(self) and "first" in step:
            n = first - step["first"] - 1  # this row's accepted count
            if row == 0:
                step["n0"] = n
            else:
                n = step.get("n0", n)
            first, count = step["first"] + n + 1, step["width"] - (n + 1)
        orig_drop(self, row, first, count)

    return _stack(_marking_verify(), _patch(RaggedCache, "forward", forward),
                  _patch(RaggedCache, "drop", drop))


# --- per-row positions / attention mask of the ragged verify forward --------------------------
def cb_verify_positions_off_by_one() -> contextlib.AbstractContextManager[None]:
    """In the batched verify forward, a row that feeds a proposal gets position ids one
    higher than its logical length (RoPE sees its block one position away from its cached
    keys); rows feeding one token (target-only) and every prefill are right."""

    def edit(cache: RaggedCache, feeds: list[list[int]], kw: dict[str, Any]) -> None:
        if not _verifying(cache):
            return
        shift = torch.tensor([[1 if len(f) > 1 else 0] for f in feeds], device=cache.device)
        kw["position_ids"] = kw["position_ids"] + shift

    return _stack(_marking_verify(), _forward_editing(edit))


def cb_positions_count_holes() -> contextlib.AbstractContextManager[None]:
    """In the batched verify forward, a row's proposal block is positioned after the span of
    its physical columns (first valid to last valid) instead of after its count of valid
    columns: right for a row without holes, too high for a row with masked holes (rejected
    drafts, the filler of a shorter feed) — which it has only while another row keeps the
    cache wider (alone, a row's rejected columns are cropped)."""

    def edit(cache: RaggedCache, feeds: list[list[int]], kw: dict[str, Any]) -> None:
        valid = cache.valid
        if not _verifying(cache) or valid.shape[1] == 0:
            return
        shift = []
        for i, (n, feed) in enumerate(zip(cache.lengths, feeds, strict=True)):
            cols = valid[i].nonzero()
            shift.append(int(cols[-1]) - int(cols[0]) + 1 - n if n and len(feed) > 1 else 0)
        if any(shift):
            kw["position_ids"] = kw["position_ids"] + torch.tensor(shift, device=cache.device
                                                                   ).unsqueeze(1)

    return _stack(_marking_verify(), _forward_editing(edit))


def cb_mask_assumes_contiguous_rows() -> contextlib.AbstractContextManager[None]:
    """In the batched verify forward, the attention mask over a speculating row's cached
    columns is built from its length alone, as if its valid columns were the last
    `lengths[i]` (true after a compaction, and for a row without holes): for a row with holes
    it unmasks dropped columns and masks real context. Alone, a row has no holes."""

    def edit(cache: RaggedCache, feeds: list[list[int]], kw: dict[str, Any]) -> None:
        mask = kw.get("attention_mask")
        width = cache.valid.shape[1]
        if mask is None or width == 0 or not _verifying(cache):
            return
        cols = torch.arange(width, device=cache.device).unsqueeze(0)
        lengths = torch.tensor(cache.lengths, device=cache.device).unsqueeze(1)
        block = torch.tensor([[len(f) > 1] for f in feeds], device=cache.device)
        mask = mask.clone()
        mask[:, :width] = torch.where(block, cols >= width - lengths,
                                      mask[:, :width].bool()).to(mask.dtype)
        kw["attention_mask"] = mask

    return _stack(_marking_verify(), _forward_editing(edit))


# --- per-row acceptance count and bonus token (greedy) -----------------------------------------
def cb_greedy_accept_counts_all_matches() -> contextlib.AbstractContextManager[None]:
    """The batched greedy acceptance counts every matching draft position of a row, not its
    leading run (`sum` for `cumprod().sum`): a draft wrong at position 1 but right at 2 gets
    both committed."""
    def greedy_accept(draft_tokens: torch.Tensor, target_argmax: torch.Tensor,
                      ) -> tuple[torch.Tensor, torch.Tensor]:
        n = (draft_tokens == target_argmax[:, :-1]).long().sum(dim=-1)
        return n, target_argmax.gather(1, n.unsqueeze(1)).squeeze(1)

    return _patch(verify, "greedy_accept", greedy_accept)


def cb_rows_commit_batch_max_count() -> contextlib.AbstractContextManager[None]:
    """Each speculative row commits the batch's largest accepted count (capped at its own
    proposal) instead of its own: a row beside a better-drafted row emits tokens the target
    did not verify. Alone, a row's count is the batch's: invisible."""

    def edit(n_row: torch.Tensor, own: torch.Tensor, depths: torch.Tensor) -> None:
        spec = depths > 0
        if int(spec.sum()) >= 2:
            n_row[spec] = torch.minimum(depths[spec], n_row[spec].max())

    return _host_verdict_editing(edit)


def cb_bonus_one_column_early() -> contextlib.AbstractContextManager[None]:
    """When a row accepts its whole proposal, its bonus token is read one column early (the
    verifier's choice at its last draft position, i.e. the last accepted token again)."""

    def edit(n_row: torch.Tensor, own: torch.Tensor, depths: torch.Tensor) -> None:
        rows = ((n_row == depths) & (depths > 0)).nonzero().squeeze(1)
        if rows.numel():
            own[rows, depths[rows]] = own[rows, depths[rows] - 1]

    return _host_verdict_editing(edit)


def cb_bonus_at_batch_depth() -> contextlib.AbstractContextManager[None]:
    """A row whose proposal is shorter than the batch's longest (its depth capped by
    max_tokens or the context) takes its bonus token from the batch's last verified column —
    a filler column for it — instead of the column after its own proposal."""

    def edit(n_row: torch.Tensor, own: torch.Tensor, depths: torch.Tensor) -> None:
        last = own.shape[1] - 1
        rows = ((n_row == depths) & (depths > 0) & (depths < last)).nonzero().squeeze(1)
        if rows.numel():
            own[rows, depths[rows]] = own[rows, last]

    return _host_verdict_editing(edit)


# --- per-row EOS / stop strings inside an accepted block ----------------------------------------
def cb_eos_ignored_inside_block() -> contextlib.AbstractContextManager[None]:
    """A batched row honours EOS only as the last token of its step's block: an EOS accepted
    mid-block is kept and the row decodes on (target-only rows emit one token a step)."""
    return _completion_with(eos_ignoring_extend(stopping.Completion.extend))


def cb_stop_string_one_block_late() -> contextlib.AbstractContextManager[None]:
    """A batched row notices a stop string completed inside a multi-token block only after
    its next block: the text is cut at the stop string, the tokens (usage, audit) run on."""
    return _completion_with(stop_late_extend(stopping.Completion.extend))


# --- the sampled verifier of the continuous step -----------------------------------------------
def cb_accept_ignores_q() -> contextlib.AbstractContextManager[None]:
    """The continuous step's sampled verification accepts a draft token with probability p(x)
    instead of min(1, p(x)/q(x))."""
    return _patch(verify, "rejection_sample",
                  _faulty_rejection_sample("accept_ignores_q", verify.rejection_sample))


def cb_residual_is_p() -> contextlib.AbstractContextManager[None]:
    """The continuous step resamples a rejected position from p instead of
    norm(max(p - q, 0))."""
    return _patch(verify, "rejection_sample",
                  _faulty_rejection_sample("residual_is_p", verify.rejection_sample))


def cb_bonus_from_previous_position() -> contextlib.AbstractContextManager[None]:
    """Sampled, continuous: a fully accepted row's bonus token is drawn from p at its last
    draft position (one column early)."""
    return _patch(verify, "rejection_sample",
                  _faulty_rejection_sample("bonus_from_previous_position",
                                           verify.rejection_sample))


def _verifier_params(**change: Any) -> contextlib.AbstractContextManager[None]:
    """verify.process_logits applied with `change` to a row's verify block: the (1, g+1,
    V) slice of a row with a proposal (draft calls are (1, V); a target-only row's is (1, 1,
    V))."""
    orig = verify.process_logits

    def process_logits(logits: torch.Tensor, params: SamplingParams) -> torch.Tensor:
        if logits.dim() == 3 and logits.shape[1] > 1 and not params.greedy:
            params = _params(params, **change)
        return orig(logits, params)

    return _patch(verify, "process_logits", process_logits)


def cb_verifier_ignores_temperature() -> contextlib.AbstractContextManager[None]:
    """The continuous verifier builds a speculative row's p at temperature 1 (its draft's q
    and target-only rows use the request's temperature)."""
    return _verifier_params(temperature=1.0)


def cb_verifier_ignores_top_k() -> contextlib.AbstractContextManager[None]:
    """The continuous verifier's p for a speculative row skips top-k filtering."""
    return _verifier_params(top_k=0)


def cb_draft_reports_q_without_top_k() -> contextlib.AbstractContextManager[None]:
    """The batched draft loop samples a row's token from its top-k filtered q but keeps the
    unfiltered q as the row's proposal distribution (min(1, p/q) and the residual use it)."""
    return _draft_keeps_unfiltered_q(batched, rows_only=True)


# --- sampling controls, grammar, reported logprobs (issue 41) --------------------------------
def _verify_block_controls(change: Callable[..., torch.Tensor],
                           ) -> contextlib.AbstractContextManager[None]:
    """continuous.adjust_rows replaced by `change(orig, logits, params, history, block)` on a
    speculative row's verify block ((1, g+1, V), g > 0); draft positions and target-only
    rows ((1, 1, V)) keep the real one."""
    orig = continuous.adjust_rows

    def adjust_rows(logits: torch.Tensor, params: SamplingParams, history: Any,
                    block: torch.Tensor | None = None) -> torch.Tensor:
        if logits.dim() == 3 and logits.shape[1] > 1:
            return change(orig, logits, params, history, block)
        return orig(logits, params, history, block)

    return _patch(continuous, "adjust_rows", adjust_rows)


def cb_verifier_drops_penalties() -> contextlib.AbstractContextManager[None]:
    """The verifier judges a speculative row's block without its penalties and logit_bias
    (vLLM and TensorRT-LLM shipped this: speculation silently ignored them); the draft and
    target-only rows apply them."""
    def change(orig: Any, logits: torch.Tensor, params: SamplingParams, history: Any,
               block: Any) -> torch.Tensor:
        plain = _params(params, presence_penalty=0.0, frequency_penalty=0.0,
                        repetition_penalty=1.0, logit_bias=())
        return orig(logits, plain, history, block)

    return _verify_block_controls(change)


def cb_block_controls_skip_drafts() -> contextlib.AbstractContextManager[None]:
    """The verifier builds every position of a speculative row's block from the committed
    history alone: the block's earlier drafts are missing from the penalty counts and the
    grammar state (each position gets the mask of the block's first)."""
    def change(orig: Any, logits: torch.Tensor, params: SamplingParams, history: Any,
               block: Any) -> torch.Tensor:
        return torch.cat([orig(logits[:, t:t + 1], params, history, None)
                          for t in range(logits.shape[1])], dim=1)

    return _verify_block_controls(change)


def cb_logprob_reported_as_zero() -> contextlib.AbstractContextManager[None]:
    """A speculative row's tokens report log-probability 0.0 (llama.cpp#27972: logprobs
    came back as 0.0 under speculation): p(x) = 1 as a client's `logprobs` shows it, and a
    raw log-probability of 0; the tokens and the recorded distributions are right."""
    def rewrite(args: dict[str, Any], depths: torch.Tensor) -> dict[str, Any]:
        speculative = depths > 0
        p_x = args["p_x"].clone()
        p_x[speculative] = 1.0
        evidence = args["evidence"]
        if evidence and "logprob" in evidence:
            logprob = evidence["logprob"].clone()
            logprob[speculative] = 0.0
            evidence = {**evidence, "logprob": logprob}
        return {**args, "p_x": p_x, "evidence": evidence}

    return _host_verdict_rewriting(rewrite)


def cb_seed_ignored() -> contextlib.AbstractContextManager[None]:
    """A seeded speculative row draws from a generator of its own that ignores the request's
    seed (TensorRT-LLM's one-model speculation ignored per-request seeds,
    NVIDIA/TensorRT-LLM#19487): every token is still drawn from p - no distribution check
    can see it - but the same seed no longer gives the same answer."""
    orig = engine_rows.Sequence.__init__

    def init(self: Any, pair: Any, req: Any) -> None:
        if req.speculative and req.generator is not None:
            req = dataclasses.replace(req, generator=unseeded_like(req.generator))
        orig(self, pair, req)

    return _patch(engine_rows.Sequence, "__init__", init)


# --- speed-only ----------------------------------------------------------------------------
def cb_draft_cache_never_dropped() -> contextlib.AbstractContextManager[None]:
    """The draft's ragged cache never forgets a row's rejected drafts (the target's does): the
    draft attends to them, proposes worse, and the verifier still decides."""
    orig = RaggedCache.drop

    def drop(self: RaggedCache, row: int, first: int, count: int) -> None:
        if not _verifying(self, "draft"):
            orig(self, row, first, count)

    return _stack(_marking_verify(), _patch(RaggedCache, "drop", drop))


def _f(fn: Callable[[], contextlib.AbstractContextManager[None]], kind: str, area: str, *,
       category: str = "correctness", needs: tuple[str, ...] = (), min_rows: int = 1,
       name: str | None = None) -> Fault:
    return Fault(name or fn.__name__, kind, category, area, fn.__doc__ or "", fn,  # type: ignore[arg-type]
                 needs, engine="continuous", min_rows=min_rows)


CB_FAULTS: tuple[Fault, ...] = (
    _f(cb_target_drop_keeps_first_rejected, "greedy", "cache crop (per row)"),
    _f(cb_target_drop_uses_first_rows_count, "greedy", "cache crop (another row's count)",
       min_rows=2),
    _f(cb_verify_positions_off_by_one, "greedy", "positions (per row)"),
    _f(cb_positions_count_holes, "greedy", "positions (rows with holes)", min_rows=2),
    _f(cb_mask_assumes_contiguous_rows, "greedy", "attention mask (rows with holes)",
       min_rows=2),
    _f(cb_greedy_accept_counts_all_matches, "greedy", "acceptance rule (greedy, per row)"),
    _f(cb_rows_commit_batch_max_count, "greedy", "acceptance count (another row's)",
       min_rows=2),
    _f(cb_bonus_one_column_early, "greedy", "bonus token (greedy, per row)"),
    _f(cb_bonus_at_batch_depth, "greedy", "bonus token (batch depth)", min_rows=2),
    _f(cb_eos_ignored_inside_block, "greedy", "EOS handling (per row)", needs=("eos",)),
    _f(cb_stop_string_one_block_late, "greedy", "stop strings (per row)", needs=("stop",)),
    _f(cb_accept_ignores_q, "sampled", "acceptance rule (sampled, continuous)"),
    _f(cb_residual_is_p, "sampled", "residual (continuous)"),
    _f(cb_bonus_from_previous_position, "sampled", "bonus token (sampled, continuous)"),
    _f(cb_verifier_ignores_temperature, "sampled", "temperature one side (continuous)"),
    _f(cb_verifier_ignores_top_k, "sampled", "top-k one side (continuous)", needs=("top_k",)),
    _f(cb_draft_reports_q_without_top_k, "sampled", "draft sampling distribution (continuous)",
       needs=("top_k",)),
    _f(cb_eos_ignored_inside_block, "sampled", "EOS handling (sampled, per row)",
       needs=("eos",), name="cb_eos_ignored_inside_block_sampled"),
    _f(cb_verifier_drops_penalties, "greedy", "penalties one side (greedy)",
       needs=("penalties",)),
    _f(cb_verifier_drops_penalties, "sampled", "penalties one side (sampled)",
       needs=("penalties",), name="cb_verifier_drops_penalties_sampled"),
    _f(cb_block_controls_skip_drafts, "greedy", "penalty counts inside a block",
       needs=("penalties",)),
    _f(cb_block_controls_skip_drafts, "greedy", "grammar state inside a block",
       needs=("grammar",), name="cb_grammar_mask_frozen_in_block"),
    _f(cb_logprob_reported_as_zero, "greedy", "reported logprobs"),
    _f(cb_logprob_reported_as_zero, "sampled", "reported logprobs (sampled)",
       name="cb_logprob_reported_as_zero_sampled"),
    _f(cb_seed_ignored, "sampled", "per-request seed (sampled)"),
    _f(block_text_drops_piece, "greedy", "answer text / JSON / tool calls (continuous)",
       name="cb_block_text_drops_piece"),
    _f(cb_draft_cache_never_dropped, "mixed", "speed only: draft cache (continuous)",
       category="speed"),
)

CB_BY_NAME = {f.name: f for f in CB_FAULTS}
