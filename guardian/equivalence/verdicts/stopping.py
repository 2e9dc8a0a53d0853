"""Stopping verdicts for every judged completion: EOS last, a stop string ending at the token
that completes it, max_tokens (`stopping_violation`, `stopping_verdict`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from guardian.equivalence.verdicts.result import VerdictResult


def stopping_violation(ids: Sequence[int], finish_reason: str | None, *,
                       eos_token_ids: Iterable[int] | None, stop: Sequence[str] | None,
                       max_tokens: int | None, decode: Callable[[Sequence[int]], str] | None
                       ) -> tuple[str, int] | None:
    """How a completion ended, checked on its own: (failed check, position) or None.

    - no more than `max_tokens` tokens;
    - EOS only as the last token, and a completion ending in EOS has finish reason `stop`;
    - a stop string ends the completion at the token that completes it: the text of all but
      the last token contains no stop string, and a `stop` finish that is not EOS has one.
    `decode` turns ids into text (EOS ids are removed first, as the engine's text skips them);
    without it the stop-string checks are skipped. Unknown EOS ids skip the EOS checks.
    """
    ids = list(ids)
    if max_tokens is not None and len(ids) > max_tokens:
        return "max_tokens", max_tokens
    eos = set(eos_token_ids or ())
    if eos:
        for i, t in enumerate(ids[:-1]):
            if t in eos:
                return "eos_not_last", i
        if ids and ids[-1] in eos and finish_reason not in (None, "stop"):
            return "eos_finish_reason", len(ids) - 1
    stops = [s for s in (stop or []) if s]
    if decode is None or not ids:
        return None

    def text(n: int) -> str:
        return decode([t for t in ids[:n] if t not in eos])

    if stops:
        def has_stop(n: int) -> bool:
            s = text(n)
            return any(x in s for x in stops)

        whole = text(len(ids))
        if "\ufffd" in whole or any("\ufffd" in x for x in stops):
            # Not monotone: bytes completing a character shorten the text, and a run of
            # byte-fallback tokens can turn into U+FFFD, so a stop string a prefix held may
            # be gone from the whole text. Every prefix, in order.
            first = next((n for n in range(1, len(ids)) if has_stop(n)), None)
            if first is not None:
                return "stop_string_late", first - 1
            if has_stop(len(ids)):
                return None
        elif has_stop(len(ids)):
            # The first prefix whose text holds a stop string (monotone: binary search).
            lo, hi = 1, len(ids)
            while lo < hi:
                mid = (lo + hi) // 2
                if has_stop(mid):
                    hi = mid
                else:
                    lo = mid + 1
            if lo < len(ids):
                return "stop_string_late", lo - 1
            return None
    if finish_reason == "stop" and not (eos and ids[-1] in eos):
        return "stop_without_cause", len(ids) - 1
    return None


def stopping_verdict(ids: Sequence[int], finish_reason: str | None, *,
                     eos_token_ids: Iterable[int] | None, stop: Sequence[str] | None,
                     max_tokens: int | None, decode: Callable[[Sequence[int]], str] | None,
                     greedy: bool = True, path: str = "") -> VerdictResult | None:
    """`stopping_violation` as a verdict (`divergence` greedy, `distribution_mismatch`
    sampled), or None when the completion ended correctly."""
    bad = stopping_violation(ids, finish_reason, eos_token_ids=eos_token_ids, stop=stop,
                             max_tokens=max_tokens, decode=decode)
    if bad is None:
        return None
    check, position = bad
    return VerdictResult("divergence" if greedy else "distribution_mismatch", position, None,
                         {"failed_check": check, "path": path, "checks": ["stopping"],
                          "finish_reason": finish_reason, "completion_tokens": len(ids)})
