"""Normalisation: the storable forms of events, ids and reasons before the sealer hashes them.

Owns `_storable` (what the sealer cannot apply itself: escaped text under `hashed` redaction,
SQLite's NULL for NaN and 0.0 for -0.0, because the chain must hash what is stored) and its
helpers `_odd`, `_unsigned_zero`, `_fixed_token`; the ids an event is named by in logs, gap
records (`_event_id`) and the intent log (`_intent_id`); and `_reason`, an exception as the
one storable line a gap record or health answer gives.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from engine.trace import TokenTrace
from guardian.audit.chain import is_plain, storable_text
from guardian.audit.events import RequestEvent, ShadowEvent
from guardian.audit.rows import Event


def _reason(exc: BaseException) -> str:
    text = str(exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    return storable_text(f"{type(exc).__name__}: {first}"[:500])


def _event_id(event: Any) -> str:
    return str(getattr(event, "request_id", None) or getattr(event, "event_id", "?"))


def _intent_id(event: Any) -> str:
    """`<kind>:<id>` as the intent log keeps it: r (request), s (shadow), g (governance)."""
    kind = "r" if isinstance(event, RequestEvent) else "s" if isinstance(event, ShadowEvent) else "g"
    return f"{kind}:{_event_id(event)}"


_TIMES = ("queue_time_s", "compute_time_s", "time_to_first_token_s", "time_per_output_token_s",
          "tolerance", "shadow_compute_time_s")


def _odd(x: Any) -> bool:
    """NaN or -0.0: values SQLite would store differently (NULL, 0.0) than they hash."""
    return isinstance(x, float) and (x != x or (x == 0.0 and math.copysign(1.0, x) < 0))


def _unsigned_zero(x: Any) -> Any:
    return 0.0 if isinstance(x, float) and x == 0.0 else x


def _fixed_token(t: TokenTrace) -> TokenTrace:
    dp = t.draft_prob
    return dataclasses.replace(
        t, draft_prob=None if isinstance(dp, float) and math.isnan(dp) else _unsigned_zero(dp),
        target_prob=_unsigned_zero(t.target_prob), target_margin=_unsigned_zero(t.target_margin))


def _storable(event: Event, *, sqlite: bool) -> Event:
    """Apply the storable forms the sealer cannot apply itself (`guardian.audit.chain`).

    `hashed` mode hashes the raw prompt/completion before anything escapes them, so a lone
    surrogate there is escaped first (the keyed hash is then over the escaped form). On
    SQLite (`sqlite`), which stores NaN as NULL and -0.0 as 0.0, a NaN draft probability
    (nullable) is recorded as NULL and -0.0 as 0.0, because the chain must hash what is
    stored; Postgres stores both as they are, so its hot path skips the per-token scan.
    Returns the event itself when nothing needs changing (the usual case).
    """
    if not isinstance(event, RequestEvent | ShadowEvent):
        return event
    changes: dict[str, Any] = {}
    if isinstance(event, RequestEvent) and event.redaction == "hashed":
        for name in ("prompt_text", "completion_text"):
            text = getattr(event, name)
            if text is not None and not is_plain(text):
                changes[name] = storable_text(text)
    if sqlite:
        for name in _TIMES:
            value = getattr(event, name, None)
            if _odd(value) and value == 0.0:
                changes[name] = 0.0  # drops the sign of -0.0
        name = "trace" if isinstance(event, RequestEvent) else "shadow_trace"
        trace = getattr(event, name)
        if any(_odd(t.draft_prob) or _odd(t.target_prob) or _odd(t.target_margin)
               for t in trace):
            changes[name] = [_fixed_token(t) for t in trace]
    return dataclasses.replace(event, **changes) if changes else event

