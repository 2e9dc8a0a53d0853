"""How a judged completion stopped, as a coverage case: what the gate counts and the shadow's
stopping quota samples for.

Stopping is where speculative engines slip (a stop string or EOS completed inside a block of
accepted draft tokens, a depth not cut at the max_tokens boundary), and whether a judged
request exercised it depends on the traffic. So the gate report counts, per decoding kind,
how many judged completions ended each way, and the shadow keeps a per-route quota of each
(guardian.equivalence.quota). Pure functions over the contract's plain values.

Cases (`STOPPING_CASES`):
- `stop_string`: finished `stop` by one of the request's stop strings (no EOS at the end);
- `eos_in_block`: finished `stop` by an EOS that was an *accepted draft token* — a block the
  verifier would have gone on past had the engine not stopped there;
- `max_tokens`: finished `length` exactly at the request's max_tokens.
An EOS that ends a step's block (a resampled, bonus or target token) is `eos`, counted but not
part of the quota: a one-token step cannot show an EOS-inside-a-block bug.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

STOPPING_CASES: tuple[str, ...] = ("stop_string", "eos_in_block", "max_tokens")
KINDS: tuple[str, ...] = ("greedy", "sampled")


def stopping_case(ids: Sequence[int], finish_reason: str | None, trace: Sequence[Any], *,
                  eos_token_ids: Iterable[int] | None, stop: Sequence[str] | None,
                  max_tokens: int | None) -> str | None:
    """The stopping case one completion exercised (None: it stopped some other way)."""
    if finish_reason == "length":
        return "max_tokens" if max_tokens is not None and len(ids) >= max_tokens else None
    if finish_reason != "stop":
        return None
    eos = frozenset(eos_token_ids or ())
    if ids and ids[-1] in eos:
        last = trace[len(ids) - 1] if len(trace) >= len(ids) else (trace[-1] if trace else None)
        return "eos_in_block" if last is not None and last.origin == "accepted" else "eos"
    return "stop_string" if stop else None


def empty_counts() -> dict[str, dict[str, int]]:
    """{kind: {case: 0}} for every kind and quota case (plus `eos`)."""
    return {k: {c: 0 for c in (*STOPPING_CASES, "eos")} for k in KINDS}


def shortfall(counts: dict[str, dict[str, int]], quota: int) -> list[str]:
    """`kind/case` cells below `quota` (empty: the quota is met)."""
    return [f"{k}/{c}" for k in KINDS for c in STOPPING_CASES
            if counts.get(k, {}).get(c, 0) < quota]
