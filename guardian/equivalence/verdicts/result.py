"""What every verdict is made of: `VerdictResult`, the checks a verdict can name
(`FAILED_CHECKS`) and `PathOutput`, one decoding path's tokens and per-token evidence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from guardian.core.enums import Verdict


@dataclass(frozen=True, slots=True)
class VerdictResult:
    verdict: Verdict
    first_divergence_position: int | None = None
    margin_at_divergence: float | None = None
    details: dict[str, Any] = field(default_factory=dict)


# Checks a verdict can name in details["failed_check"].
FAILED_CHECKS = ("token_flip", "not_argmax", "logprob_disagreement", "stopping_length",
                 "stopping_finish_reason", "eos_not_last", "eos_finish_reason", "stop_string_late",
                 "stop_without_cause", "max_tokens", "support", "resampled_residual",
                 "accepted_not_proposed", "verifier_distribution", "pit_accepted", "pit_resampled",
                 "pit_bonus", "acceptance_above_expectation", "reported_logprob", "seed_replay",
                 "tool_calls", "json_structure", "text")


def first_difference(a: Sequence[Any], b: Sequence[Any]) -> int:
    """The first index where two unequal sequences (tokens, text) differ: where one is a
    prefix of the other, the shorter one's length."""
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                min(len(a), len(b)))


@dataclass(frozen=True, slots=True)
class PathOutput:
    """One judged completion: its tokens, its trace (TraceToken-like; may be empty) and how it
    ended. `truncated`: cut at the shadow cap before it ended by itself, so its length and
    finish reason say nothing (only tokens up to the cap are compared)."""

    token_ids: Sequence[int]
    trace: Sequence[Any] = ()
    finish_reason: str | None = None
    truncated: bool = False


def _has(t: Any, *names: str) -> bool:
    return t is not None and all(getattr(t, n, None) is not None for n in names)


def _at(trace: Sequence[Any], i: int) -> Any:
    return trace[i] if i < len(trace) else None


def _margin(t: Any) -> float | None:
    m = getattr(t, "target_margin", None) if t is not None else None
    return None if m is None else float(m)
