"""`guardian bench decode`: the engine's cache modes at batch 1 against transformers' own.

Six methods decode the same prompts greedily, interleaved prompt by prompt in one process
after a warm-up (so a noisy neighbour slows all alike; the output is ratios measured side by
side):

- `hf_dynamic`: transformers' `generate`, its default DynamicCache, eager;
- `hf_static`: `generate(cache_implementation="static")` — on CUDA transformers then compiles
  the decoding step itself (torch.compile, mode "reduce-overhead": CUDA graphs), the static
  cache + compile recipe transformers documents; on a CPU it runs eagerly;
- `target_dynamic`, `target_static`: the engine's target-only decoding over a DynamicCache, and
  over engine.static's cache (with CUDA graphs on CUDA, eager forwards elsewhere);
- `speculative_dynamic`, `speculative_static`: the engine's speculative decoding with the
  pair's draft at a constant γ, in the same two modes.

Reported: tokens/s of each; the ratios the issue asks for (`target_static` over `hf_static`,
`speculative_static` over `target_static`, each static mode over its dynamic one); the exact
match of every method's tokens with `target_dynamic`'s; the warm-up's seconds (capture and
compile); and, on CUDA, the fraction of the device's memory bandwidth target-only decoding
reaches: the bytes a one-token forward must read (every parameter once, the float32 head's
copy counted for what it is) times tokens/s, over `--peak-gbps` (default: the H200's 4,800
GB/s; an H100 SXM's is 3,350).
"""

from __future__ import annotations

import copy
import json
import logging
import os
import platform
import time
from pathlib import Path
from typing import Any

import typer

logger = logging.getLogger(__name__)

RATIOS = ("target_static_vs_hf_static", "speculative_static_vs_target_static",
          "target_static_vs_dynamic", "speculative_static_vs_dynamic", "hf_static_vs_hf_dynamic")
METHODS = ("hf_dynamic", "hf_static", "target_dynamic", "target_static",
           "speculative_dynamic", "speculative_static")


def weight_bytes(model: Any) -> int:
    """Bytes a one-token forward reads: each parameter and buffer once (tied ones once),
    less the input embedding, of which it reads one row — unless the output projection
    multiplies by that same matrix."""
    embedding = model.get_input_embeddings().weight
    head = model.get_output_embeddings()
    head_weight = getattr(head, "weight", None)
    tied = head_weight is not None and head_weight.data_ptr() == embedding.data_ptr()
    seen: set[int] = set() if tied else {embedding.data_ptr()}
    total = 0
    for tensor in [*model.parameters(), *model.buffers()]:
        if tensor.data_ptr() in seen or not tensor.is_floating_point():
            continue
        seen.add(tensor.data_ptr())
        total += tensor.numel() * tensor.element_size()
    return total


def step_costs(model: Any, *, rows: list[int], tokens: list[int], context: int = 128,
               steps: int = 16) -> list[dict[str, Any]]:
    """Median ms of one decoding step of `model` per cache mode, by rows and tokens fed: a
    forward of `tokens` columns at `context` over a prefilled cache, then the rollback to
    `context` (what a rejected verify costs), the modes interleaved step by step."""
    import statistics

    import torch

    from engine import static
    from engine.batch import sync
    from engine.kv import crop_to

    device = next(model.parameters()).device
    modes = ["dynamic", "static"] + (["graphs"] if device.type == "cuda" else [])
    out = []
    with torch.inference_mode():
        for r in rows:
            width = context + max(tokens)
            ids = torch.randint(0, model.config.vocab_size, (r, width), device=device)
            caches = {m: static.new_cache(model, r, width, m) for m in modes}
            for cache in caches.values():
                static.unpadded_forward(model, cache, ids[:, :context], 0, True)
            for t in tokens:
                feed = ids[:, context:context + t]
                times: dict[str, list[float]] = {m: [] for m in modes}
                for _ in range(steps + 2):
                    for mode, cache in caches.items():
                        sync(device)
                        t0 = time.perf_counter()
                        static.unpadded_forward(model, cache, feed, context, t == 1)
                        crop_to(cache, context)  # a no-op for a static cache
                        sync(device)
                        times[mode].append((time.perf_counter() - t0) * 1e3)
                ms = {m: round(statistics.median(v[2:]), 4) for m, v in times.items()}
                out.append({"rows": r, "tokens": t, "ms": ms,
                            "static_vs_dynamic": round(ms["static"] / ms["dynamic"], 3),
                            **({"graphs_vs_dynamic": round(ms["graphs"] / ms["dynamic"], 3)}
                               if "graphs" in ms else {})})
    return out


