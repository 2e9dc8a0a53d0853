"""`guardian bench step-profile`: where a continuous-batching step's time goes, by batch size.

Written after the first serving bench on a GPU (H100, bf16, the large pair, BENCHMARKS.md
"On a GPU: NVIDIA H100"): a one-row step of the continuous engine cost 16 ms there, but steps
of 2 to 16 rows cost 75-180 ms, so batching served fewer tokens/s than one request at a time
at 1-4 clients. On the CPU the same steps differ by 2x at most, and the forward launches the
same operators with and without the attention mask, so the cause is something only the device
shows. This command separates the candidates in one run:

- **forward**: the target's forward alone over a `RaggedCache` of `rows` rows, one token per
  row, without a mask (every row the same length: the model's plain causal path, as one row
  takes) and with one (a hole in one row: the padded, masked path every batch of rows of
  different lengths takes);
- **step**: the whole `ContinuousEngine.step` at `rows` rows, target-only (depth 0) and
  speculative (draft model, each depth asked), no joins or leaves while timed;
- **closed loop**: the same, with rows finishing and new ones joining at step boundaries as
  the depth cap's start-up measurement runs it (`engine.stepcost.measure`, raw): far above
  the fixed step, the cost is in joins, removals and changing shapes, not in the step;
- **profile**: `torch.profiler` over steps at the largest size, the operators by self device
  time and by self host time, and how many host<->device synchronisations, copies and kernel
  launches a step made.

Every timing waits for the device after each call (`torch.cuda.synchronize`), so it is the
step's wall time, not its launch time. Ratios within one run are the result; the profile's
tables land in `--out`.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from engine.loading import Pair

# Host-side CUDA runtime calls worth counting per step (names as torch.profiler shows them).
RUNTIME_CALLS = ("cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaMemcpyAsync",
                 "cudaLaunchKernel")


@dataclass
class Row:
    rows: int
    forward_dense_ms: float = 0.0
    forward_masked_ms: float = 0.0
    step_ms: dict[str, float] = field(default_factory=dict)  # depth -> ms per step
    tokens_per_step: dict[str, float] = field(default_factory=dict)
    # depth -> ms per step in the closed loop the depth cap's costs come from (rows joining
    # and leaving, shapes changing: engine.stepcost.measure, raw)
    closed_loop_ms: dict[str, float] = field(default_factory=dict)


def _sync(pair: Pair) -> None:
    from engine.batch import sync  # imported on use: `guardian --help` loads no torch

    sync(pair.device)


def _timed(pair: Pair, fn: Any, n: int) -> float:
    """Median milliseconds of `fn()` over `n` calls, each waited for on the device."""
    out = []
    for _ in range(n):
        _sync(pair)
        t0 = time.perf_counter()
        fn()
        _sync(pair)
        out.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(out)


def forward_ms(pair: Pair, rows: int, masked: bool, n: int, prompt: int = 32) -> float:
    """The target's one-token forward over `rows` cached rows, without or with a mask."""
    import torch

    from engine.ragged import RaggedCache
    from engine.stepcost import _ordinary_tokens

    tok = _ordinary_tokens(pair)[0]
    with torch.inference_mode():
        cache = RaggedCache.empty_rows(pair.device, rows)
        cache.forward(pair.target, [[tok] * prompt for _ in range(rows)], tok)
        if masked:
            cache.drop(0, 0, 1)  # one hole: the forward takes the padded, masked path
        feeds = [[tok] for _ in range(rows)]
        for _ in range(2):  # first-call costs (kernel selection, allocator) are not the step's
            cache.forward(pair.target, feeds, tok, last_only=True)
        return _timed(pair, lambda: cache.forward(pair.target, feeds, tok, last_only=True), n)


