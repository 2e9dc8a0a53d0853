"""Load test: concurrent clients against a sidecar in another process, over loopback.

    python -m guardian.devtools.loadtest                     # spawns `guardian serve` (demo pair, SQLite)
    python -m guardian.devtools.loadtest --url http://127.0.0.1:8000 --key sg-...  # an existing sidecar

Bounded in request count and wall time. Reports throughput, p50/p99 latency, the sidecar's
own overhead, and checks that every request has its audit records (read back through
`GET /admin/audit/{id}`, which needs a compliance or admin key unless the sidecar is open).

Overhead, per request, from the `spec_guardian` extension of each response:
- `latency - compute`: everything that is not engine compute (HTTP, validation, tokenizing,
  serialization, audit/telemetry hand-off, and waiting for the single engine thread);
- `latency - compute - queue`: the same without the engine-queue wait, i.e. the sidecar's
  own per-request cost.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

logger = logging.getLogger(__name__)

PROMPTS = ["def add(a, b):", "The quick brown fox", "for i in range(10):", "class Point:",
           "Speculative decoding", "import numpy as np", "Once upon a time", "SELECT * FROM"]


@dataclass
class LoadReport:
    url: str
    requests: int
    concurrency: int
    max_tokens: int
    ok: int = 0
    errors: int = 0
    refused: int = 0  # 429 queue_full answers (admission control), each with Retry-After
    refused_without_retry_after: int = 0
    wall_s: float = 0.0
    throughput_rps: float = 0.0
    tokens_per_s: float = 0.0
    latency_p50_ms: float = 0.0
    latency_p99_ms: float = 0.0
    compute_p50_ms: float = 0.0
    queue_p50_ms: float = 0.0
    queue_p99_ms: float = 0.0
    overhead_p50_ms: float = 0.0  # latency - compute - queue
    overhead_p99_ms: float = 0.0
    latency_minus_compute_p50_ms: float = 0.0
    latency_minus_compute_p99_ms: float = 0.0
    audit_missing: list[str] = field(default_factory=list)
    audit_checked: int = 0
    shadow_sampled: int = 0
    shadow_recorded: int = 0
    shadow_dropped: float | None = None  # from /metrics (None without an oncall/admin key)
    verdicts: dict[str, int] = field(default_factory=dict)
    served_paths: dict[str, int] = field(default_factory=dict)
    error_samples: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return (self.errors == 0 and self.refused_without_retry_after == 0
                and not self.audit_missing and self.audit_checked == self.ok)


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank `q` quantile of `values` (0.0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]



async def closed_loop(one: Callable[[int], Awaitable[dict[str, Any]]], requests: int,
                      concurrency: int, time_limit_s: float,
                      ) -> tuple[list[dict[str, Any]], float]:
    """`concurrency` closed-loop clients run `one(i)` for i = 0 .. requests-1, each starting
    the next as soon as its last ends, until `time_limit_s` passes -> (results, wall seconds).
    An HTTP failure is a result (`{"error": ...}`), not an exception."""
    results: list[dict[str, Any]] = []
    counter = iter(range(requests))
    deadline = time.perf_counter() + time_limit_s

    async def worker() -> None:
        for i in counter:
            if time.perf_counter() > deadline:
                return
            try:
                results.append(await one(i))
            except httpx.HTTPError as exc:
                results.append({"error": repr(exc)})

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return results, time.perf_counter() - started


async def _one(client: httpx.AsyncClient, model: str, prompt: str, max_tokens: int,
               ) -> dict[str, Any]:
    started = time.perf_counter()
    r = await client.post("/v1/completions", json={
        "model": model, "prompt": prompt, "max_tokens": max_tokens, "temperature": 0})
    latency = time.perf_counter() - started
    if r.status_code == 429:
        return {"refused": r.headers.get("retry-after"), "latency": latency}
    if r.status_code != 200:
        return {"error": f"{r.status_code}: {r.text[:200]}"}
    body = r.json()
    return {"id": body["id"], "latency": latency, "ext": body["spec_guardian"],
            "tokens": body["usage"]["completion_tokens"]}


async def _run(url: str, key: str | None, requests: int, concurrency: int, max_tokens: int,
               time_limit_s: float) -> tuple[list[dict[str, Any]], float]:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=120) as client:
        model = (await client.get("/v1/models")).json()["data"][0]["id"]
        return await closed_loop(
            lambda i: _one(client, model, PROMPTS[i % len(PROMPTS)], max_tokens),
            requests, concurrency, time_limit_s)


def _drain_shadow(client: httpx.Client, timeout_s: float) -> None:
    """Shadow work runs only when serving is quiet: let the queue empty after the load."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        r = client.get("/readyz")
        if r.status_code == 200 and r.json().get("shadow_queue_depth", 0) == 0:
            time.sleep(1.0)  # the job in flight, if any
            return
        time.sleep(0.5)


