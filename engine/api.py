"""The engine's public entry points: `generate` and `chat_prompt`.

`generate` validates arguments, tokenizes, picks the loop (target-only or speculative) and
the proposer (draft model or n-gram prompt lookup, engine/proposers/) and packs each row
into a GenerationResult (engine/trace.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, overload

import torch

from engine.controllers import GammaStrategy, make_controller
from engine.decode import DecodeRequest, RowResult, decode_speculative, decode_target_only
from engine.loading import Pair
from engine.proposers import ProposerConfig, ProposerKind
from engine.sampling import SamplingParams
from engine.trace import GenerationResult, TokenTrace

logger = logging.getLogger(__name__)

Prompt = str | list[int]


def chat_prompt(pair: Pair, messages: list[dict], tools: list[dict] | None = None) -> str:
    """Render a chat with the pair's template, ready for the assistant's turn (`tools`: for
    a template that renders them)."""
    if pair.tokenizer.chat_template is None:
        raise ValueError("the pair's tokenizer has no chat template; send a plain prompt to "
                         "/v1/completions instead")
    return pair.tokenizer.apply_chat_template(messages, add_generation_prompt=True,
                                              tokenize=False, tools=tools)


def _encode(pair: Pair, prompt: Prompt) -> list[int]:
    if isinstance(prompt, str):
        tok = pair.tokenizer
        # A rendered chat already starts with BOS; adding another would change the output.
        add_special = not (tok.bos_token and prompt.startswith(tok.bos_token))
        return list(tok(prompt, add_special_tokens=add_special)["input_ids"])
    if not all(isinstance(t, int) for t in prompt):
        raise TypeError("a token-id prompt must be a list of ints")
    vocab = len(pair.tokenizer)
    bad = [t for t in prompt if not 0 <= t < max(vocab, pair.target.config.vocab_size)]
    if bad:
        raise ValueError(f"prompt token ids {bad[:3]} are outside the vocabulary "
                         f"(size {vocab})")
    return list(prompt)


def _is_batch(prompt: object) -> bool:
    return isinstance(prompt, list) and bool(prompt) and isinstance(prompt[0], str | list)


@overload
def generate(pair: Pair, prompt: Prompt, **kwargs) -> GenerationResult: ...
@overload
def generate(pair: Pair, prompt: list[str] | list[list[int]], **kwargs
             ) -> list[GenerationResult]: ...


def generate(pair: Pair, prompt: Prompt | Sequence[Prompt], *, speculative: bool,
             max_new_tokens: int, temperature: float = 0.0, top_p: float = 1.0,
             top_k: int = 0, gamma: int = 4, gamma_strategy: GammaStrategy = "constant",
             gamma_max: int = 8, seed: int | None = None, stop: list[str] | None = None,
             record_distributions: bool = False,
             on_text: Callable[[str, list[TokenTrace]], None] | None = None,
             proposer: ProposerKind = "draft_model", prompt_lookup_min: int = 1,
             prompt_lookup_max: int = 4, alternatives: int = 0,
             controls: Mapping[str, Any] | None = None,
             ) -> GenerationResult | list[GenerationResult]:
    """Decode one prompt (-> GenerationResult) or a batch (-> list, one per prompt).

    alternatives: record each emitted token's top-k (id, p) under the processed target
    distribution it was chosen from (TokenTrace.alternatives; OpenAI's top_logprobs), taken
    from the forward that chose it. 0: none.

    controls: SamplingParams' other fields (min_p, presence / frequency / repetition
    penalties, logit_bias pairs), applied alike on the draft and verify paths.

    proposer: what proposes the speculative tokens — "draft_model" (the pair's draft) or
    "ngram" (prompt lookup over prompt + output, matching suffixes of prompt_lookup_max
    down to prompt_lookup_min tokens; no draft forward). Ignored when not speculative.
    """
    if max_new_tokens < 1:
        raise ValueError(f"max_new_tokens must be >= 1, got {max_new_tokens}")
    if alternatives < 0:
        raise ValueError(f"alternatives must be >= 0, got {alternatives}")
    proposing = ProposerConfig(proposer, prompt_lookup_min, prompt_lookup_max)
    params = SamplingParams(temperature=temperature, top_p=top_p, top_k=top_k,
                            **(controls or {}))
    batched = _is_batch(prompt)
    if batched and on_text is not None:
        raise ValueError("on_text streaming works with a single prompt, not a batch")
    prompts = [_encode(pair, p) for p in prompt] if batched else [_encode(pair, prompt)]
    if not prompts:
        raise ValueError("the prompt batch is empty")
    generator = None
    if seed is not None:
        generator = torch.Generator(device=pair.device).manual_seed(seed)
    req = DecodeRequest(prompts=prompts, params=params, max_new_tokens=max_new_tokens,
                        stop=list(stop or []), record_distributions=record_distributions,
                        generator=generator, on_text=on_text, alternatives=alternatives)
    if speculative:
        controller = make_controller(gamma_strategy, gamma, gamma_max)
        rows = decode_speculative(pair, req, controller, proposing)
    else:
        rows = decode_target_only(pair, req)
    results = [result_of(p, row, speculative, record_distributions)
               for p, row in zip(prompts, rows, strict=True)]
    return results if batched else results[0]


def result_of(prompt_ids: list[int], row: RowResult, speculative: bool,
              record: bool) -> GenerationResult:
    """A decoded row as the engine's public GenerationResult."""
    completion = row.completion
    return GenerationResult(
        prompt_token_ids=prompt_ids, token_ids=completion.token_ids, text=completion.text,
        finish_reason=completion.finish_reason or "length", trace=completion.trace,
        stats=row.stats, speculative=speculative,
        target_distributions=completion.target_distributions() if record else None,
        draft_distributions=completion.recorded_draft_distributions() if record else None)