def run_decode_bench(draft_dir: Path, target_dir: Path, *, prompts: list[str],
                     max_new_tokens: int, gamma: int, device: str | None = None,
                     proposer: str = "draft_model", workload: str = "heldout",
                     methods: tuple[str, ...] = METHODS, peak_gbps: float = 4800.0,
                     step_rows: list[int] | None = None,
                     progress: bool = True) -> dict[str, Any]:
    """Run the side-by-side benchmark and return the JSON-ready report."""
    import torch
    from rich.progress import Progress

    from engine import generate, load_pair
    from engine.batch import sync
    from engine.static import capture_stats

    pair = load_pair(draft_dir, target_dir, device=device)
    static_mode = "graphs" if pair.device.type == "cuda" else "static"
    tok = pair.tokenizer
    eos = sorted(pair.eos_token_ids)
    pad = tok.pad_token_id if tok.pad_token_id is not None else eos[0]
    # transformers compiles the model it generates with: a copy, so the engine's rows run
    # the same weights uncompiled.
    hf_static_model = copy.deepcopy(pair.target) if "hf_static" in methods else None

    def ours(prompt: str, method: str) -> list[int]:
        pair.decode = static_mode if method.endswith("static") else "dynamic"
        res = generate(pair, prompt, speculative=method.startswith("speculative"),
                       max_new_tokens=max_new_tokens, temperature=0.0, gamma=gamma,
                       gamma_strategy="constant", proposer=proposer, prompt_lookup_max=4)
        return res.token_ids

    def hf(prompt: str, method: str) -> list[int]:
        model = hf_static_model if method == "hf_static" else pair.target
        extra = {"cache_implementation": "static"} if method == "hf_static" else {}
        enc = tok(prompt, return_tensors="pt").to(pair.device)
        with torch.inference_mode():
            out = model.generate(**enc, do_sample=False, max_new_tokens=max_new_tokens,
                                 eos_token_id=eos, pad_token_id=pad, **extra)
        return out[0, enc["input_ids"].shape[1]:].tolist()

    def run(prompt: str, method: str) -> tuple[list[int], float]:
        sync(pair.device)
        t0 = time.perf_counter()
        ids = hf(prompt, method) if method.startswith("hf") else ours(prompt, method)
        sync(pair.device)
        return ids, time.perf_counter() - t0

    # Warm-up, longest prompt first: transformers sizes its static cache by the longest
    # request so far (a longer one later would recompile), and the engine's graphs are
    # captured per cache length bucket.
    order = sorted(prompts, key=len, reverse=True)
    warm: dict[str, float] = {}
    for method in methods:
        t0 = time.perf_counter()
        for prompt in order[:2]:
            run(prompt, method)
        warm[method] = round(time.perf_counter() - t0, 2)

    seconds = dict.fromkeys(methods, 0.0)
    tokens = dict.fromkeys(methods, 0)
    outputs: dict[str, list[list[int]]] = {m: [] for m in methods}
    with Progress(disable=not progress, transient=True) as bar:
        task = bar.add_task("bench decode", total=len(prompts) * len(methods))
        for prompt in prompts:
            for method in methods:
                ids, dt = run(prompt, method)
                seconds[method] += dt
                tokens[method] += len(ids)
                outputs[method].append(ids)
                bar.advance(task)
    pair.decode = "dynamic"
    tps = {m: tokens[m] / seconds[m] if seconds[m] else 0.0 for m in methods}

    def ratio(a: str, b: str) -> float | None:
        return round(tps[a] / tps[b], 3) if tps.get(a) and tps.get(b) else None

    n = len(prompts)
    match = {m: round(sum(a == b for a, b in zip(outputs[m], outputs["target_dynamic"],
                                                  strict=True)) / n, 4) for m in methods}
    report: dict[str, Any] = {
        "machine": {"platform": platform.platform(), "device": str(pair.device),
                    "device_name": (torch.cuda.get_device_name(pair.device)
                                    if pair.device.type == "cuda"
                                    else platform.processor() or platform.machine()),
                    "dtype": str(pair.dtype), "torch": torch.__version__,
                    "transformers": _version("transformers"),
                    "torch_threads": torch.get_num_threads()},
        "pair": {"pair_hash": pair.identity.pair_hash, "draft": str(draft_dir),
                 "target": str(target_dir)},
        "config": {"prompts": n, "max_new_tokens": max_new_tokens, "gamma": gamma,
                   "gamma_strategy": "constant", "temperature": 0.0, "batch": 1,
                   "static_mode": static_mode, "proposer": proposer, "workload": workload,
                   "methods": list(methods)},
        "tokens_per_s": {m: round(v, 2) for m, v in tps.items()},
        "target_static_vs_hf_static": ratio("target_static", "hf_static"),
        "speculative_static_vs_target_static": ratio("speculative_static", "target_static"),
        "target_static_vs_dynamic": ratio("target_static", "target_dynamic"),
        "speculative_static_vs_dynamic": ratio("speculative_static", "speculative_dynamic"),
        "hf_static_vs_hf_dynamic": ratio("hf_static", "hf_dynamic"),
        "exact_match_vs_target_dynamic": match,
        "warmup_s": warm,
        "graph_captures": capture_stats(),
    }
    if step_rows:
        report["step_ms"] = step_costs(pair.target, rows=step_rows, tokens=[1, gamma + 1])
    if pair.device.type == "cuda":
        per_token = weight_bytes(pair.target)
        report["bandwidth"] = {
            "bytes_per_forward": per_token, "peak_gbps": peak_gbps,
            "fraction": {m: round(per_token * tps[m] / (peak_gbps * 1e9), 4)
                         for m in ("hf_dynamic", "hf_static", "target_dynamic",
                                   "target_static") if m in tps}}
    return report


