"""`guardian bench proxy`: what the sidecar adds in front of an upstream, measured side by
side in one run.

The same requests go straight to the upstream and through a sidecar (`guardian serve` with
GUARDIAN_BACKEND=upstream, its audit trail on, shadow off) at each concurrency level; direct
and proxied batches alternate, so a noisy machine weighs on both alike. Reported per level:
latency p50/p99 (whole answers), TTFT p50/p99 (streamed: time to the first content chunk),
throughput (requests/s), and the added p50/p99 (proxied minus direct). Also the sidecar's
own CPU time per proxied request (from /proc, Linux): on a loaded machine wall-clock
percentiles mostly measure the scheduler, CPU time per request does not.

Two ways to load it, both at each concurrency level:

* closed loop (the default): `concurrency` clients, each sending its next request as soon as
  the last one answered. This measures capacity: once the machine saturates, the added latency
  is queueing, by Little's law clients x (1/proxied - 1/direct throughput), not a per-request
  cost - on two cores shared by client, sidecar and upstream that is ~10 ms at 16 clients.
* open loop (`--rate R`, repeatable): requests *scheduled* at a fixed R per second over
  `concurrency` connections, as fortio (`-qps -c`, Istio's sidecar benchmark) and wrk2 do.
  Latency counts from the scheduled send time, so a request that waited for a free
  connection carries that wait (no coordinated omission). This measures what the sidecar adds
  to a request at that offered load.

A third side, on by default (`--no-floor` leaves it out): the same requests through a bare
Python proxy (guardian.devtools.benchmarks.bare_proxy: the sidecar's HTTP stack doing only the wire work
the proxy path cannot skip - parse, ask for logprobs, strip them, re-encode - with no
middleware, audit or policy). Its added latency is the floor this language and stack put
under any sidecar on this machine; `own_p50_ms`/`own_p99_ms` (proxied minus floor) is what the
sidecar's own work adds above it. Machines differ by 2x and more; the floor says how much of
a missed goal is the machine.

A change's effect (`--baseline PATH`, another checkout of the project: its root, with its
C sealer built as this one's is): a second sidecar runs that code with the same settings, and
every batch also goes through it. `vs_baseline_p50_ms`/`vs_baseline_p99_ms` (this sidecar
minus the baseline's) and `baseline_added_*` say what the change did, measured side by side
in one run: two runs minutes apart on a shared machine differ by more (2x and more, seen)
than most changes. The baseline runs on this environment's Python and libraries; every
process the bench starts runs in its own checkout, since `python -c` and `-m` find packages
in their working directory first.

The upstream is by default the bundled fake (guardian.devtools.fake_upstream: instant answers, so the
numbers are the sidecar's own overhead); `--upstream URL --model NAME` measures in front of
a real server instead.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

ROOT = Path(__file__).resolve().parents[3]  # this checkout (guardian/devtools/benchmarks/..)


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_ready(proc: subprocess.Popen, url: str, log: Path, timeout_s: float = 120) -> None:
    import httpx

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{url} exited early:\n{log.read_text()[-2000:]}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} not ready after {timeout_s:.0f} s:\n{log.read_text()[-2000:]}")


@contextmanager
def _process(cmd: list[str], env: dict[str, str], ready: str, log: Path,
             cwd: Path | None = None) -> Iterator[subprocess.Popen]:
    """`cmd` started in `cwd`: `python -c` looks for packages in its working directory before
    PYTHONPATH, so a sidecar's code is the checkout it runs in."""
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=cwd)
    try:
        _wait_ready(proc, ready, log)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


