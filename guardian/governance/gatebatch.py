"""The gate's batched phase: golden prompts judged in shared batches of the serving engine.

`guardian serve` decodes through one continuously batched engine (engine/continuous.py), and
most ways that engine can go wrong — a row's cache crop, another row's accepted count, the
mask over a row's holes — show only while rows share a batch. So after judging every golden
prompt alone, the gate serves them again concurrently, in batches mixed on purpose (greedy
and sampled, stop strings and none, short and long `max_tokens` side by side: `mixed_batches`),
each batch's requests released together so the engine joins them as one batch, and judges
every row with the same shadow checks.

Depths: first under the serving depth policy (the cap `guardian serve` learns or pins on this
pair and device); where that cap left a batch's rows at depth 0 (speculation off at that load
— a fault there is dormant now, not absent: the cap moves with load and acceptance), the same
batches once more with the cap pinned at the gate's `gamma` (phase `b<size>-pinned`).

What it judged — the engine, the batch sizes rows actually shared and the depths their steps
ran at — goes into the report (`engine_summary`), and the check `batched_speculation` fails
when the serving engine batches but no batched row speculated beside another.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from guardian.policy import GatePolicy

logger = logging.getLogger(__name__)


def _category(gp: Any) -> tuple[int, int]:
    """Sort key that spreads kinds over batches: sampled/greedy, stop strings, then length."""
    return (int(gp.temperature > 0) * 2 + int(bool(gp.stop)), gp.max_tokens or 0)


def mixed_batches(prompts: list[Any], size: int) -> list[list[Any]]:
    """The prompts dealt into ceil(n / size) batches round-robin after sorting by kind, so
    every batch mixes greedy and sampled rows, stop strings and lengths (as served traffic
    does) and every prompt is judged once per size."""
    if size < 2 or len(prompts) < 2:
        return []
    ordered = sorted(prompts, key=_category)
    n = -(-len(ordered) // size)
    groups: list[list[Any]] = [[] for _ in range(n)]
    for i, gp in enumerate(ordered):
        groups[i % n].append(gp)
    return [g for g in groups if len(g) >= 2]


def serve_together(serve: Callable[[Any], Any], group: list[Any]) -> list[Any]:
    """`serve(gp)` for every prompt of `group` on its own thread, released at once."""
    outs: list[Any] = [None] * len(group)
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(group))

    def one(k: int) -> None:
        try:
            barrier.wait()
            outs[k] = serve(group[k])
        except BaseException as exc:  # re-raised on the caller's thread
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(k,), name=f"gate-row-{k}")
               for k in range(len(group))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return outs


def batch_sizes(backend: Any, gate: GatePolicy) -> list[int]:
    """The batch sizes the gate judges on `backend` (none when its engine does not batch)."""
    info = backend.engine_description()
    if info.get("engine") != "continuous":
        return []
    max_batch = int(info.get("max_batch") or 1)
    return sorted({min(s, max_batch) for s in gate.batch_sizes})


def planned_runs(backend: Any, prompts: list[Any], gate: GatePolicy) -> int:
    """How many judged runs `run_gate` makes: each prompt alone, then once per batch size
    (a progress bar's total; a batch phase re-judged at a pinned depth adds to it)."""
    return len(prompts) + sum(len(g) for size in batch_sizes(backend, gate)
                              for g in mixed_batches(prompts, size))


def run_batched(judge: Any, backend: Any, prompts: list[Any], gate: GatePolicy,
                max_new: Callable[[Any], int],
                on_prompt: Callable[[Any], None] | None = None) -> list[Any]:
    """Every batch phase's PromptResults (empty when the serving engine does not batch)."""
    results: list[Any] = []
    for size in batch_sizes(backend, gate):
        groups = mixed_batches(prompts, size)
        if not groups:
            continue
        phase = f"b{size}"
        got = _phase(judge, backend, groups, gate, max_new, phase, on_prompt)
        results += got
        if not _speculated_together(got):
            pin = getattr(backend, "pinned_depth", None)
            if pin is None:
                continue
            logger.info("gate: no row of the batches of %d speculated beside another under "
                        "the serving depth cap; judging them again at depth %d", size,
                        gate.gamma)
            with pin(gate.gamma):
                results += _phase(judge, backend, groups, gate, max_new, f"{phase}-pinned",
                                  on_prompt)
    return results


def _phase(judge: Any, backend: Any, groups: list[list[Any]], gate: GatePolicy,
           max_new: Callable[[Any], int], phase: str,
           on_prompt: Callable[[Any], None] | None) -> list[Any]:
    out = []
    for group in groups:
        served = serve_together(lambda gp: judge.serve(backend, gp, max_new(gp), phase), group)
        for gp, s in zip(group, served, strict=True):
            r = judge.judge(backend, gp, gate, s, phase)
            out.append(r)
            if on_prompt is not None:
                on_prompt(r)
    return out


def _speculated_together(results: list[Any]) -> bool:
    """Some row whose depth follows the serving cap proposed draft tokens at a step it shared
    with another row. Greedy rows only: a golden sampled prompt is seeded, and a seeded
    sampled row speculates whatever the cap (engine.rows.SequenceRequest.pinned_depth), so
    its speculating says nothing of the rows the cap holds at depth 0."""
    return any(r.shared_spec_steps > 0 and r.temperature == 0 for r in results)


def engine_summary(backend: Any, results: list[Any]) -> dict[str, Any]:
    """The engine the gate judged and, per phase, the rows its batches had and the depths."""
    out: dict[str, Any] = dict(backend.engine_description())
    phases: dict[str, dict[str, Any]] = {}
    for r in results:
        p = phases.setdefault(r.phase, {"prompts": 0, "batch_rows_max": 0, "depths": set(),
                                        "speculated_in_batch": 0})
        p["prompts"] += 1
        p["batch_rows_max"] = max(p["batch_rows_max"], r.batch_rows_max)
        p["depths"] |= set(r.depths)
        p["speculated_in_batch"] += int(r.shared_spec_steps > 0)
    out["phases"] = {k: {**v, "depths": sorted(v["depths"])} for k, v in phases.items()}
    return out