def _version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "unknown"


def _print_table(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"decode at batch 1 on {report['machine']['device_name']} "
                        f"({report['machine']['dtype']})")
    for col in ("method", "tokens/s", "exact match", "warm-up s"):
        table.add_column(col)
    for m in report["config"]["methods"]:
        table.add_row(m, f"{report['tokens_per_s'][m]:.1f}",
                      f"{report['exact_match_vs_target_dynamic'][m]:.2f}",
                      f"{report['warmup_s'][m]:.1f}")
    console = Console()
    console.print(table)
    console.print(", ".join(f"{key}: {report[key]}×" for key in RATIOS if report[key] is not None))
    if report.get("step_ms"):
        steps = Table(title="one step: a forward at column 128, then the rollback (ms)")
        modes = list(report["step_ms"][0]["ms"])
        for col in ("rows", "tokens", *modes, "static / dynamic"):
            steps.add_column(col)
        for row in report["step_ms"]:
            steps.add_row(str(row["rows"]), str(row["tokens"]),
                          *(f"{row['ms'][m]:.3f}" for m in modes), f"{row['static_vs_dynamic']:.3f}")
        console.print(steps)
    if "bandwidth" in report:
        frac = report["bandwidth"]["fraction"]
        console.print("fraction of memory bandwidth: " + ", ".join(
            f"{m} {v:.1%}" for m, v in frac.items()))


