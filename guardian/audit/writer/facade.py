"""The facade: `AuditWriter`, the public class, which owns the writer's state and threads.

Owns construction (every shared resource and piece of state, declared in `base.WriterState`,
and the threads: sealer, WAL committer, DB threads), the `AuditSink` side (`submit`,
`submit_durable`, governance acts' intents), `flush` / `close` / the waits, and introspection
(`stats`, `gauges`, `health`, `head`). The threads' work lives in the mixins it is made of:
`sealer`, `groupcommit`, `delivery`, `recovery`; the tickets, losses and counters in its
`Ledger` (`ledger`). The pipeline as a whole: the package docstring (`guardian.audit.writer`).
"""

from __future__ import annotations

import logging
import os
import queue
import socket
import threading
import time
import uuid
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from guardian.audit.config import AuditSettings
from guardian.audit.events import GovernanceEvent, RequestEvent, ShadowEvent
from guardian.audit.heads import HeadsConfig
from guardian.audit.rows import Event, Sealer
from guardian.audit.spool import IntentLog, Spool, WriteAheadLog
from guardian.audit.store import BatchStore
from guardian.audit.writer.base import AuditUnavailable, _settle
from guardian.audit.writer.delivery import DeliveryMixin
from guardian.audit.writer.groupcommit import GroupCommitMixin
from guardian.audit.writer.ledger import Ledger
from guardian.audit.writer.normalise import _intent_id, _reason
from guardian.audit.writer.recovery import RecoveryMixin
from guardian.audit.writer.sealer import _SEAL_CHUNK, SealerMixin
from guardian.core.db import make_engine

log = logging.getLogger(__package__)  # "guardian.audit.writer": the name records always had


def default_replica_id() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


