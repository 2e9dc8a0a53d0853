"""The sealer thread: batching, sealing (hash-linking) and handing sealed batches on.

Owns the seal loop (`_seal_loop`: batches by count, rows and time, sealing as events come in
slices), `_seal` / `_seal_part` (a batch sealed whole, or event by event when one cannot be
sealed: `_unsealable` quarantines and declares it), the chain head's restore after a failed
seal, and the hand-off of each batch: sync batches to the group commit (`groupcommit`),
the rest to a DB thread or the spool (`delivery._dispatch`), waiting at most `_handoff_wait`
for a busy database. It also rotates and collects the intent log's segments.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import queue
import time
from concurrent.futures import Future

from guardian.audit.rows import Event, SealedBatch, Sealer
from guardian.audit.writer.base import AuditUnavailable, WriterState, _merge, _settle
from guardian.audit.writer.ledger import Tickets
from guardian.audit.writer.normalise import _event_id, _reason, _storable

log = logging.getLogger(__package__)  # "guardian.audit.writer": the name records always had

_INTENT_ROTATE_S = 1.0  # how often the intent log starts a new segment
_MAX_HANDOFF_WAIT_S = 2.0  # cap on the sealer's patience with a busy DB (`_handoff_wait`)
# While a batch is being collected, what has come in is sealed every _SEAL_EVERY_S or
# _SEAL_CHUNK events, whichever is first: small slices of GIL time, few wake-ups.
_SEAL_CHUNK = 64
_SEAL_EVERY_S = 0.02
# The sealer takes what has come in every _SEAL_EVERY_S, not at each event: a thread blocked
# in Queue.get is woken by every put (a futex wake on the serving thread, then a GIL hand-off
# per request). Waits are cut short by `_wake`, set for what must not wait: a synchronous
# event (group commit), a flush, closing, and a queue that reached a seal chunk (or half its
# capacity, when that is smaller: a small queue must not fill while the sealer waits).


class SealerMixin(WriterState):
    """The sealer thread of `AuditWriter` (see the package docstring)."""

    def _seal_loop(self) -> None:
        """Collect a batch (count, rows or time), sealing events as they come in slices
        (`_SEAL_EVERY_S`, `_SEAL_CHUNK`): the GIL time sealing takes is spread over the
        interval. Sealing a whole interval's events at its end held the serving event loop
        back by milliseconds at a time (the proxy's p99); a burst still seals in big chunks."""
        cfg = self.cfg
        rotated = time.monotonic()
        while True:
            parts: list[SealedBatch] = []
            waiters: list[Future[None]] = []  # of the events sealed into `parts`
            pending: list[Event] = []
            pending_tickets: Tickets = []
            futs: list[tuple[int, Future[None]]] = []  # (position in pending, its waiter)
            sealed: Tickets = []  # tickets of the events sealed into `parts`
            failed: Tickets = []  # ... and of those that could not be sealed
            n_events = rows = 0
            deadline = chunk_until = time.monotonic() + cfg.flush_interval_s
            while n_events + len(pending) < cfg.batch_events and rows < cfg.batch_rows:
                left = deadline - time.monotonic()
                if self._flush_wanted.is_set() and self._queue.empty():
                    break
                try:
                    ev, fut, ticket = self._queue.get_nowait()
                except queue.Empty:
                    if left <= 0 or self._closing.is_set():
                        break
                    # Producers put first and set `_wake` after, so clearing it after the
                    # wait loses no wake-up: what was put before is taken next time round.
                    self._wake.wait(max(0.0, min(left, _SEAL_EVERY_S)))
                    self._wake.clear()
                    continue
                if fut is not None:
                    if not waiters and not futs:  # group commit: wait a moment for others
                        deadline = min(deadline, time.monotonic() + cfg.sync_window_s)
                    futs.append((len(pending), fut))
                if not pending:
                    chunk_until = time.monotonic() + _SEAL_EVERY_S
                pending.append(ev)
                pending_tickets.append(ticket)
                rows += 1 + len(getattr(ev, "trace", None) or getattr(ev, "shadow_trace", ()))
                if len(pending) >= _SEAL_CHUNK or time.monotonic() >= chunk_until:
                    self._seal_part(pending, pending_tickets, futs, parts, waiters, sealed,
                                    failed)
                    n_events += len(pending)
                    pending, pending_tickets, futs = [], [], []
            if pending:
                self._seal_part(pending, pending_tickets, futs, parts, waiters, sealed, failed)
                n_events += len(pending)
            self._flush_wanted.clear()
            if time.monotonic() - rotated >= _INTENT_ROTATE_S:
                rotated = time.monotonic()
                self._intents.rotate(self._ledger.submitted_now)
                low, acts_pending = self._ledger.watermark()
                if not acts_pending:  # an act's intent may sit in any closed segment
                    self._intents.collect(low)
            gap, gap_tickets = self._ledger.gap_event()
            if gap is not None:
                # Its own batch, handed off before the events' (a flush that sees the events
                # done sees the loss declared too): a gap-only batch may use the spool's
                # headroom, so the declaration of a loss is not itself lost to a full spool.
                # Events that could not be sealed count as done when their declaration is.
                gap_batch = self._seal([gap])
                if gap_batch is not None:
                    self._hand_off(gap_batch, failed + gap_tickets)
                else:
                    self._ledger.mark_done(failed + gap_tickets)
            else:
                self._ledger.mark_done(failed)
            batch = _merge(parts)
            if batch is not None:
                self._hand_off(batch, sealed, waiters)
            if not n_events and gap is None and self._closing.is_set() and self._queue.empty():
                self._sealer_done.set()
                return

    def _seal_part(self, events: list[Event], tickets: Tickets,
                   futs: list[tuple[int, Future[None]]], parts: list[SealedBatch],
                   waiters: list[Future[None]], sealed: Tickets, failed: Tickets) -> None:
        """Seal `events` onto `parts`, their tickets onto `sealed` (or `failed`) and their
        sync waiters onto `waiters` (those of events that could not be sealed fail now)."""
        part = self._seal(events)
        if part is not None:
            parts.append(part)
        for i, t in enumerate(tickets):
            (failed if i in self._failed else sealed).append(t)
        for i, f in futs:
            if i in self._failed:
                self._ledger.count("sync_failed")
                _settle(f, AuditUnavailable("the audit record could not be sealed"))
            else:
                waiters.append(f)

    def _seal(self, events: list[Event]) -> SealedBatch | None:
        """Seal `events`; one that cannot be sealed never takes the others with it.

        The fast path seals the whole batch. If that fails the chain head is restored and
        the events are sealed one by one: each failure is quarantined and declared in the
        next `audit_gap` record by request id and reason; the rest form the batch (None when
        nothing could be sealed).
        """
        sqlite = not self.store.postgres
        self._failed = set()
        events = [_storable(ev, sqlite=sqlite) for ev in events]
        seq, prev = self._sealer.head
        try:
            return self._sealer.seal(events)
        except Exception:
            self._restore_sealer(seq, prev)
        parts: list[SealedBatch] = []
        for i, ev in enumerate(events):
            seq, prev = self._sealer.head
            try:
                parts.append(self._sealer.seal([ev]))
            except Exception as exc:
                self._restore_sealer(seq, prev)
                self._failed.add(i)
                self._unsealable(ev, exc)
        return _merge(parts)

    def _restore_sealer(self, seq: int, prev: str) -> None:
        # A failed seal may have advanced the head part way: start again from (seq, prev).
        self._sealer = Sealer(self.chain_id, salt=self.cfg.salt.encode(),
                              copy_lines=self.store.postgres, next_seq=seq + 1, prev_hash=prev)

    def _unsealable(self, event: Event, exc: BaseException) -> None:
        rid, reason = _event_id(event), _reason(exc)
        log.error("audit: could not seal event %r (%s); quarantined under %s/rejected and "
                  "declared in an audit_gap record", rid, reason, self.spool.dir)
        try:
            record = {"reason": reason, "kind": type(event).__name__,
                      "event": dataclasses.asdict(event)}
            self.spool.quarantine_raw(rid, json.dumps(record, default=repr))
        except (OSError, TypeError, ValueError) as err:
            log.error("could not quarantine event %r: %s", rid, err)
        self._ledger.unsealable(rid, reason)

    def _hand_off(self, batch: SealedBatch, tickets: Tickets,
                  waiters: list[Future[None]] | None = None) -> None:
        """To a DB thread, or the spool when the DB is down or slow. With `waiters` (sync
        events) the batch is first made durable - one WAL append + fsync for all of them
        (group commit), or the spool's own fsync - and the waiters are released."""
        if waiters:
            if not self.spool.pending():
                # The WAL thread fsyncs it (with whatever else is waiting) while this thread
                # seals the next batch.
                self._wal_queue.put((batch, tickets, waiters))
            else:
                # The spool is in use: its fsync releases them. Decided here, once: a spool
                # that drains before a second look must not send the batch to a DB thread
                # without its waiters (they would wait out their timeout: a 503 for a
                # record that was written).
                self._to_spool(batch, tickets, waiters)
            return
        # The sealer may wait a moment for a DB thread.
        self._dispatch(batch, tickets, None, wait_s=self._handoff_wait())

    def _handoff_wait(self) -> float:
        """How long the sealer waits for room in the hand-off before spooling: "slow" means
        slower than the DB's own recent pace, not merely busy. With every DB thread in the
        middle of a big COPY, room comes only when one of them finishes - about one batch
        write time away, which on a loaded 2-core machine exceeds `handoff_wait_s`: a burst
        then spooled most of its batches, and writing them to the spool and replaying them
        cost more CPU than the database's own work (`guardian bench audit`: 9 of 16 batches
        spooled). So: twice the smoothed batch write time (before the first write is timed -
        it creates partitions too - the cap), at least `handoff_wait_s`, at most
        `_MAX_HANDOFF_WAIT_S`; a DB that stalls or fails still sends batches to the spool, and
        `handoff_wait_s` = 0 still means never wait."""
        floor, pace = self.cfg.handoff_wait_s, self._write_s
        if floor <= 0.0:
            return 0.0
        return max(floor, min(_MAX_HANDOFF_WAIT_S, 2.0 * pace if pace is not None
                              else _MAX_HANDOFF_WAIT_S))
