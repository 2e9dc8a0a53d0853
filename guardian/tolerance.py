"""The numeric tolerance a near tie must fit inside, per dtype/device: measured, not chosen.

`guardian bench tolerance` (guardian/benchmarks/tolerance_bench.py) measures the largest
difference between the target's raw logits (and emitted-token log-probabilities) computed in
a (γ+1)-token verify forward and in one-token forwards of the same prefixes — the only thing
that legitimately differs between the speculative and the target-only path — and recommends
that maximum times SAFETY_MARGIN (10), rounded up to one significant digit.

Torch-free on purpose: the policy schema reads DEFAULT_NEAR_TIE_TOLERANCE for its defaults.
Update MEASURED (and the docs' table) from a new run of the bench when the engine, the pair or
the hardware changes; a route for another dtype/device sets `near_tie_tolerance` explicitly.
"""

from __future__ import annotations

# key "<dtype>/<device>" -> (largest measured |Δ logit|, recommended tolerance, how measured)
MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (3.3e-05, 4e-04,
                    "guardian bench tolerance, gamma 4, every verify-chunk alignment; tiny "
                    "random llama test pair (tests/engine/conftest.py), 8 prompts, 168 "
                    "positions: max |Δlogit| 3.3e-5 (top-2 2.1e-5), max |Δlog p| 2.0e-5"),
}

DEFAULT_NEAR_TIE_TOLERANCE: float = MEASURED["float32/cpu"][1]


def default_tolerance(dtype: str, device: str) -> float | None:
    """The recommended tolerance measured for this dtype/device, or None (not measured)."""
    entry = MEASURED.get(f"{dtype}/{device}")
    return None if entry is None else entry[1]
