"""The speculation depth cap per batch size, predicted from measured step costs (the default).

`ModelledGamma` is a ContinuousEngine `gamma_cap`, like engine.loadaware.LoadAwareGamma, but it
does not find the best depth by trying every depth on live traffic. It predicts each depth's
goodput, as SmartSpec does:

    goodput(rows, γ) = rows · (1 + α + … + α^γ) / cost(rows, γ)

- **cost** (engine.stepcost): the engine thread's seconds per step at each batch size and
  depth cap, measured on this pair and device in a closed loop of requests that join and
  leave (so the costs speculation brings to a batch that turns over — ragged caches, joins
  one by one — are in it), once, at start-up, and kept on disk;
- **α**, the acceptance rate, measured live from every speculative row's verdicts (draft
  positions accepted over positions judged up to the first rejection: the maximum-likelihood
  estimate for the usual i.i.d. model), with a slowly fading memory.

The cap is the depth with the best predicted goodput; a depth > 0 must beat depth 0 (plain
target-only decoding) by `margin` — where it does not, speculation is off and the speculative
route decodes exactly as target-only does. The band is that of the largest batch of the last
`window` steps (the size the load sustains). Before α is known the route speculates as it asks
(the deepest candidate) to measure it, unless even perfect acceptance could not beat depth 0
at that load; and where speculation is off only because α is low, a few steps speculate at
the shallowest depth every `probe_every` steps, so α keeps being measured (otherwise one bad
stretch would turn speculation off for good).

Why not the learner that tries every depth (engine.loadaware, `GUARDIAN_GAMMA_POLICY=runs`):
inside a busy 2-core server, runs of steps at different depths interfere (a run inherits the
previous depth's caches and timing of joins; the serving threads' share of the GIL differs by
phase), and its warm-up and re-measurements at every depth cost goodput themselves: at 16
closed-loop clients it kept speculative serving at 0.81–0.91 of target-only where speculation
off measured parity. Correcting the model with in-server measurements did no better (tried
three ways; depth 0 re-measured inside the server came out at 1.8–3.6x its cost depending on
what the server had just been doing), so the model uses only what was measured where nothing
else ran, plus α. Two approximations: the cost of a step is taken as measured at the
calibration's own acceptance (random prompts), and the rows' own depth controllers may
propose less than the cap.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from engine.loading import Pair
from engine.metrics import BANDS, band_of, sustained
from engine.stepcost import StepCosts, cached

__all__ = ["DEPTHS", "ModelledGamma", "expected_tokens"]

# Depths the model chooses among and measures (each costs a closed loop at every batch size:
# the runs learner's 3 and 8 would add a third to the measuring time; 6 covers the deep end).
DEPTHS: tuple[int, ...] = (0, 1, 2, 4, 6)

logger = logging.getLogger(__name__)


def expected_tokens(alpha: float, depth: int) -> float:
    """Tokens a row commits per step at `depth` when each draft is accepted with probability
    `alpha` independently: 1 + α + … + α^depth (the accepted prefix plus one target token)."""
    return sum(alpha ** i for i in range(depth + 1))


class ModelledGamma:
    """`gamma_cap(batch_size)` from measured step costs and live acceptance."""

    fixed: dict[int, int] | None = None  # the scheduler's "pinned" flag: never pinned

    def __init__(self, costs: StepCosts | None = None, candidates: tuple[int, ...] = DEPTHS,
                 *, margin: float = 0.05, window: int = 32, memory: float = 0.98,
                 min_judged: int = 64, cache_dir: Path | None = None, probe_every: int = 2048,
                 probe_steps: int = 8) -> None:
        """`margin`: how much better than depth 0 a depth must be predicted to be;
        `window`: steps whose largest batch is the sustained batch size; `memory`: how much
        of the acceptance evidence each speculative step keeps; `min_judged`: draft
        positions judged before α is trusted; `cache_dir`: where `calibrate` keeps what it
        measured (None: measure every time); after `probe_every` steps off only because α
        was low, `probe_steps` steps speculate at the shallowest depth to measure it again."""
        if not candidates or min(candidates) < 0:
            raise ValueError("candidates must be depths >= 0")
        if window < 1 or not 0 < memory <= 1 or probe_every < 1 or probe_steps < 0:
            raise ValueError("window and probe_every must be >= 1, probe_steps >= 0 and "
                             "memory in (0, 1]")
        self.candidates = tuple(sorted(set(candidates) | {0}))
        self.costs = costs
        self.margin, self.memory, self.min_judged = margin, memory, min_judged
        self.cache_dir = cache_dir
        self.calibration_s: float | None = None
        self._sizes: deque[int] = deque(maxlen=window)
        self._accepted = self._judged = 0.0
        self._seen = 0  # draft positions judged in all
        self._choice: dict[int, int] = {}  # band -> the cap last served
        self.probe_every, self.probe_steps = probe_every, probe_steps
        self._off_by_alpha = 0  # steps off since the last speculative one, only because of α
        self._probing = 0  # probe steps still to serve
        # (band, cap) -> [steps, rows, tokens, seconds] as served: never used to choose (see
        # the module docstring), shown beside the model's costs so a wrong model is visible.
        self._live: dict[tuple[int, int], list[float]] = {}
        # (band, cap) -> [steps, seconds] of the steps right after speculation turned on or off
        # (they pay the draft catching up on what it has not seen, or the target cache's
        # compaction: costs the model does not count).
        self._after_switch: dict[tuple[int, int], list[float]] = {}
        self._lock = threading.Lock()

    def calibrate(self, pair: Pair, max_batch: int) -> StepCosts:
        """Measure (or read from the cache) the step costs on `pair` for every band up to
        `max_batch` rows."""
        sizes = sorted({b for b in BANDS if b <= max_batch} | {max_batch})
        t0 = time.perf_counter()

        def progress(done: int, total: int) -> None:
            if done == 1 or done == total or done % max(1, total // 4) == 0:
                logger.info("speculation cap model: measuring step costs on this pair and "
                            "device (once; then cached): %d/%d", done, total)

        costs = cached(pair, sizes, self.candidates, self.cache_dir, progress=progress)
        self.calibration_s = time.perf_counter() - t0
        with self._lock:
            self.costs = costs
        logger.info("speculation cap model: step costs of %d batch sizes x %d depths in %.1f s",
                    len(sizes), len(self.candidates), self.calibration_s)
        return costs

    def alpha(self) -> float | None:
        """The acceptance rate measured so far (None until `min_judged` positions)."""
        if self._seen < self.min_judged or self._judged <= 0:
            return None
        return self._accepted / self._judged

    def __call__(self, size: int) -> int:
        with self._lock:
            self._sizes.append(size)
            rows = max(self._sizes)
            answer, chosen, why = self._decide(rows)
            self._choice[band_of(rows)] = chosen
            if why == "chosen":
                self._off_by_alpha = self._probing = 0
            elif why == "probing":
                self._probing -= 1
            elif why == "probe":
                self._off_by_alpha, self._probing = 0, self.probe_steps - 1
            elif why == "off_by_alpha":
                self._off_by_alpha += 1
            return answer

    def peek(self, size: int) -> int:
        """The cap `self(size)` would give now, changing nothing (`__call__` without its
        bookkeeping: the sizes window, the choice shown, the probe counters)."""
        with self._lock:
            return self._decide(sustained(self._sizes, size))[0]

    def _decide(self, rows: int) -> tuple[int, int, str]:
        """(the cap to answer, the model's choice, why) for `rows` now, changing nothing; why:
        "chosen" (the answer is the choice), "probing" (a probe under way), "probe" (this step
        starts one), "off_by_alpha" (off because α is low), "off" (off at any α)."""
        chosen = self._choose(rows)
        if chosen or len(self.candidates) < 2:
            return chosen, chosen, "chosen"
        if self._probing:
            return self.candidates[1], chosen, "probing"
        if self.alpha() is not None and self._pays_at_best(rows):
            # Off because α is low. α is measured only while rows speculate: without a
            # probe now and then, one bad stretch would turn speculation off for good.
            if self._off_by_alpha + 1 >= self.probe_every and self.probe_steps:
                return self.candidates[1], chosen, "probe"
            return 0, chosen, "off_by_alpha"
        return 0, chosen, "off"

    def _rates(self, rows: int, alpha: float) -> dict[int, float]:
        assert self.costs is not None
        return {g: rows * expected_tokens(alpha, g) / max(1e-9, self.costs.at(rows, g))
                for g in self.candidates}

    def _pays_at_best(self, rows: int) -> bool:
        """Whether some depth would beat depth 0 if every draft were accepted."""
        best_case = self._rates(rows, 1.0)
        gain = max((best_case[g] for g in self.candidates if g), default=0.0)
        return gain >= best_case[0] * (1 + self.margin)

    def _choose(self, rows: int) -> int:
        deepest = self.candidates[-1]
        if self.costs is None:
            return deepest  # nothing measured: speculate as the route asks
        alpha = self.alpha()
        if alpha is None:
            # Unknown acceptance: speculate to measure it, unless even accepting every draft
            # could not beat target-only decoding at this load.
            return deepest if self._pays_at_best(rows) else 0
        rates = self._rates(rows, alpha)
        best = max(self.candidates, key=lambda g: (rates[g], -g))
        if best and rates[best] < rates[0] * (1 + self.margin):
            best = 0
        return best

    def observe(self, size: int, cap: int, tokens: float, seconds: float, *,
                accepted: int = 0, judged: int = 0, switched: bool = False) -> None:
        """A step's outcome: its speculative rows had `judged` draft positions judged and
        `accepted` accepted; `switched`: the engine turned speculation on or off at this step
        (ContinuousEngine.last_step: it knows, counting the steps with no speculative row
        this model never sees). The rest — size, cap, tokens, time — is what LoadAwareGamma
        learns from; this model only shows them beside its prediction (`describe`)."""
        with self._lock:
            key = (band_of(size), cap)
            live = self._live.setdefault(key, [0, 0, 0.0, 0.0])
            live[0] += 1
            live[1] += size
            live[2] += tokens
            live[3] += seconds
            if switched:
                after = self._after_switch.setdefault(key, [0, 0.0])
                after[0] += 1
                after[1] += seconds
            if judged <= 0:
                return
            self._accepted = self._accepted * self.memory + accepted
            self._judged = self._judged * self.memory + judged
            self._seen += judged

    def table(self) -> dict[int, int]:
        """band start -> the cap in force (bands seen so far)."""
        with self._lock:
            return dict(sorted(self._choice.items()))

    def goodput(self) -> dict[int, dict[int, float]]:
        """band -> cap -> predicted tokens/s at the band's start (bands seen so far), with the
        acceptance measured so far (before `min_judged` positions too); before any, with
        α = 1, the bound an unknown acceptance is judged by (a band where even that does not
        pay never speculates, so never measures α)."""
        with self._lock:
            if self.costs is None:
                return {}
            alpha = self._accepted / self._judged if self._judged > 0 else 1.0
            return {b: self._rates(b, alpha) for b in sorted(self._choice)}

    def _live_table(self) -> dict[str, dict[str, dict[str, float]]]:
        """(Under the lock.) band -> cap -> what serving measured: steps, mean rows, ms and
        tokens per step, and the step cost the model assumes at those rows."""
        out: dict[str, dict[str, dict[str, float]]] = {}
        for (band, cap), (steps, rows, tokens, seconds) in sorted(self._live.items()):
            mean_rows = rows / steps
            cell = {"steps": steps, "mean_rows": round(mean_rows, 2),
                    "ms_per_step": round(1e3 * seconds / steps, 3),
                    "tokens_per_step": round(tokens / steps, 3)}
            if self.costs is not None:
                cell["model_ms_per_step"] = round(1e3 * self.costs.at(round(mean_rows), cap), 3)
            switched = self._after_switch.get((band, cap))
            if switched:  # of these steps, the ones right after speculation turned on or off
                cell["after_switch_steps"] = switched[0]
                cell["after_switch_ms_per_step"] = round(1e3 * switched[1] / switched[0], 3)
            out.setdefault(str(band), {})[str(cap)] = cell
        return out

    def describe(self) -> dict[str, Any]:
        """The model's inputs (GET /admin/speculation)."""
        with self._lock:
            alpha = self.alpha()
            return {"policy": "modelled",
                    "acceptance_rate": None if alpha is None else round(alpha, 4),
                    "draft_positions_judged": self._seen,
                    "step_ms_by_batch_size_and_depth": (None if self.costs is None
                                                         else self.costs.as_dict()),
                    "measured_step_ms_by_batch_size_and_depth": (
                        None if self.costs is None else self.costs.raw_as_dict()),
                    "live_by_batch_size_and_depth": self._live_table(),
                    "on_off_switches": sum(n for n, _ in self._after_switch.values()),
                    "calibration_s": (None if self.calibration_s is None
                                      else round(self.calibration_s, 2))}