async def _batch(base: str, model: str, n: int, concurrency: int, stream: bool,
                 max_tokens: int, rate: float | None = None,
                 ) -> tuple[list[float], float, Counter[str]]:
    """n requests at `concurrency`: per-request latency (or TTFT when streaming), wall, and
    the errors by kind (HTTP status or exception name). With `rate`, request i is due at
    i / rate seconds (open loop) and its latency counts from then; without, each connection
    sends its next request when the last one answered (closed loop)."""
    import httpx

    body = {"model": model, "prompt": "hello proxy", "max_tokens": max_tokens,
            "temperature": 0, "stream": stream}
    times: list[float] = []
    errors: Counter[str] = Counter()
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:
        queue: asyncio.Queue[int] = asyncio.Queue()
        for i in range(n):
            queue.put_nowait(i)
        start = time.perf_counter()

        async def worker() -> None:
            while not queue.empty():
                i = queue.get_nowait()
                if rate is None:
                    t0 = time.perf_counter()
                else:  # open loop: due at i / rate, late when every connection was busy
                    t0 = start + i / rate
                    if (wait := t0 - time.perf_counter()) > 0:
                        await asyncio.sleep(wait)
                try:
                    if not stream:
                        r = await client.post("/v1/completions", json=body)
                        r.raise_for_status()
                        times.append(time.perf_counter() - t0)
                        continue
                    first = None
                    async with client.stream("POST", "/v1/completions", json=body) as r:
                        r.raise_for_status()
                        async for line in r.aiter_lines():
                            if first is None and line.startswith("data: {") and '"text": "' \
                                    in line and '"text": ""' not in line:
                                first = time.perf_counter() - t0
                    times.append(first if first is not None else time.perf_counter() - t0)
                except httpx.HTTPStatusError as exc:
                    errors[f"HTTP {exc.response.status_code}"] += 1
                except httpx.HTTPError as exc:
                    errors[type(exc).__name__] += 1

        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return times, time.perf_counter() - start, errors


def _summary(direct: list[float], proxied: list[float], floor: list[float] | None = None,
             baseline: list[float] | None = None) -> dict[str, float]:
    ms = 1000.0
    out = {"direct_p50_ms": _pct(direct, 0.5) * ms, "direct_p99_ms": _pct(direct, 0.99) * ms,
           "proxied_p50_ms": _pct(proxied, 0.5) * ms, "proxied_p99_ms": _pct(proxied, 0.99) * ms}
    out["added_p50_ms"] = out["proxied_p50_ms"] - out["direct_p50_ms"]
    out["added_p99_ms"] = out["proxied_p99_ms"] - out["direct_p99_ms"]
    if floor:
        out["floor_p50_ms"], out["floor_p99_ms"] = _pct(floor, 0.5) * ms, _pct(floor, 0.99) * ms
        out["floor_added_p50_ms"] = out["floor_p50_ms"] - out["direct_p50_ms"]
        out["floor_added_p99_ms"] = out["floor_p99_ms"] - out["direct_p99_ms"]
        out["own_p50_ms"] = out["proxied_p50_ms"] - out["floor_p50_ms"]
        out["own_p99_ms"] = out["proxied_p99_ms"] - out["floor_p99_ms"]
    if baseline:
        out["baseline_p50_ms"] = _pct(baseline, 0.5) * ms
        out["baseline_p99_ms"] = _pct(baseline, 0.99) * ms
        out["baseline_added_p50_ms"] = out["baseline_p50_ms"] - out["direct_p50_ms"]
        out["baseline_added_p99_ms"] = out["baseline_p99_ms"] - out["direct_p99_ms"]
        out["vs_baseline_p50_ms"] = out["proxied_p50_ms"] - out["baseline_p50_ms"]
        out["vs_baseline_p99_ms"] = out["proxied_p99_ms"] - out["baseline_p99_ms"]
    return {k: round(v, 3) for k, v in out.items()}


