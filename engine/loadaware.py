"""Load-aware speculation: a speculation-depth cap per batch-size band, chosen from goodput.

Speculation pays when the target forward is memory-bound (few rows) and costs when it is
compute-bound (many rows): vLLM measured 1.5–2.8x faster at low QPS and 1.4–1.8x slower at
high QPS, and now sets the number of draft tokens per batch-size range. `LoadAwareGamma` is
the ContinuousEngine's `gamma_cap`: for the batch size of each step it returns the largest
depth any row may use (0 = speculation off, no draft forward at all), picked per band by the
goodput it measured on the live pair — tokens committed by the whole batch per second of
the time it is given by `observe` (guardian.batching gives the engine thread's whole time since
the previous step) — like TurboSpec/SmartSpec, which pick γ by goodput:

- warm-up: each candidate is tried `warmup` times in a band before any is preferred;
- then the candidate with the best smoothed goodput (a depth > 0 only when it beats depth 0
  by `margin`, 5 %), and every `explore_every`-th step of the band one of the others in turn
  (0, the target-only baseline, included), so a shift in load or content, or an estimate
  taken in a noisy moment, is corrected;
- `fixed` pins a table instead (band -> cap), e.g. one exported from a bench run.

Because 0 is a candidate, a band where speculation measures slower than target-only settles on 0:
speculative serving is then exactly target-only decoding for those steps.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from engine.metrics import BANDS, band_of

__all__ = ["BANDS", "CANDIDATES", "LoadAwareGamma", "band_of", "vllm_speculative_config"]

CANDIDATES: tuple[int, ...] = (0, 1, 2, 3, 4, 6, 8)


@dataclass
class _Band:
    goodput: dict[int, float] = field(default_factory=dict)  # cap -> smoothed tokens/s
    tries: dict[int, int] = field(default_factory=dict)
    steps: int = 0
    choice: int | None = None


class LoadAwareGamma:
    """`gamma_cap(batch_size)` for ContinuousEngine, learnt from `observe` after each step."""

    def __init__(self, candidates: tuple[int, ...] = CANDIDATES, *, warmup: int = 3,
                 explore_every: int = 16, smoothing: float = 0.2,
                 fixed: dict[int, int] | None = None, margin: float = 0.05) -> None:
        """`margin`: a depth > 0 is chosen only when its goodput beats depth 0's (plain
        target-only decoding) by this fraction: the baseline wins ties and near-ties, since
        a noisy estimate must not make speculative serving slower than target-only."""
        if not candidates or min(candidates) < 0:
            raise ValueError("candidates must be depths >= 0")
        self.candidates = tuple(sorted(set(candidates)))
        self.warmup, self.explore_every, self.smoothing = warmup, explore_every, smoothing
        self.margin = margin
        self.fixed = None if fixed is None else {band_of(b): int(g) for b, g in fixed.items()}
        self._bands: dict[int, _Band] = {}
        self._lock = threading.Lock()  # table() is read from other threads

    def __call__(self, size: int) -> int:
        band = band_of(size)
        if self.fixed is not None:
            known = [b for b in sorted(self.fixed) if b <= band]
            return self.fixed[known[-1]] if known else max(self.candidates)
        with self._lock:
            st = self._bands.setdefault(band, _Band())
            st.steps += 1
            untried = [c for c in self.candidates if st.tries.get(c, 0) < self.warmup]
            if untried:
                return untried[0]
            best = max(self.candidates, key=lambda c: st.goodput[c])
            if best and 0 in st.goodput and st.goodput[best] < st.goodput[0] * (1 + self.margin):
                best = 0
            st.choice = best
            if st.steps % self.explore_every == 0:
                # Re-measure every other cap in turn (0 included: the target-only baseline),
                # so an estimate taken in a bad moment cannot stay wrong for ever.
                others = [c for c in self.candidates if c != best]
                if others:
                    return others[(st.steps // self.explore_every) % len(others)]
            return best

    def observe(self, size: int, cap: int, tokens: float, seconds: float) -> None:
        """A step of `size` rows under `cap` committed `tokens` in `seconds`."""
        if self.fixed is not None or seconds <= 0 or cap not in self.candidates:
            return
        rate = tokens / seconds
        with self._lock:
            st = self._bands.setdefault(band_of(size), _Band())
            n = st.tries.get(cap, 0)
            st.tries[cap] = n + 1
            old = st.goodput.get(cap)
            # Plain mean during warm-up, then exponential smoothing.
            st.goodput[cap] = (rate if old is None else
                               old + (rate - old) / (n + 1) if n < self.warmup else
                               old + self.smoothing * (rate - old))

    def table(self) -> dict[int, int]:
        """band start -> the cap in force (bands seen so far; a pinned table as given)."""
        if self.fixed is not None:
            return dict(sorted(self.fixed.items()))
        with self._lock:
            return {b: st.choice for b, st in sorted(self._bands.items()) if st.choice is not None}

    def goodput(self) -> dict[int, dict[int, float]]:
        """band -> cap -> smoothed tokens/s (for /metrics and the bench)."""
        with self._lock:
            return {b: dict(sorted(st.goodput.items())) for b, st in sorted(self._bands.items())}


def vllm_speculative_config(table: dict[int, int], *, base: dict | None = None) -> dict:
    """A table as vLLM speculative-config keys: `num_speculative_tokens` (the deepest cap),
    `num_speculative_tokens_per_batch_size` ([min_batch, max_batch, tokens] ranges; the last
    range is open, max_batch null) and, where a band turns speculation off for good,
    `disable_by_batch_size` (vLLM's older key: off from that batch size on)."""
    out = dict(base or {})
    if not table:
        return out
    bands = sorted(table)
    ranges = []
    for k, b in enumerate(bands):
        hi = bands[k + 1] - 1 if k + 1 < len(bands) else None
        if ranges and ranges[-1][2] == table[b]:
            ranges[-1][1] = hi  # merge equal neighbours
        else:
            ranges.append([b, hi, table[b]])
    out["num_speculative_tokens"] = max(max(table.values()), 1)
    out["num_speculative_tokens_per_batch_size"] = ranges
    off = [b for k, b in enumerate(bands) if all(table[c] == 0 for c in bands[k:])]
    if off:
        out["disable_by_batch_size"] = off[0]
    return out
