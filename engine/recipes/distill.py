"""Distilling a truncated draft on its target's final hidden states (feature regression).

A draft cut from the target (engine.recipes.convert.truncated) shares the target's
embedding, final norm and tied head; only its few decoder layers have to learn to produce,
after those k layers, the hidden state the target produces after all of its layers. So the
loss is the mean squared error between the draft's and the target's final (normed) hidden
states at every position, teacher-forced (EAGLE's feature regression, without EAGLE's extra
head): the 49152-wide head never enters the backward pass, which makes a step ~5x cheaper on
a CPU than a logit KL, and the target's states are computed once and reused every epoch.
Embedding and head stay frozen (they are the target's, tied). A small KL term on the logits of
a sample of positions keeps the argmax, which is what greedy acceptance reads, in view.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from transformers import PreTrainedModel, PreTrainedTokenizerBase

logger = logging.getLogger(__name__)

Tick = Callable[[int, float | None], None]


@dataclass(frozen=True, slots=True)
class DistillConfig:
    seq_len: int = 256  # teacher-forced window; chat answers are shorter, code files longer
    batch_size: int = 8
    lr: float = 1e-3  # AdamW on the draft's layers and final norm only
    warmup_steps: int = 20
    max_seconds: float = 300.0  # wall-clock cap on the training loop (the build's budget)
    max_steps: int = 2000
    kl_weight: float = 0.1  # logit KL on `kl_positions` sampled positions per batch
    kl_positions: int = 64


def greedy_answers(target: PreTrainedModel, tokenizer: PreTrainedTokenizerBase,
                   prompts: list[str], *, max_new_tokens: int, batch_size: int = 16,
                   on_batch: Tick | None = None) -> list[list[int]]:
    """The target's own greedy continuations of `prompts` (rendered text), prompt included:
    what the draft will be asked to predict when it drafts for this target."""
    out: list[list[int]] = []
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    side = tokenizer.padding_side
    tokenizer.padding_side = "left"
    try:
        for start in range(0, len(prompts), batch_size):
            chunk = prompts[start:start + batch_size]
            enc = tokenizer(chunk, return_tensors="pt", padding=True, add_special_tokens=False)
            with torch.inference_mode():
                gen = target.generate(**enc, do_sample=False, max_new_tokens=max_new_tokens,
                                      pad_token_id=pad)
            for row, mask in zip(gen, enc["attention_mask"], strict=True):
                ids = row[int((mask == 0).sum()):].tolist()  # drop the left padding
                while ids and ids[-1] == pad and len(ids) > mask.sum():
                    ids.pop()  # and what follows the answer's end
                out.append(ids)
            if on_batch:
                on_batch(start + len(chunk), None)
    finally:
        tokenizer.padding_side = side
    return out


def windows(sequences: list[list[int]], seq_len: int) -> list[list[int]]:
    """Sequences cut into windows of at most `seq_len` tokens (short ones kept whole)."""
    out = []
    for seq in sequences:
        for i in range(0, max(1, len(seq) - 1), seq_len):
            piece = seq[i:i + seq_len]
            if len(piece) >= 8:
                out.append(piece)
    return out


def _batches(rows: list[list[int]], batch_size: int, pad: int) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """Length-sorted (ids, mask) batches, right-padded (so positions need no offsets)."""
    rows = sorted(rows, key=len)
    out = []
    for i in range(0, len(rows), batch_size):
        chunk = rows[i:i + batch_size]
        width = max(len(r) for r in chunk)
        ids = torch.full((len(chunk), width), pad, dtype=torch.long)
        mask = torch.zeros((len(chunk), width), dtype=torch.long)
        for j, r in enumerate(chunk):
            ids[j, :len(r)] = torch.tensor(r)
            mask[j, :len(r)] = 1
        out.append((ids, mask))
    return out


@torch.inference_mode()
def teacher_states(target: PreTrainedModel, rows: list[list[int]], batch_size: int, pad: int,
                   on_batch: Tick | None = None) -> list[tuple[torch.Tensor, torch.Tensor, torch.Tensor]]:
    """(ids, mask, target final normed hidden states (B, T, d)) per batch, computed once."""
    out = []
    done = 0
    for ids, mask in _batches(rows, batch_size, pad):
        hidden = target.model(input_ids=ids, attention_mask=mask).last_hidden_state
        out.append((ids, mask, hidden.clone()))
        done += ids.shape[0]
        if on_batch:
            on_batch(done, None)
    return out


@dataclass(frozen=True, slots=True)
class DistillResult:
    steps: int
    seconds: float
    loss: float  # mean of the last steps' hidden-state MSE, relative to the states' energy


def distill(draft: PreTrainedModel, data: list[tuple[torch.Tensor, torch.Tensor, torch.Tensor]],
            cfg: DistillConfig, *, seed: int = 0, on_step: Tick | None = None) -> DistillResult:
    """Train the draft's decoder layers and final norm to reproduce the target's states."""
    torch.manual_seed(seed)
    rng = random.Random(seed)
    head = draft.get_output_embeddings().weight.detach()  # frozen, tied: (V, d)
    for p in draft.parameters():
        p.requires_grad_(False)
    params = [p for p in list(draft.model.layers.parameters()) + list(draft.model.norm.parameters())]
    for p in params:
        p.requires_grad_(True)
    opt = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=0.0)
    # Relative error: the normed states' scale is set by the norm's weights (O(1)-O(10) per
    # dimension here), so the loss reads as a fraction of the target's own energy.
    scale = sum(float(h[m.bool()].pow(2).mean()) for _, m, h in data) / len(data)
    draft.train()
    t0 = time.perf_counter()
    step, recent = 0, []
    order: list[int] = []
    while step < cfg.max_steps and time.perf_counter() - t0 < cfg.max_seconds:
        if not order:
            order = list(range(len(data)))
            rng.shuffle(order)
        ids, mask, want = data[order.pop()]
        warm = min(1.0, (step + 1) / cfg.warmup_steps)
        frac = min(1.0, (time.perf_counter() - t0) / cfg.max_seconds, step / cfg.max_steps)
        for g in opt.param_groups:
            g["lr"] = cfg.lr * warm * 0.5 * (1 + math.cos(math.pi * frac))
        got = draft.model(input_ids=ids, attention_mask=mask).last_hidden_state  # (B, T, d)
        keep = mask.bool()
        mse = F.mse_loss(got[keep], want[keep]) / scale
        loss = mse
        if cfg.kl_weight:
            flat_got, flat_want = got[keep], want[keep]
            pick = torch.randint(0, flat_got.shape[0], (min(cfg.kl_positions, flat_got.shape[0]),))
            log_q = F.log_softmax(flat_got[pick] @ head.T, dim=-1)
            log_p = F.log_softmax(flat_want[pick] @ head.T, dim=-1)
            loss = loss + cfg.kl_weight * F.kl_div(log_q, log_p, log_target=True,
                                                   reduction="batchmean")
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        step += 1
        recent = ([*recent, float(mse.detach())])[-20:]
        if on_step:
            on_step(step, sum(recent) / len(recent))
    draft.eval()
    for p in draft.parameters():
        p.requires_grad_(True)
    return DistillResult(step, time.perf_counter() - t0, sum(recent) / max(1, len(recent)))
