"""Continuous batching: requests join and leave one shared batch at step boundaries.

`ContinuousEngine` keeps every running request (a `Sequence`) as one row of a ragged target
cache (and, for draft-model rows, of a ragged draft cache: engine/ragged.py). Each `step`
runs, for all rows at once, at most one batched draft loop and exactly one target forward:

- rows differ in prompt, length, sampling parameters, `max_tokens`, stop strings, proposer
  (draft model, n-gram, or none: target-only rows feed just their last token) and depth;
- every row commits its own accepted count n_i + 1 (no waiting for the batch's least
  accepted row): the rejected columns become masked holes in the caches (RaggedCache.drop);
- a joiner that will not speculate at its first step (target-only, or joining a batch at
  depth cap 0) is prefilled with its whole prompt and takes its first token from that
  forward, as one-at-a-time target-only decoding does (`join`);
- sampling is per row, with the row's own parameters and generator, through the verifier the
  one-at-a-time loop uses (engine/verify.py, one judging group per row, so `rejection_sample`
  runs on the row's own (1, ...) slice in the same order as a one-row run): a seeded request
  draws the same numbers in a batch as alone;
- a request's output in a batch equals its output alone, greedy token for token, up to the
  floating-point reduction order of a larger batch (tests/engine/test_continuous.py measures
  how often that order flips a near tie).

The cache invariants it keeps per row, and the rows themselves: engine/rows.py. What proposes
(prompt lookup, and the draft model over its own ragged cache of the draft rows):
engine/proposers/batched.py; what judges the verify forward: engine/verify.py.

`gamma_cap` (engine/loadaware.py) caps every row's depth by batch size; 0 turns speculation
off for the step (no draft forward at all) - except for rows with `pinned_depth` (seeded
sampled requests): their depth never follows the load, so a seed reproduces its tokens at
any batch size (such a row drafts alone at a step whose cap is 0).

A fault of one row inside a step (its sampling parameters or generator, its depth controller,
its stop-string or detokenizing work) ends that row alone: it gets `error` and leaves the batch
at the end of the step, which the other rows finish as if it were not there. Only a fault of
the batched forwards themselves fails the step.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import torch

from engine.controls import adjust_rows, adjusts
from engine.loading import Pair
from engine.proposers.batched import DraftRows, NgramRows
from engine.ragged import RaggedCache
from engine.rows import (
    RowProposal,
    Sequence,
    SequenceRequest,
    commit_row,
    prefill_rows,
    row_history,
    row_step,
)
from engine.step import HostVerdict, RowStep
from engine.verify import Judging, verify

__all__ = ["ContinuousEngine", "Sequence", "SequenceRequest"]


class ContinuousEngine:
    """One shared batch over a pair. Not thread-safe: one thread calls add/step/remove."""

    def __init__(self, pair: Pair, *, gamma_cap: Callable[[int], int | None] | None = None
                 ) -> None:
        self.pair = pair
        self.gamma_cap = gamma_cap
        self.rows: list[Sequence] = []  # target cache row i is rows[i]
        self.target = RaggedCache(pair.device)
        self.filler = int(pair.pad_token_id)
        self.ngram = NgramRows()
        self.drafts = DraftRows(pair, self.filler)  # the draft rows and their ragged cache
        self.last_step: dict[str, float] = {}  # size, gamma cap, tokens, seconds of the last step
        self._last_cap: int | None = None  # the last step's cap (None: not asked)
        self._joined_tokens = 0  # first tokens joins gave since the last step (its `tokens`)

    @property
    def _drafting_cap(self) -> bool:
        """The last step's cap was > 0 (its rows speculated)."""
        return bool(self._last_cap)

    @property
    def size(self) -> int:
        return len(self.rows)

    @property
    def draft(self) -> RaggedCache:
        """The draft model's ragged cache (its rows: `drafts.rows`)."""
        return self.drafts.cache

    # joining and leaving --------------------------------------------------------------------
    def add(self, req: SequenceRequest) -> Sequence:
        """Prefill one request and join the batch (see `join`)."""
        return self.join([Sequence(self.pair, req)])[0]

    @torch.inference_mode()
    def join(self, seqs: list[Sequence]) -> list[Sequence]:
        """Prefill the joining sequences together (all but each one's last prompt token, one
        forward per model for all of them) and append them to the batch."""
        if not seqs:
            return seqs
        # Draft rows join the draft's cache (prefilled now while the batch speculates).
        self.drafts.join(seqs, self._drafting_cap or self.gamma_cap is None)
        # A joiner that will not speculate at its first step - target-only, or speculative
        # joining a batch that runs at depth cap 0 - is prefilled with its whole prompt and
        # takes its first token from that forward, as one-at-a-time target-only decoding does,
        # not one decode step later (on an H200 at one client that step was TTFT p50 40 ms
        # batched against 17 ms alone). A joiner that may speculate keeps its last prompt
        # token for the first step's `[last] + proposal`, as one-at-a-time speculation does;
        # the first step's cap comes from the depth cap's `peek` where it has one (asking it
        # would change its state), else from the last step (an empty batch: not known, and
        # guessing from an earlier batch would make a seeded request's draws depend on it;
        # where that cap turns out 0, such a joiner pays the one decode step to its first
        # token that a target-only one no longer does).
        whole = [not s.req.speculative for s in seqs]
        if not all(whole):
            peek = getattr(self.gamma_cap, "peek", None)
            cap = peek(self.size + len(seqs)) if peek is not None else None
            if cap is None and self.rows:
                cap = self._last_cap
            if cap == 0:  # (a pinned row speculates at its first step whatever the cap)
                whole = [w or not s.req.pinned_depth for w, s in zip(whole, seqs, strict=True)]
        t1 = time.perf_counter()
        tforwards, logits, fed = self._prefill(self.pair.target, seqs, self.target, whole)
        self.rows += seqs
        t2 = time.perf_counter()
        for seq in seqs:  # the shared prefill's time is every joiner's
            seq.stats.target_forwards += tforwards
            seq.stats.verify_time_s += t2 - t1
            seq.stats.prefill_time_s += t2 - t1
        firsts = [k for k, i in enumerate(fed) if whole[i]]
        if firsts and logits is not None:
            self._first_tokens([seqs[fed[k]] for k in firsts],
                               logits[torch.tensor(firsts, device=logits.device)])
        return seqs

    def _prefill(self, model: torch.nn.Module, seqs: list[Sequence], into: RaggedCache,
                 whole: list[bool] | None = None,
                 ) -> tuple[int, torch.Tensor | None, list[int]]:
        """`engine.rows.prefill_rows` on this batch's device and filler token."""
        return prefill_rows(model, seqs, into, self.pair.device, self.filler, whole)
    def remove(self, gone: list[Sequence]) -> None:
        """Rows leave the batch (finished, cancelled or failed)."""
        if not gone:
            return
        ids = {id(s) for s in gone}
        keep = [i for i, s in enumerate(self.rows) if id(s) not in ids]
        if len(keep) != len(self.rows):
            self.target.select(keep)
            self.rows = [self.rows[i] for i in keep]
        self.drafts.remove(ids)

    # one step ----------------------------------------------------------------------------------
    def _gammas(self) -> tuple[list[int], int | None]:
        # The cap is asked (and learns) only for steps where some row speculates.
        speculating = any(s.req.speculative for s in self.rows)
        cap = self.gamma_cap(self.size) if self.gamma_cap is not None and speculating else None
        out = []
        for seq in self.rows:
            if not seq.req.speculative or seq.req.controller is None:
                out.append(0)
                continue
            room = min(seq.req.max_new_tokens - len(seq.completion.token_ids),
                       self.pair.max_context - len(seq.tokens))
            try:
                g = int(seq.req.controller.gamma())
            except Exception as exc:  # this row's fault: it proposes nothing and leaves
                seq.error = exc
                g = 0
            if cap is not None and not seq.req.pinned_depth:
                if cap == 0 and g > 0:
                    seq.stats.capped_steps += 1
                g = min(g, cap)
            out.append(max(0, min(g, room - 1)))
        return out, cap

    @torch.inference_mode()
    def step(self) -> list[Sequence]:
        """Advance every row by one step -> the rows that finished (they left the batch)."""
        # Rows already done: out of room, or finished by the first token their join gave them.
        ended = [s for s in self.rows if s.finished or self._out_of_room(s)]
        for seq in ended:
            seq.finish()
        self.remove(ended)
        if not self.rows:
            self.last_step = {}  # no step ran (a caller must not read the last one again)
            self._joined_tokens = 0  # (not to be credited to a later, unrelated step)
            return ended
        t0 = time.perf_counter()
        gammas, cap = self._gammas()
        # Speculation turned on or off at this step: it pays the target cache's compaction
        # (below) or the draft catching up on what rows fed while it was off (their first
        # draft forward). A step with no speculative row (cap None) turns it off too.
        switched = bool(cap) != self._drafting_cap and cap is not None
        if cap == 0 and self._drafting_cap:
            # Speculation turned off: drop the holes rejected drafts left in the target cache
            # now (one copy), rather than have every step at depth 0 attend over them until
            # the rows leave. One closed-loop measurement at 16 rows (BENCHMARKS.md, git history): the
            # learner's estimate of depth 0 inside mixed operation rose from 1,707 to 1,955
            # tokens/s with it (pure depth-0 operation: ~2,500).
            self.target.compact()
        self._last_cap = cap
        proposals = self._propose(gammas)
        t1 = time.perf_counter()
        size = len(self.rows)
        emitted, accepted, judged = self._verify(proposals, t0, t1)
        finished = [s for s in self.rows if s.finished]
        for seq in finished:
            seq.finish()
        self.remove(finished)
        # The tokens of the joins since the last step count with this one: the load-aware
        # cap judges a depth by tokens over the engine's whole time, joins included.
        self.last_step = {"size": float(size), "gamma_cap": float(-1 if cap is None else cap),
                          "tokens": float(emitted + self._joined_tokens),
                          "seconds": time.perf_counter() - t0,
                          "accepted": float(accepted), "judged": float(judged),
                          "switched": float(switched)}
        self._joined_tokens = 0
        return ended + finished

    def _out_of_room(self, seq: Sequence) -> bool:
        return (len(seq.tokens) >= self.pair.max_context
                or len(seq.completion.token_ids) >= seq.req.max_new_tokens)

    def _propose(self, gammas: list[int]) -> list[RowProposal]:
        """Each row's proposal, from the proposer its request asked for: n-gram rows on the
        host, draft-model rows in one batched draft loop (engine/proposers/batched.py)."""
        props = [RowProposal([]) for _ in self.rows]
        self.ngram.propose(self.rows, gammas, props)
        self.drafts.propose(self.rows, gammas, props)
        return props

    def _controlled(self, rows: list[Sequence], props: list[RowProposal],
                    logits: torch.Tensor) -> torch.Tensor:
        """(B, T, V) target logits with each controlled row's penalties / logit_bias applied
        at its g + 1 positions (position t's history: its tokens + its drafts x_1..x_t)."""
        controlled = [i for i, s in enumerate(rows) if adjusts(s.req.params) and s.error is None]
        if not controlled:
            return logits
        logits = logits.float().clone()
        for i in controlled:
            seq, g = rows[i], len(props[i].tokens)
            try:
                block = torch.tensor([props[i].tokens], dtype=torch.long, device=logits.device)
                history = row_history(seq, [], logits.shape[-1], logits.device)
                logits[i, :g + 1] = adjust_rows(logits[i:i + 1, :g + 1], seq.req.params,
                                                history, block)[0]
            except Exception as exc:  # this row's fault: it alone fails
                seq.error = exc
        return logits

    def _verify(self, props: list[RowProposal], t0: float, t1: float) -> tuple[int, int, int]:
        """One target forward over every row's [last] + proposal; per-row accept/resample;
        each row commits its own count -> (tokens emitted by the batch, draft positions
        accepted and judged over its speculative rows)."""
        feeds = [[seq.tokens[-1], *p.tokens] for seq, p in zip(self.rows, props, strict=True)]
        logits, first = self.target.forward(self.pair.target, feeds, self.filler)  # (B, T, V)
        b, t = logits.shape[0], logits.shape[1]
        host, records, alternatives = self._judge(self.rows, props, logits)
        t2 = time.perf_counter()
        accepted = judged = 0
        for i, (seq, prop) in enumerate(zip(self.rows, props, strict=True)):
            g, ni = len(prop.tokens), host.n[i]
            # Target cache: keep [last] + the n_i accepted drafts, forget the rest.
            self.target.drop(i, first + ni + 1, t - (ni + 1))
            if seq.error is not None:
                continue  # failed in this step: it leaves at its end, nothing to commit
            try:
                self.drafts.commit(seq, g, ni)  # the draft cache keeps the accepted too
                step = row_step(seq, host, i, ni, g)
                accepted, judged = accepted + step.accepted, judged + step.judged
                self._commit(seq, step, records.get(i), ni, t1 - t0, t2 - t1, t2,
                             alternatives.get(i))
            except Exception as exc:  # this row's fault (stop strings, its controller...)
                seq.error = exc
        self.target.trim()
        self.drafts.trim()
        return sum(host.n[i] + 1 for i in range(b)), accepted, judged

    def _first_tokens(self, seqs: list[Sequence], logits: torch.Tensor) -> None:
        """The first token of each of `seqs` (joined whole) from its prefill's last logits
        (F, 1, V): sampled as any step's token after no proposal. Its time is taken once the
        tokens are on the host (`_judge`'s copy waits for the device), as `_verify`'s is."""
        host, records, alternatives = self._judge(seqs, [RowProposal([]) for _ in seqs], logits)
        at = time.perf_counter()
        for i, seq in enumerate(seqs):
            if seq.error is not None:
                continue  # its row leaves at the next step, before any forward
            try:
                self._commit(seq, row_step(seq, host, i, 0, 0), records.get(i), 0, 0.0, 0.0,
                             at, alternatives.get(i), prefill=True)
                self._joined_tokens += 1
            except Exception as exc:  # this row's fault (stop strings, its on_text...)
                seq.error = exc

    def _judge(self, rows: list[Sequence], props: list[RowProposal], logits: torch.Tensor,
               ) -> tuple[HostVerdict, dict[int, tuple[torch.Tensor, torch.Tensor | None]],
                          dict[int, list[tuple[tuple[int, float], ...]]]]:
        """Row i of `logits` (B, T, V) scored [last] + `props[i]` of `rows[i]`: per-row
        accept/resample with the row's own parameters and generator -> (the host copy of what
        each row emits, the distributions to record, the top-k alternatives asked for). A
        row's fault sets its `error`; the others go on."""
        b, t = logits.shape[0], logits.shape[1]
        logits = self._controlled(rows, props, logits)
        x = torch.tensor([p.tokens + [self.filler] * (t - 1 - len(p.tokens)) for p in props],
                         dtype=torch.long, device=logits.device).view(b, t - 1)
        groups = [Judging([i], seq.req.params, seq.req.generator,
                          None if prop.q is None else prop.q.unsqueeze(0),
                          None if prop.logits is None else prop.logits.unsqueeze(0),
                          keep_p=seq.req.record_distributions,
                          alternatives=seq.req.alternatives)
                  for i, (seq, prop) in enumerate(zip(rows, props, strict=True))
                  if seq.error is None]  # a row failed earlier in this step leaves at its end
        verdict = verify(logits, x, [len(p.tokens) for p in props], groups, isolate=True)
        for i, exc in verdict.faults.items():  # this row's fault (its sampling): it alone fails
            rows[i].error = exc
        records = {i: (p, props[i].q) for i, p in verdict.p.items()
                   if rows[i].req.record_distributions}
        return verdict.host, records, verdict.alternatives

    def _commit(self, seq: Sequence, step: RowStep, record: tuple[torch.Tensor,
                torch.Tensor | None] | None, n: int, draft_s: float, verify_s: float,
                verified_at: float, alternatives: list[tuple[tuple[int, float], ...]] | None = None,
                prefill: bool = False) -> None:
        """`engine.rows.commit_row` at this batch's size."""
        commit_row(seq, step, record, n, draft_s, verify_s, verified_at, len(self.rows),
                   alternatives, prefill)
