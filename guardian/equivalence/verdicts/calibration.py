"""The two stateful windows of the sampled checks (not pure: each holds observations until it
can test them): `AcceptanceWindow` (observed acceptance vs Σ min(p, q)) and `PitWindow`
(randomized PIT by origin, KS over tumbling windows), with the PIT functions they use."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from typing import Any

import torch


class AcceptanceWindow:
    """Rolling window of (observed, expected) acceptances for one route and pair."""

    def __init__(self, size: int) -> None:
        self._items: deque[tuple[int, float]] = deque(maxlen=size)

    def extend(self, observations: Sequence[tuple[int, float]]) -> None:
        self._items.extend(observations)

    def __len__(self) -> int:
        return len(self._items)

    def summary(self) -> dict[str, float | int | None]:
        """Observed vs expected accepted counts and the z-score of their difference.

        Each observation is Bernoulli(e_i), so the sum has variance Σ e_i (1 - e_i).
        """
        n = len(self._items)
        observed = sum(o for o, _ in self._items)
        expected = sum(e for _, e in self._items)
        variance = sum(e * (1.0 - e) for _, e in self._items)
        z = (observed - expected) / math.sqrt(variance) if variance > 1e-12 else None
        if z is None and n:
            # Degenerate expectation (all e in {0, 1}): any deviation is impossible under H0.
            z = 0.0 if abs(observed - expected) < 1e-6 else math.inf
        return {"window_tokens": n, "observed_accepted": observed,
                "expected_accepted": expected, "acceptance_z": z}


# --- goodness of fit: randomized PIT by origin ----------------------------------------------
PIT_ORIGINS = ("accepted", "resampled", "bonus")


def origin_distribution(origin: str, p: torch.Tensor, q: torch.Tensor | None,
                        proposed: int | None) -> torch.Tensor | None:
    """The distribution a correct engine draws a token of this origin from, at one position:
    bonus/target ~ p; accepted ~ min(p, q) / Σ min(p, q); resampled ~ max(p - q, 0) / mass.
    q = the recorded full q, or a point mass on `proposed` when q is absent / all zero (an
    n-gram proposal). None when there is nothing to test (no mass, or an accepted point mass:
    the token is determined)."""
    p = p.float()
    if origin in ("bonus", "target"):
        return p
    point = q is None or float(q.sum()) <= 0.0
    if point:
        if proposed is None:
            return None
        if origin == "accepted":
            return None
        d = p.clone()
        d[proposed] = 0.0
    else:
        d = torch.minimum(p, q.float()) if origin == "accepted" else (p - q.float()).clamp_min(0)
    mass = float(d.sum())
    return d / mass if mass > 0 else None


def randomized_pit(d: torch.Tensor, token: int, v: float) -> float:
    """u = F(x-) + v * d(x), v ~ U(0,1): exactly U(0,1) when x ~ d (Brockwell 2007).

    F runs over tokens in order of decreasing probability under d (ties by id), so a token
    the claimed distribution finds unlikely lands near 1: a sampler drawing from the wrong
    distribution piles mass there, which the KS test sees (token-id order would scatter it).
    """
    dx = float(d[token])
    above = float(d[d > dx].sum())
    ties = int(((d == dx)[:token]).sum()) if token else 0
    return min(1.0, max(0.0, above + ties * dx + v * dx))


def ks_uniform(us: Sequence[float]) -> tuple[float, float]:
    """One-sample Kolmogorov-Smirnov against U(0,1): (D, asymptotic p-value, Stephens' form)."""
    n = len(us)
    if not n:
        return 0.0, 1.0
    xs = sorted(us)
    d = max(max((i + 1) / n - x, x - i / n) for i, x in enumerate(xs))
    lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * d
    if lam < 1e-3:
        return d, 1.0
    p = 2.0 * sum((-1) ** (k - 1) * math.exp(-2.0 * k * k * lam * lam) for k in range(1, 101))
    return d, min(1.0, max(0.0, p))


# A window per origin is tested once it holds PIT_MIN_SAMPLE values, then emptied (tumbling
# windows: the tests are independent, so the false-alarm rate per test is exactly PIT_ALPHA
# and over N tests at most N * PIT_ALPHA).
PIT_MIN_SAMPLE = 200


PIT_ALPHA = 1e-4


class PitWindow:
    """Randomized-PIT values of emitted tokens for one route and pair, split by origin; a KS
    test per origin over tumbling windows of `min_sample` values at level `alpha`."""

    def __init__(self, min_sample: int = PIT_MIN_SAMPLE, alpha: float = PIT_ALPHA,
                 seed: int = 0) -> None:
        self.min_sample, self.alpha = min_sample, alpha
        self._u: dict[str, list[float]] = {o: [] for o in PIT_ORIGINS}
        self.tests: dict[str, int] = dict.fromkeys(PIT_ORIGINS, 0)
        self._gen = torch.Generator().manual_seed(seed)

    def add(self, origins: Sequence[str], token_ids: Sequence[int], p: torch.Tensor,
            q: torch.Tensor | None, proposed: Sequence[int | None]) -> None:
        """One request's emitted tokens: p (T, V) target-only reference distributions, q (T, V)
        recorded proposal distributions (or None), proposed[i] the proposed token."""
        vs = torch.rand(len(token_ids), generator=self._gen).tolist()
        for i, (origin, tok) in enumerate(zip(origins, token_ids, strict=True)):
            key = "bonus" if origin == "target" else origin
            if key not in self._u or i >= p.shape[0]:
                continue
            d = origin_distribution(origin, p[i], None if q is None else q[i], proposed[i])
            if d is not None:
                self._u[key].append(randomized_pit(d, tok, vs[i]))

    def evaluate(self) -> dict[str, dict[str, Any]]:
        """Per origin: pass / fail / inconclusive (fewer than min_sample values so far)."""
        out: dict[str, dict[str, Any]] = {}
        for origin, us in self._u.items():
            if len(us) < self.min_sample:
                out[origin] = {"outcome": "inconclusive", "n": len(us),
                               "min_sample": self.min_sample}
                continue
            d, pval = ks_uniform(us)
            self.tests[origin] += 1
            out[origin] = {"outcome": "fail" if pval < self.alpha else "pass", "n": len(us),
                           "ks_d": d, "p_value": pval, "alpha": self.alpha}
            us.clear()
        return out
