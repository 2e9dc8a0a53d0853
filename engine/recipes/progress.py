"""Build progress: one rich bar per phase with elapsed time and an ETA, or log lines.

A recipe's phases are either counted (n of N batches) or wall-clock capped (a distillation
loop that stops at its time budget); the ETA column is rich's estimate from the rate so far,
so a capped phase reports the ETA of whichever limit it meets first via `tick`.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator

logger = logging.getLogger(__name__)

Tick = Callable[[int, float | None], None]


class Phases:
    """`with Phases(enabled) as phases: with phases.phase("name", total) as tick: ...`"""

    def __init__(self, enabled: bool) -> None:
        self._progress = None
        if enabled:
            from rich import progress as rp

            self._progress = rp.Progress(
                rp.TextColumn("{task.description:<24}"), rp.BarColumn(),
                rp.MofNCompleteColumn(), rp.TextColumn("{task.fields[info]}"),
                rp.TimeElapsedColumn(), rp.TextColumn("ETA"), rp.TimeRemainingColumn())

    def __enter__(self) -> Phases:
        if self._progress:
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress:
            self._progress.stop()

    @contextlib.contextmanager
    def phase(self, name: str, total: int) -> Iterator[Tick]:
        t0 = time.perf_counter()
        task = self._progress.add_task(name, total=total, info="") if self._progress else None
        every = max(1, total // 10)

        def tick(done: int, loss: float | None = None) -> None:
            info = f"loss {loss:.4f}" if loss is not None else ""
            if self._progress is not None:
                self._progress.update(task, completed=done, info=info)
            elif done % every == 0 or done == total:
                logger.info("%s: %d/%d %s (%.0f s)", name, done, total, info,
                            time.perf_counter() - t0)

        yield tick
        if self._progress is not None:
            self._progress.update(task, completed=total)
        logger.info("%s done in %.1f s", name, time.perf_counter() - t0)
