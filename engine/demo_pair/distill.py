"""Distillation of the one-layer demo draft from the trained target.

The draft starts as the target's embedding / lm_head / final norm plus its first layer,
then learns to imitate the target with the forward KL(p_target || q_draft) on two kinds of
text, with the teacher's logits computed on the fly:
  * corpus windows (what users' code looks like), and
  * the target's own greedy continuations of corpus prefixes — exactly the prefixes that
    speculative decoding asks the draft about, which is what raises greedy acceptance.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from transformers import PreTrainedModel

from engine.demo_pair.train import (
    TrainConfig,
    Trained,
    autocast,
    lr_at,
    make_optimizer,
    mean_or_nan,
    model_device,
    out_of_time,
    sample_windows,
)

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class DistillConfig:
    steps: int = 300
    batch_size: int = 16
    seq_len: int = 128  # the draft only needs short-range context to guess the next token
    lr: float = 4e-3
    warmup_steps: int = 10
    # Every `corpus_every`-th step trains on corpus windows, the others on rows of a pool
    # of target greedy continuations (1 = corpus only, no pool).
    corpus_every: int = 5  # 80% pool: measured MAL 3.06 vs 2.83 at 50% / 200 steps / 256 rows
    pool_rows: int = 512  # generated once, batched (batch-1 decoding would cost ~20x more)
    pool_batch: int = 64
    gen_prefix: int = 32  # corpus tokens before the target continues greedily
    gen_new_tokens: int = 96  # prefix + new = seq_len: pool rows and corpus rows share a shape
    max_seconds: float | None = None  # wall-clock cap, as TrainConfig's

    def schedule(self) -> TrainConfig:
        return TrainConfig(steps=self.steps, batch_size=self.batch_size, seq_len=self.seq_len,
                           lr=self.lr, warmup_steps=self.warmup_steps, weight_decay=0.0,
                           max_seconds=self.max_seconds)


def init_draft_from_target(draft: PreTrainedModel, target: PreTrainedModel) -> None:
    """Copy embedding (tied lm_head), final norm and the first layers into the draft."""
    with torch.no_grad():
        draft.model.embed_tokens.weight.copy_(target.model.embed_tokens.weight)
        draft.model.norm.weight.copy_(target.model.norm.weight)
        for i, layer in enumerate(draft.model.layers):
            layer.load_state_dict(target.model.layers[i].state_dict())


def generation_pool(target: PreTrainedModel, stream: torch.Tensor, cfg: DistillConfig,
                    gen: torch.Generator,
                    on_batch: Callable[[int], None] | None = None) -> torch.Tensor:
    """(pool_rows, gen_prefix + gen_new_tokens): corpus prefixes continued greedily (on the
    target's device; the pool is returned on the CPU, like the corpus stream)."""
    rows = []
    device = model_device(target)
    for i in range(0, cfg.pool_rows, cfg.pool_batch):
        prefix = sample_windows(stream, min(cfg.pool_batch, cfg.pool_rows - i),
                                cfg.gen_prefix - 1, gen)  # windows are length + 1
        rows.append(_greedy(target, prefix.to(device), cfg.gen_new_tokens).cpu())
        if on_batch:
            on_batch(i + len(prefix))
    return torch.cat(rows)


@torch.inference_mode()
def _greedy(target: PreTrainedModel, prefix: torch.Tensor, new_tokens: int) -> torch.Tensor:
    # Equal-length prefixes: no padding, so each row decodes as it would alone.
    out = target.generate(prefix, attention_mask=torch.ones_like(prefix), do_sample=False,
                          max_new_tokens=new_tokens, min_new_tokens=new_tokens,
                          pad_token_id=target.config.pad_token_id)
    return out.clone()  # leave inference mode: the student trains on these ids


def distill(draft: PreTrainedModel, target: PreTrainedModel, stream: torch.Tensor,
            cfg: DistillConfig, *, seed: int, pool: torch.Tensor | None = None,
            on_step: Callable[[int, float], None] | None = None) -> Trained:
    """Train `draft` in place to imitate `target` (`loss`: the mean KL of the last 20 steps).

    `pool`: target continuations (see `generation_pool`), used on all steps but every
    `cfg.corpus_every`-th.
    """
    gen = torch.Generator().manual_seed(seed)
    device = model_device(draft)
    sched = cfg.schedule()
    # The embedding/lm_head stays the target's: it keeps the draft's outputs in the
    # target's token geometry and halves what the short distillation has to learn.
    draft.model.embed_tokens.weight.requires_grad_(False)
    opt = make_optimizer(draft, sched)
    target.eval()
    draft.train()
    recent: list[float] = []
    started = time.perf_counter()
    step = 0
    for step in range(cfg.steps):
        if out_of_time(sched, started, step):
            break
        opt.set_lr(lr_at(step, sched))
        if pool is not None and step % cfg.corpus_every != 0:
            batch = pool[torch.randint(0, len(pool), (cfg.batch_size,), generator=gen)]
        else:
            batch = sample_windows(stream, cfg.batch_size, cfg.seq_len, gen)
        batch = batch.to(device)
        with torch.no_grad(), autocast(device):
            p_logits = target(input_ids=batch).logits
        p_log = F.log_softmax(p_logits.float(), dim=-1)  # (B, T, V)
        with autocast(device):
            q_logits = draft(input_ids=batch).logits
        q_log = F.log_softmax(q_logits.float(), dim=-1)  # (B, T, V)
        kl = F.kl_div(q_log.flatten(0, 1), p_log.flatten(0, 1), log_target=True,
                      reduction="batchmean")
        opt.zero_grad()
        kl.backward()
        torch.nn.utils.clip_grad_norm_(draft.parameters(), sched.grad_clip)
        opt.step()
        recent = [*recent[-19:], kl.item()]
        if on_step:
            on_step(step + 1, recent[-1])
    else:
        step = cfg.steps
    draft.model.embed_tokens.weight.requires_grad_(True)
    draft.eval()
    return Trained(mean_or_nan(recent), step, time.perf_counter() - started)
