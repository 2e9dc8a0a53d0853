"""`guardian bench audit`: per-token audit records/s into Postgres, production path vs naive.

Both run in the same process against the same (scratch) database:

* production: `AuditWriter.submit` of RequestEvents with full traces, then `flush` and wait
  until nothing is left in the spool - i.e. sealed (redaction + SHA-256 chain), batched,
  COPY'd and committed. The clock covers submit -> committed, after one warm-up request
  (outside the clock) has made the day's partitions, as a deployment makes them ahead.
* naive: one ORM `session.add(AuditToken(...))` + `commit()` per row (no hashing at all),
  on fewer rows, reported as rows/s.

* raw COPY (the ceiling): the same token rows (the canonical lines the sealer produced, of
  other chains) COPY'd into the same table over 2, 3, 4, 6 and the production path's number
  of connections, one transaction per `batch_rows` chunk - no queue, no sealing, no
  idempotency key, no request rows; the best of those runs is the ceiling.
  `production / raw_copy` says how close the production path gets to the database's own
  limit on this machine (goal >= 0.7).
* raw COPY beside a busy neighbour: the ceiling's run once more while another process keeps
  busy the share of a core the production process itself used (its CPU seconds per wall
  second). On a machine with no spare core this splits the production path's gap: what its
  own CPU costs the database (the neighbour run's shortfall) and what is left (waiting,
  round trips: production / that run).
* durability: C concurrent clients submit request events on a `sync` route (each waits for
  its future: sealed and fsync'd to the WAL, group commit) and on an `async` route (submit
  returns at once), in the same run; the latency each adds to a response, p50/p99, and how
  many events shared each fsync.

Also reported: sealing alone (CPU: redaction + hashing, no DB) and `verify` records/s, and
which sealer ran (`machine.sealer`: "c", the extension guardian/audit/_seal.c, or "python";
GUARDIAN_AUDIT_PURE_PYTHON=1 measures the Python one).
The machine is shared and noisy: compare the ratios of one run, not absolute figures
across runs.
"""

from __future__ import annotations

import json
import logging
import os
import platform
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import typer

log = logging.getLogger(__name__)


# A scratch database of synthetic records: the bench needs no deployment's secrets.
_BENCH_SECRETS = {"salt": "bench-only-salt-not-secret", "checkpoint_key": "bench-only-checkpoint-key"}


