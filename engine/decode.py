"""Decoding loops: target-only (the baseline) and speculative (propose + verify).

Both loops share one forward path (engine.batch.forward) and one bookkeeping path
(`stopping.Completion`), so the only difference between them is how many target forwards
it takes to produce the same tokens. `speculative_step` is the whole algorithm of one step;
what proposes lives in engine/proposers/, what judges the verify forward in engine/verify.py
(the continuous engine's too), what a step's outcome does to the trace and the counters in
engine/step.py.

Cache invariant of the speculative loop, per step (L = committed columns incl. padding):
the target cache holds L-1 columns, and the last committed token is fed as
`[last] + proposal`; the proposer keeps its own state (draft_model.py says how).
"""

from __future__ import annotations

import logging
import time

import torch
from transformers import DynamicCache

from engine.batch import Batch, DecodeRequest, RowResult, finish, forward, sync
from engine.controllers import GammaController
from engine.controls import History, adjust_rows, adjusts, batch_history, needs_outputs
from engine.kv import crop_to
from engine.loading import Pair
from engine.proposers import Proposal, Proposer, ProposerConfig
from engine.sampling import process_logits, sample
from engine.static import StaticKV
from engine.step import (
    StepOutcome,
    record_step,
    top_alternatives,
    with_alternatives,
)
from engine.trace import TokenTrace
from engine.verify import Judging, verify

logger = logging.getLogger(__name__)

__all__ = ["DecodeRequest", "RowResult", "decode_speculative", "decode_target_only",
           "speculative_step"]


@torch.inference_mode()
def decode_target_only(pair: Pair, req: DecodeRequest) -> list[RowResult]:
    """The baseline: one target forward per token, same forward path as speculation."""
    started = time.perf_counter()
    batch = Batch(pair, req, extra_columns=req.max_new_tokens + 1)
    params, cache = req.params, batch.new_cache(pair.target)
    ids, start, step, first_token_at = batch.tokens, 0, 0, None
    history: History | None = None
    while batch.active():
        t0 = time.perf_counter()
        logits = forward(pair.target, ids, cache, start, batch, last_only=True)[:, -1]  # (B, V)
        if adjusts(params):  # penalties / logit_bias over prompt + output so far
            history = history or batch_history(batch.tokens, batch.width, batch.pad,
                                               logits.shape[-1], outputs=needs_outputs(params))
            logits = adjust_rows(logits.unsqueeze(1), params, history)[:, 0]
        start += ids.shape[1]
        top = torch.topk(logits, 2, dim=-1)  # argmax and top-2 margin in one pass
        margin = top.values[:, 0] - top.values[:, 1]
        lse = torch.logsumexp(logits.float(), dim=-1)
        if params.greedy:
            token = top.indices[:, 0]
            p_x = torch.exp(top.values[:, 0].float() - lse)
            probs = (process_logits(logits, params)
                     if req.record_distributions or req.alternatives else None)
        else:
            probs = process_logits(logits, params)
            token = sample(probs, req.generator)
            p_x = probs.gather(-1, token.unsqueeze(-1)).squeeze(-1)
        logprob = logits.float().gather(-1, token.unsqueeze(-1)).squeeze(-1) - lse
        host = torch.stack([token.double(), p_x.double(), margin.double(),
                            top.indices[:, 0].double(), top.indices[:, 1].double(),
                            top.values[:, 0].double(), top.values[:, 1].double(),
                            logprob.double()], dim=1).tolist()  # one device->host copy per step
        elapsed = time.perf_counter() - t0
        first_token_at = first_token_at or time.perf_counter()
        dists = probs.float().cpu() if probs is not None and req.record_distributions else None
        alternatives = (top_alternatives({i: (probs[i:i + 1], min(req.alternatives,
                                                                   probs.shape[-1]))
                                          for i in batch.active()})
                        if req.alternatives and probs is not None else {})
        for i in batch.active():
            tok, p, margin, top1, top2, top1_logit, top2_logit, lp = host[i]
            row = batch.rows[i]
            row.stats.steps += 1 if step else 0  # the prefill forward is not a decoding step
            row.stats.target_forwards += 1
            row.stats.verify_time_s += elapsed
            if not step:
                row.stats.prefill_time_s += elapsed
            row.completion.extend(
                [int(tok)], with_alternatives([TokenTrace(
                    len(row.completion.token_ids), int(tok), "target", None, p, margin, step, 0,
                    top1_id=int(top1), top2_id=int(top2), top1_logit=top1_logit,
                    top2_logit=top2_logit, target_logprob=lp)], alternatives.get(i)),
                dists[i:i + 1] if dists is not None else None)
        step += 1
        if history is not None:
            history = history.then(token)
        if start + 1 >= pair.max_context:  # the next token would not fit the context
            break
        ids = token.unsqueeze(1)
    return finish(batch, started, first_token_at)


