"""Injected engine faults: realistic speculative-decoding bugs, each a context manager.

Every fault patches engine internals at run time (module attributes of engine/decode.py,
engine/verify.py, engine/step.py, engine/stopping.py, engine/proposers/draft_model.py) and restores them on
exit; no engine file is edited. Each breaks only the speculative path — the target-only
baseline (the shadow's reference) still runs the correct code — which is what a real bug in
a speculative engine looks like to the shadow evaluator.

`correctness` faults change what the speculative path emits (a token, a distribution, where
a completion stops); the evaluator must call each a correctness failure. `speed` faults keep
outputs exact (the verifier still decides) and only lower acceptance; the evaluator must
never call them a correctness failure.

Patches that must touch only the speculative step use `_in_spec_step()`: the patched
`engine.decode.speculative_step` marks the running thread while a step runs, so a helper that
both loops share (`forward`, `process_logits`) misbehaves only inside a speculative step.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import torch

import engine.api as engine_api
import engine.decode as decode
import engine.proposers.draft_model as draft_model
import engine.static as static
import engine.stopping as stopping
import engine.verify as verify
from engine.rejection import leading_true
from engine.sampling import SamplingParams, sample

Kind = Literal["greedy", "sampled", "mixed"]
Category = Literal["correctness", "speed"]


@dataclass(frozen=True, slots=True)
class Fault:
    name: str
    kind: Kind  # the traffic it is measured on
    category: Category
    area: str  # what it breaks, in the words (cache crop, positions, ...)
    description: str
    inject: Callable[[], contextlib.AbstractContextManager[None]]
    needs: tuple[str, ...] = ()  # request features it needs to show (stop, eos, top_p, top_k)
    # The engine it is injected into: "request" (engine/decode.py, batch.py, draft_model.py:
    # `guardian serve` with GUARDIAN_BATCHING=off) or "continuous" (engine/continuous.py,
    # ragged.py: the default); see tests/faults/continuous_faults.py.
    engine: Literal["request", "continuous"] = "request"
    # Rows that must share a batch for the bug to show (2: a cross-row bug, invisible to a
    # request decoded alone).
    min_rows: int = 1


# --- plumbing -----------------------------------------------------------------------------
_local = threading.local()


def _in_spec_step() -> bool:
    return getattr(_local, "spec_step", False)


@contextlib.contextmanager
def _patch(obj: Any, name: str, value: Any) -> Iterator[None]:
    old = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, old)


@contextlib.contextmanager
def _marking_spec_steps() -> Iterator[None]:
    orig = decode.speculative_step

    def step(*args: Any, **kwargs: Any) -> Any:
        _local.spec_step = True
        try:
            return orig(*args, **kwargs)
        finally:
            _local.spec_step = False

    with _patch(decode, "speculative_step", step):
        yield


@contextlib.contextmanager
def _stack(*managers: contextlib.AbstractContextManager[None]) -> Iterator[None]:
    with contextlib.ExitStack() as stack:
        for m in managers:
            stack.enter_context(m)
        yield


def _params(params: SamplingParams, **change: Any) -> SamplingParams:
    return dataclasses.replace(params, **change)


# --- cache crop / positions ---------------------------------------------------------------
def target_cache_crop_off_by_one() -> contextlib.AbstractContextManager[None]:
    """The target cache is cropped one column too long: after a rejection it keeps the
    rejected draft token's key/value, which every later position attends to. (A static cache
    has no crop: its rollback is where the next verify writes, here one column late, so the
    column it should overwrite keeps the rejected token's key/value.)"""
    orig = decode.crop_to
    orig_forward = decode.forward

    def forward(model: Any, ids: Any, cache: Any, start: int, batch: Any,
                last_only: bool = False) -> Any:
        late = isinstance(cache, static.StaticKV) and _in_spec_step()
        return orig_forward(model, ids, cache, start + int(late), batch, last_only)

    return _stack(_marking_spec_steps(),
                  _patch(decode, "crop_to", lambda cache, length: orig(cache, length + 1)),
                  _patch(decode, "forward", forward))


def verify_positions_off_by_one() -> contextlib.AbstractContextManager[None]:
    """The verify forward's position ids start one column late (RoPE sees every query one
    position further from the cached keys); prefill and target-only are right."""
    import engine.batch as batch_mod

    orig_pos = batch_mod.position_ids
    orig_static = static.StaticKV._positions

    def position_ids(start: int, length: int, pad: Any, device: Any = None) -> torch.Tensor:
        return orig_pos(start + (1 if _in_spec_step() else 0), length, pad, device)

    def static_positions(self: Any, cols: torch.Tensor) -> torch.Tensor:  # the static cache's
        return orig_static(self, cols) + (1 if _in_spec_step() else 0)

    return _stack(_marking_spec_steps(), _patch(batch_mod, "position_ids", position_ids),
                  _patch(static.StaticKV, "_positions", static_positions))


