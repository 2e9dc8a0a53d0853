"""The numeric tolerance a near tie must fit inside, per dtype/device: measured, not chosen.

`guardian bench tolerance` (guardian/devtools/benchmarks/tolerance_bench.py) measures the largest
difference between the target's raw logits (and emitted-token log-probabilities) computed in
a (γ+1)-token verify forward and in one-token forwards of the same prefixes — the only thing
that legitimately differs between the speculative and the target-only path — and recommends
that maximum times SAFETY_MARGIN (10), rounded up to one significant digit. It measures the
sampled checks' noise the same way (total variation of the processed distributions, the
draft's |Δq|) and recommends `distribution_tolerance` and `drafter_tolerance` from it.

Torch-free on purpose: the policy schema reads the default from here. Update MEASURED (and
the docs' table) from a new run of the bench when the engine, the pair or the hardware
changes; a route on another dtype/device sets `near_tie_tolerance` explicitly.
"""

from __future__ import annotations

# key "<dtype>/<device>" -> (largest measured |Δ logit|, recommended tolerance, how measured)
MEASURED: dict[str, tuple[float, float, str]] = {
    "float32/cpu": (1.34e-05, 2e-04,
                    "guardian bench tolerance --prompts 32 --max-new-tokens 48 (gamma 4, every "
                    "verify-chunk alignment), demo pair v2 (b4ff04405fd9), 1,536 positions: "
                    "max |Δlogit| 1.34e-5 (top-2 6.7e-6), max |Δlog p| 5.0e-6; the tiny random "
                    "test pair gave 3.3e-5 over 168 positions"),
}

DEFAULT_NEAR_TIE_TOLERANCE: float = MEASURED["float32/cpu"][1]

# The sampled checks' tolerances (route `distribution_tolerance`, `drafter_tolerance`): the
# fp32 defaults, set above fp32 noise by hand (fp32 TV on the demo pair: 2e-6; its draft |Δq|
# reached 1.0e-3 where a token crossed a top-p cut, so the bench recommends 0.003 there).
# The bench measures the same noise in the distributions (TV) and the draft's q (|Δq|) and
# recommends max x DISTRIBUTION_SAFETY_MARGIN (3), never below these: in bf16 two correct computations' TV
# can exceed 0.02 (on an H100 the logits of different forward shapes differ by up to ~0.16),
# so a bf16 route sets both from `guardian bench tolerance`
# (recommended_distribution_tolerance / recommended_drafter_tolerance).
DEFAULT_DISTRIBUTION_TOLERANCE: float = 0.02
DEFAULT_DRAFTER_TOLERANCE: float = 1e-3


def default_tolerance(dtype: str, device: str) -> float | None:
    """The recommended tolerance measured for this dtype/device, or None (not measured)."""
    entry = MEASURED.get(f"{dtype}/{device}")
    return None if entry is None else entry[1]
