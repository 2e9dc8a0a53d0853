"""The draft-model proposer: a small model of the same tokenizer drafts gamma tokens.

Cache invariant, per step (L = committed columns incl. padding): the draft cache holds
`draft_len` <= L-1 columns. The columns it lacks (1, or 2 after a fully accepted step,
because the draft never saw its own last proposal: nothing would read those logits) are
fed first, in the same forward as the first proposal.
"""

from __future__ import annotations

import torch
from transformers import PreTrainedModel

from engine.batch import Batch, forward
from engine.controls import adjust_rows, adjusts, batch_history, needs_outputs
from engine.kv import crop_to
from engine.proposers.base import Proposal
from engine.sampling import SamplingParams, process_logits, sample


class DraftModelProposer:
    def __init__(self, draft: PreTrainedModel, batch: Batch) -> None:
        self.draft = draft
        self.cache = batch.new_cache(draft)
        self.draft_len = batch.width - 1  # what the cache will hold after prefill

    def prefill(self, batch: Batch) -> int:
        forward(self.draft, batch.tokens[:, :-1], self.cache, 0, batch, last_only=True)
        return 1

    def propose(self, batch: Batch, committed: int, gamma: int, params: SamplingParams,
                generator: torch.Generator | None) -> Proposal:
        if gamma == 0:
            return Proposal.empty(batch.size, batch.device)
        ids = batch.tokens[:, self.draft_len:committed]
        tokens, rows = [], []
        history = None
        for i in range(gamma):
            logits = forward(self.draft, ids, self.cache, self.draft_len, batch,
                             last_only=True)[:, -1]  # (B, V)
            self.draft_len += ids.shape[1]
            if adjusts(params):  # as the verifier will: committed tokens + earlier drafts
                history = (batch_history(batch.tokens[:, :committed], batch.width, batch.pad,
                                         logits.shape[-1], outputs=needs_outputs(params))
                           if history is None
                           else history.then(tokens[-1]))
                logits = adjust_rows(logits.unsqueeze(1), params, history)[:, 0]
            if params.greedy:
                token = logits.argmax(dim=-1)
                rows.append(logits)  # q(x) for the trace is computed once, after the step
            else:
                q = process_logits(logits, params)
                token = sample(q, generator)
                rows.append(q)
            tokens.append(token)
            if i + 1 < gamma:
                ids = token.unsqueeze(1)
        stacked = torch.stack(rows, dim=1)  # (B, gamma, V)
        return Proposal(torch.stack(tokens, dim=1), [gamma] * batch.size,
                        q=None if params.greedy else stacked,
                        draft_logits=stacked if params.greedy else None, forwards=gamma)

    def commit(self, committed: int, emitted: list[list[int]]) -> None:
        self.draft_len = min(self.draft_len, committed - 1)
        crop_to(self.cache, self.draft_len)
