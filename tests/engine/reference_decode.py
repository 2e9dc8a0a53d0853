"""Frozen pre-refactor speculative loop, the reference the bit-identity test compares
against; do not edit.

A verbatim copy of engine/decode.py as it stood before the Seams refactor (commit 138b9eb).
One line of code differs: `GenerationStats.draft_tokens` became a read-only alias, so
`_count` adds to `judged_tokens` (what `draft_tokens` always counted); it never counted
`proposed_tokens`, which did not exist yet. It still calls the engine's building blocks
(rejection sampler, logits processing, KV helpers, Completion), whose behaviour for these
calls the refactor keeps; the loop, the drafting, the verification and the bookkeeping
are the old ones. The blind spot that follows: a change inside those building blocks
(rejection.py, sampling.py) moves both sides alike and is NOT caught by the bit-identity
test; tests/engine/test_rejection.py (hand-built logits, exact greedy outcomes, G-tests)
and test_sampling*.py guard them. It duplicates the engine's loop on purpose — `duplicates` lists it; that
is the one justified exception: a golden file cannot stand in for it because the demo
pair's weights differ across machines.

Original docstring:

Decoding loops: target-only (the baseline) and speculative (draft + verify).

Both loops share one forward path (`_forward`: the model's own forward with a
DynamicCache, explicit position ids, a left-padding mask only when a row is padded) and
one bookkeeping path (`stopping.Completion`), so the only difference between them is how
many target forwards it takes to produce the same tokens.

Cache invariant of the speculative loop, per step (L = committed columns incl. padding):
  target cache holds L-1 columns: the last committed token is fed as `[last] + draft`;
  draft cache holds `draft_len` <= L-1 columns: the columns it lacks (1, or 2 after a fully
  accepted step, because the draft never saw its own last proposal) are fed first.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

import torch
from transformers import PreTrainedModel

from engine.controllers import GammaController
from engine.kv import crop_to, new_cache, position_ids, with_cache
from engine.loading import Pair
from engine.rejection import greedy_accept, rejection_sample
from engine.sampling import SamplingParams, process_logits, sample, token_probs
from engine.stopping import Completion, OnText
from engine.trace import GenerationStats, TokenTrace

logger = logging.getLogger(__name__)


@dataclass(slots=True)
class DecodeRequest:
    prompts: list[list[int]]
    params: SamplingParams
    max_new_tokens: int
    stop: list[str]
    record_distributions: bool = False
    generator: torch.Generator | None = None
    on_text: OnText | None = None  # single-prompt requests only


@dataclass(slots=True)
class RowResult:
    completion: Completion
    stats: GenerationStats


class _Batch:
    """Left-padded token matrix, its padding mask and per-row bookkeeping."""

    def __init__(self, pair: Pair, req: DecodeRequest, extra_columns: int) -> None:
        lengths = [len(p) for p in req.prompts]
        if min(lengths) == 0:
            raise ValueError("prompt is empty; send at least one token of text")
        width = max(lengths)
        if width >= pair.max_context:
            raise ValueError(f"prompt has {width} tokens but the pair's context window is "
                             f"{pair.max_context}; shorten the prompt")
        self.size, self.width, self.device = len(lengths), width, pair.device
        rows = [[pair.pad_token_id] * (width - n) + p for n, p in zip(lengths, req.prompts,
                                                                       strict=True)]
        self.tokens = torch.tensor(rows, dtype=torch.long, device=self.device)  # (B, L)
        self.pad: torch.Tensor | None = None
        self._mask: torch.Tensor | None = None
        if min(lengths) != width:
            pad = torch.tensor([width - n for n in lengths], device=self.device)
            self.pad = pad.unsqueeze(1)  # (B, 1)
            # One mask for the whole request; forwards slice it (no per-step allocation).
            cols = torch.arange(width + extra_columns, device=self.device).unsqueeze(0)
            self._mask = (cols >= self.pad).long()  # (B, L_max)
        self.rows = [RowResult(Completion(pair.tokenizer, pair.eos_token_ids, req.stop,
                                          req.max_new_tokens, req.on_text),
                               GenerationStats(prompt_tokens=n)) for n in lengths]

    def mask(self, length: int) -> torch.Tensor | None:
        return None if self._mask is None else self._mask[:, :length]

    def active(self) -> list[int]:
        return [i for i, r in enumerate(self.rows) if not r.completion.finished]


def _forward(model: PreTrainedModel, ids: torch.Tensor, cache, start: int, batch: _Batch,
             last_only: bool = False) -> torch.Tensor:
    """Run `ids` (B, T) at columns [start, start+T) -> logits (B, T or 1, V)."""
    pos = position_ids(start, ids.shape[1], batch.pad, ids.device).expand(ids.shape[0], -1)
    out = model(input_ids=ids, **with_cache(model, cache), use_cache=True, position_ids=pos,
                attention_mask=batch.mask(start + ids.shape[1]),
                logits_to_keep=1 if last_only else 0)
    return out.logits


def _sync(device: torch.device) -> None:
    # CUDA kernels run asynchronously; the per-phase timings the goodput controller needs
    # are only real after a sync. On CPU this is free.
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def _finish(batch: _Batch, started: float, first_token_at: float | None) -> list[RowResult]:
    total = time.perf_counter() - started
    for row in batch.rows:
        row.stats.completion_tokens = len(row.completion.token_ids)
        row.stats.total_time_s = total
        row.stats.time_to_first_token_s = (first_token_at or started) - started
        if not row.completion.finished:
            row.completion.finish("length")
    return batch.rows


@torch.inference_mode()
def decode_target_only(pair: Pair, req: DecodeRequest) -> list[RowResult]:
    """The baseline: one target forward per token, same forward path as speculation."""
    started = time.perf_counter()
    batch = _Batch(pair, req, extra_columns=req.max_new_tokens + 1)
    params, cache = req.params, new_cache()
    ids, start, step, first_token_at = batch.tokens, 0, 0, None
    while batch.active():
        t0 = time.perf_counter()
        logits = _forward(pair.target, ids, cache, start, batch, last_only=True)[:, -1]  # (B, V)
        start += ids.shape[1]
        top = torch.topk(logits, 2, dim=-1)  # argmax and top-2 margin in one pass
        margin = top.values[:, 0] - top.values[:, 1]
        if params.greedy:
            token = top.indices[:, 0]
            p_x = torch.exp(top.values[:, 0].float() - torch.logsumexp(logits.float(), dim=-1))
            probs = process_logits(logits, params) if req.record_distributions else None
        else:
            probs = process_logits(logits, params)
            token = sample(probs, req.generator)
            p_x = probs.gather(-1, token.unsqueeze(-1)).squeeze(-1)
        host = torch.stack([token.double(), p_x.double(), margin.double()],
                           dim=1).tolist()  # one device->host copy per step
        elapsed = time.perf_counter() - t0
        first_token_at = first_token_at or time.perf_counter()
        dists = probs.float().cpu() if probs is not None and req.record_distributions else None
        for i in batch.active():
            tok, p, margin = host[i]
            row = batch.rows[i]
            row.stats.steps += 1 if step else 0  # the prefill forward is not a decoding step
            row.stats.target_forwards += 1
            row.stats.verify_time_s += elapsed
            if not step:
                row.stats.prefill_time_s += elapsed
            row.completion.extend(
                [int(tok)], [TokenTrace(len(row.completion.token_ids), int(tok), "target", None,
                                        p, margin, step, 0)],
                dists[i:i + 1] if dists is not None else None)
        step += 1
        if start + 1 >= pair.max_context:  # the next token would not fit the context
            break
        ids = token.unsqueeze(1)
    return _finish(batch, started, first_token_at)


@torch.inference_mode()
def decode_speculative(pair: Pair, req: DecodeRequest,
                       controller: GammaController) -> list[RowResult]:
    """Draft gamma tokens, verify them with one target forward, keep the accepted prefix."""
    started = time.perf_counter()
    batch = _Batch(pair, req, extra_columns=req.max_new_tokens + 2)
    params = req.params
    draft_cache, target_cache = new_cache(), new_cache()
    width = batch.width
    if width > 1:
        _prefill(pair, batch, draft_cache, target_cache)
    committed, draft_len, step, first_token_at = width, width - 1, 0, None
    while True:
        active = batch.active()
        if not active:
            break
        emitted = committed - width
        room = min(req.max_new_tokens - emitted, pair.max_context - committed)
        if room <= 0:
            break
        # Never draft tokens that cannot be emitted (saves work; output is unchanged).
        gamma = max(0, min(controller.gamma(), room - 1))
        t0 = time.perf_counter()
        draft_tokens, q_rows, draft_len = _draft(pair.draft, draft_cache, batch, draft_len,
                                                 committed, gamma, params, req.generator)
        _sync(pair.device)
        t1 = time.perf_counter()
        verify_ids = torch.cat([batch.tokens[:, committed - 1:committed], draft_tokens], dim=1)
        logits = _forward(pair.target, verify_ids, target_cache, committed - 1, batch)  # (B, g+1, V)
        own, n_row, p_x, q_x, margin, p = _verify(draft_tokens, q_rows, logits, params,
                                                  req.generator, req.record_distributions)
        host = torch.cat([n_row.unsqueeze(1), own, p_x, q_x, margin],
                         dim=1).double().tolist()  # one host copy; ids < 2^24 stay exact
        t2 = time.perf_counter()
        first_token_at = first_token_at or t2
        # Batches commit the same count n = min over active rows, so every cache stays
        # rectangular. Still lossless: a row with n_i > n emits its first n+1 tokens
        # x_1..x_{n+1}, all accepted, which is exactly what the one-row algorithm emits at
        # those positions; where the output is cut depends only on other rows' independent
        # coins and on this row's own accept decisions so far (a stopping time), and the
        # next step restarts from the target's exact distribution at the new prefix.
        n = int(min(host[i][0] for i in active))
        committed += n + 1
        batch.tokens = torch.cat([batch.tokens, own[:, :n + 1]], dim=1)
        crop_to(target_cache, committed - 1)
        draft_len = min(draft_len, committed - 1)
        crop_to(draft_cache, draft_len)
        dists = p[:, :n + 1].float().cpu() if p is not None else None
        drafted_total, accepted_total = _record_step(batch, active, host, n, gamma, step, dists,
                                                     t1 - t0, t2 - t1)
        controller.update(gamma, drafted_total, accepted_total, t1 - t0, t2 - t1)
        step += 1
    return _finish(batch, started, first_token_at)


def _prefill(pair: Pair, batch: _Batch, draft_cache, target_cache) -> None:
    """Prefill both caches with all but the last prompt token, which the first step feeds
    as `[last] + draft` (so the first token is already a speculative one)."""
    prefix = batch.tokens[:, :-1]
    t0 = time.perf_counter()
    _forward(pair.draft, prefix, draft_cache, 0, batch, last_only=True)
    _sync(pair.device)
    t1 = time.perf_counter()
    _forward(pair.target, prefix, target_cache, 0, batch, last_only=True)
    _sync(pair.device)
    t2 = time.perf_counter()
    for row in batch.rows:
        row.stats.draft_forwards += 1
        row.stats.target_forwards += 1
        row.stats.draft_time_s += t1 - t0
        row.stats.verify_time_s += t2 - t1
        row.stats.prefill_time_s += t2 - t0


def _draft(draft: PreTrainedModel, cache, batch: _Batch, draft_len: int, committed: int,
           gamma: int, params: SamplingParams, generator: torch.Generator | None
           ) -> tuple[torch.Tensor, torch.Tensor | None, int]:
    """Propose gamma tokens -> (tokens (B, gamma), q or raw logits (B, gamma, V), draft_len).

    The draft's last proposal is never fed back (nothing would read its logits), so the
    cache ends one column short of the proposals; the next step feeds it if accepted.
    """
    if gamma == 0:
        return batch.tokens.new_empty((batch.size, 0)), None, draft_len
    ids = batch.tokens[:, draft_len:committed]
    tokens, rows = [], []
    for i in range(gamma):
        logits = _forward(draft, ids, cache, draft_len, batch, last_only=True)[:, -1]  # (B, V)
        draft_len += ids.shape[1]
        if params.greedy:
            token = logits.argmax(dim=-1)
            rows.append(logits)  # q(x) for the trace is computed once, after the loop
        else:
            q = process_logits(logits, params)
            token = sample(q, generator)
            rows.append(q)
        tokens.append(token)
        if i + 1 < gamma:
            ids = token.unsqueeze(1)
    return torch.stack(tokens, dim=1), torch.stack(rows, dim=1), draft_len


def _verify(draft_tokens: torch.Tensor, q_rows: torch.Tensor | None, logits: torch.Tensor,
            params: SamplingParams, generator: torch.Generator | None, record: bool
            ) -> tuple[torch.Tensor, ...]:
    """Accept/reject -> own tokens (B, g+1), n_i (B,), p(own) (B, g+1), q(own) (B, g),
    target top-2 margins (B, g+1), and p (B, g+1, V) when recording.

    `own` is each row's one-row output: its accepted draft tokens with the resampled/bonus
    token at position n_i (later columns are junk and never read).
    """
    batch, gamma = draft_tokens.shape
    top = torch.topk(logits, 2, dim=-1)  # (B, g+1, 2): argmax and margin in one pass
    margin = (top.values[..., 0] - top.values[..., 1]).float()
    if params.greedy:
        # Every token greedy emits is the target's argmax (accepted ones equal it), so the
        # argmax row *is* the output and p(x) needs no gather.
        own = top.indices[..., 0]
        n_row, _ = greedy_accept(draft_tokens, own)
        p_x = torch.exp(top.values[..., 0].float() - torch.logsumexp(logits.float(), dim=-1))
        q_x = token_probs(q_rows, own[:, :gamma]) if gamma else p_x[:, :0]
        p = process_logits(logits, params) if record else None
        return own, n_row, p_x, q_x, margin, p
    p = process_logits(logits, params)  # (B, g+1, V)
    q = q_rows if gamma else p.new_empty((batch, 0, p.shape[-1]))
    n_row, next_token = rejection_sample(draft_tokens, q, p, generator)
    own = torch.cat([draft_tokens, next_token.unsqueeze(1)], dim=1)
    own.scatter_(1, n_row.unsqueeze(1), next_token.unsqueeze(1))
    p_x = p.gather(-1, own.unsqueeze(-1)).squeeze(-1)
    q_x = q.gather(-1, own[:, :gamma].unsqueeze(-1)).squeeze(-1)
    return own, n_row, p_x, q_x, margin, p if record else None


def _record_step(batch: _Batch, active: list[int], host: list[list[float]], n: int, gamma: int,
                 step: int, dists: torch.Tensor | None, draft_s: float, verify_s: float
                 ) -> tuple[int, int]:
    """Turn one verified step into per-row traces and stats -> (drafted, accepted) totals.

    host[i] = [n_i, own tokens (g+1), p(own) (g+1), q(own) (g), margins (g+1)].
    """
    drafted_total = accepted_total = 0
    for i in active:
        values = host[i]
        n_i = int(values[0])
        tokens = [int(t) for t in values[1:n + 2]]
        p_vals = values[gamma + 2:gamma + 2 + n + 1]
        q_vals = values[2 * gamma + 3:2 * gamma + 3 + gamma]
        margins = values[3 * gamma + 3:3 * gamma + 3 + n + 1]
        row = batch.rows[i]
        # A row cut short by the batch's common n had its token at position n accepted too.
        accepted = n + 1 if n_i > n else n
        drafted = min(n + 1, gamma)  # draft positions whose verdict this step used
        base = len(row.completion.token_ids)
        traces = []
        for j, tok in enumerate(tokens):
            if j < accepted:
                origin, q = "accepted", q_vals[j]
            elif j < gamma:
                origin, q = "resampled", q_vals[j]
            else:
                origin, q = "bonus", None
            traces.append(TokenTrace(base + j, tok, origin, q, p_vals[j], margins[j],
                                     step, gamma))
        row.completion.extend(tokens, traces, dists[i] if dists is not None else None)
        _count(row.stats, gamma, drafted, accepted, draft_s, verify_s)
        drafted_total += drafted
        accepted_total += accepted
    return drafted_total, accepted_total


def _count(stats: GenerationStats, gamma: int, drafted: int, accepted: int,
           draft_s: float, verify_s: float) -> None:
    stats.steps += 1
    stats.judged_tokens += drafted
    stats.accepted += accepted
    stats.draft_forwards += gamma
    stats.target_forwards += 1
    stats.draft_time_s += draft_s
    stats.verify_time_s += verify_s
    if len(stats.drafted_per_position) < gamma:
        grow = gamma - len(stats.drafted_per_position)
        stats.drafted_per_position.extend([0] * grow)
        stats.accepted_per_position.extend([0] * grow)
    for j in range(drafted):
        stats.drafted_per_position[j] += 1
    for j in range(accepted):
        stats.accepted_per_position[j] += 1