def _naive(url: str, rows: int) -> dict[str, Any]:
    from sqlalchemy.orm import Session

    from guardian.audit.models import AuditToken
    from guardian.core.db import make_engine

    db = make_engine(url)
    created = datetime.now(UTC)
    t0 = time.perf_counter()
    with Session(db) as session:
        for i in range(rows):
            session.add(AuditToken(
                chain_id="naive", seq=i + 1, prev_hash="0" * 64, hash="0" * 64,
                created_at=created, request_id=f"naive-{i // 256}", source="served",
                position=i % 256, token_id=i % 32000, token_hash=None, origin="accepted",
                draft_prob=0.5, target_prob=0.6, target_margin=1.0, step=i // 4, gamma=4))
            session.commit()
    dt = time.perf_counter() - t0
    db.dispose()
    return {"rows": rows, "seconds": round(dt, 3), "records_per_s": round(rows / dt, 1)}


def _raw_copy(url: str, lines: list[str], *, chunk_rows: int, connections: int
              ) -> dict[str, Any]:
    """COPY `lines` into audit_tokens over `connections` connections, one transaction per
    `chunk_rows` chunk: the database's ceiling for these rows (no sealing, no bookkeeping)."""
    from concurrent.futures import ThreadPoolExecutor

    import psycopg
    from sqlalchemy.engine import make_url

    from guardian.audit.store import _COPY_SQL

    u = make_url(url)
    conninfo = (f"host={u.host or '127.0.0.1'} port={u.port or 5432} "
                f"user={u.username or 'postgres'} dbname={u.database}"
                + (f" password={u.password}" if u.password else ""))
    chunks = ["".join(lines[i:i + chunk_rows]) for i in range(0, len(lines), chunk_rows)]
    conns = [psycopg.connect(conninfo) for _ in range(connections)]

    def load(i: int) -> None:
        conn = conns[i]
        for chunk in chunks[i::connections]:
            with conn.cursor() as cur, cur.copy(_COPY_SQL) as copy:
                copy.write(chunk)
            conn.commit()

    try:
        t0 = time.perf_counter()
        with ThreadPoolExecutor(connections) as pool:
            list(pool.map(load, range(connections)))
        dt = time.perf_counter() - t0
    finally:
        for c in conns:
            c.close()
    return {"rows": len(lines), "seconds": round(dt, 3), "records_per_s": round(len(lines) / dt, 1),
            "connections": connections, "rows_per_transaction": chunk_rows}


def _checkpoint(url: str) -> None:
    """A Postgres CHECKPOINT outside the clock, so each timed run starts with none pending
    (one falling inside a run costs it a third of its rate here). Needs superuser or
    pg_checkpoint; without, runs go on as they are."""
    import sqlalchemy as sa

    from guardian.core.db import make_engine

    db = make_engine(url)
    try:
        with db.connect() as conn:
            conn.execute(sa.text("CHECKPOINT"))
    except sa.exc.SQLAlchemyError as exc:
        log.info("no CHECKPOINT before the timed run: %s", exc)
    finally:
        db.dispose()


def _raw_ceiling(url: str, lines_for: Any, *, chunk_rows: int, connections: list[int],
                 ) -> dict[str, Any]:
    """The best raw COPY over each number of `connections`: the ceiling is the database's
    best on this machine, not its rate at the production path's connection count (more
    connections than cores can lower it). `lines_for(n)` makes each run's rows (the same
    records sealed as another chain: the table is append-only, so no run can clear it)."""
    runs = []
    for n in connections:
        lines = lines_for(n)
        _checkpoint(url)
        runs.append(_raw_copy(url, lines, chunk_rows=chunk_rows, connections=n))
    best = max(runs, key=lambda r: r["records_per_s"])
    return {**best, "by_connections": {str(r["connections"]): r["records_per_s"] for r in runs}}


# A neighbour process that keeps `duty` of one core busy (busy for duty x 10 ms, then sleeps).
_NEIGHBOUR = """
import sys, time
busy = float(sys.argv[1]) * 0.01
while True:
    t = time.perf_counter()
    while time.perf_counter() - t < busy:
        pass
    time.sleep(0.01 - busy)
"""


def _raw_beside(url: str, lines: list[str], *, chunk_rows: int, connections: int,
                duty: float) -> dict[str, Any]:
    """The raw COPY again while another process burns `duty` of a core - the CPU the
    production process itself used per wall second. If the production path's rate is close
    to this, what separates it from the ceiling is its own CPU on a machine with no spare
    core (sealing, encoding), not how it waits; if it is far below, it is the waiting."""
    import subprocess
    import sys

    duty = min(max(duty, 0.05), 0.95)
    neighbour = subprocess.Popen([sys.executable, "-c", _NEIGHBOUR, f"{duty:.3f}"])
    try:
        time.sleep(0.2)  # running before the clock starts
        run = _raw_copy(url, lines, chunk_rows=chunk_rows, connections=connections)
    finally:
        neighbour.kill()
        neighbour.wait()
    return {**run, "neighbour_core_share": round(duty, 3)}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _latency_run(url: str, spool: Path, mode: str, *, clients: int, per_client: int,
                 tokens: int) -> dict[str, Any]:
    """`clients` threads submit request events on a `mode` route; the latency each submit
    adds to its response (sync: until the future completes)."""
    import threading

    from guardian.audit import testing
    from guardian.audit.config import AuditSettings
    from guardian.audit.writer import AuditWriter

    cfg = AuditSettings(**_BENCH_SECRETS)
    writer = AuditWriter(url, spool_dir=spool, replica_id=f"bench-{mode}", config=cfg)
    time.sleep(0.2)
    latencies: list[float] = []
    lock = threading.Lock()

    def client(i: int) -> None:
        mine: list[float] = []
        for j in range(per_client):
            ev = testing.request_event(tokens, seed=j, request_id=f"{mode}-{i}-{j}")
            t0 = time.perf_counter()
            if mode == "sync":
                writer.submit_durable(ev).result(timeout=60)
            else:
                writer.submit(ev)
            mine.append(time.perf_counter() - t0)
            time.sleep(0.002)  # a client does other work between requests
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    delivered = writer.wait_delivered(120)
    stats = writer.stats()
    writer.close()
    out: dict[str, Any] = {
        "added_latency_p50_ms": round(_percentile(latencies, 0.5) * 1e3, 3),
        "added_latency_p99_ms": round(_percentile(latencies, 0.99) * 1e3, 3),
        "events_per_s": round(len(latencies) / wall, 1), "delivered": delivered}
    if mode == "sync":
        # fsyncs that released sync waiters: the WAL's, and the spool's while the DB was
        # slow or down (then the sealer spools, one fsync per sealed batch)
        out.update({"wal_fsyncs": stats["wal_fsyncs"], "sync_fsyncs": stats["sync_fsyncs"],
                    "spooled_batches": stats["spooled_batches"],
                    "events_per_fsync": round(stats["sync_events"]
                                              / max(1, stats["sync_fsyncs"]), 2),
                    "group_commit_window_ms": cfg.sync_window_s * 1e3})
    return out


def _fsync_probe(directory: Path, n: int = 50) -> dict[str, float]:
    """This disk's fsync latency for a small append (the floor under a sync route)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "fsync-probe"
    fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600)
    times: list[float] = []
    try:
        for _ in range(n):
            os.write(fd, b"x" * 4096)
            t0 = time.perf_counter()
            os.fsync(fd)
            times.append(time.perf_counter() - t0)
    finally:
        os.close(fd)
        path.unlink(missing_ok=True)
    return {"p50_ms": round(_percentile(times, 0.5) * 1e3, 3),
            "p99_ms": round(_percentile(times, 0.99) * 1e3, 3)}


def _durability(url: str, spool_root: Path, *, clients: int, per_client: int, tokens: int
                ) -> dict[str, Any]:
    """Added latency of `sync` vs `async` from the same clients, one after the other."""
    out: dict[str, Any] = {"clients": clients, "events_per_client": per_client,
                           "tokens_per_request": tokens, "fsync": _fsync_probe(spool_root)}
    for mode in ("async", "sync"):
        out[mode] = _latency_run(url, spool_root / mode, mode, clients=clients,
                                 per_client=per_client, tokens=tokens)
    return out


def cli(
    json_path: Path | None = typer.Option(None, "--json", help="Write the results here."),
    url: str | None = typer.Option(None, "--url", help="Postgres URL (default: "
                                   "GUARDIAN_DATABASE_URL, else postgresql://postgres@127.0.0.1"
                                   "/postgres). A scratch database is created next to it."),
    requests: int = typer.Option(1000, help="Requests submitted on the production path."),
    tokens: int = typer.Option(256, "--tokens-per-request", help="Emitted tokens per request."),
    naive_rows: int = typer.Option(2000, help="Rows for the one-INSERT-per-row ORM baseline."),
    redaction: str = typer.Option("full", help="Redaction mode of the submitted requests."),
    keep: bool = typer.Option(False, help="Keep the scratch database."),
    clients: int = typer.Option(8, help="Concurrent clients for the sync/async latency run."),
    per_client: int = typer.Option(50, help="Events each latency client submits."),
) -> None:
    """Audit write path: records/s into Postgres vs a raw COPY ceiling and a naive ORM
    baseline, and the latency a `sync` route adds (p50/p99) beside `async`, in one run."""
    import sqlalchemy as sa

    from guardian.audit import native, testing
    from guardian.audit.config import AuditSettings
    from guardian.audit.rows import Sealer, copy_lines
    from guardian.audit.verify import verify_db
    from guardian.audit.writer import AuditWriter
    from guardian.core.db import make_engine
    from guardian.devtools.benchmarks.scratch import scratch_postgres
    from guardian.settings import get_settings

    with scratch_postgres(url, keep=keep) as scratch:
        events = [testing.request_event(tokens, redaction=redaction, seed=i,  # type: ignore[arg-type]
                                        request_id=f"bench-{i}") for i in range(requests)]
        n_tokens = requests * tokens

        # CPU only: how fast the chain can be built (redaction + SHA-256 + COPY lines).
        sealer = Sealer("bench/seal", salt=b"bench", copy_lines=True)
        sealed: list[str] = []
        t0 = time.perf_counter()
        for i in range(0, len(events), 64):
            sealed += sealer.seal(events[i:i + 64]).token_lines
        seal_s = time.perf_counter() - t0
        del sealed  # the raw COPY runs below seal their own

        cfg = AuditSettings(queue_size=requests + 10, **_BENCH_SECRETS)
        spool_dir = Path(get_settings().spool_dir) / f"bench-{uuid.uuid4().hex[:8]}"
        writer = AuditWriter(scratch, spool_dir=spool_dir, replica_id="bench", config=cfg)
        # Outside the clock: the threads start, the pool connects, and one warm-up request
        # makes the day's partitions (a deployment makes them ahead, once a day; the raw COPY
        # below finds them made too).
        writer.submit(testing.request_event(1, request_id="bench-warm-up"))
        writer.wait_delivered(60)
        warm = writer.stats()
        _checkpoint(scratch)
        t0, cpu0 = time.perf_counter(), time.process_time()
        for ev in events:
            writer.submit(ev)
        delivered = writer.wait_delivered(600)
        prod_s = time.perf_counter() - t0
        prod_cpu = time.process_time() - cpu0  # this process: sealing + client side of the DB
        stats = writer.stats()
        for k in ("written_rows", "written_batches", "spooled_batches", "dropped_events"):
            stats[k] -= warm[k]  # the timed requests' share
        writer.close()
        db = make_engine(scratch)
        with db.connect() as conn:
            stored = conn.execute(sa.text("SELECT count(*) FROM audit_tokens WHERE request_id "
                                          "<> 'bench-warm-up'")).scalar_one()
            pg_version = conn.execute(sa.text("SHOW server_version")).scalar_one()
        t0 = time.perf_counter()
        rep = verify_db(db)
        verify_s = time.perf_counter() - t0
        db.dispose()
        # The ceiling, on the same table (partitions already made by the production run).
        def lines_for(n: int) -> list[str]:
            raw_sealer = Sealer(f"bench/raw-{n}", salt=b"bench", copy_lines=True)
            return [line for i in range(0, len(events), 64)
                    for line in copy_lines(raw_sealer.seal(events[i:i + 64]).token_lines)]

        raw = _raw_ceiling(scratch, lines_for, chunk_rows=cfg.batch_rows,
                           # the production path's count first, as before this change
                           connections=[cfg.db_writers, *sorted({2, 3, 4, 6} - {cfg.db_writers})])
        _checkpoint(scratch)
        beside = _raw_beside(scratch, lines_for(-1), chunk_rows=cfg.batch_rows,
                             connections=raw["connections"], duty=prod_cpu / prod_s)
        durability = _durability(scratch, spool_dir.parent / f"{spool_dir.name}-lat",
                                 clients=clients, per_client=per_client, tokens=min(tokens, 64))
        naive = _naive(scratch, naive_rows)
    prod_rps = n_tokens / prod_s
    result = {
        "benchmark": "audit_write_path",
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        # Load average: on a shared box the ratio is meaningful, absolute rows/s less so.
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "load_average_1m": round(os.getloadavg()[0], 2), "postgres": pg_version,
                    "db_writers": cfg.db_writers, "batch_rows": cfg.batch_rows,
                    "sealer": native.implementation(),  # "c" or "python" (guardian.audit.native)
                    "note": "shared, noisy machine (other engineers' jobs): compare ratios of "
                            "one run"},
        "workload": {"requests": requests, "tokens_per_request": tokens, "redaction": redaction},
        "production": {"token_records": n_tokens, "stored_token_records": stored,
                       "all_rows": stats["written_rows"], "seconds": round(prod_s, 3),
                       "records_per_s": round(prod_rps, 1), "delivered": delivered,
                       # ~1.0: the Python side (GIL) is the limit; << 1: waiting on Postgres
                       "process_cpu_over_wall": round(prod_cpu / prod_s, 2),
                       "batches": stats["written_batches"],
                       "spooled_batches": stats["spooled_batches"],
                       "dropped_events": stats["dropped_events"]},
        "sealing_only": {"records_per_s": round(n_tokens / seal_s, 1)},
        # With no spare core, sealing and Postgres's COPY work add up instead of overlapping:
        # the best the production path can then reach is 1 / (1/seal + 1/copy).
        "serial_bound_records_per_s": round(1 / (seal_s / n_tokens
                                                 + raw["seconds"] / raw["rows"]), 1),
        "verify": {"records": rep.records, "ok": rep.ok,
                   "records_per_s": round(rep.records / verify_s, 1)},
        "raw_copy_ceiling": raw,
        "production_over_raw_copy": round(prod_rps / raw["records_per_s"], 3),
        # The same raw COPY beside a process burning the production process's CPU share.
        "raw_copy_beside_busy_neighbour": beside,
        "raw_copy_beside_neighbour_over_ceiling": round(
            beside["records_per_s"] / raw["records_per_s"], 3),
        "production_over_raw_copy_beside_neighbour": round(
            prod_rps / beside["records_per_s"], 3),
        "goal_production_over_raw_copy": 0.7,
        "durability": durability,
        "naive_orm": naive,
        "ratio_production_over_naive": round(prod_rps / naive["records_per_s"], 1),
        "target_records_per_s": 100_000,
        "meets_target": prod_rps >= 100_000,
    }
    text = json.dumps(result, indent=2)
    typer.echo(text)
    if json_path is not None:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(text + "\n")
    if stored != n_tokens or not rep.ok:
        typer.secho("records missing or chain broken: the measurement is invalid", fg="red",
                    err=True)
        raise typer.Exit(1)
