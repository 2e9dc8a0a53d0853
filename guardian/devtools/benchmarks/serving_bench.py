"""`guardian bench serving`: the sidecar at load, one request at a time vs continuously
batched, target-only vs speculative, measured side by side in one run.

Two real sidecars (`guardian serve`, second processes, loopback, the demo pair or the
configured one): one with `GUARDIAN_BATCHING=off` (each request decodes alone on the one
engine thread: the core before continuous batching), one with `GUARDIAN_BATCHING=continuous`.
Each has two routes over the same pair, `target` (target_only) and `spec` (speculative,
draft model, the depth cap per batch size of the server's policy, GUARDIAN_GAMMA_POLICY),
picked by the X-Guardian-Route header.

For each concurrency level, route and server, closed-loop clients send streamed greedy
completions (bounded: `--requests-per-client` each, at least `--min-requests` per cell).
Reported per cell: throughput (requests/s and output tokens/s), latency p50/p99, TTFT
p50/p99 (first content chunk), time per output token p50, goodput (output tokens/s of the
requests that met the SLO: latency <= --slo-latency and TTFT <= --slo-ttft), 429s (with
Retry-After), errors, and audit completeness (every answered request's audit record, read
back through /admin/audit). Plus, per server pair, how many batched answers differ from the
same prompt answered one at a time (greedy output is the same unless a larger batch's
reduction order flips a near tie), the depth cap per batch size the batched server ended
with (and what chose it), and its vLLM speculative-config form.

The servers and routes alternate within each of `--rounds` rounds per level, so a noisy
machine weighs on all alike; rates are totals over all rounds. The ratios (batched / one at
a time, speculative / target-only) are the result; with more than one round, speculative /
target-only is also given round by round (each round runs every cell once), the
spread a difference between the routes has to stand out from.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import typer

PROMPTS = ["def add(a, b):", "The quick brown fox", "for i in range(10):", "class Point:",
           "Speculative decoding", "import numpy as np", "Once upon a time", "SELECT * FROM",
           "def fib(n):", "while True:", "if x > 0:", "return"]
MODES = ("off", "continuous")
ROUTES = ("target", "spec")


@dataclass
class Cell:
    mode: str
    route: str
    concurrency: int
    requests: int = 0
    ok: int = 0
    refused: int = 0
    refused_without_retry_after: int = 0
    errors: int = 0
    wall_s: float = 0.0
    rps: float = 0.0
    tokens_per_s: float = 0.0
    goodput_tokens_per_s: float = 0.0
    latency_p50_ms: float = 0.0
    latency_p99_ms: float = 0.0
    ttft_p50_ms: float = 0.0
    ttft_p99_ms: float = 0.0
    tpot_p50_ms: float = 0.0
    audit_missing: int = 0
    served_paths: dict[str, int] = field(default_factory=dict)
    tokens_per_s_by_round: list[float] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict, repr=False)  # prompt -> answer
    error_samples: list[str] = field(default_factory=list)


async def _one(client: Any, model: str, route: str, prompt: str, max_tokens: int,
               ) -> dict[str, Any]:
    body = {"model": model, "prompt": prompt, "max_tokens": max_tokens, "temperature": 0,
            "stream": True, "stream_options": {"include_usage": True}}
    t0 = time.perf_counter()
    ttft, text, ext, tokens = None, [], None, 0
    async with client.stream("POST", "/v1/completions", json=body,
                             headers={"X-Guardian-Route": route}) as r:
        if r.status_code == 429:
            await r.aread()
            return {"refused": r.headers.get("retry-after")}
        if r.status_code != 200:
            return {"error": f"{r.status_code}: {(await r.aread())[:200]!r}"}
        async for line in r.aiter_lines():
            if not line.startswith("data: ") or line == "data: [DONE]":
                continue
            chunk = json.loads(line[6:])
            if "error" in chunk:
                return {"error": str(chunk["error"])[:200]}
            for ch in chunk.get("choices", []):
                if ch.get("text"):
                    ttft = ttft if ttft is not None else time.perf_counter() - t0
                    text.append(ch["text"])
            ext = chunk.get("spec_guardian", ext)
            if chunk.get("usage"):
                tokens = chunk["usage"]["completion_tokens"]
    latency = time.perf_counter() - t0
    return {"latency": latency, "ttft": ttft if ttft is not None else latency, "tokens": tokens,
            "text": "".join(text), "id": ext["request_id"] if ext else None,
            "path": ext["served_path"] if ext else "?", "prompt": prompt}


async def _load(url: str, model: str, route: str, concurrency: int, n: int, max_tokens: int,
                time_limit_s: float) -> tuple[list[dict[str, Any]], float]:
    """`concurrency` closed-loop clients send `n` requests for `model` on `route`
    -> (results, wall seconds)."""
    import httpx

    from guardian.devtools.loadtest import closed_loop

    limits = httpx.Limits(max_connections=concurrency + 4,
                          max_keepalive_connections=concurrency + 4)
    async with httpx.AsyncClient(base_url=url, timeout=300, limits=limits) as client:
        return await closed_loop(
            lambda i: _one(client, model, route, PROMPTS[i % len(PROMPTS)], max_tokens),
            n, concurrency, time_limit_s)


def _summarise(cell: Cell, results: list[dict[str, Any]], wall: float,
               slo: tuple[float, float]) -> list[dict[str, Any]]:
    """Fill `cell` from the results of all its rounds (rates: totals over total wall time)."""
    from guardian.devtools.loadtest import percentile as _pct

    good = [r for r in results if "latency" in r]
    cell.wall_s = wall
    cell.requests, cell.ok = len(results), len(good)
    cell.refused = sum("refused" in r for r in results)
    cell.refused_without_retry_after = sum("refused" in r and not r["refused"] for r in results)
    cell.errors = cell.requests - cell.ok - cell.refused
    cell.error_samples = [r["error"] for r in results if "error" in r][:3]
    lat, ttft = [r["latency"] for r in good], [r["ttft"] for r in good]
    tpot = [(r["latency"] - r["ttft"]) / (r["tokens"] - 1) for r in good if r["tokens"] > 1]
    met = sum(r["tokens"] for r in good if r["latency"] <= slo[0] and r["ttft"] <= slo[1])
    w = wall or 1.0
    cell.rps, cell.goodput_tokens_per_s = len(good) / w, met / w
    cell.tokens_per_s = _tokens_per_s(results, wall)
    ms = 1000.0
    cell.latency_p50_ms, cell.latency_p99_ms = _pct(lat, .5) * ms, _pct(lat, .99) * ms
    cell.ttft_p50_ms, cell.ttft_p99_ms = _pct(ttft, .5) * ms, _pct(ttft, .99) * ms
    cell.tpot_p50_ms = _pct(tpot, .5) * ms
    for r in good:
        cell.served_paths[r["path"]] = cell.served_paths.get(r["path"], 0) + 1
        cell.texts.setdefault(r["prompt"], r["text"])
    return good


def _audit_missing(url: str, ids: list[str]) -> int:
    from guardian.devtools.loadtest import _check_audit

    missing, _ = _check_audit(url, None, [i for i in ids if i], timeout_s=60)
    return len(missing)


def _policy(path: Path, max_queue: int) -> None:
    common = {"shadow": {"sample_rate": 0.0}, "max_queue": max_queue,
              # Speculation at load is the depth cap's call here, not load shedding's.
              "load_shed_queue_depth": 100_000}
    path.write_text(json.dumps({"version": 1, "default_route": "target", "routes": {
        "target": {"mode": "target_only", **common},
        "spec": {"mode": "speculative", "proposer": "draft_model",
                 "gamma": {"strategy": "constant", "initial": 4, "max": 8},
                 "gate": {"require_report": False}, **common}}}))


@contextmanager
def _server(mode: str, home: Path, policy: Path, max_batch: int, threads: str) -> Iterator[str]:
    from guardian.devtools.loadtest import _free_port, spawn_sidecar

    env = {"GUARDIAN_BATCHING": mode, "GUARDIAN_MAX_BATCH": str(max_batch),
           "GUARDIAN_POLICY_FILE": str(policy), "GUARDIAN_TORCH_THREADS": threads,
           "GUARDIAN_DEV_MODE": "1",
           "GUARDIAN_DATABASE_URL": f"sqlite:///{home / f'{mode}.db'}"}
    with spawn_sidecar(_free_port(), env) as url:
        yield url


def _metrics(url: str) -> dict[str, Any]:
    import httpx

    r = httpx.get(f"{url}/admin/speculation", timeout=30)
    return r.json() if r.status_code == 200 else {}


def _served_model(url: str) -> str:
    """The model name the sidecar serves (its routes are picked by header; the name must
    still be one it serves)."""
    import httpx

    return httpx.get(f"{url}/v1/models", timeout=30).raise_for_status().json()["data"][0]["id"]


def _check_warm_up(mode: str, route: str, results: list[dict[str, Any]]) -> None:
    """Stop before the measured cells when the warm-up already failed: a bench of errors
    would otherwise report 0 tokens/s per cell and exit 0."""
    errors = [r["error"] for r in results if "error" in r]
    if errors:
        raise BenchFailed(f"{len(errors)} of {len(results)} warm-up requests to the {mode} "
                          f"server's {route!r} route failed, e.g. {errors[0]}")


def _tokens_per_s(results: list[dict[str, Any]], wall: float) -> float:
    """Output tokens of the answered requests (the failed and refused ones have no
    latency) per second of `wall`."""
    return sum(r["tokens"] for r in results if "latency" in r) / (wall or 1.0)


class BenchFailed(RuntimeError):
    """The bench could not measure what it reports (requests failed)."""


def run(levels: list[int], per_client: int, min_requests: int, max_tokens: int,
        max_batch: int, max_queue: int, slo: tuple[float, float], threads: str,
        time_limit_s: float, rounds: int,
        on_level: Callable[[list[Cell]], None] | None = None) -> dict[str, Any]:
    """Every cell of every level; `on_level(cells so far)` after each level, so a run cut off
    (a leased machine's time running out) keeps the levels it finished."""
    from rich.progress import Progress

    cells: list[Cell] = []
    extra: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="guardian-bench-serving-") as tmp, ExitStack() as st:
        home = Path(tmp)
        policy = home / "policy.yaml"
        _policy(policy, max_queue)
        urls = {m: st.enter_context(_server(m, home, policy, max_batch, threads)) for m in MODES}
        models = {m: _served_model(url) for m, url in urls.items()}
        for m, url in urls.items():  # warm-up: first-call costs, and the cap's first samples
            for route in ROUTES:
                res, _ = asyncio.run(_load(url, models[m], route, 8, 32, max_tokens,
                                           time_limit_s))
                _check_warm_up(m, route, res)
        with Progress() as bar:
            task = bar.add_task("serving bench", total=len(levels) * len(ROUTES) * len(MODES)
                                * rounds)
            for c in levels:
                n = max(min_requests, per_client * c)
                raw: dict[tuple[str, str], tuple[list[dict[str, Any]], float]] = {}
                by_round: dict[tuple[str, str], list[float]] = {}
                # Rounds alternate every (route, server) pair, so noise weighs on all alike.
                for _ in range(rounds):
                    for route in ROUTES:
                        for m in MODES:
                            res, wall = asyncio.run(_load(urls[m], models[m], route, c, n,
                                                          max_tokens, time_limit_s))
                            old = raw.get((m, route), ([], 0.0))
                            raw[m, route] = (old[0] + res, old[1] + wall)
                            by_round.setdefault((m, route), []).append(
                                _tokens_per_s(res, wall))
                            bar.advance(task)
                for (m, route), (res, wall) in raw.items():
                    cell = Cell(m, route, c, tokens_per_s_by_round=by_round[m, route])
                    good = _summarise(cell, res, wall, slo)
                    cell.audit_missing = _audit_missing(urls[m], [r["id"] for r in good])
                    cells.append(cell)
                if on_level:
                    on_level(cells)
        extra["speculation"] = _metrics(urls["continuous"])
    return {"cells": cells, **extra}