# --- acceptance rule / bonus (greedy) -----------------------------------------------------
def greedy_accept_counts_all_matches() -> contextlib.AbstractContextManager[None]:
    """Greedy verification counts every matching draft position, not the leading run: a
    draft that is wrong at position 1 but right at 2 gets both committed."""

    def greedy_accept(draft_tokens: torch.Tensor, target_argmax: torch.Tensor,
                      ) -> tuple[torch.Tensor, torch.Tensor]:
        n = (draft_tokens == target_argmax[:, :-1]).long().sum(dim=-1)
        return n, target_argmax.gather(1, n.unsqueeze(1)).squeeze(1)

    return _patch(verify, "greedy_accept", greedy_accept)


def bonus_token_off_by_one() -> contextlib.AbstractContextManager[None]:
    """When every draft token is accepted, the bonus token is read one column early (the
    verifier's choice at the last draft position, i.e. the last accepted token again)."""
    orig = verify.HostVerdict

    class FaultyHostVerdict(orig):  # type: ignore[misc,valid-type]
        @classmethod
        def copy(cls, n_row: torch.Tensor, own: torch.Tensor, p_x: torch.Tensor,
                 q_x: torch.Tensor, margin: torch.Tensor, *rest: Any, **kw: Any) -> Any:
            gamma = q_x.shape[1]
            if gamma:
                full = n_row == gamma
                own[full, gamma] = own[full, gamma - 1]
            return orig.copy(n_row, own, p_x, q_x, margin, *rest, **kw)

    return _patch(verify, "HostVerdict", FaultyHostVerdict)


