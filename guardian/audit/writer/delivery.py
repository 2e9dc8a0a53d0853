"""Delivery: the DB threads, the spool while the database is down or slow, and its replay.

Owns the way from a sealed batch to durable storage: `_dispatch` (a DB thread's hand-off
queue, or the spool when the database is down or slow), `_db_loop` (the DB threads; thread 0
first runs the recovery of dead writers' files, `recovery`), `_deliver` / `_write` (one
idempotent transaction; a batch the database rejects is split per event and the rejected
part quarantined, `_quarantine`), `_to_spool` (fsync'd; a full spool declares the batch
lost), the down/up switch (`_went_down`) and the spool's replay (`_maybe_replay`).
"""

from __future__ import annotations

import logging
import queue
import time
from concurrent.futures import Future

from guardian.audit.chain import decode_text
from guardian.audit.rows import SealedBatch
from guardian.audit.spool import read_segment
from guardian.audit.writer.base import AuditUnavailable, WriterState, _settle
from guardian.audit.writer.ledger import Tickets

log = logging.getLogger(__package__)  # "guardian.audit.writer": the name records always had


def _permanent(exc: BaseException) -> bool:
    """True when the database rejected the data itself (retrying cannot help).

    Binding errors raised in the driver before anything reaches the server (a string it
    cannot encode, a value of the wrong type) are data errors too: treating them as "DB down"
    would spool and replay the same batch forever, blocking every later one.
    """
    import psycopg
    import sqlalchemy.exc as sa_exc

    if isinstance(exc, sa_exc.StatementError) and not isinstance(exc, sa_exc.DBAPIError):
        exc = exc.orig if exc.orig is not None else exc
    return isinstance(exc, sa_exc.DataError | sa_exc.IntegrityError | psycopg.DataError
                      | psycopg.IntegrityError | UnicodeError | ValueError | TypeError)