def cpu_seconds(pid: int | None) -> float | None:
    """utime + stime of a process (Linux /proc), None elsewhere."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def run(direct_base: str, proxy_base: str, model: str, proxy_model: str,
        concurrency: list[int], requests: int, rounds: int, max_tokens: int,
        sidecar_pid: int | None = None, rates: list[float] | None = None,
        floor_base: str | None = None, baseline_base: str | None = None) -> dict[str, Any]:
    """Every level: `c{N}` closed loop, or `c{N}@{R}rps` open loop at each of `rates`. With
    `floor_base` (a bare proxy in front of the same upstream) each batch runs a third time
    through it; with `baseline_base` (a sidecar of another checkout), once more through it."""
    results: dict[str, Any] = {}
    # Warm-up, not measured: the sidecar's first requests pay one-off costs (lazy imports,
    # the upstream session, the audit tables' first writes: up to ~0.4 s each, measured).
    for stream in (False, True):
        for base, m in ((direct_base, model), (proxy_base, proxy_model),
                        *(((floor_base, model),) if floor_base else ()),
                        *(((baseline_base, proxy_model),) if baseline_base else ())):
            asyncio.run(_batch(base, m, 20, 1, stream, max_tokens))
    for c in concurrency:
        for rate in rates or [None]:
            key = f"c{c}" if rate is None else f"c{c}@{rate:g}rps"
            results[key] = _level(direct_base, proxy_base, model, proxy_model, c, rate,
                                  requests, rounds, max_tokens, sidecar_pid, floor_base,
                                  baseline_base)
            level = results[key]
            load = f"{c:>3} clients" if rate is None else f"{c:>3} connections at {rate:g} req/s"
            typer.echo(f"{load}: added latency p50 {level['latency']['added_p50_ms']:.2f}"
                       f" ms, p99 {level['latency']['added_p99_ms']:.2f} ms; added TTFT p50 "
                       f"{level['ttft']['added_p50_ms']:.2f} ms; throughput proxied/direct "
                       f"{level['throughput_rps']['proxied']}/{level['throughput_rps']['direct']}"
                       f" req/s ({level['throughput_ratio']:.2f}x); sidecar CPU "
                       f"{level['latency'].get('sidecar_cpu_ms_per_request', float('nan')):.2f}"
                       " ms/request")
            if floor_base:  # NaN when no request got through the floor (see its errors)
                lat, nan = level["latency"], float("nan")
                typer.echo(f"{'':>{len(load)}}  a bare Python proxy adds p50 "
                           f"{lat.get('floor_added_p50_ms', nan):.2f} ms, p99 "
                           f"{lat.get('floor_added_p99_ms', nan):.2f} ms: the sidecar's own "
                           f"work {lat.get('own_p50_ms', nan):.2f} / "
                           f"{lat.get('own_p99_ms', nan):.2f} ms above it")
            if baseline_base:
                lat, nan = level["latency"], float("nan")
                typer.echo(f"{'':>{len(load)}}  the baseline sidecar adds p50 "
                           f"{lat.get('baseline_added_p50_ms', nan):.2f} ms, p99 "
                           f"{lat.get('baseline_added_p99_ms', nan):.2f} ms: this one "
                           f"{lat.get('vs_baseline_p50_ms', nan):+.2f} / "
                           f"{lat.get('vs_baseline_p99_ms', nan):+.2f} ms against it")
                vs = level.get("vs_baseline_throughput", {})
                per_round = vs.get("per_round") or [nan]
                typer.echo(f"{'':>{len(load)}}  throughput this/baseline "
                           f"{vs.get('ratio', nan):.3f}x (rounds {min(per_round):.3f}"
                           f"-{max(per_round):.3f}x)")
    return results


def _level(direct_base: str, proxy_base: str, model: str, proxy_model: str, c: int,
           rate: float | None, requests: int, rounds: int, max_tokens: int,
           sidecar_pid: int | None, floor_base: str | None = None,
           baseline_base: str | None = None) -> dict[str, Any]:
    n = max(requests, c * 4)
    sides = [("direct", direct_base, model), ("proxied", proxy_base, proxy_model)]
    if floor_base:
        sides.append(("floor", floor_base, model))
    if baseline_base:
        sides.append(("baseline", baseline_base, proxy_model))
    level: dict[str, Any] = {"loop": "closed" if rate is None else "open"}
    if rate is not None:
        level["offered_rps"] = rate
    for stream, label in ((False, "latency"), (True, "ttft")):
        acc: dict[str, list[float]] = {side: [] for side, _, _ in sides}
        wall = {side: 0.0 for side, _, _ in sides}
        round_rps: dict[str, list[float]] = {side: [] for side, _, _ in sides}
        errors: dict[str, Counter[str]] = {side: Counter() for side, _, _ in sides}
        cpu = 0.0
        for _ in range(rounds):  # alternate: a noisy minute weighs on every side
            for side, base, m in sides:
                c0 = cpu_seconds(sidecar_pid) if side == "proxied" else None
                times, dt, err = asyncio.run(_batch(base, m, n // rounds, c, stream,
                                                    max_tokens, rate))
                c1 = cpu_seconds(sidecar_pid) if side == "proxied" else None
                if c0 is not None and c1 is not None:
                    cpu += c1 - c0
                acc[side] += times
                wall[side] += dt
                round_rps[side].append(len(times) / dt if dt > 0 else 0.0)
                errors[side] += err
        level[label] = _summary(acc["direct"], acc["proxied"], acc.get("floor"),
                                acc.get("baseline"))
        level[label]["errors"] = {side: dict(c) for side, c in errors.items() if c}
        if sidecar_pid is not None and acc["proxied"]:
            level[label]["sidecar_cpu_ms_per_request"] = round(
                1000 * cpu / len(acc["proxied"]), 3)
        if not stream:
            level["throughput_rps"] = {s: round(len(acc[s]) / wall[s], 1) for s in wall}
            level["throughput_ratio"] = round(
                level["throughput_rps"]["proxied"] / level["throughput_rps"]["direct"], 3)
            if baseline_base:
                # Round by round (the same minute for both): their spread is the noise a
                # difference between the two sidecars has to stand out from.
                level["vs_baseline_throughput"] = {
                    "ratio": _ratio(level["throughput_rps"]["proxied"],
                                    level["throughput_rps"]["baseline"]),
                    "per_round": [_ratio(p, b) for p, b in zip(round_rps["proxied"],
                                                                round_rps["baseline"],
                                                                strict=True)]}
    return level


def _ratio(a: float, b: float) -> float:
    return round(a / b, 3) if b > 0 else float("nan")


def cli(
    json_path: Path | None = typer.Option(None, "--json", help="Write the results here."),
    upstream: str | None = typer.Option(None, help="Base URL (up to /v1) of a running "
                                        "upstream; default: start the bundled fake."),
    model: str = typer.Option("fake-target", help="The upstream's model name."),
    concurrency: str = typer.Option("1,16,64", help="Comma-separated concurrency levels."),
    requests: int = typer.Option(200, help="Requests per level and side (at least 4x the "
                                 "concurrency)."),
    rounds: int = typer.Option(2, min=1, help="Direct/proxied alternations per level."),
    max_tokens: int = typer.Option(16, min=1, help="Tokens per answer."),
    log_level: str = typer.Option("warning", help="The sidecar's uvicorn log level (info "
                                  "adds an access-log line per request)."),
    rate: list[float] = typer.Option([], "--rate", help="Open loop: requests scheduled at "
                                     "this many per second over each concurrency's "
                                     "connections, latency from the scheduled time "
                                     "(repeatable). Default: closed loop."),
    floor: bool = typer.Option(True, help="Also send every batch through a bare Python "
                               "proxy (the stack's floor on this machine) and report the "
                               "sidecar's own cost above it."),
    baseline: Path | None = typer.Option(None, help="Root of another checkout of this "
                                         "project (e.g. `git worktree add ../base main`): a "
                                         "second sidecar runs its code and every batch also "
                                         "goes through it, so a change is measured against "
                                         "it in one run."),
) -> None:
    """Sidecar overhead in front of an upstream: added latency p50/p99, added TTFT and
    throughput at each concurrency, direct vs proxied in one run. Closed loop (capacity) by
    default; `--rate` measures at fixed offered loads, as Istio's sidecar benchmark does."""
    import logging

    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request otherwise
    levels = [int(x) for x in concurrency.split(",") if x.strip()]
    if not levels or any(c < 1 for c in levels):
        raise typer.BadParameter("concurrency takes positive integers, e.g. 1,16,64")
    if any(not (0 < r < 1e6) for r in rate):
        raise typer.BadParameter("--rate takes requests per second, e.g. --rate 200")
    if baseline is not None:
        baseline = baseline.resolve()
        if not (baseline / "guardian" / "__init__.py").is_file():
            raise typer.BadParameter(f"{baseline} is not a checkout of spec-guardian (no "
                                     "guardian/__init__.py there)", param_hint="--baseline")
        if _native(ROOT) and not _native(baseline):
            typer.secho("warning: the baseline's C audit sealer is not built (guardian/audit/"
                        "_seal*.so): it seals in pure Python, this one does not", err=True,
                        fg=typer.colors.YELLOW)
    with tempfile.TemporaryDirectory(prefix="guardian-bench-proxy-") as tmp:
        home = Path(tmp)
        env = {k: v for k, v in os.environ.items() if not k.startswith("GUARDIAN_")}
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT),
                                             env.get("PYTHONPATH", "")])
        with _maybe_fake(upstream, env, home) as up:
            policy = home / "policy.yaml"
            pool = {"url": up, "model": model, "max_connections": 512, "max_keepalive": 256}
            policy.write_text(json.dumps({"routes": {"default": {
                "mode": "speculative", "gate": {"require_report": False},
                # Sized to the load: this measures overhead, not admission (429s) or shedding.
                "load_shed_queue_depth": 4 * max(levels), "max_queue": 4 * max(levels),
                "shadow": {"sample_rate": 0.0},
                "upstream": {"speculative": pool, "target_only": pool}}}}))
            port = _port()
            side_env = {**env, "GUARDIAN_HOME": str(home), "GUARDIAN_BACKEND": "upstream",
                        "GUARDIAN_POLICY_FILE": str(policy), "GUARDIAN_DEV_MODE": "1",
                        "GUARDIAN_MAX_CONNECTIONS": "1024"}
            cmd = _serve_cmd(port, log_level)
            typer.echo(f"upstream {up}; starting the sidecar on :{port} ...")
            with _process(cmd, side_env, f"http://127.0.0.1:{port}/readyz",
                          home / "sidecar.log", cwd=ROOT) as proc, _maybe_floor(
                              floor, up.removesuffix("/v1"), env, home) as floor_base, \
                    _maybe_baseline(baseline, side_env, home, log_level) as baseline_base:
                results = run(up.removesuffix("/v1"), f"http://127.0.0.1:{port}", model, model,
                              levels, requests, rounds, max_tokens, sidecar_pid=proc.pid,
                              rates=rate or None, floor_base=floor_base,
                              baseline_base=baseline_base)
    out = {"benchmark": "proxy", "upstream": upstream or "bundled fake",
           **({"baseline": str(baseline)} if baseline is not None else {}),
           "max_tokens": max_tokens, "sidecar_log_level": log_level,
           "python": sys.version.split()[0], "levels": results,
           "note": "added = proxied minus direct percentiles, same run, alternating batches; "
                   "open-loop levels (c{N}@{R}rps) count latency from the scheduled send"}
    if json_path:
        json_path.write_text(json.dumps(out, indent=2))
        typer.echo(f"wrote {json_path}")
    else:
        typer.echo(json.dumps(out, indent=2))