# --- the sampled verifier: acceptance rule, residual, bonus ------------------------------
def _faulty_rejection_sample(bug: str, orig: Callable[..., tuple[torch.Tensor, torch.Tensor]]
                             | None = None) -> Callable[..., tuple[torch.Tensor, torch.Tensor]]:
    """engine.rejection.rejection_sample (draft-model proposals) with one bug in it; anything
    else (no q: target-only rows, n-gram proposals; per-row lengths) goes to `orig`. Draws the
    same random numbers as the real one (one uniform per draft position, one sample)."""
    orig = orig or verify.rejection_sample

    def rejection_sample(draft_tokens: torch.Tensor, q: torch.Tensor | None, p: torch.Tensor,
                         generator: torch.Generator | None = None,
                         lengths: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        if q is None or lengths is not None:
            return orig(draft_tokens, q, p, generator, lengths)
        batch, gamma = draft_tokens.shape
        p_x = p[:, :gamma].gather(-1, draft_tokens.unsqueeze(-1)).squeeze(-1)
        q_x = q.gather(-1, draft_tokens.unsqueeze(-1)).squeeze(-1)
        u = torch.rand(q_x.shape, generator=generator, device=q_x.device)
        # the bug "accept_ignores_q": accept with probability p(x), as for a point mass
        accept = (u < p_x) if bug == "accept_ignores_q" else (u * q_x < p_x)
        n = leading_true(accept)
        rows = torch.arange(batch, device=p.device)
        p_n = p[rows, n]
        q_n = torch.cat([q, q.new_zeros((batch, 1, q.shape[-1]))], dim=1)[rows, n]
        if bug == "residual_is_p":
            residual = p_n  # resample from p, not norm(max(p - q, 0))
        else:
            residual = (p_n - q_n).clamp_min(0.0)
            mass = residual.sum(dim=-1, keepdim=True)
            residual = torch.where(mass > 0, residual / mass.clamp_min(1e-30), p_n)
        if bug == "bonus_from_previous_position" and gamma:
            # the bonus token drawn from p at the last draft position, not the one after it
            residual = torch.where((n == gamma).unsqueeze(1), p[:, gamma - 1], residual)
        return n, sample(residual, generator)

    return rejection_sample


def accept_ignores_q() -> contextlib.AbstractContextManager[None]:
    """Sampled verification accepts a draft token with probability p(x) instead of
    min(1, p(x)/q(x)) (the point-mass rule applied to a draft model's proposal)."""
    return _patch(verify, "rejection_sample", _faulty_rejection_sample("accept_ignores_q"))


def residual_is_p() -> contextlib.AbstractContextManager[None]:
    """After a rejection the token is resampled from p instead of norm(max(p - q, 0))."""
    return _patch(verify, "rejection_sample", _faulty_rejection_sample("residual_is_p"))


def bonus_from_previous_position() -> contextlib.AbstractContextManager[None]:
    """Sampled: the bonus token after a fully accepted block is drawn from the target
    distribution of the last draft position (one column early). Its p(x) is recorded
    correctly and acceptance is untouched."""
    return _patch(verify, "rejection_sample",
                  _faulty_rejection_sample("bonus_from_previous_position"))


# --- sampling parameters applied to one side only -----------------------------------------
def _verifier_params(**change: Any) -> contextlib.AbstractContextManager[None]:
    orig = verify.process_logits

    def process_logits(logits: torch.Tensor, params: SamplingParams) -> torch.Tensor:
        if _in_spec_step() and not params.greedy:
            params = _params(params, **change)
        return orig(logits, params)

    return _stack(_marking_spec_steps(), _patch(verify, "process_logits", process_logits))


def verifier_ignores_temperature() -> contextlib.AbstractContextManager[None]:
    """The verifier's target distribution p is built at temperature 1 (the draft's q and the
    target-only path use the request's temperature)."""
    return _verifier_params(temperature=1.0)


def verifier_ignores_top_p() -> contextlib.AbstractContextManager[None]:
    """The verifier's p skips nucleus (top-p) filtering; the draft and target-only apply it."""
    return _verifier_params(top_p=1.0)


def verifier_ignores_top_k() -> contextlib.AbstractContextManager[None]:
    """The verifier's p skips top-k filtering; the draft and target-only apply it."""
    return _verifier_params(top_k=0)


# --- the draft's sampling distribution -----------------------------------------------------
def _draft_keeps_unfiltered_q(module: Any, *, rows_only: bool = False,
                              ) -> contextlib.AbstractContextManager[None]:
    """`module.process_logits` / `module.sample` patched so the draft samples from its top-k
    filtered q but keeps its unfiltered q as the proposal distribution the verifier reads.
    `rows_only`: only (rows, V) logits are the draft's (the continuous engine's
    process_logits also builds the verifier's p); other calls leave the stash alone."""
    orig_process, orig_sample = module.process_logits, module.sample

    def process_logits(logits: torch.Tensor, params: SamplingParams) -> torch.Tensor:
        if (rows_only and logits.dim() != 2) or params.greedy or not params.top_k:
            if not rows_only:
                _local.draft_sampling = None
            return orig_process(logits, params)
        _local.draft_sampling = orig_process(logits, params)  # what it samples from
        return orig_process(logits, _params(params, top_k=0))  # what it keeps

    def sample_(probs: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
        real = getattr(_local, "draft_sampling", None)
        _local.draft_sampling = None
        return orig_sample(probs if real is None else real, generator)

    return _stack(_patch(module, "process_logits", process_logits),
                  _patch(module, "sample", sample_))


def draft_reports_q_without_top_k() -> contextlib.AbstractContextManager[None]:
    """The draft samples from its top-k filtered q but hands the verifier its unfiltered q,
    so min(1, p/q) and the residual use the wrong q."""
    return _draft_keeps_unfiltered_q(draft_model)


def draft_samples_sharpened_q() -> contextlib.AbstractContextManager[None]:
    """The draft samples from q² (renormalised: e.g. a temperature applied twice in its own
    sampler) but reports q; accepted tokens over-represent the draft's favourites."""
    orig_sample = draft_model.sample

    def sample_(probs: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
        sharp = probs.float() ** 2
        return orig_sample(sharp / sharp.sum(dim=-1, keepdim=True).clamp_min(1e-30), generator)

    return _patch(draft_model, "sample", sample_)


# --- stopping: EOS and stop strings inside an accepted block --------------------------------
def eos_ignoring_extend(orig: Callable[..., int]) -> Callable[..., int]:
    """Completion.extend that honours EOS only as the last token of a step's block."""

    def extend(self: stopping.Completion, tokens: list[int], traces: list[Any],
               *rest: Any, **kw: Any) -> int:
        if len(tokens) > 1 and any(t in self.eos_token_ids for t in tokens[:-1]):
            saved = self.eos_token_ids
            self.eos_token_ids = {t for t in saved if t == tokens[-1]}
            try:
                return orig(self, tokens, traces, *rest, **kw)
            finally:
                self.eos_token_ids = saved
        return orig(self, tokens, traces, *rest, **kw)

    return extend


def eos_ignored_inside_block() -> contextlib.AbstractContextManager[None]:
    """EOS is honoured only as the last token of a step's block: an EOS accepted in the
    middle of a block is kept and decoding goes on (one-token steps, i.e. target-only, are
    right)."""
    return _patch(stopping.Completion, "extend", eos_ignoring_extend(stopping.Completion.extend))


def stop_late_extend(orig: Callable[..., int]) -> Callable[..., int]:
    """Completion.extend that notices a stop string completed inside a multi-token block only
    after the next block (the text is still cut there; the tokens run on)."""

    def extend(self: stopping.Completion, tokens: list[int], traces: list[Any],
               *rest: Any, **kw: Any) -> int:
        pending = getattr(self, "_fault_stop_at", None)
        if pending is not None:
            saved, self.stop = self.stop, []
            try:
                kept = orig(self, tokens, traces, *rest, **kw)
            finally:
                self.stop = saved
            self._text = self._decode(self.token_ids)
            self._stop_at = pending
            if self.finish_reason is None or self.finish_reason == "length":
                self.finish_reason = "stop"
            return kept
        if len(tokens) <= 1 or not self.stop:
            return orig(self, tokens, traces, *rest, **kw)
        before = self._decode(self.token_ids)
        saved, self.stop = self.stop, []
        try:
            kept = orig(self, tokens, traces, *rest, **kw)
        finally:
            self.stop = saved
        self._text = self._decode(self.token_ids)
        at = self._find_stop(self._text, max(0, len(before) - max(len(s) for s in self.stop)))
        if at is not None:
            self._fault_stop_at = at  # type: ignore[attr-defined]
            if self.finish_reason == "length":  # no next block: honoured now, as a stop
                self._stop_at, self.finish_reason = at, "stop"
        return kept

    return extend


def stop_string_one_block_late() -> contextlib.AbstractContextManager[None]:
    """A stop string completed inside a multi-token block is noticed only after the next
    block: the text is still cut at the stop string, but the completion's tokens (usage,
    audit) run on by up to a block."""
    return _patch(stopping.Completion, "extend", stop_late_extend(stopping.Completion.extend))


# --- speed-only: outputs exact, acceptance lower -------------------------------------------
def draft_cache_never_cropped() -> contextlib.AbstractContextManager[None]:
    """The draft's KV cache is never rolled back after a rejection: the draft attends to the
    rejected tokens it proposed. The verifier still decides, so outputs stay exact."""
    return _patch(draft_model, "crop_to", lambda cache, length: None)


def draft_proposes_from_flattened_q() -> contextlib.AbstractContextManager[None]:
    """Sampled: the draft proposes from a flatter distribution than the request's
    (temperature x 1.5, no top-k/top-p) and reports exactly that q, so the rejection sampler
    still yields the target's distribution: a worse drafter, not a wrong one."""
    orig_process = draft_model.process_logits

    def process_logits(logits: torch.Tensor, params: SamplingParams) -> torch.Tensor:
        if params.greedy:
            return orig_process(logits, params)
        return orig_process(logits, SamplingParams(temperature=params.temperature * 1.5))

    return _patch(draft_model, "process_logits", process_logits)


def block_text_drops_piece() -> contextlib.AbstractContextManager[None]:
    """The text of a speculative answer, assembled from its steps, loses the piece of its
    first accepted draft token (an incremental detokenizer's off-by-one at a multi-token
    step; tool-call output corrupted under speculation: vllm-project/vllm#56077, #40875):
    every token is right, the client's text - and the JSON or tool call in it - is not."""
    orig = stopping.Completion.text

    def text(self: stopping.Completion) -> str:
        full = orig.fget(self)  # type: ignore[attr-defined]
        at = next((i for i, t in enumerate(self.trace) if t.origin == "accepted"), None)
        if at is None:
            return full
        prefix = self._decode(self.token_ids[:at])
        piece = self._decode(self.token_ids[:at + 1])[len(prefix):]
        if not piece or not full.startswith(prefix + piece):
            return full
        return prefix + full[len(prefix) + len(piece):]

    return _patch(stopping.Completion, "text", property(text))


def unseeded_like(generator: torch.Generator) -> torch.Generator:
    """A generator on `generator`'s device seeded from the OS, not from the request."""
    unseeded = torch.Generator(device=generator.device)
    unseeded.manual_seed(int.from_bytes(os.urandom(7), "little"))
    return unseeded


def seed_ignored() -> contextlib.AbstractContextManager[None]:
    """Speculative decoding draws from a generator that ignores the request's seed
    (TensorRT-LLM's one-model speculation ignored per-request seeds,
    NVIDIA/TensorRT-LLM#19487): every token is still drawn from p, so no distribution check
    can see it, but the same seed no longer gives the same answer."""
    orig = engine_api.decode_speculative

    def speculative(pair: Any, req: Any, *args: Any, **kwargs: Any) -> Any:
        if req.generator is not None:
            req = dataclasses.replace(req, generator=unseeded_like(req.generator))
        return orig(pair, req, *args, **kwargs)

    return _patch(engine_api, "decode_speculative", speculative)


FAULTS: tuple[Fault, ...] = (
    Fault("target_cache_crop_off_by_one", "greedy", "correctness", "cache crop",
          target_cache_crop_off_by_one.__doc__ or "", target_cache_crop_off_by_one),
    Fault("verify_positions_off_by_one", "greedy", "correctness", "positions",
          verify_positions_off_by_one.__doc__ or "", verify_positions_off_by_one),
    Fault("greedy_accept_counts_all_matches", "greedy", "correctness", "acceptance rule (greedy)",
          greedy_accept_counts_all_matches.__doc__ or "", greedy_accept_counts_all_matches),
    Fault("bonus_token_off_by_one", "greedy", "correctness", "bonus token (greedy)",
          bonus_token_off_by_one.__doc__ or "", bonus_token_off_by_one),
    Fault("eos_ignored_inside_block", "greedy", "correctness", "EOS handling",
          eos_ignored_inside_block.__doc__ or "", eos_ignored_inside_block, ("eos",)),
    Fault("stop_string_one_block_late", "greedy", "correctness", "stop strings",
          stop_string_one_block_late.__doc__ or "", stop_string_one_block_late, ("stop",)),
    Fault("accept_ignores_q", "sampled", "correctness", "acceptance rule (sampled)",
          accept_ignores_q.__doc__ or "", accept_ignores_q),
    Fault("residual_is_p", "sampled", "correctness", "residual",
          residual_is_p.__doc__ or "", residual_is_p),
    Fault("bonus_from_previous_position", "sampled", "correctness", "bonus token (sampled)",
          bonus_from_previous_position.__doc__ or "", bonus_from_previous_position),
    Fault("verifier_ignores_temperature", "sampled", "correctness", "temperature one side",
          verifier_ignores_temperature.__doc__ or "", verifier_ignores_temperature),
    Fault("verifier_ignores_top_p", "sampled", "correctness", "top-p one side",
          verifier_ignores_top_p.__doc__ or "", verifier_ignores_top_p, ("top_p",)),
    Fault("verifier_ignores_top_k", "sampled", "correctness", "top-k one side",
          verifier_ignores_top_k.__doc__ or "", verifier_ignores_top_k, ("top_k",)),
    Fault("draft_reports_q_without_top_k", "sampled", "correctness",
          "draft sampling distribution", draft_reports_q_without_top_k.__doc__ or "",
          draft_reports_q_without_top_k, ("top_k",)),
    Fault("draft_samples_sharpened_q", "sampled", "correctness", "draft sampling distribution",
          draft_samples_sharpened_q.__doc__ or "", draft_samples_sharpened_q),
    Fault("eos_ignored_inside_block_sampled", "sampled", "correctness", "EOS handling (sampled)",
          eos_ignored_inside_block.__doc__ or "", eos_ignored_inside_block, ("eos",)),
    Fault("stop_string_one_block_late_sampled", "sampled", "correctness",
          "stop strings (sampled)", stop_string_one_block_late.__doc__ or "",
          stop_string_one_block_late, ("stop",)),
    Fault("block_text_drops_piece", "greedy", "correctness", "answer text / JSON / tool calls",
          block_text_drops_piece.__doc__ or "", block_text_drops_piece),
    Fault("seed_ignored", "sampled", "correctness", "per-request seed (sampled)",
          seed_ignored.__doc__ or "", seed_ignored),
    Fault("draft_cache_never_cropped", "mixed", "speed", "speed only: draft cache",
          draft_cache_never_cropped.__doc__ or "", draft_cache_never_cropped),
    Fault("draft_proposes_from_flattened_q", "sampled", "speed",
          "speed only: draft distribution", draft_proposes_from_flattened_q.__doc__ or "",
          draft_proposes_from_flattened_q),
)

BY_NAME = {f.name: f for f in FAULTS}