class DeliveryMixin(WriterState):
    """The DB threads and the spool of `AuditWriter` (see the package docstring)."""

    def _dispatch(self, batch: SealedBatch, tickets: Tickets, segment: int | None,
                  wait_s: float = 0.0) -> None:
        """To a DB thread unless the DB is down or slow (then the spool). `segment`: the
        batch's WAL copy, released once it is in the DB or the spool. `wait_s`: how long to
        wait for room in the hand-off queue. Sync waiters never come here (`_hand_off`)."""
        if not self.spool.pending():
            try:
                if wait_s > 0.0 and not self._closing.is_set():
                    self._handoff.put((batch, tickets, segment), timeout=wait_s)
                else:
                    self._handoff.put_nowait((batch, tickets, segment))
                return
            except queue.Full:
                log.warning("audit DB is slow (%d batches waiting): spooling batch %d-%d",
                            self.cfg.handoff_batches, batch.first_seq, batch.last_seq)
        if self._to_spool(batch, tickets) and segment is not None:
            self._wal.release(segment)

    def _to_spool(self, batch: SealedBatch, tickets: Tickets,
                  waiters: list[Future[None]] | None = None, *, declare: bool = True) -> bool:
        """Spool `batch` (fsync'd); False when the spool refused it (declared lost, unless
        `declare` is False: the caller declares it with the rest of its batch). A batch that
        also has a WAL copy keeps it then: the next start replays it."""
        gap_only = not (batch.requests or batch.shadow or batch.token_lines or batch.token_rows)
        lost = not self.spool.append(batch, headroom=gap_only)
        if not lost:
            self._ledger.count("spooled_batches")
            self._ledger.count("spooled_rows", batch.n_rows)
            self.last_durable_at = time.time()
            if waiters:
                self._ledger.count("sync_events", len(waiters))
                self._ledger.count("sync_fsyncs")
            for f in waiters or ():
                _settle(f)
        else:
            if declare:
                self._ledger.lost(batch, tickets)  # done when the loss's record is durable
            if waiters:
                self._ledger.count("sync_failed", len(waiters))
            for f in waiters or ():
                _settle(f, AuditUnavailable("the audit spool is full or unwritable"))
            return False
        self._ledger.mark_done(tickets)
        return True

    def _deliver(self, batch: SealedBatch, *, paced: bool = False,
                 tickets: Tickets | None = None) -> tuple[bool, bool]:
        """Write `batch`. Transient errors (DB down, timeouts) propagate: the caller spools.
        `paced`: SQLite token rows in paced slices (`BatchStore.write`), for a DB thread with
        nothing else waiting.

        A *permanent* error (the DB rejects the data itself) must not block the pipeline
        forever: the batch is split per event, the good events are written, and each rejected
        one is quarantined (`<spool>/rejected/`, fsync'd, for forensics) and declared lost in
        the chain. A transient error in the middle spools the parts not yet written.

        Returns (the database still answers, some part's loss is declared only in the
        pending gap record): then the batch's `tickets` went into that record with the
        declaration, at the end (every part written, spooled or quarantined by then), and are
        done once it is durable.
        """
        try:
            self._write(batch, paced=paced)
            return True, False
        except Exception as exc:
            if not _permanent(exc):
                raise
            cause: Exception = exc
        parts = batch.split() if batch.requests or batch.shadow or batch.governance else []
        for part in parts:  # split() takes ids from the stored rows: back to what was sent
            part.request_ids = [decode_text(r) for r in part.request_ids]
        if len(parts) <= 1:
            self._ledger.declare([(batch, self._quarantine(batch, cause))], [], tickets or [])
            return True, True
        rejected: list[tuple[SealedBatch, str]] = []
        lost: list[SealedBatch] = []
        still_up = True
        for i, part in enumerate(parts):
            try:
                self._write(part)
            except Exception as exc:
                if not _permanent(exc):
                    self._went_down(exc)
                    lost = [rest for rest in parts[i:]
                            if not self._to_spool(rest, [], declare=False)]
                    still_up = False
                    break
                rejected.append((part, self._quarantine(part, exc)))
        if rejected or lost:
            self._ledger.declare(rejected, lost, tickets or [])
        return still_up, bool(rejected or lost)

    def _quarantine(self, batch: SealedBatch, exc: BaseException) -> str:
        """Keep `batch` aside (`<spool>/rejected/`) -> why the database refused it; the
        caller declares it lost."""
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        log.error("audit DB rejected batch %s:%d-%d (%s); quarantined under %s/rejected and "
                  "declared lost in the chain", batch.chain_id, batch.first_seq, batch.last_seq,
                  reason, self.spool.dir)
        try:
            self.spool.quarantine(batch, reason)
        except OSError as err:
            log.error("could not quarantine batch %d-%d: %s", batch.first_seq, batch.last_seq, err)
        return reason

    def _write(self, batch: SealedBatch, *, paced: bool = False) -> None:
        t0 = time.monotonic()
        fresh = self.store.write(batch, paced=paced)
        # The DB's own pace, for the sealer's patience (`_handoff_wait`).
        took = time.monotonic() - t0
        self._write_s = took if self._write_s is None else 0.7 * self._write_s + 0.3 * took
        if fresh:
            self._ledger.count("written_rows", batch.n_rows)
            self._ledger.count("written_batches")
        else:
            self._ledger.count("duplicate_batches")
        self.last_durable_at = time.time()
        if self.heads is not None:  # durably in the DB (a duplicate was, earlier)
            self.heads.observe(batch)

    def _db_loop(self, index: int) -> None:
        if index == 0:
            try:
                self._replay_orphans()
            finally:
                self._recovered.set()
        while True:
            try:
                batch, tickets, segment = self._handoff.get(timeout=0.05)
            except queue.Empty:
                if (index == 0 and self._orphans_retry_at is not None
                        and time.monotonic() >= self._orphans_retry_at):
                    self._replay_orphans()  # the DB was down at start: retried while running
                shutting_down = self._sealer_done.is_set() and self._wal_done.is_set()
                if self.spool.pending() and self._replay_lock.acquire(blocking=False):
                    try:
                        self._maybe_replay(force=shutting_down and not self._final_replay_done)
                        if shutting_down:
                            self._final_replay_done = True
                    finally:
                        self._replay_lock.release()
                if shutting_down and self._handoff.empty() and (
                        not self.spool.pending() or self._final_replay_done):
                    return  # anything still spooled is replayed by the next start
                continue
            kept = True  # in the DB or the spool (or rejected for good): the WAL copy may go
            try:
                if self._down_since is not None and self.spool.pending():
                    # Keep the spool first in line; the replay retries the DB.
                    raise ConnectionError("database marked down")
                # Paced only with no batch waiting behind this one: a backlog goes flat out.
                still_up, declared = self._deliver(batch, paced=self._handoff.empty(),
                                                   tickets=tickets)
                if still_up:  # (a transient error part way through has marked it down)
                    self._down_since = None
                if not declared:  # else done once the record declaring the loss is durable
                    self._ledger.mark_done(tickets)
            except Exception as exc:  # any DB failure: the spool takes over
                self._went_down(exc)
                kept = self._to_spool(batch, tickets)
            finally:
                if segment is not None and kept:
                    self._wal.release(segment)

    def _went_down(self, exc: BaseException) -> None:
        if self._down_since is None:
            self._down_since = time.monotonic()
            self._last_retry = time.monotonic()
            log.warning("audit DB unavailable (%s); spooling to %s until it answers",
                        str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
                        self.spool.dir)

    def _maybe_replay(self, force: bool = False) -> None:
        if not force and time.monotonic() - self._last_retry < self.cfg.retry_interval_s:
            return
        self._last_retry = time.monotonic()
        for path in self.spool.rotate():
            try:
                for batch in read_segment(path):
                    still_up, _ = self._deliver(batch)
                    self._ledger.count("replayed_batches")
                    if not still_up:  # its unwritten parts are spooled again; the rest of
                        return        # this segment waits (writes are idempotent)
            except Exception as exc:
                self._went_down(exc)
                return
            self.spool.remove(path)
        if self._down_since is not None:
            log.info("audit DB back after %.1fs; spool replayed",
                     time.monotonic() - self._down_since)
            self._down_since = None
