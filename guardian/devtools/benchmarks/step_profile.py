"""`guardian bench step-profile`: where a continuous-batching step's time goes, by batch size.

Written after the first serving bench on a GPU (H100, bf16, the large pair, BENCHMARKS.md
in git history, "On a GPU: NVIDIA H100"): a one-row step of the continuous engine cost 16 ms there, but steps
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
- **profile**: `torch.profiler` over steps at the smallest and the largest size (or the
  sizes asked), the operators by self device time and by self host time, and every CUDA
  runtime call a step made (synchronisations, copies, launches, allocations) with its host
  time;
- **python**: `cProfile` over steps at the first size above one row (the one-row -> two-row
  jump is the question): the Python functions by own time, waits on the device included
  (they show as the call that waited: `item`, `tolist`, `synchronize`).

Every timing waits for the device after each call (`torch.cuda.synchronize`), so it is the
step's wall time, not its launch time. Ratios within one run are the result; the profile's
tables land in `--out`. The phases run cheapest and most telling first, and the JSON is
rewritten after each one, so a run cut off by a lease's time limit keeps what it measured.
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

# Host-side CUDA runtime calls always reported per step (names as torch.profiler shows them);
# any other `cuda*` runtime call a step makes (allocations, event syncs) is reported too.
RUNTIME_CALLS = ("cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaMemcpyAsync",
                 "cudaLaunchKernel")


@dataclass
class Row:
    rows: int
    forward_dense_ms: float = 0.0
    forward_masked_ms: float = 0.0
    # the masked forward with the model's attention switched to eager (None: not switchable):
    # separates a slow masked SDPA kernel from the mask's construction
    forward_masked_eager_ms: float | None = None
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


def forward_eager_ms(pair: Pair, rows: int, n: int) -> float | None:
    """`forward_ms(masked=True)` with the target's attention switched to eager for the call
    (None where the model cannot switch)."""
    model = pair.target
    before = getattr(model.config, "_attn_implementation", None)
    if before is None or not hasattr(model, "set_attn_implementation"):
        return None
    try:
        model.set_attn_implementation("eager")
    except Exception:  # an architecture without it: the cell stays empty
        return None
    try:
        return forward_ms(pair, rows, masked=True, n=n)
    finally:
        model.set_attn_implementation(before)


def _engine(pair: Pair, rows: int, depth: int, steps: int, warm: int = 2,
            prompt: int | None = None) -> Any:
    """A ContinuousEngine holding `rows` greedy rows (speculative at `depth` when > 0) with
    room for `steps` more steps each, after `warm` steps (first-call costs). `prompt`: each
    row's prompt length (default 32, at most a quarter of the context)."""
    import random

    from engine.continuous import ContinuousEngine, Sequence, SequenceRequest
    from engine.controllers import ConstantGamma
    from engine.sampling import SamplingParams
    from engine.stepcost import _ordinary_tokens

    rng = random.Random(rows * 31 + depth)
    ordinary = _ordinary_tokens(pair)
    engine = ContinuousEngine(pair, gamma_cap=lambda _size: depth)
    prompt = prompt or max(1, min(32, pair.max_context // 4))
    budget = max(1, min((steps + warm + 1) * (depth + 1) + 1, pair.max_context - prompt - 1))
    engine.join([Sequence(pair, SequenceRequest(
        prompt=[rng.choice(ordinary) for _ in range(prompt)], params=SamplingParams(),
        max_new_tokens=budget, speculative=depth > 0,
        controller=ConstantGamma(depth) if depth else None)) for _ in range(rows)])
    for _ in range(warm):
        engine.step()
    return engine


def step_ms(pair: Pair, rows: int, depth: int, n: int,
            prompt: int | None = None) -> tuple[float, float]:
    """(median ms per engine step, mean tokens emitted per step) at `rows` rows and `depth`
    (rows that end early, on EOS, leave: the timing notes the rows it ran with)."""
    engine = _engine(pair, rows, depth, n, prompt=prompt)
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


def cache_layers(pair: Pair, sizes: list[int], depths: list[int], n: int,
                 prompt: int = 384, rounds: int = 3) -> list[dict[str, Any]]:
    """The engine step with the ragged cache's layers grown in place (engine.ragged.GrowLayer)
    against transformers' DynamicLayer (a concatenated copy per forward), at `prompt`-column
    rows, the two alternating round by round -> per (rows, depth): median ms of each, ratio."""
    from engine import ragged

    out = []
    before = ragged.GROW
    try:
        for rows in sizes:
            for depth in depths:
                ms: dict[str, list[float]] = {"grow": [], "concat": []}
                for _ in range(rounds):
                    for name, grow in (("grow", True), ("concat", False)):
                        ragged.GROW = grow
                        ms[name].append(step_ms(pair, rows, depth, n, prompt=prompt)[0])
                grow_ms, concat_ms = (statistics.median(ms[k]) for k in ("grow", "concat"))
                out.append({"rows": rows, "depth": depth, "prompt": prompt,
                            "grow_ms": round(grow_ms, 3), "concat_ms": round(concat_ms, 3),
                            "grow_vs_concat": round(grow_ms / concat_ms, 3)})
    finally:
        ragged.GROW = before
    return out


def _steps(engine: Any, n: int) -> int:
    """Up to `n` engine steps, fewer when every row has finished -> the steps taken."""
    steps = 0
    while steps < n and engine.size:
        engine.step()
        steps += 1
    return steps


def profile(pair: Pair, rows: int, depth: int, n: int, out: Path | None) -> dict[str, Any]:
    """torch.profiler over `n` engine steps -> runtime calls per step; tables into `out`."""
    from torch.profiler import ProfilerActivity
    from torch.profiler import profile as torch_profile

    activities = [ProfilerActivity.CPU]
    cuda = pair.device.type == "cuda"
    if cuda:
        activities.append(ProfilerActivity.CUDA)
    engine = _engine(pair, rows, depth, n)
    _sync(pair)
    t0 = time.perf_counter()
    with torch_profile(activities=activities) as prof:
        steps = _steps(engine, n)
        _sync(pair)
    wall = time.perf_counter() - t0
    averages = prof.key_averages()
    per = max(1, steps)
    summary: dict[str, Any] = {"rows": rows, "depth": depth, "steps": steps,
                               "ms_per_step_profiled": round(1e3 * wall / per, 3)}
    aten = [ev for ev in averages if ev.key.startswith("aten::")]
    summary["aten_calls_per_step"] = round(sum(ev.count for ev in aten) / per, 1)
    if cuda:
        runtime = {name: (0, 0.0) for name in RUNTIME_CALLS}
        for ev in averages:
            if ev.key.startswith("cuda") and not ev.key.startswith("cudaGetDevice"):
                runtime[ev.key] = (ev.count, ev.cpu_time_total / 1e3)  # us -> ms
        summary["per_step"] = {k: round(c / per, 1) for k, (c, _) in runtime.items()}
        summary["runtime_ms_per_step"] = {k: round(ms / per, 3) for k, (_, ms) in
                                          runtime.items() if ms}
        device_us = sum(getattr(ev, "self_device_time_total", 0.0) or
                        getattr(ev, "self_cuda_time_total", 0.0) for ev in averages)
        summary["device_busy_ms_per_step"] = round(device_us / 1e3 / per, 3)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        name = f"profile-{rows}rows-depth{depth}"
        sorts = ["self_cpu_time_total", "cpu_time_total"] + (
            ["self_cuda_time_total"] if cuda else [])
        text = "\n\n".join(f"sorted by {s}:\n" + averages.table(sort_by=s, row_limit=40)
                           for s in sorts)
        (out / f"{name}.txt").write_text(text + "\n")
        summary["tables"] = str(out / f"{name}.txt")
    return summary


def python_profile(pair: Pair, rows: int, depth: int, n: int,
                   out: Path | None) -> dict[str, Any]:
    """cProfile over `n` engine steps: the Python functions by own time per step (a wait on
    the device is the own time of the call that waited)."""
    import cProfile
    import io
    import pstats

    engine = _engine(pair, rows, depth, n)
    prof = cProfile.Profile()
    _sync(pair)
    prof.enable()
    steps = _steps(engine, n)
    _sync(pair)
    prof.disable()
    stats = pstats.Stats(prof)
    per = max(1, steps)
    # (file, line, function) -> (primitive calls, calls, own s, cumulative s, callers)
    entries = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])  # type: ignore[attr-defined]
    top = [{"function": f"{Path(f).name}:{line}({fn})", "calls_per_step": round(v[1] / per, 1),
            "own_ms_per_step": round(1e3 * v[2] / per, 3),
            "cumulative_ms_per_step": round(1e3 * v[3] / per, 3)}
           for (f, line, fn), v in entries[:15]]
    summary: dict[str, Any] = {"rows": rows, "depth": depth, "steps": steps, "top_own": top}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        buf = io.StringIO()
        ps = pstats.Stats(prof, stream=buf)
        ps.sort_stats("tottime").print_stats(40)
        ps.sort_stats("cumulative").print_stats(40)
        path = out / f"python-{rows}rows-depth{depth}.txt"
        path.write_text(buf.getvalue())
        summary["tables"] = str(path)
    return summary