@torch.inference_mode()
def decode_speculative(pair: Pair, req: DecodeRequest, controller: GammaController,
                       proposer: ProposerConfig | None = None) -> list[RowResult]:
    """Propose up to gamma tokens, verify them with one target forward, keep what is accepted."""
    started = time.perf_counter()
    batch = Batch(pair, req, extra_columns=req.max_new_tokens + 2)
    proposing = (proposer or ProposerConfig()).build(pair, batch)
    target_cache = batch.new_cache(pair.target)
    if batch.width > 1:
        _prefill(pair, batch, proposing, target_cache)
    committed, step, first_token_at = batch.width, 0, None
    while active := batch.active():
        room = min(req.max_new_tokens - (committed - batch.width),
                   pair.max_context - committed)
        if room <= 0:
            break
        # Never propose tokens that cannot be emitted (saves work; output is unchanged).
        gamma = max(0, min(controller.gamma(), room - 1))
        outcome = speculative_step(pair, req, batch, proposing, target_cache, committed,
                                   gamma, active)
        first_token_at = first_token_at or outcome.verified_at
        committed += outcome.n + 1
        record_step(batch, outcome, step)
        controller.update(gamma, outcome.judged, outcome.accepted, outcome.draft_s,
                          outcome.verify_s)
        step += 1
    return finish(batch, started, first_token_at)


def speculative_step(pair: Pair, req: DecodeRequest, batch: Batch, proposer: Proposer,
                     target_cache: DynamicCache | StaticKV, committed: int, gamma: int,
                     active: list[int]) -> StepOutcome:
    """One step of speculative sampling (Leviathan et al. 2023, Algorithm 1) for the batch.

    propose x_1..x_gamma ~ q -> one target forward gives p_1..p_{gamma+1} -> accept x_i
    with probability min(1, p_i(x_i) / q_i(x_i)); at the first rejection resample from
    norm(max(0, p_i - q_i)), else take a bonus token from p_{gamma+1} -> commit n + 1
    tokens per row (see engine/step.py for the batch rule). A deterministic proposal is the
    point mass q_i = δ_{x_i}: accept with probability p_i(x_i), resample from p_i without x_i.
    """
    params, generator = req.params, req.generator
    t0 = time.perf_counter()
    proposal = proposer.propose(batch, committed, gamma, params, generator)
    x = proposal.tokens  # (B, g); row i's columns from proposal.lengths[i] on are filler
    sync(pair.device)
    t1 = time.perf_counter()
    ids = torch.cat([batch.tokens[:, committed - 1:committed], x], dim=1)
    logits = forward(pair.target, ids, target_cache, committed - 1, batch)  # (B, g+1, V)
    if adjusts(params):  # position i's history: the committed tokens + x_1..x_i-1
        logits = adjust_rows(logits, params, batch_history(
            batch.tokens[:, :committed], batch.width, batch.pad, logits.shape[-1],
            outputs=needs_outputs(params)), x)
    wants_p = req.record_distributions or req.alternatives > 0
    verdict = verify(logits, x, proposal.lengths, [Judging(
        list(range(batch.size)), params, generator, proposal.q, proposal.draft_logits,
        keep_p=wants_p, alternatives=req.alternatives)])
    host = verdict.host
    t2 = time.perf_counter()
    # Commit: every row keeps n + 1 tokens; both caches forget what was not kept.
    n = min(host.n[i] for i in active)
    batch.tokens = torch.cat([batch.tokens, verdict.own[:, :n + 1]], dim=1)
    crop_to(target_cache, committed + n)
    proposer.commit(committed + n + 1, [row[:n + 1] for row in host.own])
    record = req.record_distributions
    p = torch.stack([verdict.p[i] for i in range(batch.size)]) if wants_p else None
    alternatives = ({i: verdict.alternatives[i][:n + 1] for i in active}
                    if req.alternatives else None)
    return StepOutcome(rows={i: host.row(i, n, proposal.lengths[i]) for i in active}, n=n,
                       gamma=gamma, draft_forwards=proposal.forwards,
                       distributions=p[:, :n + 1].float().cpu() if p is not None and record
                       else None,
                       draft_s=t1 - t0, verify_s=t2 - t1, verified_at=t2,
                       draft_distributions=(_recorded_q(proposal, p, n)
                                            if p is not None and record and not params.greedy
                                            else None),
                       alternatives=alternatives)


def _recorded_q(proposal: Proposal, p: torch.Tensor, n: int) -> torch.Tensor:
    """(B, n+1, V) float32 cpu: the q each kept position's proposal was sampled from; zero
    rows for the bonus position and for point-mass proposals (no q materialised)."""
    batch, vocab = p.shape[0], p.shape[-1]
    q = proposal.q.float() if proposal.q is not None else p.new_zeros((batch, proposal.gamma, vocab))
    q = torch.cat([q, q.new_zeros((batch, 1, vocab))], dim=1)
    return q[:, :n + 1].cpu()


def _prefill(pair: Pair, batch: Batch, proposer: Proposer,
             target_cache: DynamicCache | StaticKV) -> None:
    """Prefill the proposer and the target with all but the last prompt token, which the
    first step feeds as `[last] + proposal` (so the first token is already a speculative one)."""
    t0 = time.perf_counter()
    forwards = proposer.prefill(batch)
    sync(pair.device)
    t1 = time.perf_counter()
    forward(pair.target, batch.tokens[:, :-1], target_cache, 0, batch, last_only=True)
    sync(pair.device)
    t2 = time.perf_counter()
    for row in batch.rows:
        row.stats.draft_forwards += forwards
        row.stats.target_forwards += 1
        row.stats.draft_time_s += t1 - t0
        row.stats.verify_time_s += t2 - t1
        row.stats.prefill_time_s += t2 - t0