def _differs(cells: list[Cell]) -> tuple[int, int]:
    """(batched answers that differ from the same route's one-at-a-time answer, compared)."""
    alone: dict[tuple[str, str], str] = {}
    for c in cells:
        if c.mode == "off":
            for p, t in c.texts.items():
                alone.setdefault((c.route, p), t)
    diff = seen = 0
    for c in cells:
        if c.mode == "continuous":
            for p, t in c.texts.items():
                if (c.route, p) in alone:
                    seen += 1
                    diff += t != alone[c.route, p]
    return diff, seen


def _ratios(cells: list[Cell]) -> list[dict[str, Any]]:
    by = {(c.mode, c.route, c.concurrency): c for c in cells}
    out = []
    for c in sorted({c.concurrency for c in cells}):
        row: dict[str, Any] = {"concurrency": c}
        for route in ROUTES:
            a, b = by.get(("off", route, c)), by.get(("continuous", route, c))
            if a and b and a.tokens_per_s:
                row[f"{route}: batched / one-at-a-time tokens/s"] = round(
                    b.tokens_per_s / a.tokens_per_s, 2)
        for m in MODES:
            t, s = by.get((m, "target", c)), by.get((m, "spec", c))
            if t and s and t.tokens_per_s:
                row[f"{m}: speculative / target-only tokens/s"] = round(
                    s.tokens_per_s / t.tokens_per_s, 2)
                pairs = list(zip(s.tokens_per_s_by_round, t.tokens_per_s_by_round, strict=True))
                if len(pairs) > 1:  # the spread a difference has to stand out from
                    row[f"{m}: speculative / target-only per round"] = [
                        round(a / b, 2) if b else None for a, b in pairs]
        out.append(row)
    return out