def run(pair: Pair, sizes: list[int], depths: list[int], n: int, out: Path | None,
        profile_rows: list[int] | None = None, closed_loop: bool = True,
        checkpoint: Any = None) -> dict[str, Any]:
    """Every phase in turn (rows table, device profiles, Python profile, closed loop);
    `checkpoint(result)` after each, with what is measured so far."""
    import torch
    from rich.console import Console
    from rich.progress import Progress

    from engine.stepcost import measure

    con = Console()
    result: dict[str, Any] = {"device": str(pair.device), "dtype": str(pair.dtype),
                              "steps_timed": n, "torch_threads": torch.get_num_threads(),
                              "cudnn_attention": pair.device.type == "cuda"
                              and torch.backends.cuda.cudnn_sdp_enabled(),
                              "rows": [], "profiles": [], "python": [], "complete": False}

    def done_phase() -> None:
        if checkpoint is not None:
            checkpoint(result)

    table: list[Row] = []
    forward_ms(pair, sizes[0], masked=False, n=3)  # the process's first forwards are slower
    with Progress(transient=True, console=con) as bar:
        task = bar.add_task("step profile", total=len(sizes) * (2 + len(depths)))
        for rows in sizes:
            row = Row(rows)
            row.forward_dense_ms = round(forward_ms(pair, rows, masked=False, n=n), 3)
            bar.advance(task)
            row.forward_masked_ms = round(forward_ms(pair, rows, masked=True, n=n), 3)
            eager = forward_eager_ms(pair, rows, n)
            row.forward_masked_eager_ms = None if eager is None else round(eager, 3)
            bar.advance(task)
            for depth in depths:
                ms, tokens = step_ms(pair, rows, depth, n)
                row.step_ms[str(depth)], row.tokens_per_step[str(depth)] = (
                    round(ms, 3), round(tokens, 2))
                bar.advance(task)
            table.append(row)
            con.print(f"{rows} rows: forward dense {row.forward_dense_ms:.2f} ms, masked "
                      f"{row.forward_masked_ms:.2f} ms (eager attention "
                      f"{row.forward_masked_eager_ms} ms); step ms by depth {row.step_ms}")
            result["rows"] = [asdict(r) for r in table]
            done_phase()
    for rows in profile_rows or sorted({min(sizes), max(sizes)}):
        for d in depths:
            p = profile(pair, rows, d, n, out)
            result["profiles"].append(p)
            con.print(f"profiled {rows} rows depth {d}: {p}")
            done_phase()
    above_one = [r for r in sizes if r > 1]
    if above_one:
        p = python_profile(pair, above_one[0], depths[0], n, out)
        result["python"].append(p)
        con.print(f"python profile, {above_one[0]} rows depth {depths[0]}: " +
                  "; ".join(f"{t['function']} {t['own_ms_per_step']} ms"
                            for t in p["top_own"][:8]))
        done_phase()
    for row in table:
        row.closed_loop_ms = {}
    if closed_loop:
        closed = measure(pair, sizes, depths, raw=True)
        for row in table:
            row.closed_loop_ms = {str(d): round(1e3 * closed.seconds[(row.rows, d)], 3)
                                  for d in depths}
    result["rows"] = [asdict(r) for r in table]
    result["complete"] = True
    done_phase()
    return result


