"""Proposers over a continuous batch: each proposes for all of its rows at once.

The continuous engine (engine/continuous.py) asks both once per step, through one call each,
`propose(rows, depths, props)`: `rows` are the batch's rows (target cache order), `depths`
each row's depth this step (0: it proposes nothing), and each proposer fills `props[i]` of
the rows it owns. A row's fault (its sampling parameters, its penalties) sets that row's
`error`; the others go on.

- `NgramRows`: prompt lookup over each row's prompt and output (`prompt_lookup`, the
  lookup the one-at-a-time `NgramProposer` runs); no state, no forward.
- `DraftRows`: the draft model over the rows that use it, kept as the rows of a ragged draft
  cache (engine/ragged.py) in their own order; one batched draft loop per step, whose first
  forward also feeds every draft row the tokens it has not seen (`Sequence.d_seen`). It
  joins, leaves and commits with the batch: `join`, `remove`, `commit` (forget the rejected
  drafts, as the target cache does) and `trim`.
"""

from __future__ import annotations

import time

import torch

from engine.controls import adjust_rows, adjusts
from engine.loading import Pair
from engine.proposers.ngram import prompt_lookup
from engine.ragged import RaggedCache
from engine.rows import RowProposal, Sequence, prefill_rows, row_history
from engine.sampling import process_logits, sample

__all__ = ["DraftRows", "NgramRows"]


class NgramRows:
    """Prompt lookup for the batch's n-gram rows."""

    def propose(self, rows: list[Sequence], depths: list[int], props: list[RowProposal]) -> None:
        for seq, g, prop in zip(rows, depths, props, strict=True):
            if g and seq.req.speculative and seq.req.proposer.kind == "ngram":
                cfg = seq.req.proposer
                try:
                    prop.tokens = prompt_lookup(seq.tokens, g, cfg.prompt_lookup_min,
                                                cfg.prompt_lookup_max)
                except Exception as exc:  # this row's fault only
                    seq.error = exc


