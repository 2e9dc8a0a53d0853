"""Writing one sealed batch to the database, atomically and idempotently.

One transaction per batch: first the batch's idempotency key goes into `audit_batches` with
ON CONFLICT DO NOTHING; if it was already there (a replay of a batch whose commit
acknowledgement was lost) the batch is skipped, so replays never duplicate. Then the request,
shadow and governance rows (multi-row INSERT) and the per-token rows: Postgres `COPY ... FROM
STDIN` with the canonical lines the sealer already hashed; SQLite executemany.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import UTC, date, datetime

import sqlalchemy as sa
from sqlalchemy import Engine
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from guardian.audit.models import (
    AuditBatch,
    AuditChain,
    AuditGovernance,
    AuditRequest,
    AuditShadow,
    AuditToken,
)
from guardian.audit.partitions import ensure_partitions
from guardian.audit.rows import TOKEN_COLUMNS, SealedBatch

log = logging.getLogger(__name__)

_COPY_SQL = f"COPY audit_tokens ({', '.join(TOKEN_COLUMNS)}) FROM STDIN"
_COPY_CHUNK_CHARS = 4 << 20  # characters per write
_SQLITE_INSERT = (f"INSERT INTO audit_tokens ({', '.join(TOKEN_COLUMNS)}) "
                  f"VALUES ({', '.join('?' * len(TOKEN_COLUMNS))})")
_TS = TOKEN_COLUMNS.index("created_at")
# Paced SQLite writes (`write(..., paced=True)`: the DB thread with nothing else waiting).
# Token rows go in slices of this many (request rows in slices of
# `_SQLITE_REQUEST_SLICE_ROWS`: one-client p99 a further 0.39 ms lower, median of 8
# side-by-side runs, 7 of them lower), with a pause between. A batch of ~100 requests is
# ~1,600 rows, 8-15 ms of one core in a single `executemany`; on a 2-core machine a request
# that wakes while it runs waits for a core (79 % of the slowest 1 % of one-client proxied
# requests overlapped such a write, against 6 % of all). Slices of ~1 ms of work with a pause
# between let the serving thread in: one-client p99 0.2-1.3 ms lower in 13 of 14 side-by-side
# runs (docs/benchmarks/proxy.md). One transaction still, so the pauses hold
# SQLite's write lock: at most `_SQLITE_MAX_PAUSES` a batch (the rest goes in at once), and
# none after a pause that overslept by `_SQLITE_OVERSHOOT_S` - with another Python thread
# busy a 0.5 ms sleep returns only after the GIL's switch interval (~5 ms), and pausing
# would only halve the writer's pace while other writers wait for the lock.
_SQLITE_SLICE_ROWS = 200
_SQLITE_SLICE_PAUSE_S = 0.0005
_SQLITE_MAX_PAUSES = 8
_SQLITE_OVERSHOOT_S = 0.002
_SQLITE_REQUEST_SLICE_ROWS = 32  # request/shadow/governance rows: ~1 ms through SQLAlchemy
_pause = time.sleep
_clock = time.monotonic


class _Pacer:
    """The pauses of one paced SQLite write: at most `_SQLITE_MAX_PAUSES`, and none after
    one that overslept by `_SQLITE_OVERSHOOT_S`. Unpaced: no pause, no slices."""

    def __init__(self, paced: bool) -> None:
        self.left = _SQLITE_MAX_PAUSES if paced else 0

    def __bool__(self) -> bool:
        return self.left > 0

    def pause(self) -> None:
        if self.left <= 0:
            return
        self.left -= 1
        t0 = _clock()
        _pause(_SQLITE_SLICE_PAUSE_S)
        if _clock() - t0 > _SQLITE_OVERSHOOT_S:
            self.left = 0  # the process is busy: pausing would only hold the lock

    def sliced(self, rows: list, size: int, write: Callable[[list], object]) -> None:
        """`write` every slice of `size` rows, pausing between them; all at once unpaced
        (or once the pauses are spent)."""
        start = 0
        while start < len(rows):
            end = start + size if self else len(rows)
            write(rows[start:end])
            start = end
            if start < len(rows):
                self.pause()


class BatchStore:
    """Writes sealed batches to one database; remembers which token partitions exist."""

    def __init__(self, db: Engine) -> None:
        self.db = db
        self.postgres = db.dialect.name == "postgresql"
        self._days: set[date] = set()
        self._insert = pg_insert if self.postgres else sqlite_insert

    def _ensure_days(self, batch: SealedBatch) -> None:
        days = {r["created_at"].astimezone(UTC).date() for r in (*batch.requests, *batch.shadow)}
        missing = days - self._days
        if missing:
            # Own short transaction: creating a partition locks the parent table.
            with self.db.begin() as conn:
                ensure_partitions(conn, missing)
            self._days |= missing

    def write(self, batch: SealedBatch, *, paced: bool = False) -> bool:
        """Write `batch`; False when it was already written (idempotent replay). `paced`:
        SQLite rows in paced slices (see `_SQLITE_SLICE_ROWS`) - for a writer with slack,
        never for a backlog or a replay."""
        if self.postgres and batch.token_lines:
            self._ensure_days(batch)
        with self.db.begin() as conn:
            if batch.first_seq == 1:
                conn.execute(self._insert(AuditChain.__table__).values(
                    chain_id=batch.chain_id, replica_id=batch.chain_id.rsplit("/", 1)[0],
                    started_at=datetime.now(UTC)).on_conflict_do_nothing())
            fresh = conn.execute(self._insert(AuditBatch.__table__).values(
                chain_id=batch.chain_id, first_seq=batch.first_seq, last_seq=batch.last_seq,
                n_rows=batch.n_rows, written_at=datetime.now(UTC),
            ).on_conflict_do_nothing().returning(AuditBatch.__table__.c.chain_id)).first()
            if fresh is None:
                log.info("batch %s:%d-%d already written; skipped", batch.chain_id,
                         batch.first_seq, batch.last_seq)
                return False
            pacer = _Pacer(paced and not self.postgres)
            for table, rows in ((AuditRequest.__table__, batch.requests),
                                (AuditShadow.__table__, batch.shadow),
                                (AuditGovernance.__table__, batch.governance)):
                if rows:
                    pacer.sliced(rows, _SQLITE_REQUEST_SLICE_ROWS,
                                 lambda part, t=table: conn.execute(sa.insert(t), part))
            if batch.token_lines:
                self._copy(conn, batch.token_lines)
            if batch.token_rows:
                if batch.requests or batch.shadow or batch.governance:
                    pacer.pause()
                self._sqlite_tokens(conn, batch.token_rows, pacer)
        return True

    @staticmethod
    def _sqlite_tokens(conn: sa.Connection, rows: list[tuple], pacer: _Pacer | None = None,
                       ) -> None:
        """executemany of the token tuples through the driver: SQLAlchemy's per-row parameter
        processing held the GIL for milliseconds per batch, time the serving event loop
        waited for (the proxy's p99). Timestamps are formatted by SQLAlchemy's own bind
        processor for the column, once per request, so they are stored exactly as before.
        With a `pacer`: in slices with pauses between (see `_SQLITE_SLICE_ROWS`)."""
        ts = (AuditToken.__table__.c.created_at.type.dialect_impl(conn.dialect)
              .bind_processor(conn.dialect))
        formatted: dict[datetime, object] = {}
        out = []
        for r in rows:
            t = r[_TS]
            v = formatted.get(t)
            if v is None:
                v = formatted[t] = ts(t) if ts is not None else t
            out.append((*r[:_TS], v, *r[_TS + 1:]))
        (pacer or _Pacer(False)).sliced(out, _SQLITE_SLICE_ROWS,
                                        lambda part: conn.exec_driver_sql(_SQLITE_INSERT, part))

    @staticmethod
    def _copy(conn: sa.Connection, texts: list[str]) -> None:
        """COPY the batch's token text (`SealedBatch.token_lines`: whole lines per item),
        joined into writes of about `_COPY_CHUNK_CHARS` (a batch is bounded by `batch_rows`,
        so a write is at most one more copy of part of it)."""
        dbapi = conn.connection.driver_connection
        with dbapi.cursor() as cur, cur.copy(_COPY_SQL) as copy:
            start, size = 0, 0
            for i, text in enumerate(texts):
                size += len(text)
                if size >= _COPY_CHUNK_CHARS:
                    copy.write("".join(texts[start:i + 1]))
                    start, size = i + 1, 0
            if start < len(texts):
                copy.write("".join(texts[start:]))
