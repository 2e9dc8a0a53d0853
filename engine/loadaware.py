"""Load-aware speculation: a speculation-depth cap per batch-size band, chosen from goodput.

Speculation pays when the target forward is memory-bound (few rows) and costs when it is
compute-bound (many rows): vLLM measured 1.5–2.8x faster at low QPS and 1.4–1.8x slower at
high QPS, and now sets the number of draft tokens per batch-size range. `LoadAwareGamma` is
the ContinuousEngine's `gamma_cap`: it returns the largest depth any row may use (0 =
speculation off, no draft forward at all) for the load, picked per band by the goodput it
measured on the live pair, like TurboSpec/SmartSpec, which pick γ by goodput.

What it measures, and why so:

- **Runs, not steps.** A cap is held for `run_steps` consecutive steps and judged by the run's
  tokens over the run's wall time (`observe` is given the engine thread's whole time since the
  previous step: joins, prefills and hand-backs included). Judged step by step, the prefills
  that a deep cap's completions cause landed in the *next* step — usually at another cap — and
  the GIL time the serving threads take per step (streaming, audit: ~4 ms per step, measured at
  16 clients) halved the goodput of short depth-0 steps while barely denting long speculative
  ones: the learner picked depth 6–8 where end to end it ran at 0.71–0.78 of target-only
  (BENCHMARKS.md, git history). A run of steps pays its own prefills and its own share of that time.
- **The sustained batch size.** The band is that of the largest batch of the last
  `window` steps — the size the load sustains — not of the instantaneous size, which at a
  steady 16 clients wanders between 8 and 16 as rows finish and their clients send the next
  request: per-instant bands interleave runs and mix their costs.
- a band's first run serves the deepest candidate (speculation as the route asks) and is not
  judged (the joins that just filled the batch land in it); warm-up: each candidate gets
  `warmup` runs, deepest first, before any is preferred; then the
  candidate with the best smoothed goodput (a depth > 0 only when it beats depth 0 by
  `margin`, 5 %), and every `explore_every`-th run a re-measurement — every other time of
  depth 0, the target-only baseline, in between of the other depths in turn — so a shift in
  load or content, or an estimate taken in a noisy moment, is corrected;
- `fixed` pins a table instead (band -> cap), e.g. one exported from a bench run.

Because 0 is a candidate, a band where speculation measures slower than target-only settles on 0:
speculative serving is then exactly target-only decoding, but for the exploring runs.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field

from engine.metrics import BANDS, band_of, sustained

__all__ = ["BANDS", "CANDIDATES", "LoadAwareGamma", "band_of", "vllm_speculative_config"]

CANDIDATES: tuple[int, ...] = (0, 1, 2, 3, 4, 6, 8)


@dataclass
class _Band:
    goodput: dict[int, float] = field(default_factory=dict)  # cap -> smoothed tokens/s
    tries: dict[int, int] = field(default_factory=dict)  # cap -> runs judged
    runs: int = 0
    choice: int | None = None


@dataclass
class _Run:
    band: int
    cap: int
    left: int  # steps still to be served at this cap
    judged: bool = True
    tokens: float = 0.0
    seconds: float = 0.0


class LoadAwareGamma:
    """`gamma_cap(batch_size)` for ContinuousEngine, learnt from `observe` after each step."""

    def __init__(self, candidates: tuple[int, ...] = CANDIDATES, *, warmup: int = 1,
                 explore_every: int = 16, smoothing: float = 0.3, run_steps: int = 8,
                 window: int = 32, fixed: dict[int, int] | None = None,
                 margin: float = 0.05) -> None:
        """`margin`: a depth > 0 is chosen only when its goodput beats depth 0's (plain
        target-only decoding) by this fraction: the baseline wins ties and near-ties, since
        a noisy estimate must not make speculative serving slower than target-only.
        `run_steps`: steps a cap is held for and judged over; `window`: steps whose largest
        batch sets the band."""
        if not candidates or min(candidates) < 0:
            raise ValueError("candidates must be depths >= 0")
        if run_steps < 1 or window < 1:
            raise ValueError("run_steps and window must be >= 1")
        self.candidates = tuple(sorted(set(candidates)))
        self.warmup, self.explore_every, self.smoothing = warmup, explore_every, smoothing
        self.run_steps, self.margin = run_steps, margin
        self.fixed = None if fixed is None else {band_of(b): int(g) for b, g in fixed.items()}
        self._bands: dict[int, _Band] = {}
        self._sizes: deque[int] = deque(maxlen=window)
        self._run: _Run | None = None
        self._lock = threading.Lock()  # table() is read from other threads

    def __call__(self, size: int) -> int:
        if self.fixed is not None:
            band = band_of(size)
            known = [b for b in sorted(self.fixed) if b <= band]
            return self.fixed[known[-1]] if known else max(self.candidates)
        with self._lock:
            self._sizes.append(size)
            band = band_of(max(self._sizes))
            run = self._run
            if run is not None and run.band == band and run.left > 0:
                run.left -= 1
                return run.cap
            self._close_run()
            cap, judged = self._next_cap(band)
            self._run = _Run(band, cap, self.run_steps - 1, judged=judged)
            return cap

    def peek(self, size: int) -> int | None:
        """The cap `self(size)` would give now, changing nothing; None where only asking
        can tell (a new run's cap is chosen, and counted, by asking)."""
        if self.fixed is not None:
            return self(size)  # a pinned table: a pure lookup
        with self._lock:
            band = band_of(sustained(self._sizes, size))
            run = self._run
            if run is not None and run.band == band and run.left > 0:
                return run.cap
            return None

    def _next_cap(self, band: int) -> tuple[int, bool]:
        """-> (cap, judged). A band's first run serves the deepest candidate (speculation as
        the route asks, before anything is measured) and is not judged: the load just
        changed, and the joins that filled the batch (every row's prefill) would land in it.
        Warm-up then goes from the deepest candidate down."""
        st = self._bands.get(band)
        if st is None:
            self._bands[band] = _Band()
            return self.candidates[-1], False
        st.runs += 1
        untried = [c for c in self.candidates if st.tries.get(c, 0) < self.warmup]
        if untried:
            return untried[-1], True
        best = max(self.candidates, key=lambda c: st.goodput[c])
        if best and 0 in st.goodput and st.goodput[best] < st.goodput[0] * (1 + self.margin):
            best = 0
        st.choice = best
        if st.runs % self.explore_every == 0:
            # Re-measure the others, so an estimate taken in a bad moment cannot stay wrong
            # for ever: every other time the target-only baseline (what a deeper cap must
            # beat), in between the other depths in turn.
            k = st.runs // self.explore_every
            others = [c for c in self.candidates if c not in (best, 0)]
            if best != 0 and (k % 2 == 0 or not others):
                return 0, True
            if others:
                return others[(k // 2) % len(others)], True
        return best, True

    def _close_run(self) -> None:
        """Judge the run that is ending by its tokens over its wall time."""
        run, self._run = self._run, None
        if run is None or not run.judged or run.seconds <= 0:
            return
        st = self._bands.setdefault(run.band, _Band())
        rate = run.tokens / run.seconds
        n = st.tries.get(run.cap, 0)
        st.tries[run.cap] = n + 1
        old = st.goodput.get(run.cap)
        # Plain mean during warm-up, then exponential smoothing.
        st.goodput[run.cap] = (rate if old is None else
                               old + (rate - old) / (n + 1) if n < self.warmup else
                               old + self.smoothing * (rate - old))

    def observe(self, size: int, cap: int, tokens: float, seconds: float, *,
                accepted: int = 0, judged: int = 0, switched: bool = False) -> None:
        """A step of `size` rows under `cap` committed `tokens` in `seconds` (the engine
        thread's time since the previous step). (The keywords are what ModelledGamma reads;
        this learner judges runs by their tokens alone.)"""
        if self.fixed is not None or seconds <= 0:
            return
        with self._lock:
            run = self._run
            if run is not None and cap == run.cap:
                run.tokens += tokens
                run.seconds += seconds

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
