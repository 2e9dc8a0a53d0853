"""Sampling controls that read the token history: logit_bias and the presence, frequency
and repetition penalties, applied to raw logits before anything else reads them (argmax,
top-2 margin, `process_logits`).

Lossless speculation needs p and q at completion position i built by the *same* function
of the *same* history: prompt + every token before i. Within a speculative block the
history of position i includes the block's earlier draft tokens x_1..x_{i-1}, not only the
committed prefix — `History.apply(logits, params, block)` adds them position by position
(counts at row t = committed counts + x_1..x_t), so the draft loop (one position at a time,
`History.then` after each draft token), the verifier (one forward over [last] + x), the
target-only loop and teacher-forced scoring all compute the same numbers at a prefix.
When a row rejects x_i, the tokens after it were never committed: the next step's history
is rebuilt from what was (nothing to undo).

Semantics (OpenAI and vLLM; vLLM's order): logit_bias is added first; then, over the raw
biased logits, repetition_penalty r (tokens in the prompt or the output so far: a positive
logit is divided by r, a negative one multiplied), frequency_penalty f (minus f x the
token's count in the output) and presence_penalty (minus it once a token is in the output).
Output counts exclude the prompt. min_p lives in engine.sampling (it reads probabilities).

A grammar (`SamplingParams.grammar`, engine.grammar) is applied last, by the same rule: the
mask at position t is the grammar's state after the output and the block's tokens before t,
so `History` then also carries each row's output tokens (`outputs`).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from engine.sampling import SamplingParams


def adjusts(params: SamplingParams) -> bool:
    """Whether the controls change any logit (else the raw logits are used as they are)."""
    return bool(params.logit_bias or params.presence_penalty or params.frequency_penalty
                or params.repetition_penalty != 1.0 or params.grammar is not None)


def _penalises(params: SamplingParams) -> bool:
    return bool(params.presence_penalty or params.frequency_penalty
                or params.repetition_penalty != 1.0)


def _needs_history(params: SamplingParams) -> bool:
    return _penalises(params) or params.grammar is not None


def needs_outputs(params: SamplingParams) -> bool:
    """Whether a History for these params must carry the output tokens (a grammar reads them)."""
    return params.grammar is not None


@dataclass(frozen=True, slots=True)
class History:
    """Per row, what the penalties read: output-token counts and prompt membership."""

    counts: torch.Tensor  # (B, V) float32: each token's count in the output so far
    in_prompt: torch.Tensor  # (B, V) bool: the token occurs in the prompt
    # Per row, the output tokens so far (host lists), when a grammar reads them.
    outputs: tuple[list[int], ...] | None = None

    @classmethod
    def of(cls, tokens: torch.Tensor, output_from: int | torch.Tensor, vocab: int,
           valid_from: int | torch.Tensor = 0, *, outputs: bool = False) -> History:
        """From a (B, L) token matrix whose columns [valid_from, output_from) are the prompt
        (left padding before valid_from is ignored) and [output_from, L) the output. Either
        bound is an int or a (B, 1) tensor. `outputs`: also keep each row's output tokens."""
        b, length = tokens.shape
        cols = torch.arange(length, device=tokens.device).unsqueeze(0)  # (1, L)
        out = (cols >= output_from).float().expand(b, length)
        prompt = ((cols >= valid_from) & (cols < output_from)).float().expand(b, length)
        _check_ids(tokens, vocab)
        counts = torch.zeros((b, vocab), device=tokens.device).scatter_add_(1, tokens, out)
        seen = torch.zeros((b, vocab), device=tokens.device).scatter_add_(1, tokens, prompt)
        rows = None
        if outputs:
            starts = ([output_from] * b if isinstance(output_from, int)
                      else output_from.view(-1).tolist())
            rows = tuple(r[int(s):] for r, s in zip(tokens.tolist(), starts, strict=True))
        return cls(counts, seen > 0, rows)

    @classmethod
    def of_lists(cls, prompts: list[list[int]], outputs: list[list[int]], vocab: int,
                 device: torch.device | str) -> History:
        """From per-row host lists (ragged rows need no padding)."""
        counts = torch.zeros((len(prompts), vocab), device=device)
        seen = torch.zeros((len(prompts), vocab), dtype=torch.bool, device=device)
        for i, (p, o) in enumerate(zip(prompts, outputs, strict=True)):
            if o:
                ids = torch.tensor(o, dtype=torch.long, device=device)
                _check_ids(ids, vocab)
                counts[i].scatter_add_(0, ids, torch.ones_like(ids, dtype=torch.float32))
            if p:
                ids = torch.tensor(p, dtype=torch.long, device=device)
                _check_ids(ids, vocab)
                seen[i, ids] = True
        return cls(counts, seen, tuple(list(o) for o in outputs))

    def then(self, tokens: torch.Tensor) -> History:
        """This history with one more output token per row: (B,) ids."""
        counts = self.counts.scatter_add(1, tokens.view(-1, 1),
                                         torch.ones((tokens.numel(), 1), device=tokens.device))
        outputs = None
        if self.outputs is not None:
            outputs = tuple([*o, t] for o, t in zip(self.outputs, tokens.view(-1).tolist(),
                                                    strict=True))
        return History(counts, self.in_prompt, outputs)

    def apply(self, logits: torch.Tensor, params: SamplingParams,
              block: torch.Tensor | None = None) -> torch.Tensor:
        """(B, T, V) raw logits -> (B, T, V) float32 adjusted logits. Row t's history is
        this one plus block[:, :t] ((B, T-1) output tokens: the speculative block's drafts
        before position t); None: no tokens within the block (T must then be 1)."""
        t, vocab = logits.shape[1:]
        out = logits.float()
        if params.logit_bias:
            out = out + _bias(params, vocab, out.device)
        if _penalises(params):
            out = self._penalise(out, params, block)
        if params.grammar is not None:
            if self.outputs is None:
                raise ValueError("a grammar needs the output tokens (History.of(outputs=True))")
            if t > 1 and (block is None or block.shape[1] < t - 1):
                raise ValueError("a block of T positions needs its T-1 earlier tokens")
            out = params.grammar.apply(out, self.outputs, block)
        return out

    def _penalise(self, out: torch.Tensor, params: SamplingParams,
                  block: torch.Tensor | None) -> torch.Tensor:
        b, t, vocab = out.shape
        counts = self.counts.unsqueeze(1)  # (B, 1, V)
        if t > 1:
            if block is None or block.shape[1] < t - 1:
                raise ValueError("a block of T positions needs its T-1 earlier tokens")
            inc = torch.zeros((b, t, vocab), device=out.device)
            inc[:, 1:].scatter_(-1, block[:, :t - 1].unsqueeze(-1), 1.0)
            counts = counts + inc.cumsum(dim=1)  # (B, T, V)
        if params.repetition_penalty != 1.0:
            r = params.repetition_penalty
            seen = self.in_prompt.unsqueeze(1) | (counts > 0)
            out = torch.where(seen, torch.where(out > 0, out / r, out * r), out)
        if params.frequency_penalty:
            out = out - params.frequency_penalty * counts
        if params.presence_penalty:
            out = out - params.presence_penalty * (counts > 0).float()
        return out


