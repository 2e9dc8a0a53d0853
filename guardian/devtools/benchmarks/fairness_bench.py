"""`guardian bench fairness`: does one route's flood slow another route down?

Three real sidecars (`guardian serve` in child processes, loopback, the demo pair or the
configured one, continuous batching): one joining the batch in weighted fair order with the
default headroom (GUARDIAN_BATCH_ORDER=fair, engine.fairqueue; GUARDIAN_FAIR_HEADROOM rows
beyond max_batch for a route holding none, engine.batching), one in fair order without
headroom, and one in arrival order (`fifo`, the order before either). Each has two routes over
the same pair: `flood` and `quiet`.

Per server, alternating within each of `--rounds` rounds: the quiet route's latency with
nothing else running (sequential greedy completions), then the same while `--flood-clients`
closed-loop clients keep the flood route full (inside its max_queue, so nothing is refused:
the flood is admitted work, not an overload). The result is the ratio of the quiet route's
p50 under the flood to its p50 alone, side by side for the three; #40's goal is <= 2 for the
fair order. From the quiet route's audit records, each phase's latency is split into the
serving queue, the engine until the first token (the wait for a row, the join's prefill),
the decode steps after it and the rest (HTTP, the event loop). The flood route's throughput
is reported too (fairness must not cost the flood route its share of an otherwise idle
engine).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

PROMPTS = ["def add(a, b):", "The quick brown fox", "for i in range(10):", "class Point:",
           "import numpy as np", "Once upon a time", "def fib(n):", "while True:"]
# variant -> (GUARDIAN_BATCH_ORDER, GUARDIAN_FAIR_HEADROOM or None for the default)
VARIANTS: dict[str, tuple[str, str | None]] = {
    "fair": ("fair", None), "fair, no headroom": ("fair", "0"), "fifo": ("fifo", None)}
ORDERS = tuple(VARIANTS)


def _policy(path: Path, flood_queue: int) -> None:
    common = {"mode": "target_only", "shadow": {"sample_rate": 0.0},
              "load_shed_queue_depth": 100_000}
    path.write_text(json.dumps({"version": 1, "default_route": "flood", "routes": {
        "flood": {**common, "max_queue": flood_queue},
        "quiet": {**common, "max_queue": 8}}}))


def _db(home: Path, variant: str) -> Path:
    return home / f"{variant.replace(', ', '-').replace(' ', '-')}.db"


@contextmanager
def _server(variant: str, home: Path, policy: Path, max_batch: int, threads: str
            ) -> Iterator[str]:
    from guardian.devtools.loadtest import _free_port, spawn_sidecar

    order, headroom = VARIANTS[variant]
    env = {"GUARDIAN_BATCHING": "continuous", "GUARDIAN_BATCH_ORDER": order,
           "GUARDIAN_MAX_BATCH": str(max_batch), "GUARDIAN_POLICY_FILE": str(policy),
           "GUARDIAN_TORCH_THREADS": threads, "GUARDIAN_DEV_MODE": "1",
           "GUARDIAN_DATABASE_URL": f"sqlite:///{_db(home, variant)}"}
    if headroom is not None:
        env["GUARDIAN_FAIR_HEADROOM"] = headroom
    with spawn_sidecar(_free_port(), env) as url:
        yield url


async def _one(client: Any, url: str, route: str, model: str, prompt: str,
               max_tokens: int) -> float:
    started = time.perf_counter()
    r = await client.post(f"{url}/v1/completions", headers={"x-guardian-route": route},
                          json={"model": model, "prompt": prompt, "max_tokens": max_tokens,
                                "temperature": 0}, timeout=300)
    if r.status_code != 200:
        raise RuntimeError(f"{route}: HTTP {r.status_code}: {r.text[:200]}")
    return time.perf_counter() - started


async def _quiet_latencies(client: Any, url: str, model: str, n: int, max_tokens: int
                           ) -> list[float]:
    return [await _one(client, url, "quiet", model, PROMPTS[i % len(PROMPTS)], max_tokens)
            for i in range(n)]


async def _round(url: str, model: str, quiet_n: int, flood_clients: int, max_tokens: int,
                 flood_tokens: int) -> dict[str, Any]:
    import httpx

    limits = httpx.Limits(max_connections=flood_clients + 4)
    async with httpx.AsyncClient(limits=limits) as client:
        alone = await _quiet_latencies(client, url, model, quiet_n, max_tokens)
        stop, flooded = asyncio.Event(), [0]

        async def flood(i: int) -> None:
            while not stop.is_set():
                await _one(client, url, "flood", model, PROMPTS[i % len(PROMPTS)], flood_tokens)
                flooded[0] += 1

        tasks = [asyncio.create_task(flood(i)) for i in range(flood_clients)]
        await asyncio.sleep(2.0)  # the flood fills the batch and its queue
        started = time.perf_counter()
        loaded = await _quiet_latencies(client, url, model, quiet_n, max_tokens)
        wall = time.perf_counter() - started
        stop.set()
        done = await asyncio.gather(*tasks, return_exceptions=True)
        errors = [d for d in done if isinstance(d, BaseException)]
        if errors:
            raise RuntimeError(f"{len(errors)} flood clients failed, e.g. {errors[0]!r}")
    return {"alone": alone, "loaded": loaded, "flood_requests": flooded[0], "wall_s": wall}


def _quiet_timings(db: Path) -> list[dict[str, float]]:
    """The quiet route's audit records in the order served: where each request's time went,
    as the sidecar measured it (guardian.serving.recorder)."""
    import sqlalchemy as sa

    engine = sa.create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT queue_time_s, compute_time_s, time_to_first_token_s FROM audit_requests "
                "WHERE route = 'quiet' ORDER BY created_at, seq")).all()
    finally:
        engine.dispose()
    return [{"queue_s": q, "engine_s": c, "first_token_s": f} for q, c, f in rows]


def _breakdown(latencies: list[float], timings: list[dict[str, float]]) -> dict[str, float]:
    """Medians of one phase's parts: the serving queue, the engine until the first token (the
    wait for a row and the join's prefill), the decode steps after it, and the rest of the
    client's latency (HTTP, the event loop, tokenizing, building the answer)."""
    med = statistics.median
    return {"latency_s": med(latencies),
            "queue_s": med(t["queue_s"] for t in timings),
            "first_token_s": med(t["first_token_s"] for t in timings),
            "decode_s": med(t["engine_s"] - t["first_token_s"] for t in timings),
            "outside_engine_s": med(lat - t["queue_s"] - t["engine_s"]
                                    for lat, t in zip(latencies, timings, strict=True))}