def _shadow_drops(client: httpx.Client) -> float | None:
    r = client.get("/metrics")
    if r.status_code != 200:
        return None
    return sum(float(line.rsplit(" ", 1)[1]) for line in r.text.splitlines()
               if line.startswith("guardian_shadow_drops_total{"))


def _check_audit(url: str, key: str | None, ids: list[str], timeout_s: float = 30.0,
                 ) -> tuple[list[str], dict[str, int]]:
    """Request ids with no audit request record (after waiting for the batched writer),
    and the shadow verdicts found."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    missing, verdicts = list(ids), {}
    deadline = time.monotonic() + timeout_s
    with httpx.Client(base_url=url, headers=headers, timeout=30) as client:
        while missing and time.monotonic() < deadline:
            still = []
            for rid in missing:
                r = client.get(f"/admin/audit/{rid}")
                if r.status_code == 200 and any(e["kind"] == "request" for e in r.json()["events"]):
                    continue
                still.append(rid)
            missing = still
            if missing:
                time.sleep(0.5)
        # shadow records land after the served ones (lower priority): one last pass
        for rid in ids:
            r = client.get(f"/admin/audit/{rid}")
            if r.status_code == 200:
                for e in r.json()["events"]:
                    if e["kind"] == "shadow":
                        verdicts[e["verdict"]] = verdicts.get(e["verdict"], 0) + 1
    return missing, verdicts


def run_load(url: str, *, key: str | None = None, requests: int = 64, concurrency: int = 4,
             max_tokens: int = 32, time_limit_s: float = 300.0) -> LoadReport:
    results, wall = asyncio.run(_run(url, key, requests, concurrency, max_tokens, time_limit_s))
    report = LoadReport(url=url, requests=len(results), concurrency=concurrency,
                        max_tokens=max_tokens, wall_s=wall)
    good = [r for r in results if "error" not in r and "refused" not in r]
    refused = [r for r in results if "refused" in r]
    report.ok, report.refused = len(good), len(refused)
    report.errors = len(results) - len(good) - len(refused)
    report.refused_without_retry_after = sum(not r["refused"] for r in refused)
    report.error_samples = [r["error"] for r in results if "error" in r][:5]
    lat = [r["latency"] for r in good]
    comp = [r["ext"]["compute_time_s"] for r in good]
    queue = [r["ext"]["queue_time_s"] for r in good]
    report.throughput_rps = len(good) / wall if wall else 0.0
    report.tokens_per_s = sum(r["tokens"] for r in good) / wall if wall else 0.0
    def ms(values: list[float], q: float) -> float:
        return percentile(values, q) * 1000.0

    report.latency_p50_ms, report.latency_p99_ms = ms(lat, .5), ms(lat, .99)
    report.compute_p50_ms = ms(comp, .5)
    report.queue_p50_ms, report.queue_p99_ms = ms(queue, .5), ms(queue, .99)
    own = [a - c - q for a, c, q in zip(lat, comp, queue, strict=True)]
    wait = [a - c for a, c in zip(lat, comp, strict=True)]
    report.overhead_p50_ms, report.overhead_p99_ms = ms(own, .5), ms(own, .99)
    report.latency_minus_compute_p50_ms = ms(wait, .5)
    report.latency_minus_compute_p99_ms = ms(wait, .99)
    for r in good:
        path = r["ext"]["served_path"]
        report.served_paths[path] = report.served_paths.get(path, 0) + 1
    report.shadow_sampled = sum(bool(r["ext"]["shadow_sampled"]) for r in good)
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    with httpx.Client(base_url=url, headers=headers, timeout=30) as client:
        _drain_shadow(client, timeout_s=120)
        report.shadow_dropped = _shadow_drops(client)
    report.audit_missing, report.verdicts = _check_audit(url, key, [r["id"] for r in good])
    report.shadow_recorded = sum(report.verdicts.values())
    report.audit_checked = len(good)
    return report


@contextmanager
def spawn_sidecar(port: int, env: dict[str, str] | None = None,
                  ready_timeout_s: float = 900.0) -> Iterator[str]:
    """`guardian serve` in a child process (the real command: its start-up checks, secrets,
    connection guard and uvicorn settings); yields its URL."""
    cmd = [sys.executable, "-c", "from guardian.cli import main; main()", "serve",
           "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    child_env = {"OMP_WAIT_POLICY": "PASSIVE",  # as `guardian serve` does
                 **os.environ, **(env or {}), "GUARDIAN_HOST": "127.0.0.1"}
    if "GUARDIAN_API_KEYS_FILE" not in (env or {}):
        child_env.pop("GUARDIAN_API_KEYS_FILE", None)  # open on loopback: the test reads audit
    proc = subprocess.Popen(cmd, env=child_env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + ready_timeout_s
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"sidecar exited with {proc.returncode} before it was ready")
            try:
                r = httpx.get(f"{url}/readyz", timeout=2)
                if r.status_code == 200:
                    break
                if r.json().get("status") == "failed":
                    raise RuntimeError(f"sidecar failed to start: {r.json().get('error')}")
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("sidecar not ready in time")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def _print(report: LoadReport) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"load test: {report.requests} requests, concurrency "
                  f"{report.concurrency}, max_tokens {report.max_tokens}")
    table.add_column("metric")
    table.add_column("value", justify="right")
    rows = [("ok / errors", f"{report.ok} / {report.errors}"),
            ("refused (429 queue_full)", f"{report.refused} "
             f"({report.refused_without_retry_after} without Retry-After)"),
            ("throughput", f"{report.throughput_rps:.2f} req/s, {report.tokens_per_s:.1f} tok/s"),
            ("latency p50 / p99", f"{report.latency_p50_ms:.1f} / {report.latency_p99_ms:.1f} ms"),
            ("engine compute p50", f"{report.compute_p50_ms:.1f} ms"),
            ("engine queue wait p50 / p99", f"{report.queue_p50_ms:.1f} / {report.queue_p99_ms:.1f} ms"),
            ("sidecar overhead p50 / p99 (latency-compute-queue)",
             f"{report.overhead_p50_ms:.2f} / {report.overhead_p99_ms:.2f} ms"),
            ("latency-compute p50 / p99",
             f"{report.latency_minus_compute_p50_ms:.1f} / {report.latency_minus_compute_p99_ms:.1f} ms"),
            ("served paths", json.dumps(report.served_paths)),
            ("shadow sampled / recorded / dropped",
             f"{report.shadow_sampled} / {report.shadow_recorded} / {report.shadow_dropped}"),
            ("shadow verdicts", json.dumps(report.verdicts)),
            ("audit records missing", f"{len(report.audit_missing)} of {report.audit_checked}")]
    for name, value in rows:
        table.add_row(name, value)
    Console().print(table)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m guardian.devtools.loadtest", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="existing sidecar; default: spawn one on a free port")
    parser.add_argument("--key", default=os.environ.get("GUARDIAN_LOADTEST_KEY"),
                        help="admin API key (inference + compliance) for a keyed sidecar")
    parser.add_argument("--requests", type=int, default=64)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--max-tokens", type=int, default=32)
    parser.add_argument("--time-limit", type=float, default=300.0, help="seconds of load")
    parser.add_argument("--policy", help="policy file for a spawned sidecar")
    parser.add_argument("--home", help="GUARDIAN_HOME for a spawned sidecar (default: temp "
                        "dir for the DB; the demo pair is reused from the usual cache)")
    parser.add_argument("--torch-threads", default="auto", help="GUARDIAN_TORCH_THREADS for "
                        "a spawned sidecar (auto: left unset, the sidecar times its choice)")
    parser.add_argument("--json", type=Path, help="write the report here")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request otherwise

    def go(url: str) -> LoadReport:
        return run_load(url, key=args.key, requests=args.requests, concurrency=args.concurrency,
                        max_tokens=args.max_tokens, time_limit_s=args.time_limit)

    if args.url:
        return _finish(go(args.url), args.json)
    env: dict[str, str] = ({} if args.torch_threads == "auto"
                           else {"GUARDIAN_TORCH_THREADS": args.torch_threads})
    if args.policy:
        env["GUARDIAN_POLICY_FILE"] = args.policy
    with tempfile.TemporaryDirectory(prefix="guardian-load-") as tmp:
        if args.home:
            env["GUARDIAN_HOME"] = args.home
        else:  # fresh audit DB per run; the demo pair stays in its usual cache
            env["GUARDIAN_DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'guardian.db'}"
        with spawn_sidecar(_free_port(), env) as url:
            report = go(url)
    return _finish(report, args.json)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _finish(report: LoadReport, path: Path | None) -> int:
    _print(report)
    if path:
        path.write_text(json.dumps(asdict(report), indent=2))
    return 0 if report.passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
