"""Per-row completion bookkeeping: EOS, stop strings, max_new_tokens and streamed text.

Both decoding loops hand every step's tokens to `Completion.extend`, which applies the
stopping rules as if the tokens had arrived one at a time. That is what makes
speculative and target-only decoding end at exactly the same token: a block of accepted
tokens is cut at the first EOS (kept in token_ids, as transformers does), at the first
token whose decoded prefix contains a stop string (the text is cut *before* the stop
string, OpenAI semantics), or at max_new_tokens.

The text is decoded incrementally (as vLLM and TGI do): the exact text up to an *anchor*
token (where the text ended on a whole character) plus a decode of the tokens since the
previous anchor, less that window's own prefix text, so a step costs a decode of a few
tokens, not of the whole completion (which made a row's decoding O(T^2): 0.58 ms per step at
4,096 tokens with the demo tokenizer, per row, on the engine thread). That equals the decode
of the whole completion for tokenizers whose text is a concatenation of their tokens' texts
(byte-level BPE, SentencePiece's leading-space rule included, since the window starts at a
token). It is used only for a tokenizer that does not clean up spaces across tokens and that
passed a randomized check against whole decodes (`incremental_ok`); each completion checks
itself against a whole decode again whenever its length doubles (O(T) in all) and, on a
difference, logs it and turns the tokenizer back to whole decodes.
"""

from __future__ import annotations

import contextlib
import logging
import random
import weakref
from collections.abc import Callable

import torch
from transformers import PreTrainedTokenizerBase

from engine.trace import FinishReason, TokenTrace

logger = logging.getLogger(__name__)

OnText = Callable[[str, list[TokenTrace]], None]

# Tokenizer -> whether incremental decoding equals whole decodes for it (`incremental_ok`).
_INCREMENTAL: weakref.WeakKeyDictionary[PreTrainedTokenizerBase, bool] = \
    weakref.WeakKeyDictionary()
_FIRST_SELF_CHECK = 64  # tokens; then at every doubling


def incremental_ok(tokenizer: PreTrainedTokenizerBase) -> bool:
    """Whether `Completion` may decode `tokenizer`'s text incrementally: not when it cleans up
    spaces between tokens (" ." -> "." depends on both sides of a boundary), nor when a
    seeded randomized check (random ids, specials included, arriving in random blocks) finds
    any prefix whose incremental text differs from its whole decode. Cached per tokenizer."""
    try:
        return _INCREMENTAL[tokenizer]
    except (KeyError, TypeError):
        pass
    ok = not getattr(tokenizer, "clean_up_tokenization_spaces", False) and _passes(tokenizer)
    with contextlib.suppress(TypeError):  # not weak-referenceable: checked again next time
        _INCREMENTAL[tokenizer] = ok
    return ok


def _passes(tokenizer: PreTrainedTokenizerBase, sequences: int = 48, length: int = 40) -> bool:
    rng = random.Random(20261126)
    vocab = len(tokenizer)
    special = list(getattr(tokenizer, "all_special_ids", []) or [])
    for _ in range(sequences):
        ids = [rng.choice(special) if special and rng.random() < 0.05 else rng.randrange(vocab)
               for _ in range(length)]
        c = Completion(tokenizer, set(), [], length, on_text=lambda _d, _t: None,
                       incremental=True)
        at = 0
        while at < len(ids):
            n = rng.randint(1, 6)
            c.extend(ids[at:at + n], [None] * n)  # type: ignore[list-item]
            at += n
            if c._text != c._decode(ids[:at]):
                logger.info("tokenizer %s: incremental text differs from whole decodes; "
                            "decoding whole completions", type(tokenizer).__name__)
                return False
    return True


class Completion:
    def __init__(self, tokenizer: PreTrainedTokenizerBase, eos_token_ids: set[int],
                 stop: list[str], max_new_tokens: int, on_text: OnText | None = None,
                 incremental: bool | None = None) -> None:
        """`incremental`: decode incrementally (None: when `incremental_ok(tokenizer)`)."""
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
        # Incremental decoding: _text[:_anchor_chars] is the text of token_ids[:_anchor]; the
        # text since is decode(token_ids[_ctx:])[_ctx_chars:], _ctx_chars being the length of
        # decode(token_ids[_ctx:_anchor]) (the window starts one anchor back, so a tokenizer
        # that treats a text's first token specially treats both decodes alike).
        self._incremental = (bool(incremental) if incremental is not None
                             else bool(self.stop or on_text is not None)
                             and incremental_ok(tokenizer))
        self._anchor = self._anchor_chars = self._ctx = self._ctx_chars = 0
        self._check_at = _FIRST_SELF_CHECK

    @property
    def finished(self) -> bool:
        return self.finish_reason is not None

    def _decode(self, ids: list[int]) -> str:
        return self.tokenizer.decode(ids, skip_special_tokens=True)

    def _text_of(self, ids: list[int]) -> str:
        """The text of `ids` (token_ids and, after them, tokens being added)."""
        if not self._incremental:
            return self._decode(ids)
        return self._text[:self._anchor_chars] + self._decode(ids[self._ctx:])[self._ctx_chars:]

    def _advance(self) -> None:
        """Move the anchor to the end when the text ends on a whole character; check the
        incremental text against a whole decode each time the length doubles."""
        n = len(self.token_ids)
        if not self._incremental or n == self._anchor:
            return
        if n >= self._check_at:
            self._check_at = 2 * n
            whole = self._decode(self.token_ids)
            if whole != self._text:
                logger.error("incremental decoding of %s differs from the whole decode at %d "
                             "tokens; decoding whole completions from now on",
                             type(self.tokenizer).__name__, n)
                with contextlib.suppress(TypeError):
                    _INCREMENTAL[self.tokenizer] = False
                self._incremental, self._text = False, whole
                return
        if self._text.endswith("\ufffd"):  # maybe an incomplete character: wait for more
            return
        window = self._decode(self.token_ids[self._anchor:n])
        if not window:
            # Only skipped or stripped tokens: a decoder that strips the text's first space
            # (SentencePiece) would strip the next token's in the window but not in the
            # whole text. The window must start with text of its own.
            return
        self._ctx, self._ctx_chars = self._anchor, len(window)
        self._anchor, self._anchor_chars = n, len(self._text)

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
            text = self._text_of(candidate)
            # A stop string may straddle the previous step's text, so look back a little.
            search_from = max(0, len(old_text) - max((len(s) for s in self.stop), default=0))
            if self.stop and self._find_stop(text, search_from) is not None:
                # Find the first token that completes a stop string, as one-at-a-time
                # decoding would have (rare, so decoding each prefix is fine).
                for j in range(old_len + 1, len(candidate) + 1):
                    prefix_text = self._text_of(candidate[:j])
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
        elif self.stop or self.on_text is not None:
            self._advance()
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