def _engine(pair: Pair, rows: int, depth: int, steps: int, warm: int = 2) -> Any:
    """A ContinuousEngine holding `rows` greedy rows (speculative at `depth` when > 0) with
    room for `steps` more steps each, after `warm` steps (first-call costs)."""
    import random

    from engine.continuous import ContinuousEngine, Sequence, SequenceRequest
    from engine.controllers import ConstantGamma
    from engine.sampling import SamplingParams
    from engine.stepcost import _ordinary_tokens

    rng = random.Random(rows * 31 + depth)
    ordinary = _ordinary_tokens(pair)
    engine = ContinuousEngine(pair, gamma_cap=lambda _size: depth)
    prompt = max(1, min(32, pair.max_context // 4))
    budget = max(1, min((steps + warm + 1) * (depth + 1) + 1, pair.max_context - prompt - 1))
    engine.join([Sequence(pair, SequenceRequest(
        prompt=[rng.choice(ordinary) for _ in range(prompt)], params=SamplingParams(),
        max_new_tokens=budget, speculative=depth > 0,
        controller=ConstantGamma(depth) if depth else None)) for _ in range(rows)])
    for _ in range(warm):
        engine.step()
    return engine


def step_ms(pair: Pair, rows: int, depth: int, n: int) -> tuple[float, float]:
    """(median ms per engine step, mean tokens emitted per step) at `rows` rows and `depth`
    (rows that end early, on EOS, leave: the timing notes the rows it ran with)."""
    engine = _engine(pair, rows, depth, n)
    times, tokens = [], []
    for _ in range(n):
        if engine.size == 0:
            break
        _sync(pair)
        t0 = time.perf_counter()
        engine.step()
        _sync(pair)
        times.append((time.perf_counter() - t0) * 1e3)
        tokens.append(engine.last_step.get("tokens", 0.0))
    return (statistics.median(times) if times else 0.0,
            statistics.fmean(tokens) if tokens else 0.0)


def profile(pair: Pair, rows: int, depth: int, n: int, out: Path | None) -> dict[str, Any]:
    """torch.profiler over `n` engine steps -> runtime calls per step; tables into `out`."""
    from torch.profiler import ProfilerActivity
    from torch.profiler import profile as torch_profile

    activities = [ProfilerActivity.CPU]
    cuda = pair.device.type == "cuda"
    if cuda:
        activities.append(ProfilerActivity.CUDA)
    engine = _engine(pair, rows, depth, n)
    steps = 0
    with torch_profile(activities=activities) as prof:
        for _ in range(n):
            if engine.size == 0:
                break
            engine.step()
            steps += 1
        _sync(pair)
    averages = prof.key_averages()
    calls = {name: 0 for name in RUNTIME_CALLS}
    for ev in averages:
        if ev.key in calls:
            calls[ev.key] += ev.count
    summary: dict[str, Any] = {"rows": rows, "depth": depth, "steps": steps}
    if cuda:
        summary["per_step"] = {k: round(v / max(1, steps), 1) for k, v in calls.items()}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        name = f"profile-{rows}rows-depth{depth}"
        sorts = ["self_cpu_time_total"] + (["self_cuda_time_total"] if cuda else [])
        text = "\n\n".join(f"sorted by {s}:\n" + averages.table(sort_by=s, row_limit=30)
                           for s in sorts)
        (out / f"{name}.txt").write_text(text + "\n")
        summary["tables"] = str(out / f"{name}.txt")
    return summary


def run(pair: Pair, sizes: list[int], depths: list[int], n: int, out: Path | None,
        profile_rows: int | None = None) -> dict[str, Any]:
    from rich.progress import Progress

    from engine.stepcost import measure

    table: list[Row] = []
    forward_ms(pair, sizes[0], masked=False, n=3)  # the process's first forwards are slower
    with Progress(transient=True) as bar:
        task = bar.add_task("step profile", total=len(sizes) * (2 + len(depths)))
        for rows in sizes:
            row = Row(rows)
            row.forward_dense_ms = forward_ms(pair, rows, masked=False, n=n)
            bar.advance(task)
            row.forward_masked_ms = forward_ms(pair, rows, masked=True, n=n)
            bar.advance(task)
            for depth in depths:
                ms, tokens = step_ms(pair, rows, depth, n)
                row.step_ms[str(depth)], row.tokens_per_step[str(depth)] = (
                    round(ms, 3), round(tokens, 2))
                bar.advance(task)
            row.forward_dense_ms = round(row.forward_dense_ms, 3)
            row.forward_masked_ms = round(row.forward_masked_ms, 3)
            table.append(row)
    closed = measure(pair, sizes, depths, raw=True)
    for row in table:
        row.closed_loop_ms = {str(d): round(1e3 * closed.seconds[(row.rows, d)], 3)
                              for d in depths}
    top = profile_rows or max(sizes)
    profiles = [profile(pair, top, d, n, out) for d in depths]
    import torch

    return {"device": str(pair.device), "dtype": str(pair.dtype), "steps_timed": n,
            "torch_threads": torch.get_num_threads(),
            "rows": [asdict(r) for r in table], "profiles": profiles}


def _print(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    depths = sorted({d for r in result["rows"] for d in r["step_ms"]}, key=int)
    t = Table(title=f"continuous step, {result['dtype']} on {result['device']} "
                    f"(median of {result['steps_timed']}, ms)")
    for col in ("rows", "forward dense", "forward masked",
                *(f"step depth {d} (tokens)" for d in depths),
                *(f"closed loop depth {d}" for d in depths)):
        t.add_column(col, justify="right")
    for r in result["rows"]:
        t.add_row(str(r["rows"]), f"{r['forward_dense_ms']:.2f}", f"{r['forward_masked_ms']:.2f}",
                  *(f"{r['step_ms'][d]:.2f} ({r['tokens_per_step'][d]:.1f})" for d in depths),
                  *(f"{r['closed_loop_ms'][d]:.2f}" for d in depths))
    con = Console()
    con.print(t)
    for p in result["profiles"]:
        con.print(f"profile, {p['rows']} rows, depth {p['depth']}, {p['steps']} steps"
                  + (f": per step {p['per_step']}" if "per_step" in p else "")
                  + (f" — tables in {p['tables']}" if "tables" in p else ""))


def _ints(text: str, what: str, minimum: int) -> list[int]:
    try:
        values = sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        values = []
    if not values or values[0] < minimum:
        raise typer.BadParameter(f"{what} takes comma-separated integers >= {minimum}, "
                                 f"e.g. {'1,2,8,16' if minimum else '0,4'}")
    return values


def cli(
    draft: Path | None = typer.Option(None, help="Draft model dir (default: the demo pair)."),
    target: Path | None = typer.Option(None, help="Target model dir (default: the demo pair)."),
    device: str | None = typer.Option(None, help="cpu / cuda (default: the engine's choice)."),
    sizes: str = typer.Option("1,2,8,16", help="Comma-separated batch sizes (rows)."),
    depths: str = typer.Option("0,4", help="Comma-separated speculation depths (0: "
                               "target-only)."),
    steps: int = typer.Option(20, min=1, max=1000, help="Timed calls per cell."),
    profile_rows: int | None = typer.Option(None, min=1, help="Rows of the profiled steps "
                                            "(default: the largest size)."),
    threads: int | None = typer.Option(None, min=1, help="torch CPU threads (default: chosen "
                                       "by timing, as `guardian serve` does)."),
    out: Path | None = typer.Option(None, help="Directory for the profiler's tables."),
    json_path: Path | None = typer.Option(None, "--json", help="Also write the report as JSON."),
) -> None:
    """Where a continuous-batching step's time goes by batch size: the target forward without
    and with the attention mask, the whole step per depth, and a profile."""
    size_list, depth_list = _ints(sizes, "--sizes", 1), _ints(depths, "--depths", 0)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from engine import load_pair
    from engine.threads import settle
    from guardian.benchmarks.engine_bench import pair_dirs

    draft, target = pair_dirs(draft, target)
    pair = load_pair(draft, target, device=device)
    settle(pair, threads)
    result = run(pair, size_list, depth_list, steps, out, profile_rows)
    _print(result)
    if json_path:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(result, indent=2) + "\n")
        typer.echo(f"wrote {json_path}")


__all__ = ["cli", "forward_ms", "profile", "run", "step_ms"]
