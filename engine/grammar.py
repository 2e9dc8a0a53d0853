"""Grammar-constrained decoding: a request's structure (a JSON schema, any JSON value, a Lark
grammar, a regex) as a token mask, applied on the draft and verify paths alike.

The mask library is llguidance (PyPI wheel, no dependencies; the grammar engine of
llama.cpp, vLLM and SGLang). Measured against xgrammar and outlines-core on SmolLM2's
49,152-token vocabulary by `guardian bench grammar` (docs/benchmarks/grammar.md): xgrammar's
mask was cheaper per token but its wheel requires triton and tvm-ffi, and outlines-core
compiles regular languages only (no `json_object`: JSON nests without bound).

Lossless rule (as for the penalties, engine.controls): the mask at completion position i is
a function of the output before i only - the grammar's state after output[:i] - computed by
the same `GrammarConstraint.apply` on every path (draft loop, verifier, target-only loop,
teacher-forced scoring). Within a speculative block, position t's state includes the
block's drafts x_1..x_{t-1}. A draft token the grammar refuses (prompt lookup proposes
without a mask) has target probability 0 and is rejected; positions after it are never
emitted, so they are left unconstrained (a finite distribution nothing reads).

Matchers are a cache, not state the result depends on: `apply` takes the matcher whose
consumed tokens share the longest prefix with the row's output, rolls it back to that
prefix and forward over the rest, fills the masks of the block's positions, then rolls the
block back. So a matcher advances only over tokens that were committed (or are being
judged), and a rejected suffix costs a rollback, never a rebuild.

Masked-out logits are set to `MASKED` (-1e30, finite): softmax gives them exactly 0 and
argmax never picks them, while margins and log-probabilities stay finite for the audit
trail (JSON and Postgres refuse infinities).
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import torch

MASKED = -1e30
POOL = 4  # matchers kept per request: n > 1 choices and shadow runs share one constraint


@dataclass(frozen=True, slots=True)
class GrammarSpec:
    """What a request constrains its output to, as llguidance's grammar text."""

    kind: str  # "json_object" | "json_schema" | "lark" | "regex"
    grammar: str  # llguidance's serialized grammar

    @classmethod
    def json_object(cls) -> GrammarSpec:
        return cls.json_schema({"type": "object"}, kind="json_object")

    @classmethod
    def json_schema(cls, schema: dict[str, Any], *, kind: str = "json_schema") -> GrammarSpec:
        import llguidance

        # Compact separators, no free whitespace: a small model cannot fill its budget with
        # newlines, and the text is what json.dumps(separators=(", ", ": ")) would print.
        options = {"whitespace_flexible": False, "item_separator": ", ",
                   "key_separator": ": "}
        return cls(kind, llguidance.LLMatcher.grammar_from_json_schema(
            json.dumps(schema), overrides=options))  # type: ignore[arg-type]

    @classmethod
    def lark(cls, text: str) -> GrammarSpec:
        import llguidance

        return cls("lark", llguidance.LLMatcher.grammar_from_lark(text))

    @classmethod
    def regex(cls, pattern: str) -> GrammarSpec:
        import llguidance

        return cls("regex", llguidance.LLMatcher.grammar_from_regex(pattern))


class GrammarError(ValueError):
    """The grammar (or schema) cannot be compiled for this tokenizer."""


@functools.lru_cache(maxsize=8)
def _lltokenizer(tokenizer: Any, vocab: int, eos: tuple[int, ...]) -> Any:
    import llguidance.hf

    return llguidance.hf.from_tokenizer(tokenizer, n_vocab=vocab, eos_token=list(eos))


@functools.lru_cache(maxsize=256)
def _grammar_error(grammar: str, lltokenizer: Any) -> str:
    """llguidance's complaint about `grammar` for this tokenizer ('' when it compiles; its
    warnings are not errors). Cached: every request of a route sends its schema again, and
    a request builds one constraint to check it, one to serve and one per shadow re-score."""
    import llguidance

    error = llguidance.LLMatcher.validate_grammar(grammar, lltokenizer)
    return "" if error.startswith("WARNING") else error