def _print(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    depths = sorted({d for r in result["rows"] for d in r["step_ms"]}, key=int)
    closed = any(r["closed_loop_ms"] for r in result["rows"])
    t = Table(title=f"continuous step, {result['dtype']} on {result['device']}"
                    f"{', cuDNN attention' if result.get('cudnn_attention') else ''} "
                    f"(median of {result['steps_timed']}, ms)")
    for col in ("rows", "forward dense", "forward masked", "masked, eager attention",
                *(f"step depth {d} (tokens)" for d in depths),
                *(f"closed loop depth {d}" for d in depths if closed)):
        t.add_column(col, justify="right")
    for r in result["rows"]:
        eager = r.get("forward_masked_eager_ms")
        t.add_row(str(r["rows"]), f"{r['forward_dense_ms']:.2f}", f"{r['forward_masked_ms']:.2f}",
                  "-" if eager is None else f"{eager:.2f}",
                  *(f"{r['step_ms'][d]:.2f} ({r['tokens_per_step'][d]:.1f})" for d in depths),
                  *(f"{r['closed_loop_ms'][d]:.2f}" for d in depths if closed))
    con = Console()
    con.print(t)
    for p in result["profiles"]:
        con.print(f"profile, {p['rows']} rows, depth {p['depth']}, {p['steps']} steps"
                  + f", {p['ms_per_step_profiled']} ms and {p['aten_calls_per_step']} aten "
                  f"calls per step"
                  + (f", device busy {p['device_busy_ms_per_step']} ms" if
                     "device_busy_ms_per_step" in p else "")
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
    profile_rows: str | None = typer.Option(None, help="Comma-separated rows of the profiled "
                                            "steps (default: the smallest and the largest "
                                            "size)."),
    closed_loop: bool = typer.Option(True, help="Also time the closed loop (rows joining and "
                                     "leaving; the slowest phase, run last)."),
    threads: int | None = typer.Option(None, min=1, help="torch CPU threads (default: chosen "
                                       "by timing, as `guardian serve` does)."),
    cudnn_attention: bool = typer.Option(False, help="Let SDPA use cuDNN attention on CUDA, "
                                         "as torch would (the engine turns it off: "
                                         "engine.attention); for a side-by-side run."),
    out: Path | None = typer.Option(None, help="Directory for the profiler's tables."),
    cache_layers_only: bool = typer.Option(
        False, "--cache-layers", help="Only time the step with the ragged cache's layers grown "
        "in place against concatenated (engine.ragged.GrowLayer), 3 alternating rounds of "
        "384-column rows per cell."),
    json_path: Path | None = typer.Option(None, "--json", help="Also write the report as JSON."),
) -> None:
    """Where a continuous-batching step's time goes by batch size: the target forward without
    and with the attention mask, the whole step per depth, and a profile."""
    size_list, depth_list = _ints(sizes, "--sizes", 1), _ints(depths, "--depths", 0)
    profile_list = _ints(profile_rows, "--profile-rows", 1) if profile_rows else None
    from guardian.cli.options import device_option

    device = device_option(device)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from engine import load_pair
    from engine.threads import settle
    from guardian.devtools.benchmarks.engine_bench import pair_dirs

    draft, target = pair_dirs(draft, target)
    pair = load_pair(draft, target, device=device, kernels="plain")
    if cudnn_attention and pair.device.type == "cuda":
        import torch

        torch.backends.cuda.enable_cudnn_sdp(True)
    # The settings' linear kernels, timed ("auto") under the thread count settled: as served.
    from guardian.settings import get_settings

    settle(pair, threads, kernels=get_settings().kernels)

    def checkpoint(result: dict[str, Any]) -> None:
        if json_path:
            json_path.parent.mkdir(parents=True, exist_ok=True)
            tmp = json_path.with_name(json_path.name + ".tmp")
            tmp.write_text(json.dumps(result, indent=2) + "\n")
            tmp.replace(json_path)

    if cache_layers_only:
        from rich.console import Console

        result: dict[str, Any] = {"device": str(pair.device), "dtype": str(pair.dtype),
                                  "steps_timed": steps,
                                  "cache_layers": cache_layers(pair, size_list, depth_list, steps)}
        checkpoint(result)
        for cell in result["cache_layers"]:
            Console().print(f"{cell['rows']} rows, depth {cell['depth']}: grown in place "
                            f"{cell['grow_ms']:.2f} ms, concatenated {cell['concat_ms']:.2f} "
                            f"ms: {cell['grow_vs_concat']:.3f}")
        if json_path:
            typer.echo(f"wrote {json_path}")
        return
    result = run(pair, size_list, depth_list, steps, out, profile_list, closed_loop,
                 checkpoint)
    _print(result)
    if json_path:
        typer.echo(f"wrote {json_path}")


__all__ = ["cache_layers", "cli", "forward_ms", "profile", "python_profile", "run", "step_ms"]