def _print(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="guardian bench serving (streamed greedy completions)")
    for col in ("mode", "route", "clients", "ok/429/err", "req/s", "tok/s", "goodput tok/s",
                "lat p50/p99 ms", "TTFT p50/p99 ms", "TPOT p50 ms", "audit missing"):
        table.add_column(col, justify="right")
    for c in result["cells"]:
        table.add_row(c.mode, c.route, str(c.concurrency), f"{c.ok}/{c.refused}/{c.errors}",
                      f"{c.rps:.2f}", f"{c.tokens_per_s:.1f}", f"{c.goodput_tokens_per_s:.1f}",
                      f"{c.latency_p50_ms:.0f}/{c.latency_p99_ms:.0f}",
                      f"{c.ttft_p50_ms:.0f}/{c.ttft_p99_ms:.0f}", f"{c.tpot_p50_ms:.1f}",
                      str(c.audit_missing))
    con = Console()
    con.print(table)
    for row in result["ratios"]:
        con.print(row)
    diff, seen = result["differs"]
    con.print(f"batched answers differing from one-at-a-time: {diff} of {seen}")
    con.print(f"depth cap per batch size at the end: {result.get('speculation', {})}")
    cap_model = (result.get("speculation") or {}).get("cap_model") or {}
    live = cap_model.get("live_by_batch_size_and_depth") or {}
    if live:
        # Where the model's step costs differ from what serving paid, the cap it chose may
        # be wrong (an H100, 2026-11-27: spec at 0.54 of target-only at 16 clients).
        model = Table(title="depth-cap model against serving (batched server, all routes)")
        for col in ("batch size", "cap", "steps", "mean rows", "ms/step served",
                    "ms/step model", "served / model", "tokens/step",
                    "after on/off: steps, ms/step"):
            model.add_column(col, justify="right")
        for band, caps in live.items():
            for cap, c in caps.items():
                assumed = c.get("model_ms_per_step")
                model.add_row(band, cap, str(c["steps"]), f"{c['mean_rows']:.1f}",
                              f"{c['ms_per_step']:.1f}",
                              "-" if assumed is None else f"{assumed:.1f}",
                              "-" if not assumed else f"{c['ms_per_step'] / assumed:.2f}",
                              f"{c['tokens_per_step']:.2f}",
                              f"{c['after_switch_steps']}, {c['after_switch_ms_per_step']:.1f}"
                              if c.get("after_switch_steps") else "-")
        con.print(model)
        con.print(f"speculation turned on or off {cap_model.get('on_off_switches')} times "
                  "(the step after each pays the draft's catch-up or the target cache's "
                  "compaction)")


