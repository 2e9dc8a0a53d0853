"""Teacher-forced scoring: what the target thinks of a completion produced elsewhere.

The shadow evaluator uses it to judge a response from another engine (mirror traffic) and
to compare the distributions a speculative run recorded with the target's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import torch

from engine.controls import History, adjust_rows, adjusts
from engine.kv import new_cache, with_cache
from engine.loading import Pair
from engine.sampling import SamplingParams, process_logits, top2_margin


@dataclass(slots=True)
class TargetScore:
    distributions: torch.Tensor  # (T, V) float32 cpu: processed p at each completion position
    argmax_ids: list[int]  # target argmax (raw logits) at each completion position
    margins: list[float]  # target top-1 minus top-2 raw logit at each completion position
    token_probs: list[float]  # p(completion token) under `distributions`
    # Evidence for near-tie proofs and silent-corruption checks (additive; empty when unset).
    runner_up_ids: list[int] = field(default_factory=list)  # target top-2 (raw logits)
    top1_logits: list[float] = field(default_factory=list)
    top2_logits: list[float] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)  # log softmax(raw)[completion token]


def _controlled(logits: torch.Tensor, params: SamplingParams, prompt_ids: list[int],
                completion_ids: list[int]) -> torch.Tensor:
    """(T, V) teacher-forced logits with the request's penalties / logit_bias applied: row t's
    history is the prompt + completion_ids[:t], as decoding saw it (engine.controls)."""
    if not adjusts(params):
        return logits
    history = History.of_lists([list(prompt_ids)], [[]], logits.shape[-1], logits.device)
    block = torch.tensor([list(completion_ids[:-1])], dtype=torch.long, device=logits.device)
    return adjust_rows(logits.unsqueeze(0), params, history, block)[0]


@torch.inference_mode()
def score_target(pair: Pair, prompt_ids: list[int], completion_ids: list[int], *,
                 temperature: float = 0.0, top_p: float = 1.0, top_k: int = 0,
                 controls: Mapping[str, Any] | None = None) -> TargetScore:
    """One target forward over prompt + completion; position t scores completion_ids[t].
    `controls`: SamplingParams' other fields (min_p, penalties, logit_bias)."""
    params = SamplingParams(temperature=temperature, top_p=top_p, top_k=top_k,
                            **(controls or {}))
    if not prompt_ids:
        raise ValueError("prompt_ids is empty; the target needs a prefix to score against")
    total = len(prompt_ids) + len(completion_ids)
    if total > pair.max_context:
        raise ValueError(f"prompt + completion is {total} tokens but the pair's context window "
                         f"is {pair.max_context}")
    vocab = pair.target.config.get_text_config(decoder=True).vocab_size
    if not completion_ids:
        return TargetScore(torch.empty(0, vocab), [], [], [])
    logits = _controlled(target_logits(pair, prompt_ids, completion_ids), params, prompt_ids,
                         completion_ids)
    probs = process_logits(logits, params)
    target = torch.tensor(completion_ids, device=probs.device).unsqueeze(1)
    top = torch.topk(logits, 2, dim=-1)
    logprobs = torch.log_softmax(logits, dim=-1).gather(1, target).squeeze(1)
    return TargetScore(distributions=probs.cpu(),
                       argmax_ids=logits.argmax(dim=-1).tolist(),
                       margins=top2_margin(logits).tolist(),
                       token_probs=probs.gather(1, target).squeeze(1).tolist(),
                       runner_up_ids=top.indices[:, 1].tolist(),
                       top1_logits=top.values[:, 0].tolist(),
                       top2_logits=top.values[:, 1].tolist(),
                       logprobs=logprobs.tolist())


@torch.inference_mode()
def score_draft(pair: Pair, prompt_ids: list[int], completion_ids: list[int], *,
                temperature: float = 0.0, top_p: float = 1.0, top_k: int = 0,
                controls: Mapping[str, Any] | None = None) -> torch.Tensor | None:
    """(T, V) float32 cpu: the draft's processed q at each completion prefix (one teacher-
    forced forward, the same logits pipeline the drafter samples through); None for an empty
    completion.

    A *re-scored* q: it equals what the drafter sampled from only when the drafter is
    consistent with itself (e.g. its cache is right). The verification issue replaces its use
    for the acceptance expectation with the q recorded at proposal time."""
    if not completion_ids:
        return None
    params = SamplingParams(temperature=temperature, top_p=top_p, top_k=top_k,
                            **(controls or {}))
    logits = _controlled(draft_logits(pair, prompt_ids, completion_ids), params, prompt_ids,
                         completion_ids)
    return process_logits(logits, params).cpu()


def target_logits(pair: Pair, prompt_ids: list[int], completion_ids: list[int]) -> torch.Tensor:
    """(T, V) float32 raw target logits, row t predicting completion_ids[t]: the one
    teacher-forced forward `score_target` re-scores with (T >= 1). The tolerance bench
    compares the decode paths' logits with these."""
    if not completion_ids:  # logits_to_keep=0 would keep every prompt row
        raise ValueError("target_logits needs at least one completion token")
    ids = torch.tensor([list(prompt_ids) + list(completion_ids[:-1])], device=pair.device)
    out = pair.target(input_ids=ids, **with_cache(pair.target, new_cache()), use_cache=True,
                      logits_to_keep=len(completion_ids))
    return out.logits[0].float()  # logits_to_keep keeps the last T rows


def draft_logits(pair: Pair, prompt_ids: list[int], completion_ids: list[int]) -> torch.Tensor:
    """(T, V) float32 raw draft logits, row t predicting completion_ids[t]: the one
    teacher-forced forward (no cache) `score_draft` re-scores with (T >= 1)."""
    if not completion_ids:  # logits_to_keep=0 would keep every prompt row
        raise ValueError("draft_logits needs at least one completion token")
    ids = torch.tensor([list(prompt_ids) + list(completion_ids[:-1])], device=pair.device)
    logits = pair.draft(input_ids=ids, use_cache=False, logits_to_keep=len(completion_ids)).logits
    return logits[0].float()