class _Matcher:
    __slots__ = ("consumed", "matcher")

    def __init__(self, matcher: Any) -> None:
        self.matcher = matcher
        self.consumed: list[int] = []

    def sync(self, prefix: Sequence[int], c: int) -> bool:
        """Move to the state after `prefix` (`c`: its common prefix with what this matcher
        consumed); False if the grammar refuses a token of it (the matcher then stands at the
        longest valid prefix)."""
        if c < len(self.consumed):
            self.matcher.rollback(len(self.consumed) - c)
            del self.consumed[c:]
        rest = list(prefix[c:])
        if not rest:
            return True
        took = self.matcher.try_consume_tokens(rest)
        self.consumed.extend(rest[:took])
        return took == len(rest)


def _common(a: Sequence[int], b: Sequence[int]) -> int:
    n = min(len(a), len(b))
    if list(a[:n]) == list(b[:n]):
        return n
    i = 0
    while a[i] == b[i]:
        i += 1
    return i


class GrammarConstraint:
    """One request's grammar over one tokenizer: `apply` masks (B, T, V) logits.

    Thread-safe (a lock): n > 1 choices and a shadow's target-only and speculative runs of one
    request may share it from several threads."""

    def __init__(self, spec: GrammarSpec, tokenizer: Any, vocab: int,
                 eos_token_ids: Sequence[int]) -> None:

        self.spec, self.vocab = spec, vocab
        self._tok = _lltokenizer(tokenizer, vocab, tuple(sorted(eos_token_ids)))
        if error := _grammar_error(spec.grammar, self._tok):
            raise GrammarError(error)
        self._words = (vocab + 31) // 32
        self._pool: list[_Matcher] = []
        self._lock = threading.Lock()
        self.masks_computed = 0  # positions masked so far (for benchmarks and tests)

    def _new(self) -> _Matcher:
        import llguidance

        m = llguidance.LLMatcher(self._tok, self.spec.grammar, log_level=0)
        if m.is_error():
            raise GrammarError(m.get_error())
        return _Matcher(m)

    def _matcher_for(self, prefix: Sequence[int]) -> tuple[_Matcher, int]:
        """The pooled matcher sharing the longest prefix with `prefix`, and that length."""
        if not self._pool:
            self._pool.append(self._new())
        c, best = max(((_common(m.consumed, prefix), m) for m in self._pool),
                      key=lambda pair: pair[0])
        if c == 0 and best.consumed and len(self._pool) < POOL:
            best = self._new()
            self._pool.append(best)
        self._pool.remove(best)
        self._pool.insert(0, best)  # most recently used first
        return best, c

    def bitmask(self, outputs: Sequence[Sequence[int]], block: Sequence[Sequence[int]] | None,
                positions: int) -> torch.Tensor:
        """(B, T, words) int32 allowed-token bits: row b, position t after outputs[b] +
        block[b][:t]; all bits set where the row's history left the grammar."""
        import llguidance.torch as lgt

        mask = torch.full((len(outputs) * positions, self._words), -1, dtype=torch.int32)
        with self._lock:
            for b, out in enumerate(outputs):
                m, c = self._matcher_for(out)
                if not m.sync(out, c) or m.matcher.is_error():
                    continue  # outside the grammar: unconstrained (never emitted)
                drafts = list(block[b][:positions - 1]) if block is not None else []
                taken = 0
                for t in range(positions):
                    lgt.fill_next_token_bitmask(m.matcher, mask, b * positions + t)
                    self.masks_computed += 1
                    if t == positions - 1 or not m.matcher.try_consume_tokens(drafts[t:t + 1]):
                        break
                    taken += 1
                if taken:
                    m.matcher.rollback(taken)
        return mask.view(len(outputs), positions, self._words)

    def apply(self, logits: torch.Tensor, outputs: Sequence[Sequence[int]],
              block: torch.Tensor | Sequence[Sequence[int]] | None) -> torch.Tensor:
        """(B, T, V) float32 logits with every token the grammar refuses at its position set
        to MASKED. `block`: the (B, >= T-1) tokens within the block before each position."""
        b, t, vocab = logits.shape
        rows = block.tolist() if isinstance(block, torch.Tensor) else block
        bits = self.bitmask(outputs, rows, t).to(logits.device)
        shifts = torch.arange(32, device=logits.device, dtype=torch.int32)
        allowed = ((bits.unsqueeze(-1) >> shifts) & 1).bool().view(b, t, -1)[..., :vocab]
        return logits.masked_fill(~allowed, MASKED)
