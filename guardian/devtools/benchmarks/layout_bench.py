"""`guardian bench layout`: CPU weight layouts and kernels, side by side in one process.

Loads the same target three times — transformers' row-major layout, the engine's
column-major one (engine/layout.py), both on transformers' F.linear, and the column-major
one with oneDNN-packed weights for forwards of >= 2 rows (engine/packed.py) — prefills each
with the same prompt, then times a 1-token decode forward and a γ+1-token verify forward
on each, rounds interleaved so a noisy neighbour slows all alike. Reported: median ms per
forward and the ratios that matter — column/row and packed/column for each forward size,
and the verify cost (γ+1-token / 1-token forward) of each, which is what the speedup
formula assumes to be 1.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

import typer


def run_layout_bench(draft_dir: Path, target_dir: Path, *, prompt: str, gamma: int,
                     rounds: int, repeats: int, threads: int) -> dict[str, Any]:
    import torch
    from rich.progress import Progress

    from engine import load_pair
    from engine.kv import crop_to, new_cache, with_cache

    torch.set_num_threads(threads)
    pairs = {name: load_pair(draft_dir, target_dir, device="cpu", weight_layout=layout,
                             kernels=kernels)
             for name, layout, kernels in (("row", "row", "plain"), ("column", "column", "plain"),
                                           ("packed", "column", "packed"))}
    tok = pairs["row"].tokenizer
    ids = tok(prompt, return_tensors="pt")["input_ids"]
    if ids.shape[1] < gamma + 2:
        raise ValueError(f"prompt has {ids.shape[1]} tokens; need at least {gamma + 2}")
    caches = {}
    with torch.inference_mode():
        for layout, pair in pairs.items():
            caches[layout] = new_cache()
            pair.target(input_ids=ids, **with_cache(pair.target, caches[layout]), use_cache=True)
    length = ids.shape[1]
    times: dict[tuple[str, int], list[float]] = {}

    @torch.inference_mode()
    def forward(layout: str, tokens: int) -> float:
        cache = caches[layout]
        pos = torch.arange(length, length + tokens).unsqueeze(0)
        t0 = time.perf_counter()
        for _ in range(repeats):
            pairs[layout].target(input_ids=ids[:, :tokens], **with_cache(pairs[layout].target, cache),
                                 use_cache=True, position_ids=pos,
                                 logits_to_keep=1 if tokens == 1 else 0)
            crop_to(cache, length)
        return (time.perf_counter() - t0) / repeats

    for layout in pairs:  # warm-up
        forward(layout, 1)
        forward(layout, gamma + 1)
    with Progress(transient=True) as bar:
        task = bar.add_task("bench layout", total=rounds)
        for _ in range(rounds):
            for layout in pairs:
                for tokens in (1, gamma + 1):
                    times.setdefault((layout, tokens), []).append(forward(layout, tokens))
            bar.advance(task)
    med = {key: statistics.median(v) for key, v in times.items()}
    g1 = gamma + 1
    return {
        "config": {"gamma": gamma, "rounds": rounds, "repeats": repeats, "threads": threads,
                   "context_tokens": length, "target": str(target_dir)},
        "forward_ms": {f"{layout}_{tokens}tok": round(med[layout, tokens] * 1e3, 4)
                       for layout, tokens in med},
        "column_over_row_1tok": round(med["column", 1] / med["row", 1], 3),
        f"column_over_row_{g1}tok": round(med["column", g1] / med["row", g1], 3),
        "packed_over_column_1tok": round(med["packed", 1] / med["column", 1], 3),
        f"packed_over_column_{g1}tok": round(med["packed", g1] / med["column", g1], 3),
        "verify_cost_row": round(med["row", g1] / med["row", 1], 3),
        "verify_cost_column": round(med["column", g1] / med["column", 1], 3),
        "verify_cost_packed": round(med["packed", g1] / med["packed", 1], 3),
    }


def cli(
    json_path: Path | None = typer.Option(None, "--json", help="Also write the report as JSON."),
    draft: Path | None = typer.Option(None, help="Draft model dir (default: the demo pair)."),
    target: Path | None = typer.Option(None, help="Target model dir (default: the demo pair)."),
    gamma: int = typer.Option(4, min=1, max=16, help="Verify forward size is γ+1 tokens."),
    rounds: int = typer.Option(15, min=1, help="Interleaved rounds (the median is reported)."),
    repeats: int = typer.Option(40, min=1, help="Forwards per timing sample."),
    threads: int = typer.Option(1, min=1, help="torch threads (as `bench engine`)."),
    pair: str = typer.Option(
        "demo", "--pair", help="Which pair when --draft/--target are not given: 'demo' or "
        "'smollm2' (`guardian pair build --recipe smollm2`, built on first use)."),
) -> None:
    """CPU weight layouts and kernels: 1-token and γ+1-token target forwards, one process."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from rich.console import Console
    from rich.table import Table

    from engine.demo_pair import heldout_prompts
    from guardian.devtools.benchmarks.engine_bench import PAIRS, pair_dirs

    if pair not in PAIRS:
        raise typer.BadParameter(f"{pair!r} is not one of {', '.join(PAIRS)}",
                                 param_hint="--pair")
    draft, target = pair_dirs(draft, target, pair)
    try:
        report = run_layout_bench(draft, target, prompt=heldout_prompts(1)[0], gamma=gamma,
                                  rounds=rounds, repeats=repeats, threads=threads)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=2) from None
    table = Table(title=f"guardian bench layout — target forwards, γ={gamma}, "
                        f"{report['config']['context_tokens']}-token context, {threads} thread(s)")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key, value in report["forward_ms"].items():
        table.add_row(f"ms/forward {key}", f"{value:.3f}")
    for key, value in report.items():
        if key not in ("config", "forward_ms"):
            table.add_row(key, str(value))
    Console().print(table)
    if json_path:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(report, indent=2) + "\n")
        typer.echo(f"wrote {json_path}")


__all__ = ["cli", "run_layout_bench"]