def cli(
    concurrency: str = typer.Option("1,4,16,64", help="Comma-separated client counts."),
    requests_per_client: int = typer.Option(3, min=1, help="Requests per client and cell."),
    min_requests: int = typer.Option(12, min=1, help="At least this many per cell."),
    max_tokens: int = typer.Option(32, min=1, help="Tokens per answer."),
    max_batch: int = typer.Option(16, min=1, help="Rows in the batched server's batch."),
    max_queue: int = typer.Option(32, min=1, help="Each route's max_queue (429 beyond)."),
    slo_latency: float = typer.Option(2.5, help="Goodput SLO: latency (s)."),
    slo_ttft: float = typer.Option(0.5, help="Goodput SLO: time to first token (s)."),
    torch_threads: str = typer.Option("1", help="GUARDIAN_TORCH_THREADS of both servers."),
    time_limit: float = typer.Option(240.0, help="Seconds at most per cell and round."),
    rounds: int = typer.Option(2, min=1, help="Alternating rounds per level (rates are "
                               "totals over all rounds)."),
    json_path: Path | None = typer.Option(None, "--json", help="Write the results here."),
) -> None:
    """Serving at load: concurrency x {target-only, speculative} x {one at a time, batched}
    in one run (two real sidecars on loopback), with throughput, latency, TTFT, TPOT,
    goodput, 429s and audit completeness per cell."""
    levels = [int(x) for x in concurrency.split(",") if x.strip()]
    if not levels or any(c < 1 for c in levels):
        raise typer.BadParameter("concurrency takes positive integers, e.g. 1,4,16,64")
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    settings = {"max_tokens": max_tokens, "max_batch": max_batch, "max_queue": max_queue,
                "python": sys.version.split()[0], "cpus": os.cpu_count()}

    def write(result: dict[str, Any], complete: bool) -> None:
        if json_path:
            cells = result["cells"]
            out = {**result, "ratios": _ratios(cells), "differs": _differs(cells),
                   "cells": [{k: v for k, v in asdict(c).items() if k != "texts"}
                             for c in cells], **settings, "complete": complete}
            tmp = json_path.with_name(json_path.name + ".part")
            tmp.write_text(json.dumps(out, indent=2))
            os.replace(tmp, json_path)  # a run killed mid-write keeps the last whole file

    result = run(levels, requests_per_client, min_requests, max_tokens, max_batch, max_queue,
                 (slo_latency, slo_ttft), torch_threads, time_limit, rounds,
                 on_level=lambda cells: write({"cells": cells}, complete=False))
    cells: list[Cell] = result["cells"]
    result["ratios"] = _ratios(cells)
    result["differs"] = _differs(cells)
    _print(result)
    if json_path:
        write(result, complete=True)
        typer.echo(f"wrote {json_path}")
    failed = [c for c in cells if c.errors or not c.ok]
    if failed:  # measured, written, and still a failed run: errors are not a load result
        raise BenchFailed(
            f"{sum(c.errors for c in failed)} requests failed in {len(failed)} cells "
            f"(e.g. {failed[0].mode}/{failed[0].route}/{failed[0].concurrency} clients: "
            f"{(failed[0].error_samples or ['no request answered'])[0]})")
