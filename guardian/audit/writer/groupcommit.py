"""Group commit: the WAL thread that makes sync batches durable with one write + fsync.

Owns `_wal_loop`: every sync batch waiting (`_wal_queue`, filled by the sealer) is appended to
the write-ahead log with ONE write + fsync (`spool.WriteAheadLog.append_many`), its waiters
are released, and the batches go on to the DB threads (`delivery._dispatch`), consecutive
ones merged into one transaction. When the WAL cannot be written they go to the spool, whose
own fsync releases (or fails) their waiters.
"""

from __future__ import annotations

import logging
import queue
import time

from guardian.audit.rows import SealedBatch
from guardian.audit.writer.base import WriterState, _merge, _settle
from guardian.audit.writer.ledger import Tickets

log = logging.getLogger(__package__)  # "guardian.audit.writer": the name records always had


class GroupCommitMixin(WriterState):
    """The WAL committer thread of `AuditWriter` (see the package docstring)."""

    def _wal_loop(self) -> None:
        """Group commit: every sync batch waiting is written with ONE write + fsync, then its
        waiters are released and the batches go on to the DB threads."""
        while True:
            try:
                items = [self._wal_queue.get(timeout=0.05)]
            except queue.Empty:
                if self._sealer_done.is_set() and self._wal_queue.empty():
                    self._wal_done.set()
                    return
                continue
            while True:
                try:
                    items.append(self._wal_queue.get_nowait())
                except queue.Empty:
                    break
            try:
                segment: int | None = self._wal.append_many([b for b, _, _ in items])
            except OSError as exc:
                log.error("audit write-ahead log append failed (%s); using the spool", exc)
                segment = None
            if segment is None:
                for batch, tickets, waiters in items:
                    self._to_spool(batch, tickets, waiters)
                continue
            self._ledger.count("wal_fsyncs")
            self._ledger.count("sync_fsyncs")
            self.last_durable_at = time.time()
            for _, _, waiters in items:
                self._ledger.count("sync_events", len(waiters))
                for f in waiters:
                    _settle(f)
            # Consecutive small batches go on as one: one DB transaction, not one each. Each
            # merged batch still holds one WAL reference per part.
            runs: list[list[tuple[SealedBatch, Tickets]]] = []
            for batch, tickets, _ in items:
                if runs and runs[-1][-1][0].last_seq + 1 == batch.first_seq:
                    runs[-1].append((batch, tickets))
                else:
                    runs.append([(batch, tickets)])
            for run in runs:
                for _ in run[1:]:
                    self._wal.release(segment)
                merged = _merge([b for b, _ in run])
                assert merged is not None
                self._dispatch(merged, [t for _, ts in run for t in ts], segment)