def run(rounds: int, quiet_n: int, flood_clients: int, max_tokens: int, flood_tokens: int,
        max_batch: int, threads: str) -> dict[str, Any]:
    import httpx
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    out: dict[str, Any] = {o: {"alone": [], "loaded": [], "flood_requests": 0, "wall_s": 0.0}
                           for o in ORDERS}
    with tempfile.TemporaryDirectory(prefix="fairness-bench-") as tmp:
        home = Path(tmp)
        policy = home / "policy.json"
        _policy(policy, flood_queue=max(flood_clients, 1))
        with contextlib.ExitStack() as servers:
            urls = {v: servers.enter_context(_server(v, home, policy, max_batch, threads))
                    for v in ORDERS}
            model = httpx.get(f"{urls['fair']}/v1/models", timeout=30).json()["data"][0]["id"]
            with Progress(TextColumn("{task.description}"), BarColumn(),
                          TextColumn("{task.completed}/{task.total}"),
                          TimeRemainingColumn()) as progress:
                task = progress.add_task("rounds x variants", total=rounds * len(ORDERS))
                for r in range(rounds):
                    for order in ORDERS if r % 2 == 0 else ORDERS[::-1]:
                        res = asyncio.run(_round(urls[order], model, quiet_n, flood_clients,
                                                 max_tokens, flood_tokens))
                        cell = out[order]
                        cell["alone"] += res["alone"]
                        cell["loaded"] += res["loaded"]
                        cell["flood_requests"] += res["flood_requests"]
                        cell["wall_s"] += res["wall_s"]
                        progress.advance(task)
        # The servers have shut down, so their audit writers have written every record.
        for order, cell in out.items():
            timings = _quiet_timings(_db(home, order))
            if len(timings) == len(cell["alone"]) + len(cell["loaded"]):
                # Per round the quiet requests ran alone first, then under the flood.
                alone_t = [t for i, t in enumerate(timings) if (i // quiet_n) % 2 == 0]
                loaded_t = [t for i, t in enumerate(timings) if (i // quiet_n) % 2 == 1]
                cell["breakdown"] = {"alone": _breakdown(cell["alone"], alone_t),
                                     "loaded": _breakdown(cell["loaded"], loaded_t)}
    for cell in out.values():
        cell["alone_p50_s"] = statistics.median(cell["alone"])
        cell["loaded_p50_s"] = statistics.median(cell["loaded"])
        cell["ratio"] = cell["loaded_p50_s"] / cell["alone_p50_s"]
        cell["flood_requests_per_s"] = cell["flood_requests"] / (cell["wall_s"] or 1.0)
    return out


def cli(
    rounds: int = typer.Option(2, min=1, help="Alternating rounds (every variant each round)."),
    quiet_requests: int = typer.Option(12, min=3, help="Quiet-route requests per phase."),
    flood_clients: int = typer.Option(24, min=1, help="Closed-loop clients on the flood route "
                                      "(its max_queue is set to this, so none is refused)."),
    max_tokens: int = typer.Option(24, min=1, help="max_tokens of the quiet route's requests."),
    flood_tokens: int = typer.Option(64, min=1, help="max_tokens of the flood's requests."),
    max_batch: int = typer.Option(8, min=1, help="Rows in each server's batch."),
    torch_threads: str = typer.Option("1", help="GUARDIAN_TORCH_THREADS of both servers."),
    json_path: Path | None = typer.Option(None, "--json", help="Write the results here."),
) -> None:
    """Route isolation: a quiet route's p50 latency under another route's flood over its p50
    alone: fair joins with and without headroom and arrival-order joins side by side (three
    real sidecars on loopback), with where the quiet route's time went."""
    from rich.console import Console
    from rich.table import Table

    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request otherwise
    result = run(rounds, quiet_requests, flood_clients, max_tokens, flood_tokens, max_batch,
                 torch_threads)
    table = Table(title="quiet route under another route's flood")
    for col in ("joins", "p50 alone (s)", "p50 flooded (s)", "flooded / alone",
                "flood req/s"):
        table.add_column(col)
    for order in ORDERS:
        c = result[order]
        table.add_row(order, f"{c['alone_p50_s']:.3f}", f"{c['loaded_p50_s']:.3f}",
                      f"{c['ratio']:.2f}", f"{c['flood_requests_per_s']:.2f}")
    Console().print(table)
    parts = Table(title="where the quiet route's time went (medians, s; from its audit records)")
    for col in ("joins", "phase", "latency", "serving queue", "row wait + prefill + "
                "1st token", "decode steps", "outside the engine"):
        parts.add_column(col)
    for order in ORDERS:
        for phase, b in (result[order].get("breakdown") or {}).items():
            parts.add_row(order, phase, *(f"{b[k]:.3f}" for k in (
                "latency_s", "queue_s", "first_token_s", "decode_s", "outside_engine_s")))
    if parts.rows:
        Console().print(parts)
    fair = result["fair"]["loaded_p50_s"]
    typer.echo(f"fair / fifo flooded p50: {fair / result['fifo']['loaded_p50_s']:.2f}; "
               f"fair / fair without headroom: "
               f"{fair / result['fair, no headroom']['loaded_p50_s']:.2f}")
    if json_path:
        settings = {"rounds": rounds, "quiet_requests": quiet_requests,
                    "flood_clients": flood_clients, "max_tokens": max_tokens,
                    "flood_tokens": flood_tokens, "max_batch": max_batch,
                    "cpus": os.cpu_count()}
        json_path.write_text(json.dumps({**result, "settings": settings}, indent=2))
        typer.echo(f"wrote {json_path}")
