"""A decoding request's batch: the left-padded token matrix, its one forward path, its rows.

Owns what both decoding loops and the draft-model proposer share: `DecodeRequest` (what to
decode), `Batch` (tokens, padding mask, per-row `RowResult`), `forward` (the model's own
forward with a DynamicCache, explicit position ids and a left-padding mask only when a row
is padded) and `finish` (end-of-request stats).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import torch
from transformers import DynamicCache, PreTrainedModel

from engine import static
from engine.kv import position_ids, with_cache
from engine.loading import Pair
from engine.sampling import SamplingParams
from engine.stopping import Completion, OnText
from engine.trace import GenerationStats


@dataclass(slots=True)
class DecodeRequest:
    prompts: list[list[int]]
    params: SamplingParams
    max_new_tokens: int
    stop: list[str]
    record_distributions: bool = False
    generator: torch.Generator | None = None
    on_text: OnText | None = None  # single-prompt requests only
    # top-k (id, p) per emitted token from the distribution it was chosen from
    # (TokenTrace.alternatives; OpenAI's top_logprobs); 0: none
    alternatives: int = 0


@dataclass(slots=True)
class RowResult:
    completion: Completion
    stats: GenerationStats


class Batch:
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
        self._pair, self._columns = pair, width + extra_columns
        self._static: list[tuple[PreTrainedModel, static.StaticKV]] = []
        self.prompts = req.prompts
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

    def new_cache(self, model: PreTrainedModel) -> DynamicCache | static.StaticKV:
        """A KV cache for `model` over this batch, in the pair's decode mode (engine.static):
        a DynamicCache, or a StaticKV of every column the batch can reach, given back to
        its pool by `release`."""
        mode = self._pair.decode
        if mode == "dynamic":
            return DynamicCache()
        cache = static.checkout(model, self.size, self._columns, mode, self._pair.max_context)
        cache.set_pad(self.pad)
        self._static.append((model, cache))
        return cache

    def release(self) -> None:
        """Give the batch's static caches back to their pool (a no-op for dynamic ones)."""
        while self._static:
            static.release(*self._static.pop())

    def mask(self, length: int) -> torch.Tensor | None:
        return None if self._mask is None else self._mask[:, :length]

    def active(self) -> list[int]:
        return [i for i, r in enumerate(self.rows) if not r.completion.finished]


def forward(model: PreTrainedModel, ids: torch.Tensor, cache: DynamicCache | static.StaticKV,
            start: int, batch: Batch, last_only: bool = False) -> torch.Tensor:
    """Run `ids` (B, T) at columns [start, start+T) -> logits (B, T or 1, V)."""
    if isinstance(cache, static.StaticKV):
        return cache.forward(model, ids, start, last_only)
    pos = position_ids(start, ids.shape[1], batch.pad, ids.device).expand(ids.shape[0], -1)
    out = model(input_ids=ids, **with_cache(model, cache), use_cache=True, position_ids=pos,
                attention_mask=batch.mask(start + ids.shape[1]),
                logits_to_keep=1 if last_only else 0)
    return out.logits


def sync(device: torch.device) -> None:
    # CUDA kernels run asynchronously; the per-phase timings the goodput controller needs
    # are only real after a sync. On CPU this is free.
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def finish(batch: Batch, started: float, first_token_at: float | None) -> list[RowResult]:
    batch.release()
    total = time.perf_counter() - started
    for row in batch.rows:
        row.stats.completion_tokens = len(row.completion.token_ids)
        row.stats.total_time_s = total
        row.stats.time_to_first_token_s = (first_token_at or started) - started
        if not row.completion.finished:
            row.completion.finish("length")
    return batch.rows
