"""Per-row completion bookkeeping: EOS, stop strings, max_new_tokens and streamed text.

Both decoding loops hand every step's tokens to `Completion.extend`, which applies the
stopping rules as if the tokens had arrived one at a time. That is what makes
speculative and target-only decoding end at exactly the same token: a block of accepted
tokens is cut at the first EOS (kept in token_ids, as transformers does), at the first
token whose decoded prefix contains a stop string (the text is cut *before* the stop
string, OpenAI semantics), or at max_new_tokens.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import torch
from transformers import PreTrainedTokenizerBase

from engine.trace import FinishReason, TokenTrace

logger = logging.getLogger(__name__)

OnText = Callable[[str, list[TokenTrace]], None]


class Completion:
    def __init__(self, tokenizer: PreTrainedTokenizerBase, eos_token_ids: set[int],
                 stop: list[str], max_new_tokens: int, on_text: OnText | None = None) -> None:
        self.tokenizer = tokenizer
        self.eos_token_ids = eos_token_ids
        self.stop = [s for s in stop if s]
        self.max_new_tokens = max_new_tokens
        self.on_text = on_text
        self.token_ids: list[int] = []
        self.trace: list[TokenTrace] = []
        self.distributions: list[torch.Tensor] = []
        self.draft_distributions: list[torch.Tensor] = []
        self.finish_reason: FinishReason | None = None
        self._text = ""  # decoded text of token_ids (kept current only when needed)
        self._stop_at: int | None = None  # character index where a stop string begins
        self._released = 0  # characters already handed to on_text

    @property
    def finished(self) -> bool:
        return self.finish_reason is not None

    def _decode(self, ids: list[int]) -> str:
        return self.tokenizer.decode(ids, skip_special_tokens=True)

    def _find_stop(self, text: str, start: int) -> int | None:
        hits = [i for s in self.stop if (i := text.find(s, start)) >= 0]
        return min(hits) if hits else None

    def extend(self, tokens: list[int], traces: list[TokenTrace],
               distributions: torch.Tensor | None = None,
               draft_distributions: torch.Tensor | None = None) -> int:
        """Append a step's tokens, applying the stop rules token by token. Returns kept count."""
        if self.finished:
            return 0
        keep = min(len(tokens), self.max_new_tokens - len(self.token_ids))
        reason: FinishReason | None = None
        for i in range(keep):
            if tokens[i] in self.eos_token_ids:
                keep, reason = i + 1, "stop"
                break
        if self.stop or self.on_text is not None:
            old_len, old_text = len(self.token_ids), self._text
            candidate = self.token_ids + tokens[:keep]
            text = self._decode(candidate)
            # A stop string may straddle the previous step's text, so look back a little.
            search_from = max(0, len(old_text) - max((len(s) for s in self.stop), default=0))
            if self.stop and self._find_stop(text, search_from) is not None:
                # Find the first token that completes a stop string, as one-at-a-time
                # decoding would have (rare, so decoding each prefix is fine).
                for j in range(old_len + 1, len(candidate) + 1):
                    prefix_text = self._decode(candidate[:j])
                    at = self._find_stop(prefix_text, search_from)
                    if at is not None:
                        keep, reason, text, self._stop_at = j - old_len, "stop", prefix_text, at
                        break
            self._text = text
        self.token_ids.extend(tokens[:keep])
        self.trace.extend(traces[:keep])
        if distributions is not None:
            self.distributions.append(distributions[:keep])
        if draft_distributions is not None:
            self.draft_distributions.append(draft_distributions[:keep])
        if reason is None and len(self.token_ids) >= self.max_new_tokens:
            reason = "length"
        if reason is not None:
            self.finish_reason = reason
        if self.on_text is not None:
            self._stream(traces[:keep])
        return keep

    def finish(self, reason: FinishReason) -> None:
        """End the row from outside (e.g. the context window is full)."""
        if not self.finished:
            self.finish_reason = reason
            if self.on_text is not None:
                self._stream([])

    def _stream(self, traces: list[TokenTrace]) -> None:
        text = self._text
        if self.finished:
            end = self._stop_at if self._stop_at is not None else len(text)
        else:
            end = len(text)
            # Hold back an incomplete UTF-8 sequence and any suffix that could still grow
            # into a stop string: released text must never be taken back.
            while end > 0 and text[end - 1] == "\ufffd":
                end -= 1
            hold = max((k for s in self.stop for k in range(1, min(len(s), end + 1))
                        if text[end - k:end] == s[:k]), default=0)
            end -= hold
        end = max(end, self._released)
        delta = text[self._released:end]
        self._released = end
        if delta or traces:
            self.on_text(delta, traces)  # type: ignore[misc]

    @property
    def text(self) -> str:
        if self._stop_at is not None:
            return self._text[:self._stop_at]
        if self.stop or self.on_text is not None:
            return self._text
        return self._decode(self.token_ids)

    def target_distributions(self) -> torch.Tensor | None:
        if not self.distributions:
            return None
        return torch.cat(self.distributions, dim=0)

    def recorded_draft_distributions(self) -> torch.Tensor | None:
        """(T, V) the q each position's proposal was sampled from (zeros: none recorded)."""
        if not self.draft_distributions:
            return None
        return torch.cat(self.draft_distributions, dim=0)