@contextmanager
def _maybe_floor(on: bool, upstream: str, env: dict[str, str],
                 home: Path) -> Iterator[str | None]:
    if not on:
        yield None
        return
    port = _port()
    cmd = [sys.executable, "-m", "guardian.devtools.benchmarks.bare_proxy", "--port", str(port),
           "--upstream", upstream]
    with _process(cmd, env, f"http://127.0.0.1:{port}/v1/models", home / "floor.log",
                  cwd=ROOT):
        yield f"http://127.0.0.1:{port}"


def _serve_cmd(port: int, log_level: str) -> list[str]:
    """`guardian serve` of the checkout the process starts in (`_process`'s `cwd`)."""
    return [sys.executable, "-c", "from guardian.cli import main; main()", "serve",
            "--port", str(port), "--log-level", log_level]


def _native(root: Path) -> bool:
    return any((root / "guardian" / "audit").glob("_seal*.so"))


@contextmanager
def _maybe_baseline(root: Path | None, side_env: dict[str, str], home: Path,
                    log_level: str) -> Iterator[str | None]:
    """A sidecar of the checkout at `root`, in its own home, with the same settings."""
    if root is None:
        yield None
        return
    base_home = home / "baseline"
    base_home.mkdir()
    port = _port()
    env = {**side_env, "GUARDIAN_HOME": str(base_home),
           "PYTHONPATH": os.pathsep.join([str(root), side_env.get("PYTHONPATH", "")])}
    with _process(_serve_cmd(port, log_level), env, f"http://127.0.0.1:{port}/readyz",
                  home / "baseline.log", cwd=root):
        yield f"http://127.0.0.1:{port}"


@contextmanager
def _maybe_fake(upstream: str | None, env: dict[str, str], home: Path) -> Iterator[str]:
    if upstream:
        yield upstream.rstrip("/")
        return
    port = _port()
    cmd = [sys.executable, "-m", "guardian.devtools.fake_upstream", "--port", str(port)]
    with _process(cmd, env, f"http://127.0.0.1:{port}/v1/models", home / "fake.log",
                  cwd=ROOT):
        yield f"http://127.0.0.1:{port}/v1"


__all__ = ["cli", "run"]
