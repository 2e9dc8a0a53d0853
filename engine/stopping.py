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
token). The anchor never falls inside a run of byte-fallback tokens (<0xNN>): the decoder
turns a whole run into text at once, and into one U+FFFD per byte when it is not valid UTF-8,
so a run's text is not final until a token with other text follows (nor is it streamed). It
is used only for a tokenizer that does not clean up spaces across tokens, whose decoder does
not rewrite text across tokens (CTC; a regex or multi-character Replace after fusing) and
that passed a randomized check against whole decodes (`incremental_ok`); each completion
checks itself against a whole decode again whenever its length doubles (O(T) in all) and, on
a difference, logs it and turns the tokenizer back to whole decodes.
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import re
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
# A byte-fallback token (SentencePiece's "<0xE2>"): the tokenizers ByteFallback decoder turns
# a whole run of them into text at once, and into one U+FFFD per byte when the run is not
# valid UTF-8, so the text of a run's first tokens can still change ("é" from <0xC3><0xA9>
# becomes three U+FFFD when a <0xA9> follows). u8::from_str_radix takes a "+" sign.
_BYTE_TOKEN = re.compile(r"<0x(?:[0-9A-Fa-f]{2}|\+[0-9A-Fa-f])>\Z")


def incremental_ok(tokenizer: PreTrainedTokenizerBase) -> bool:
    """Whether `Completion` may decode `tokenizer`'s text incrementally: not when it cleans up
    spaces between tokens (" ." -> "." depends on both sides of a boundary), nor when a
    seeded randomized check (random ids, specials included, arriving in random blocks) finds
    any prefix whose incremental text differs from its whole decode. Cached per tokenizer."""
    try:
        return _INCREMENTAL[tokenizer]
    except (KeyError, TypeError):
        pass
    try:
        ok = (not getattr(tokenizer, "clean_up_tokenization_spaces", False)
              and _decoder_concatenative(tokenizer) and _passes(tokenizer))
    except Exception:  # a tokenizer that fails the check is decoded whole
        ok = False
    except BaseException as e:  # pyo3's PanicException (tokenizers' Strip panics on "")
        if type(e).__name__ != "PanicException":
            raise
        ok = False
    with contextlib.suppress(TypeError):  # not weak-referenceable: checked again next time
        _INCREMENTAL[tokenizer] = ok
    return ok


def _decoder_concatenative(tokenizer: PreTrainedTokenizerBase) -> bool:
    """False for a tokenizers decoder known to join text across token boundaries: CTC
    (merges repeated tokens), and a Replace of a regex or of more than one character after
    the tokens' texts are fused into one string (Fuse, ByteLevel): "  " -> "_" matches a
    space at the end of one window and one at the start of the next."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    decoder = getattr(backend, "decoder", None)
    if decoder is None:
        return True
    def flat(step: dict) -> list[dict]:
        if step.get("type") == "Sequence":
            return [s for inner in step.get("decoders", []) for s in flat(inner)]
        return [step]

    steps = flat(json.loads(decoder.__getstate__()))
    fused = False
    for step in steps:
        kind = step.get("type")
        if kind == "CTC":
            return False
        if kind in ("Fuse", "ByteLevel"):
            fused = True
        if kind == "Replace" and fused:
            pattern = step.get("pattern", {})
            if "String" not in pattern or len(pattern["String"]) > 1:
                return False
    return True


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
        self._skipped = set(getattr(tokenizer, "all_special_ids", None) or ())
        self._byte: dict[int, int | None] = {}  # token id -> its byte if a byte-fallback token

    @property
    def finished(self) -> bool:
        return self.finish_reason is not None

    def _decode(self, ids: list[int]) -> str:
        return self.tokenizer.decode(ids, skip_special_tokens=True)

    def _byte_of(self, token: int) -> int | None:
        """The byte of a byte-fallback token (<0xNN>), else None."""
        try:
            return self._byte[token]
        except KeyError:
            pass
        try:
            name = self.tokenizer.convert_ids_to_tokens(token)
        except Exception:  # no token names: no byte tokens
            name = None
        byte = (int(name[3:5], 16) if isinstance(name, str) and _BYTE_TOKEN.match(name)
                else None)
        self._byte[token] = byte
        return byte

    def _open_run(self, ids: list[int], lo: int) -> bytes | None:
        """The bytes of the run of byte-fallback tokens (skipped specials between them) that
        ends `ids`, from `lo` on; None when the last token with text is no byte token. The
        text before the run is final; the run's text can still change."""
        r, run = len(ids), bytearray()
        while r > lo:
            token = ids[r - 1]
            if token not in self._skipped:
                byte = self._byte_of(token)
                if byte is None:
                    break
                run.append(byte)
            r -= 1
        return bytes(reversed(run)) if run else None

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
        if self._open_run(self.token_ids, self._anchor) is not None:
            return  # inside a run of byte tokens: its text can still change
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

    def _same(self, before: str, after: str) -> int:
        """The length of the common prefix of two texts of token_ids and tokens after them."""
        lo = self._anchor_chars if self._incremental else 0  # both start with _text[:lo]
        if after.startswith(before[lo:], lo):
            return len(before)
        same, end = lo, min(len(before), len(after))
        while same < end and before[same] == after[same]:
            same += 1
        return same

    def _new_stop(self, before: str, after: str, same: int | None = None) -> int | None:
        """Where the first stop string in `after` begins that `before` (the text one token,
        or one step, earlier: it has none) does not have. A new one overlaps the part that
        changed (from `same` on), which need not be `after`'s tail: a character completed by
        a byte may replace several U+FFFD, a run of byte tokens may turn into U+FFFD."""
        if same is None:
            same = self._same(before, after)
        return self._find_stop(after, max(0, same - max(map(len, self.stop)) + 1))

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
            # Find the first token that completes a stop string, as one-at-a-time decoding
            # would have (decoding each prefix): when the step's text has a new one, or when
            # a shorter prefix's text may have had one that the step's text no longer has:
            # a U+FFFD since completed, or a run of byte tokens since turned into U+FFFD.
            same = self._same(old_text, text) if self.stop else 0
            if self.stop and (self._new_stop(old_text, text, same) is not None
                              or (keep > 1 and any("\ufffd" in s for s in self.stop))
                              or (keep > 1 and "\ufffd" in text[same:]
                                  and any(self._byte_of(t) is not None
                                          for t in tokens[:keep - 1]))):
                before = old_text
                for j in range(old_len + 1, len(candidate) + 1):
                    prefix_text = text if j == len(candidate) else self._text_of(candidate[:j])
                    at = self._new_stop(before, prefix_text)
                    if at is not None:
                        keep, reason, text, self._stop_at = j - old_len, "stop", prefix_text, at
                        break
                    before = prefix_text
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
            # Hold back an incomplete UTF-8 sequence, the text of a run of byte tokens (a
            # later byte can turn it into U+FFFD) and any suffix that could still grow into
            # a stop string: released text must never be taken back.
            while end > 0 and text[end - 1] == "\ufffd":
                end -= 1
            run = self._open_run(self.token_ids, self._anchor if self._incremental else 0)
            with contextlib.suppress(UnicodeDecodeError):  # else all U+FFFD: held above
                if run is not None:
                    end = min(end, len(text) - len(run.decode("utf-8")))
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