class DraftRows:
    """The draft model over the batch's draft rows. Not thread-safe (the engine's thread)."""

    def __init__(self, pair: Pair, filler: int) -> None:
        self.pair = pair
        self.filler = filler
        self.rows: list[Sequence] = []  # draft cache row j is rows[j]
        self.cache = RaggedCache(pair.device)
        self._depth = self._first1 = 0  # the last step's draft depth and first fed-back column
        self._where: dict[int, int] = {}  # id(row) -> its draft cache row, at the last step

    def join(self, seqs: list[Sequence], drafting: bool) -> None:
        """The joiners that use the draft join its cache. While the batch speculates
        (`drafting`), they are prefilled here, in a forward of their own: fed lazily, a
        joiner's whole prompt would widen the next step's first draft forward for every row
        (a ragged forward costs rows x its longest feed). While the depth cap is 0 a draft
        row joins empty (d_seen = 0) and costs nothing; when speculation resumes, its first
        draft forward feeds what it has not seen. A pinned row (it drafts whatever the cap)
        is prefilled at any cap."""
        joining = [s for s in seqs if s.uses_draft]
        eager = [s for s in joining if drafting or s.req.pinned_depth]
        lazy = [s for s in joining if not (drafting or s.req.pinned_depth)]
        t0 = time.perf_counter()
        if eager:
            forwards = prefill_rows(self.pair.draft, eager, self.cache, self.pair.device,
                                    self.filler)[0]
            dt = time.perf_counter() - t0
            for seq in eager:
                seq.d_seen = len(seq.tokens) - 1
                seq.stats.draft_forwards += forwards
                seq.stats.draft_time_s += dt
                seq.stats.prefill_time_s += dt
        if lazy:
            self.cache.extend(RaggedCache.empty_rows(self.pair.device, len(lazy)))
        self.rows += eager + lazy

    def remove(self, gone: set[int]) -> None:
        """Rows (by id) leave."""
        keep = [j for j, s in enumerate(self.rows) if id(s) not in gone]
        if len(keep) != len(self.rows):
            self.cache.select(keep)
            self.rows = [self.rows[j] for j in keep]

    def propose(self, rows: list[Sequence], depths: list[int], props: list[RowProposal]) -> int:
        """Draft each draft row's depth in one batched loop -> the loop's depth (forwards)."""
        where = {id(s): i for i, s in enumerate(rows)}
        self._where = {id(s): j for j, s in enumerate(self.rows)}
        depth = max((depths[where[id(s)]] for s in self.rows), default=0)
        self._depth, self._first1 = depth, 0
        if depth == 0:
            return 0
        feeds = [s.tokens[s.d_seen:] for s in self.rows]
        drafted: list[list[torch.Tensor]] = [[] for _ in self.rows]
        for k in range(depth):
            logits, col = self.cache.forward(self.pair.draft, feeds, self.filler, last_only=True)
            logits = logits[:, -1]  # (B_d, V)
            self._first1 = col if k == 1 else self._first1
            logits = self._controlled(logits, depths, where, props, k)
            argmax = logits.argmax(dim=-1).tolist()  # one device->host copy for greedy rows
            feeds = []
            for j, seq in enumerate(self.rows):
                i = where[id(seq)]
                if k >= depths[i] or seq.error is not None:
                    feeds.append([])
                    continue
                params = seq.req.params
                if params.greedy:
                    token = argmax[j]
                    drafted[j].append(logits[j])
                else:
                    try:
                        q = process_logits(logits[j:j + 1], params)
                        token = int(sample(q, seq.req.generator)[0])
                    except Exception as exc:  # this row's sampling fault: it stops drafting
                        seq.error = exc
                        feeds.append([])
                        continue
                    drafted[j].append(q[0])
                props[i].tokens.append(token)
                # A row's last draft is never fed: nothing would read its logits.
                feeds.append([token] if k + 1 < depths[i] else [])
        for j, seq in enumerate(self.rows):
            if drafted[j] and seq.error is None:
                stacked = torch.stack(drafted[j])
                prop = props[where[id(seq)]]
                if seq.req.params.greedy:
                    prop.logits = stacked
                else:
                    prop.q = stacked
        return depth

    def _controlled(self, logits: torch.Tensor, depths: list[int], where: dict[int, int],
                    props: list[RowProposal], k: int) -> torch.Tensor:
        """(B_d, V) draft logits with each controlled row's penalties / logit_bias applied
        for its k-th draft position (history: its tokens + its drafts so far, as the
        verifier will read it); the other rows' logits are unchanged."""
        rows = [j for j, s in enumerate(self.rows)
                if adjusts(s.req.params) and k < depths[where[id(s)]] and s.error is None]
        if not rows:
            return logits
        logits = logits.float().clone()
        for j in rows:
            seq = self.rows[j]
            try:
                history = row_history(seq, props[where[id(seq)]].tokens, logits.shape[-1],
                                      logits.device)
                logits[j] = adjust_rows(logits[j:j + 1].unsqueeze(1), seq.req.params,
                                        history)[0, 0]
            except Exception as exc:  # this row's fault (e.g. a bias outside the vocabulary)
                seq.error = exc
        return logits

    def commit(self, seq: Sequence, proposed: int, accepted: int) -> None:
        """Row `seq` kept `accepted` of its `proposed` drafts at the last step: the draft
        cache keeps them and forgets the rest. The first draft forward fed every unseen
        token; x_1..x_{g-1} were fed one per later forward (columns first1, first1 + 1, ...)."""
        if not self._depth or not seq.uses_draft:
            return
        fed = max(0, proposed - 1)
        keep = min(accepted, fed)
        self.cache.drop(self._where[id(seq)], self._first1 + keep, fed - keep)
        seq.d_seen = len(seq.tokens) + keep
        seq.stats.draft_forwards += self._depth

    def trim(self) -> None:
        self.cache.trim()
