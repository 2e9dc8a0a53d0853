"""The ledger: tickets, the done watermark, the pending `audit_gap` record and the counters.

`Ledger` is the writer's book of what has become of each accepted event. Every event gets a
ticket (its place in submission order); batches finish out of order (several DB threads, the
WAL, the spool), so the ledger keeps the low-watermark that says "everything submitted before
X is durable or declared lost" (`flush`, `wait_durable`, collecting intent segments). Losses
(queue full, unsealable events, rejected batches, a full spool) are gathered into the pending
gap record that the sealer seals next (`gap_event`); the tickets whose loss only that record
declares are done once it is durable. The counters are `AuditWriter.stats()`.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from guardian.audit.events import GovernanceEvent
from guardian.audit.rows import SealedBatch

_MAX_LISTED_IDS = 1000  # request ids listed per gap record
# The tickets of the events a batch completes once it is durable (or declared lost).
Tickets = list[int]


def _empty_gap() -> dict[str, Any]:
    return {"dropped_events": 0, "request_ids": [], "lost_seq": []}


class Ledger:
    """Tickets, the done watermark, the pending gap record and the counters of one writer."""

    def __init__(self, actor: str) -> None:
        self.actor = actor  # who signs the gap records (`audit-writer:<chain id>`)
        self.cond = threading.Condition()  # guards the tickets; notified as events are done
        self.submitted = 0  # tickets handed out
        # Events durable (DB or spool) or declared lost: `done` counts them, `low` is the
        # low-watermark - every ticket <= low is done; `done_runs` holds the done tickets
        # above it as runs (first -> last). Batches finish out of order (several DB threads,
        # the WAL, the spool), so only the watermark says "everything submitted before X is
        # durable". Runs, not tickets: behind one stalled batch a million done events are a
        # few thousand entries (one or two per batch), drained in as many steps.
        self.done = 0
        self.low = 0
        self.done_runs: dict[int, int] = {}
        self.acts_pending = 0  # governance acts between expect_act and settle_act
        self._gap_lock = threading.Lock()
        self._gap: dict[str, Any] = _empty_gap()
        # Tickets whose loss is declared only in the pending `_gap` record: done once that
        # record is durable (a crash before then must still find their intent lines).
        self._gap_tickets: Tickets = []
        self._count_lock = threading.Lock()
        self.counters = {"dropped_events": 0, "lost_rows": 0, "written_rows": 0,
                         "written_batches": 0, "spooled_batches": 0, "replayed_batches": 0,
                         "duplicate_batches": 0, "unsealable_events": 0,
                         "spooled_rows": 0, "quarantined_rows": 0, "sync_events": 0,
                         "sync_failed": 0, "wal_fsyncs": 0, "sync_fsyncs": 0,
                         "recovered_lost_events": 0}

    # -- tickets and the watermark -------------------------------------------------------
    def issue(self) -> int:
        """A new event's ticket."""
        with self.cond:
            self.submitted += 1
            return self.submitted

    def submitted_now(self) -> int:
        with self.cond:
            return self.submitted

    def act_started(self) -> None:
        with self.cond:
            self.acts_pending += 1

    def act_settled(self) -> None:
        with self.cond:
            self.acts_pending -= 1

    def watermark(self) -> tuple[int, int]:
        """(the low-watermark, the governance acts under way), read together."""
        with self.cond:
            return self.low, self.acts_pending

    def wait_low(self, target: int, deadline: float, poke: Callable[[], None]) -> bool:
        """Wait until every ticket <= `target` is done (False at `deadline`), calling `poke`
        after each short wait (the writer's threads are asked to flush again)."""
        with self.cond:
            while self.low < target:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(min(left, 0.05))
                poke()
        return True

    def mark_done(self, tickets: Tickets) -> None:
        """These events are durable or declared lost: count them, move the watermark."""
        if not tickets:
            return
        first, last = min(tickets), max(tickets)
        runs: list[list[int]] = []
        if last - first + 1 == len(tickets):  # tickets are unique: one consecutive run
            runs.append([first, last])
        else:
            for t in sorted(tickets):  # a batch's tickets are nearly consecutive: few runs
                if runs and t == runs[-1][1] + 1:
                    runs[-1][1] = t
                else:
                    runs.append([t, t])
        with self.cond:
            self.done += len(tickets)
            done = self.done_runs
            for first, last in runs:
                if (after := done.pop(last + 1, None)) is not None:
                    last = after  # joins the run that starts right after it
                done[first] = max(last, done.get(first, last))
            low = self.low
            while (last := done.pop(low + 1, None)) is not None:
                low = last
            self.low = low
            self.cond.notify_all()

    # -- counters ------------------------------------------------------------------------
    def count(self, key: str, n: int = 1) -> None:
        with self._count_lock:
            self.counters[key] += n

    # -- the pending gap record ----------------------------------------------------------
    def dropped(self, rid: Any, ticket: int) -> None:
        """The queue was full: the event `rid` (ticket `ticket`) was dropped."""
        with self._gap_lock:
            self._gap["dropped_events"] += 1
            if len(self._gap["request_ids"]) < _MAX_LISTED_IDS:
                self._gap["request_ids"].append(rid)
            self.counters["dropped_events"] += 1
            self._gap_tickets.append(ticket)  # done once the drop's record is durable

    def unsealable(self, rid: str, reason: str) -> None:
        """The event `rid` could not be sealed (quarantined by the sealer)."""
        with self._gap_lock:
            self._gap["dropped_events"] += 1
            if len(self._gap["request_ids"]) < _MAX_LISTED_IDS:
                self._gap["request_ids"].append(rid)
            unsealable = self._gap.setdefault("unsealable", [])
            if len(unsealable) < _MAX_LISTED_IDS:
                unsealable.append({"request_id": rid, "reason": reason})
        self.count("unsealable_events")

    def lost(self, batch: SealedBatch, tickets: Tickets) -> None:
        """The spool refused `batch`: lost, its events done when the loss's record is."""
        self.declare([], [batch], tickets)

    def declare(self, rejected: list[tuple[SealedBatch, str]], lost: list[SealedBatch],
                tickets: Tickets) -> None:
        """Parts of one delivered batch rejected by the database (with why) or refused by the
        spool, declared in the pending gap record together with `tickets`, the events done
        once that record is durable - under one lock, so the sealer's `gap_event` takes the
        declaration and its tickets together. (Declared first and ticketed after, a gap taken
        in between left the tickets behind an empty gap record: never done, and the writer's
        `close` waited for them to its timeout.)"""
        for batch, _ in rejected:
            self.count("lost_rows", batch.n_rows)
            self.count("quarantined_rows", batch.n_rows)
        for batch in lost:
            self.count("lost_rows", batch.n_rows)
        with self._gap_lock:
            for batch, reason in rejected:
                self._gap["lost_seq"].append([batch.first_seq, batch.last_seq])
                self._gap["request_ids"].extend(batch.request_ids[:_MAX_LISTED_IDS])
                self._gap.setdefault("rejected", []).append(reason[:500])
            for batch in lost:
                self._gap["lost_seq"].append([batch.first_seq, batch.last_seq])
                self._gap["request_ids"].extend(batch.request_ids[:_MAX_LISTED_IDS])
            self._gap_tickets.extend(tickets)

    def gap_event(self) -> tuple[GovernanceEvent | None, Tickets]:
        """The pending `audit_gap` record (None when nothing was lost) and the tickets of the
        events whose loss it declares: done when it is durable."""
        with self._gap_lock:
            gap, tickets = self._gap, self._gap_tickets
            if not gap["dropped_events"] and not gap["lost_seq"]:
                return None, []
            self._gap = _empty_gap()
            self._gap_tickets = []
        return GovernanceEvent(event_id=f"gap-{uuid.uuid4().hex}", created_at=datetime.now(UTC),
                               kind="audit_gap", route=None, pair_hash=None, policy_hash=None,
                               actor=self.actor, details=gap), tickets
