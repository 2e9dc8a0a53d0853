"""What one continuous-batching step costs on this pair and device, by batch size and depth.

`measure` runs the real `ContinuousEngine` in a closed loop for each batch size and each
speculation depth cap: `rows` requests decode at once and each one that finishes is replaced at
the next step boundary, as a serving batch under steady load is. It keeps the engine thread's
seconds per step (the step itself and the joins, prefills and removals between steps) over
the steps that ran with a full batch after the first wave of requests had left (steady
state). The load-aware depth cap (engine.capmodel.ModelledGamma) predicts goodput from these
costs and the acceptance rate it measures live, as SmartSpec does.

Why a closed loop and not fixed rows: speculation costs more in a batch that turns over than
on rows that all started together. Rows that commit different counts fall out of step, so the
caches carry holes and left padding (at 16 rows on the demo pair the target cache was 2.5x as
wide as the rows' mean length, none at depth 0) and finished rows join one by one, a prefill
forward each, instead of together (75 joins against 10 for the same 160 requests). Fixed rows
measured depth 1-3 as a gain at 16 rows where end to end it ran at 0.65-0.8 of depth 0; the
closed loop ranks them as serving does.

A measurement takes seconds on a CPU, so `cached` keeps it on disk, keyed by everything it
depends on (pair, device, dtype, torch threads and version, sizes, depths, workload).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import math
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import torch

from engine.batch import sync
from engine.continuous import ContinuousEngine, Sequence, SequenceRequest
from engine.controllers import ConstantGamma
from engine.head import logits_dtype
from engine.loading import Pair
from engine.sampling import SamplingParams

__all__ = ["StepCosts", "cached", "measure"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class StepCosts:
    """Seconds of the engine thread per step in steady closed-loop decoding, by (rows, depth
    cap)."""

    seconds: dict[tuple[int, int], float]
    # As measured, before `_envelope` (None: not kept, e.g. an older cache file). Shown beside
    # the live costs (ModelledGamma.describe) so a cell measured too dear, which the envelope
    # lowered to a larger cell's cost, can be told from a real cost.
    raw: dict[tuple[int, int], float] | None = None

    # Computed once: `at` runs for every candidate depth at every engine step.
    @cached_property
    def sizes(self) -> list[int]:
        return sorted({b for b, _ in self.seconds})

    @cached_property
    def depths(self) -> list[int]:
        return sorted({g for _, g in self.seconds})

    def at(self, rows: int, depth: int) -> float:
        """Seconds of a step of `rows` rows at `depth`: measured, or linear in rows between
        the nearest measured sizes (beyond the largest: proportional to rows). A depth not
        measured takes the nearest deeper one's cost (never flattering)."""
        depths = self.depths
        deeper = [g for g in depths if g >= depth]
        g = deeper[0] if deeper else depths[-1]
        sizes = self.sizes
        rows = max(1, rows)
        if rows in sizes:
            return self.seconds[(rows, g)]
        below = [b for b in sizes if b < rows]
        above = [b for b in sizes if b > rows]
        if not above:
            top = sizes[-1]
            return self.seconds[(top, g)] * rows / top
        if not below:
            return self.seconds[(above[0], g)]
        lo, hi = below[-1], above[0]
        w = (rows - lo) / (hi - lo)
        return (1 - w) * self.seconds[(lo, g)] + w * self.seconds[(hi, g)]

    def as_dict(self) -> dict[str, dict[str, float]]:
        """rows -> depth -> milliseconds (for /admin/speculation, the bench and the cache)."""
        return _ms(self.seconds)

    def raw_as_dict(self) -> dict[str, dict[str, float]] | None:
        """The same, as measured (before costs were made to grow with rows and depth)."""
        return None if self.raw is None else _ms(self.raw)

    @classmethod
    def from_dict(cls, data: dict[str, dict[str, float]],
                  raw: dict[str, dict[str, float]] | None = None) -> StepCosts:
        seconds = _seconds(data)
        return cls(seconds, None if raw is None else _seconds(raw))


def _ms(seconds: dict[tuple[int, int], float]) -> dict[str, dict[str, float]]:
    sizes = sorted({b for b, _ in seconds})
    depths = sorted({g for _, g in seconds})
    return {str(b): {str(g): round(1e3 * seconds[(b, g)], 3) for g in depths if (b, g) in seconds}
            for b in sizes}