class AuditWriter(SealerMixin, GroupCommitMixin, DeliveryMixin, RecoveryMixin):
    """`AuditSink` that persists to the audit DB (see the package docstring)."""

    def __init__(self, url: str, *, spool_dir: Path, replica_id: str | None = None,
                 config: AuditSettings | None = None, start: bool = True,
                 heads: HeadsConfig | None = None) -> None:
        self.cfg = config or AuditSettings()
        self.replica_id = replica_id or default_replica_id()
        self.chain_id = f"{self.replica_id}/{uuid.uuid4().hex[:12]}"
        # Signed tree heads (guardian.audit.heads): fed after each durable DB write.
        self.heads = heads.publisher(self.chain_id, self.replica_id) if heads else None
        self.db = make_engine(url, connect_timeout_s=self.cfg.connect_timeout_s,
                                  statement_timeout_ms=self.cfg.statement_timeout_ms)
        self.store = BatchStore(self.db)
        self.spool = Spool(spool_dir, self.chain_id, self.cfg.spool_max_bytes)
        self._sealer = Sealer(self.chain_id, salt=self.cfg.salt.encode(),
                              copy_lines=self.store.postgres)
        self._wal = WriteAheadLog(spool_dir, self.spool.name, self.cfg.wal_segment_bytes)
        self._intents = IntentLog(spool_dir, self.spool.name, self.chain_id)
        self._queue = queue.Queue(maxsize=self.cfg.queue_size)
        self._handoff = queue.Queue(maxsize=self.cfg.handoff_batches)
        # Tickets, the done watermark, the pending gap record and the counters.
        self._ledger = Ledger(actor=f"audit-writer:{self.chain_id}")
        self.counters = self._ledger.counters  # `stats()`
        self._flush_wanted = threading.Event()
        self._closing = threading.Event()
        self._wake = threading.Event()  # the sealer's wait is cut short (see sealer._SEAL_EVERY_S)
        self._wake_at = min(_SEAL_CHUNK, max(1, self.cfg.queue_size // 2))  # events queued
        self._sealer_done = threading.Event()
        self._down_since = None
        self._write_s = None  # smoothed seconds per successful batch write
        self._last_retry = 0.0
        # time.time() of the last write known durable (DB commit, spool or WAL fsync)
        self.last_durable_at = None
        self._failed = set()  # positions the last _seal could not seal
        self._recovered = threading.Event()  # dead writers' leftovers handled (or deferred)
        # Set while dead writers' leftovers wait for the DB: DB thread 0 retries them then.
        self._orphans_retry_at = None
        self._orphans_backoff = 0.0
        self._orphans_warned = False
        self._replay_lock = threading.Lock()
        self._final_replay_done = False
        self._probe_lock = threading.Lock()
        self._probed_at = float("-inf")
        self._probe_ok, self._probe_error = True, None
        # Several DB threads: Postgres parses/indexes each COPY in its own backend, so two
        # connections nearly double the rows/s the database takes (batches are independent).
        # Sync batches on their way to the WAL: (batch, tickets it completes, its waiters).
        self._wal_queue = queue.Queue()
        self._wal_done = threading.Event()
        self._threads = [threading.Thread(target=self._seal_loop, name="audit-sealer", daemon=True),
                         threading.Thread(target=self._wal_loop, name="audit-wal", daemon=True)]
        self._threads += [threading.Thread(target=self._db_loop, args=(i,), name=f"audit-db-{i}",
                                           daemon=True)
                          for i in range(self.cfg.db_writers if self.store.postgres else 1)]
        self._closed = False
        if start:
            self.start()

    def start(self) -> None:
        """Start the sealer and DB threads (done by the constructor unless start=False)."""
        for t in self._threads:
            t.start()

    # -- AuditSink ----------------------------------------------------------------------
    def submit(self, event: RequestEvent | ShadowEvent | GovernanceEvent) -> None:
        """Enqueue; never blocks. When the queue is full the event is dropped and declared."""
        self._enqueue(event, None)

    def submit_durable(self, event: RequestEvent | ShadowEvent | GovernanceEvent) -> Future[None]:
        """Enqueue for a `sync` route: the future completes once the event's sealed record is
        fsync'd (write-ahead log, or the spool), sharing the fsync with every sync event that
        arrived within `sync_window_s` (group commit). It fails with `AuditUnavailable` when
        the record cannot be made durable (queue full, spool full, disk error); the loss is
        declared in the chain as for async events. Never blocks."""
        fut: Future[None] = Future()
        self._enqueue(event, fut)
        return fut

    def expect_act(self, event_id: str) -> None:
        """Before a governance act changes state: its record's event id in the intent log, so
        a process killed before the record is durable leaves it for the next start to
        declare. Intent segments are kept while an act is under way. `settle_act` after."""
        self._ledger.act_started()
        self._intents.note(f"g:{event_id}")

    def settle_act(self, event_id: str, *, took_effect: bool) -> None:
        """The act's record was submitted (`took_effect`), or the act did not happen: then
        its intent is withdrawn (`x:`), so no start declares a loss for it."""
        if not took_effect:
            self._intents.note(f"x:{event_id}")
        self._ledger.act_settled()

    def _enqueue(self, event: Event, fut: Future[None] | None) -> None:
        if self._closed:
            raise RuntimeError("audit writer is closed; events submitted after close() are lost")
        ticket = self._ledger.issue()
        # After counting it: an intent segment rotated in between keeps this id (see IntentLog).
        self._intents.note(_intent_id(event))
        try:
            self._queue.put_nowait((event, fut, ticket))
            if fut is not None or self._queue.qsize() >= self._wake_at:
                self._wake.set()
        except queue.Full:
            if fut is not None:
                self._ledger.count("sync_failed")
                _settle(fut, AuditUnavailable(f"audit queue full ({self.cfg.queue_size} events)"))
            rid = getattr(event, "request_id", None) or getattr(event, "event_id", "?")
            self._ledger.dropped(rid, ticket)  # done once the drop's record is durable
            if self.counters["dropped_events"] % 1000 == 1:
                log.warning("audit queue full (%d events): dropped %s (%d dropped so far); "
                            "declared in the chain as an audit_gap record",
                            self.cfg.queue_size, rid, self.counters["dropped_events"])

    def flush(self, timeout_s: float = 10.0) -> None:
        """Wait until every event submitted so far is in the DB - or, while the DB is down,
        durable in the spool."""
        deadline = time.monotonic() + timeout_s
        if not self.wait_durable(timeout_s):
            log.warning("audit flush timed out after %.1fs (%d of %d events durable)",
                        timeout_s, self._ledger.done, self._ledger.submitted)
            return
        while self.spool.pending() and self._down_since is None and time.monotonic() < deadline:
            self._last_retry = 0.0  # the DB is up: replay what "slow" spooled, now
            time.sleep(0.02)

    def close(self, timeout_s: float = 30.0) -> None:
        """Flush, replay what the DB accepts, stop the threads; the rest stays spooled."""
        if self._closed:
            return
        self._closed = True
        deadline = time.monotonic() + timeout_s
        all_durable = self.wait_durable(timeout_s)
        self._closing.set()
        self._wake.set()
        for t in self._threads:
            if t.is_alive():
                t.join(max(0.1, deadline - time.monotonic()))
        # A batch lost while the threads were stopping is declared here, last.
        gap, gap_tickets = self._ledger.gap_event()
        batch = self._seal([gap]) if gap is not None else None
        if gap is not None and batch is not None:
            try:
                self._write(batch)
                self._ledger.mark_done(gap_tickets)
            except Exception as exc:
                self._went_down(exc)
                if self.spool.append(batch, headroom=True):
                    self._ledger.mark_done(gap_tickets)
                else:
                    log.critical("audit: could not record the loss %s anywhere", gap.details)
        leftover = self.spool.pending()
        self._wal.close()
        self._intents.close(all_durable)
        self.spool.close()
        self.db.dispose()
        if self.heads is not None:  # final head only when nothing waits in the spool
            self.heads.close(final=not leftover)
        log.info("audit writer %s closed: %s", self.chain_id, self.stats())

    # -- introspection ------------------------------------------------------------------
    def wait_durable(self, timeout_s: float) -> bool:
        deadline = time.monotonic() + timeout_s
        if any(t.is_alive() for t in self._threads[2:]):
            # A start's recovery (dead writers' spools, WAL, declared losses) comes first.
            self._recovered.wait(timeout_s)
        target = self._ledger.submitted_now()
        self._want_flush()
        return self._ledger.wait_low(target, deadline, poke=self._want_flush)

    def _want_flush(self) -> None:
        """Ask the sealer to close its batch now (a flush is waiting)."""
        self._flush_wanted.set()
        self._wake.set()

    def wait_delivered(self, timeout_s: float) -> bool:
        """Wait until the spool is empty too (everything is in the DB). For tests and close."""
        deadline = time.monotonic() + timeout_s
        if not self.wait_durable(timeout_s):
            return False
        while self.spool.pending() or not self._handoff.empty():
            if time.monotonic() > deadline:
                return False
            self._last_retry = 0.0  # retry now
            time.sleep(0.02)
        return True

    def stats(self) -> dict[str, Any]:
        return {**self.counters, "chain_id": self.chain_id, "queued": self._queue.qsize(),
                "spool_bytes": self.spool.bytes, "db_up": self._down_since is None}

    def gauges(self) -> dict[str, float | None]:
        """Point-in-time values for `/metrics` (`guardian.audit.metrics`); ages in seconds,
        None when it never happened."""
        now = time.time()
        spooled = self.spool.segment_count()
        return {"queue_depth": self._queue.qsize(), "handoff_depth": self._handoff.qsize(),
                "spool_bytes": self.spool.bytes, "spool_segments": spooled,
                "wal_bytes": self._wal.bytes,
                "last_durable_age_s": (None if self.last_durable_at is None
                                       else max(0.0, now - self.last_durable_at)),
                "last_signed_head_age_s": (
                    None if self.heads is None or self.heads.last_head_at is None
                    else max(0.0, time.monotonic() - self.heads.last_head_at)),
                "db_up": 1.0 if self._down_since is None else 0.0}

    def health(self, max_age_s: float = 5.0) -> dict[str, Any]:
        """Whether the database answers (probed at most every `max_age_s`; blocks up to the
        connect timeout, so call it off the event loop) and how much is spooled.

        `db_up` is False while the writer is spooling after a failed write, or when a
        `SELECT 1` fails: an idle writer would otherwise not notice an unreachable database.
        """
        now = time.monotonic()
        if now - self._probed_at >= max_age_s and self._probe_lock.acquire(blocking=False):
            try:
                import sqlalchemy as sa

                try:
                    with self.db.connect() as conn:
                        conn.execute(sa.text("SELECT 1"))
                    self._probe_ok, self._probe_error = True, None
                except Exception as exc:
                    self._probe_ok, self._probe_error = False, _reason(exc)
                self._probed_at = time.monotonic()
            finally:
                self._probe_lock.release()
        db_up = self._probe_ok and self._down_since is None
        return {"db_up": db_up, "spooling": not db_up or self.spool.pending(),
                "spool_bytes": self.spool.bytes, "queued": self._queue.qsize(),
                "error": None if db_up else self._probe_error or "writes are failing"}

    @property
    def head(self) -> tuple[int, str]:
        return self._sealer.head

