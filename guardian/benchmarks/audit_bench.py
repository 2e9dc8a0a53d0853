"""`guardian bench audit`: per-token audit records/s into Postgres, production path vs naive.

Both run in the same process against the same (scratch) database:

* production: `AuditWriter.submit` of RequestEvents with full traces, then `flush` and wait
  until nothing is left in the spool - i.e. sealed (redaction + SHA-256 chain), batched,
  COPY'd and committed. The clock covers submit -> committed.
* naive: one ORM `session.add(AuditToken(...))` + `commit()` per row (no hashing at all),
  on fewer rows, reported as rows/s.

Also reported: sealing alone (CPU: redaction + hashing, no DB) and `verify` records/s.
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


def _naive(url: str, rows: int) -> dict[str, Any]:
    from sqlalchemy.orm import Session

    from guardian.audit.models import AuditToken
    from guardian.db import make_engine

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
) -> None:
    """Audit write path: per-token records/s into Postgres vs a naive ORM baseline (ratio)."""
    import sqlalchemy as sa

    from guardian.audit import testing
    from guardian.audit.config import AuditSettings
    from guardian.audit.rows import Sealer
    from guardian.audit.verify import verify_db
    from guardian.audit.writer import AuditWriter
    from guardian.benchmarks.scratch import scratch_postgres
    from guardian.db import make_engine
    from guardian.settings import get_settings

    with scratch_postgres(url, keep=keep) as scratch:
        events = [testing.request_event(tokens, redaction=redaction, seed=i,  # type: ignore[arg-type]
                                        request_id=f"bench-{i}") for i in range(requests)]
        n_tokens = requests * tokens

        # CPU only: how fast the chain can be built (redaction + SHA-256 + COPY lines).
        sealer = Sealer("bench/seal", salt=b"bench", copy_lines=True)
        t0 = time.perf_counter()
        for i in range(0, len(events), 64):
            sealer.seal(events[i:i + 64])
        seal_s = time.perf_counter() - t0

        cfg = AuditSettings(queue_size=requests + 10)
        spool_dir = Path(get_settings().spool_dir) / f"bench-{uuid.uuid4().hex[:8]}"
        writer = AuditWriter(scratch, spool_dir=spool_dir, replica_id="bench", config=cfg)
        time.sleep(0.2)  # let the threads start and the pool connect outside the clock
        t0 = time.perf_counter()
        for ev in events:
            writer.submit(ev)
        delivered = writer.wait_delivered(600)
        prod_s = time.perf_counter() - t0
        stats = writer.stats()
        writer.close()
        db = make_engine(scratch)
        with db.connect() as conn:
            stored = conn.execute(sa.text("SELECT count(*) FROM audit_tokens")).scalar_one()
            pg_version = conn.execute(sa.text("SHOW server_version")).scalar_one()
        t0 = time.perf_counter()
        rep = verify_db(db)
        verify_s = time.perf_counter() - t0
        db.dispose()
        naive = _naive(scratch, naive_rows)
    prod_rps = n_tokens / prod_s
    result = {
        "benchmark": "audit_write_path",
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        # Load average: on a shared box the ratio is meaningful, absolute rows/s less so.
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "load_average_1m": round(os.getloadavg()[0], 2), "postgres": pg_version,
                    "db_writers": cfg.db_writers, "batch_rows": cfg.batch_rows},
        "workload": {"requests": requests, "tokens_per_request": tokens, "redaction": redaction},
        "production": {"token_records": n_tokens, "stored_token_records": stored,
                       "all_rows": stats["written_rows"], "seconds": round(prod_s, 3),
                       "records_per_s": round(prod_rps, 1), "delivered": delivered,
                       "batches": stats["written_batches"],
                       "spooled_batches": stats["spooled_batches"],
                       "dropped_events": stats["dropped_events"]},
        "sealing_only": {"records_per_s": round(n_tokens / seal_s, 1)},
        "verify": {"records": rep.records, "ok": rep.ok,
                   "records_per_s": round(rep.records / verify_s, 1)},
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
