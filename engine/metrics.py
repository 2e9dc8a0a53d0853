"""Speculative-decoding metrics as pure functions (vLLM style); exporters live elsewhere.

alpha (acceptance rate) = accepted / drafted; mean acceptance length = 1 + accepted / steps
(tokens emitted per target forward, counting the resampled/bonus token); expected speedup
of Leviathan et al. 2023 (Theorem 3.8 with cost ratio c):

    speedup(alpha, gamma, c) = (1 - alpha^(gamma+1)) / ((1 - alpha) (gamma c + 1))

where c = cost of one draft forward / cost of one target forward. The formula assumes the
(gamma+1)-token verify forward costs the same as a 1-token target forward; on a CPU it
does not (measured 1.4x on the demo pair), so `expected_speedup` takes that ratio as
`verify_cost` (default 1.0 = the paper's formula).
"""

from __future__ import annotations


def acceptance_rate(accepted: int, drafted: int) -> float:
    return accepted / drafted if drafted else 0.0


def mean_acceptance_length(accepted: int, steps: int) -> float:
    return 1.0 + accepted / steps if steps else 0.0


def expected_tokens_per_step(alpha: float, gamma: int) -> float:
    """E[tokens emitted per target forward] with i.i.d. acceptance alpha."""
    if alpha >= 1.0:
        return float(gamma + 1)
    return (1.0 - alpha ** (gamma + 1)) / (1.0 - alpha)


def expected_speedup(alpha: float, gamma: int, c: float, verify_cost: float = 1.0) -> float:
    """Expected wall-clock speedup over target-only decoding (1.0 for gamma = 0).

    verify_cost: cost of one verify forward over gamma+1 tokens / one 1-token forward.
    """
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    if c < 0.0:
        raise ValueError(f"cost ratio c must be >= 0, got {c}")
    if verify_cost <= 0.0:
        raise ValueError(f"verify_cost must be > 0, got {verify_cost}")
    return expected_tokens_per_step(alpha, gamma) / (gamma * c + (verify_cost if gamma else 1.0))


def optimal_gamma(alpha: float, c: float, gamma_max: int, gamma_min: int = 1) -> int:
    """The gamma in [gamma_min, gamma_max] with the highest expected speedup (smallest on ties)."""
    return max(range(gamma_min, gamma_max + 1), key=lambda g: (expected_speedup(alpha, g, c), -g))
