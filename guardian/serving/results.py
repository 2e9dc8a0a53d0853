"""What a served result says, derived in one place for the audit record, the metrics and the
API: its stats with the ratios of its counters (None where the backend did not report a
counter a ratio needs), its prompt tokens, and its time per output token."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from guardian.backends import BackendResult


class _Prompted(Protocol):
    prompt_ids: list[int]  # a GenerationRequest's (guardian.serving.request)

_RATIO_NEEDS = {"acceptance_rate": ("proposed_tokens", "accepted"),
                "alpha": ("judged_tokens", "accepted"),
                "mean_acceptance_length": ("steps", "accepted")}


def stats_dict(result: BackendResult) -> dict[str, Any]:
    """The backend's raw stats plus the ratios derived from its counters (audit, API)."""
    ratios: dict[str, Any] = result.counters.ratios()
    unreported = result.stats.get("unreported")
    if unreported:
        for name, needs in _RATIO_NEEDS.items():
            if any(k in unreported for k in needs):
                ratios[name] = None
    return {**result.stats, **ratios}


def prompt_tokens(req: _Prompted, result: BackendResult) -> int:
    """Prompt tokens: the local tokenizer's count, else what the backend counted (an
    upstream pool's usage: it tokenized the prompt)."""
    if req.prompt_ids:
        return len(req.prompt_ids)
    counted = result.stats.get("prompt_tokens")
    return int(counted) if isinstance(counted, int) and not isinstance(counted, bool) else 0


def time_per_output_token(result: BackendResult) -> float:
    """Mean seconds between output tokens after the first (0 for one token or none)."""
    n, timings = len(result.token_ids), result.timings
    return (timings.total_s - timings.time_to_first_token_s) / (n - 1) if n > 1 else 0.0