def cli(
    json_path: Path | None = typer.Option(None, "--json", help="Also write the report as JSON."),
    draft: Path | None = typer.Option(None, help="Draft model dir (default: --pair's)."),
    target: Path | None = typer.Option(None, help="Target model dir (default: --pair's)."),
    pair: str = typer.Option("demo", "--pair", help="Which pair when --draft/--target are not "
                             "given: 'demo' or 'smollm2' (built on first use)."),
    prompts: int = typer.Option(8, min=1, help="Held-out prompts of the pair to decode."),
    max_new_tokens: int = typer.Option(128, min=1, help="Tokens generated per prompt."),
    gamma: int = typer.Option(4, min=1, max=16, help="Constant speculation depth γ."),
    proposer: str = typer.Option("draft_model", help="What proposes: 'draft_model' (the "
                                 "pair's draft) or 'ngram' (prompt lookup)."),
    workload: str = typer.Option("heldout", help="'heldout' (the pair's held-out prompts) or "
                                 "'code-edit' (prompts holding the function being rewritten)."),
    methods: str = typer.Option(",".join(METHODS), help="Comma-separated subset of "
                                f"{', '.join(METHODS)} (target_dynamic is always run)."),
    step_rows: str = typer.Option("", help="Also time one decoding step per cache mode at these "
                                  "row counts (comma-separated, e.g. 1,4,16): a 1-token and a "
                                  "γ+1-token forward at column 128, then the rollback."),
    device: str | None = typer.Option(None, help="torch device (default: CUDA when there is "
                                      "one, else the CPU)."),
    peak_gbps: float = typer.Option(4800.0, min=1.0, help="The device's memory bandwidth in "
                                    "GB/s, for the fraction reached (H200 4800, H100 SXM 3350)."),
) -> None:
    """Benchmark the engine's static cache and CUDA graphs against transformers' static cache
    + compile at batch 1 (one process, side by side)."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from guardian.devtools.benchmarks.engine_bench import PAIRS, WORKLOADS, _workload

    chosen = tuple(m for m in METHODS if m in {x.strip() for x in methods.split(",")}
                   or m == "target_dynamic")
    unknown = {x.strip() for x in methods.split(",")} - set(METHODS)
    for value, choices, hint in ((pair, PAIRS, "--pair"), (workload, WORKLOADS, "--workload"),
                                 (proposer, ("draft_model", "ngram"), "--proposer"),
                                 (next(iter(unknown), METHODS[0]), METHODS, "--methods")):
        if value not in choices:
            raise typer.BadParameter(f"{value!r} is not one of {', '.join(choices)}",
                                     param_hint=hint)
    try:
        rows = [int(x) for x in step_rows.split(",") if x.strip()]
    except ValueError:
        rows = [0]
    if any(r < 1 or r > 256 for r in rows):
        raise typer.BadParameter(f"{step_rows!r} is not a list of row counts from 1 to 256",
                                 param_hint="--step-rows")
    if draft is None or target is None:
        from guardian.devtools.benchmarks.engine_bench import pair_dirs

        draft, target = pair_dirs(draft, target, pair)
    else:
        for p in (draft, target):
            if not p.is_dir():
                typer.echo(f"error: model directory not found: {p}", err=True)
                raise typer.Exit(code=2)
    report = run_decode_bench(draft, target, prompts=_workload(workload, prompts, target, pair),
                              max_new_tokens=max_new_tokens, gamma=gamma, device=device,
                              proposer=proposer, workload=workload, methods=chosen,
                              peak_gbps=peak_gbps, step_rows=rows or None)
    _print_table(report)
    if json_path:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(report, indent=2) + "\n")
        typer.echo(f"wrote {json_path}")


__all__ = ["METHODS", "cli", "run_decode_bench", "weight_bytes"]

if __name__ == "__main__":  # a GPU machine without the sidecar's packages: python -m ...
    typer.run(cli)
