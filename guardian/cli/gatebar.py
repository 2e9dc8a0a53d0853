"""The gate's progress bar, shared by `guardian gate` and `guardian serve`'s first-run gate:
one step per judged run (each golden prompt alone, then once per batch size:
guardian.governance.gatebatch.planned_runs), the time left, the last prompt's verdict."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


def gate_bar(console: Console) -> Progress:
    return Progress(TextColumn("[bold]gate"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TimeRemainingColumn(),
                    TextColumn("{task.description}"), console=console)


def advance(progress: Progress, task: TaskID, result: Any) -> None:
    """One judged run done (`result`: a PromptResult). A batch phase re-judged at a pinned
    depth is not in the planned total: it raises the total rather than overflow it."""
    t = next(t for t in progress.tasks if t.id == task)
    if t.total is not None and t.completed >= t.total:
        progress.update(task, total=t.total + 1)
    progress.update(task, advance=1, description=f"{result.id}: {result.verdict}")