def _seconds(data: dict[str, dict[str, float]]) -> dict[tuple[int, int], float]:
    seconds = {(int(b), int(g)): float(ms) / 1e3 for b, row in data.items()
               for g, ms in row.items()}
    if not seconds or not all(0 < v < math.inf for v in seconds.values()):
        raise ValueError("step costs must be positive and finite")
    return seconds


def _ordinary_tokens(pair: Pair) -> list[int]:
    """Token ids that are not special (so no row ends at once on EOS)."""
    special = set(pair.tokenizer.all_special_ids) | set(pair.eos_token_ids)
    vocab = min(len(pair.tokenizer), int(pair.target.config.vocab_size))
    return [t for t in range(vocab) if t not in special] or list(range(vocab))


@torch.inference_mode()
def measure(pair: Pair, sizes: Iterable[int], depths: Iterable[int], *, prompt: int = 16,
            new_tokens: int = 16, waves: int = 2, seed: int = 0, repeats: int = 1,
            rechecks: int = 2, progress: Callable[[int, int], None] | None = None,
            raw: bool = False) -> StepCosts:
    """Seconds per step for every (rows, depth): a closed loop of `rows` greedy draft-model
    requests (`prompt`-token random prompts, `new_tokens` each), `waves` + 1 batches' worth;
    timed from when the first wave has left, over steps that started with a full batch.

    A stall or a device's first use of a shape only adds time, so a cell measured dearer (by
    over `RECHECK_SLACK`) than one with more rows or a deeper cap is measured again, up to
    `rechecks` times, keeping its cheapest; `repeats` runs the whole sweep that many times
    first (each cell keeping its cheapest). A cell still dearer than one that does more work
    then takes that one's cost (`_envelope`).
    `progress(done, total)` is called after each cell of the sweeps. `raw`: as measured,
    without the envelope (for diagnosis: `guardian bench step-profile`)."""
    sizes, depths = sorted(set(sizes)), sorted(set(depths))
    if not sizes or min(sizes) < 1 or not depths or min(depths) < 0:
        raise ValueError("sizes must be >= 1 and depths >= 0, at least one of each")
    if waves < 1 or repeats < 1 or rechecks < 0:
        raise ValueError("waves and repeats must be >= 1, rechecks >= 0")
    prompt = max(1, min(prompt, pair.max_context // 2))
    new_tokens = max(1, min(new_tokens, pair.max_context - prompt - 1))
    rng = random.Random(seed)
    ordinary = _ordinary_tokens(pair)

    def cell_cost(rows: int, depth: int) -> float:
        engine = ContinuousEngine(pair, gamma_cap=lambda _size, c=depth: c)
        total = (waves + 1) * rows
        sent = done = steps = all_steps = 0
        spent = every = 0.0
        while done < total:
            joining = []
            if engine.size < rows and sent < total:
                # Made before the clock starts: only the join itself is the engine's cost.
                joining = [Sequence(pair, SequenceRequest(
                    prompt=[rng.choice(ordinary) for _ in range(prompt)],
                    params=SamplingParams(), max_new_tokens=new_tokens, speculative=True,
                    controller=ConstantGamma(max(1, depth))))
                    for _ in range(min(rows - engine.size, total - sent))]
                sent += len(joining)
            t0 = time.perf_counter()
            if joining:
                engine.join(joining)
            full = engine.size == rows
            finished = engine.step()
            sync(pair.device)
            dt = time.perf_counter() - t0
            every, all_steps = every + dt, all_steps + 1
            if full and done >= rows:
                steps += 1
                spent += dt
            done += len(finished)
        # A tiny measurement (one row, one token per request) may have no steady step.
        return spent / steps if steps else every / max(1, all_steps)

    seconds: dict[tuple[int, int], float] = {}
    cells = list(itertools.product(sizes, depths)) * repeats
    for n, (rows, depth) in enumerate(cells, 1):
        seconds[(rows, depth)] = min(cell_cost(rows, depth),
                                     seconds.get((rows, depth), math.inf))
        if progress is not None:
            progress(n, len(cells))
    for _ in range(rechecks):
        suspects = _too_dear(seconds, sizes, depths)
        if not suspects:
            break
        logger.debug("step costs: measuring %s again (dearer than a larger cell)", suspects)
        for rows, depth in suspects:
            seconds[(rows, depth)] = min(seconds[(rows, depth)], cell_cost(rows, depth))
    return StepCosts(dict(seconds) if raw else _envelope(seconds, sizes, depths), dict(seconds))


# How much dearer than a cell with more rows or a deeper cap a cell may measure before it is
# measured again (closed-loop noise on a quiet 2-core CPU: a few per cent).
RECHECK_SLACK = 1.1


def _too_dear(seconds: dict[tuple[int, int], float], sizes: list[int], depths: list[int]
              ) -> list[tuple[int, int]]:
    """Cells measured dearer (by over RECHECK_SLACK) than a cell with more rows at the same
    depth or a deeper cap at the same rows: the ones `_envelope` would lower."""
    out = []
    for (b, g), cost in sorted(seconds.items()):
        larger = [seconds[(b2, g)] for b2 in sizes if b2 > b] + \
                 [seconds[(b, g2)] for g2 in depths if g2 > g]
        if larger and cost > RECHECK_SLACK * min(larger):
            out.append((b, g))
    return out


def _envelope(seconds: dict[tuple[int, int], float], sizes: list[int], depths: list[int]
              ) -> dict[tuple[int, int], float]:
    """Each cell's cost as at most that of every cell with as many rows or more and as deep a
    cap or deeper: a step that does more work measured cheaper bounds this one's cost, since
    timing noise (a stall, a device's first use of a shape, another thread) only adds time.

    The lower envelope, not the upper one: raising each larger cell to a smaller one's cost
    (this pass before 2026-11-27) let one cell measured too dear lift every larger batch's
    depth-0 cost, and speculation looked cheap there, twice on a GPU: an H100's 4-row cell
    (23.9 ms against the 15.3 serving paid) and an H200's 8-row cell (22.9 ms, three
    measurements, against 12.3 at 16 rows) each became the 16-row depth-0 cost, and the model
    speculated at 16 rows where its own raw costs said depth 0 was 1.5x the goodput. A dear
    cell that is a real cost of its shape (a kernel chosen for that size) is hidden too: the
    raw costs stay beside the envelope (`StepCosts.raw`, /admin/speculation) to show it."""
    out = dict(seconds)
    for b in reversed(sizes):
        for g in reversed(depths):
            bounds = [out[(b2, g)] for b2 in sizes if b2 > b][:1] + \
                     [out[(b, g2)] for g2 in depths if g2 > g][:1]
            out[(b, g)] = min([out[(b, g)], *bounds])
    return out


def cached(pair: Pair, sizes: Iterable[int], depths: Iterable[int], cache_dir: Path | None,
           progress: Callable[[int, int], None] | None = None, **workload: int) -> StepCosts:
    """`measure`, kept in `cache_dir` (None: always measure). The key covers the pair, its
    device, dtype, logits' dtype (engine.head) and linear kernels (engine.packed), torch's
    version and thread count, the sizes, depths and workload: a different machine or
    setting measures afresh. Delete the
    file to re-measure."""
    sizes, depths = sorted(set(sizes)), sorted(set(depths))
    # v5: a depth-0 cell's joiners take their first token at the join (engine/continuous.py).
    if cache_dir is None:
        return measure(pair, sizes, depths, progress=progress, **workload)
    key = json.dumps({"pair": pair.identity.pair_hash, "device": str(pair.device),
                      "dtype": str(pair.dtype), "logits": str(logits_dtype(pair.target)),
                      "kernels": pair.kernels, "torch": torch.__version__,
                      "threads": torch.get_num_threads(), "sizes": sizes, "depths": depths,
                      "workload": workload, "v": 5}, sort_keys=True)
    path = Path(cache_dir) / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.json"
    try:
        data = json.loads(path.read_text())
        if data.get("key") == key:
            kept = StepCosts.from_dict(data["ms"], data.get("raw_ms"))
            if set(kept.seconds) >= set(itertools.product(sizes, depths)):
                return kept  # else a cell is missing: `at` would fail on it, so measure
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # absent or unreadable: measure
    costs = measure(pair, sizes, depths, progress=progress, **workload)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"key": key, "ms": costs.as_dict(),
                                   "raw_ms": costs.raw_as_dict()}, indent=1))
        tmp.replace(path)
    except OSError as exc:
        logger.warning("could not keep the measured step costs in %s: %s", cache_dir, exc)
    return costs