def _check_ids(ids: torch.Tensor, vocab: int) -> None:
    if ids.numel() and int(ids.max()) >= vocab:
        raise ValueError(f"token id {int(ids.max())} is outside the vocabulary ({vocab})")


def _bias(params: SamplingParams, vocab: int, device: torch.device) -> torch.Tensor:
    ids = [t for t, _ in params.logit_bias]
    if max(ids) >= vocab:
        raise ValueError(f"logit_bias names token {max(ids)}, outside the vocabulary ({vocab})")
    bias = torch.zeros(vocab, device=device)
    bias[torch.tensor(ids, device=device)] = torch.tensor(
        [float(b) for _, b in params.logit_bias], device=device)
    return bias


def adjust_rows(logits: torch.Tensor, params: SamplingParams, history: History | None,
                block: torch.Tensor | None = None) -> torch.Tensor:
    """`history.apply` where the controls adjust anything, else `logits` unchanged (the
    path without controls computes exactly as before: no copy, no dtype change)."""
    if not adjusts(params):
        return logits
    if not _needs_history(params):  # logit_bias alone reads no history
        return logits.float() + _bias(params, logits.shape[-1], logits.device)
    if history is None:
        raise ValueError("penalties need the token history")
    return history.apply(logits, params, block)


def batch_history(tokens: torch.Tensor, width: int, pad: torch.Tensor | None,
                  vocab: int, *, outputs: bool = False) -> History:
    """The history of a left-padded batch (engine.batch.Batch): prompts end at column
    `width`, row i's padding is its first pad[i] columns."""
    return History.of(tokens, width, vocab, 0 if pad is None else pad, outputs=outputs)
