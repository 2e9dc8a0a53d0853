"""The background audit writer: `submit` only enqueues; background threads make it durable.

Pipeline (Langfuse-style ingestion apart from delivery)::

    submit() --bounded queue--> sealer thread --handoff (few batches)--> db threads --> DB
                                     |  (DB down/slow: handoff full,       | (write failed)
                                     v   or spool already non-empty)       v
                                   spool (append-only, fsync'd) <----------+
                                     \\-- replayed by the db thread when the DB answers again

* The sealer batches by count (`batch_events`, `batch_rows`) and time (`flush_interval_s`),
  applies redaction and hash-links every row (one chain per writer, `guardian.audit.rows`).
* `db_writers` DB threads (Postgres; 1 on SQLite) each write a batch in one idempotent
  transaction (`guardian.audit.store`);
  any failure sends the batch to the spool and switches to "down": new batches go to the spool
  in order and the spool is replayed every `retry_interval_s` until empty.
* "Slow" = the db threads have `handoff_batches` batches waiting and none is taken within
  twice the DB's recent batch write time (at least `handoff_wait_s`, at most 2 s:
  `_handoff_wait`): the sealer then spools instead of waiting longer, so a slow database never
  backs up into the request path (the request path only ever enqueues). The wait lets a
  burst ride out in memory: spooling a burst's batches and replaying them cost 30 % of the
  write rate (`guardian bench audit`: 188-191k vs 254-272k records/s with no wait), and a
  fixed 0.25 s was shorter than one batch write on a loaded machine (9 of 16 batches spooled).

Decisions on overload (documented, tested):

1. Queue full (the sealer itself cannot keep up): `submit` does not block and does not spill
   on the request thread; the event is dropped, counted (`stats()['dropped_events']`), logged,
   and declared in the chain by an `audit_gap` governance record listing the dropped request
   ids. The loss is visible to `guardian audit verify` and the dashboard, never silent.
2. An event that cannot be sealed, or that the database rejects (bad data, not a dead DB),
   never takes another event with it: the batch is re-sealed (or split) per event, the others
   are written, and the failed one is quarantined to `<spool>/rejected/` (kept on disk) and
   declared in an `audit_gap` record naming its request id and the reason.
3. Spool full or unwritable (the DB is down *and* the local disk is full/over
   `spool_max_bytes`): the sealed batch is dropped, counted (`lost_rows`), and an `audit_gap`
   record declares its seq range and request ids; `verify` reports the range as a declared
   loss instead of tampering.

Durability per route (`audit.durability` in the policy):

* `async` (`submit`): the pipeline above. Loss window on a process crash: the queue and the
  sealed batches not yet committed or spooled. Every accepted event's id is also written
  (not fsync'd) to an intent log, so the next start names what was lost: after replaying the
  dead writer's spool and WAL it writes an `audit_gap` record (`details.crash_recovery`) with
  the ids missing from the DB and the seq holes the dead chain left (`lost_chain_id`,
  `lost_seq`, which `verify` accepts as declared losses).
* `sync` (`submit_durable` -> a future): the sealer closes a batch at most `sync_window_s`
  after a sync event arrives; the WAL thread writes every sync batch waiting with one write
  + fsync (group commit: `spool.WriteAheadLog`), completes their futures, and passes them on
  to the DB threads (consecutive ones merged into one transaction). While the spool is in
  use (DB down or slow) the spool's own fsync completes them instead. A future fails
  (`AuditUnavailable`) when the record cannot be made durable; the serving path then answers
  503 instead of the response. The WAL copy is released once the batch is in the DB or spool.

Threads: sealer -> (WAL committer, for sync batches) -> `db_writers` DB threads; after each
durable DB write the signed-tree-head publisher (`guardian.audit.heads`) observes the batch,
and `/metrics` reports the age of its last head (`guardian.audit.metrics`).

`flush()` returns once everything submitted before it is in the DB (or, while the DB is down,
fsync'd in the spool), and after a start's recovery of dead writers' files; `close()`
flushes, replays what it can and leaves the rest in the spool for the next start, which
replays spools of dead writers (even other incarnations') before anything else.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import os
import queue
import socket
import threading
import time
import uuid
from concurrent.futures import Future, InvalidStateError
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.trace import TokenTrace
from guardian.audit.chain import decode_text, is_plain, storable_text
from guardian.audit.config import AuditSettings
from guardian.audit.events import GovernanceEvent, RequestEvent, ShadowEvent
from guardian.audit.heads import HeadsConfig
from guardian.audit.recovery import attest_crashed_chain, crash_time
from guardian.audit.rows import Event, SealedBatch, Sealer
from guardian.audit.spool import IntentLog, Spool, WriteAheadLog, read_intents, read_segment
from guardian.audit.store import BatchStore
from guardian.core.db import make_engine

log = logging.getLogger(__name__)

_MAX_LISTED_IDS = 1000  # request ids listed per gap record
# How long a start waits for its declaration of a dead writer's losses to be durable before it
# leaves that writer's intent files for the next start.
_DECLARE_TIMEOUT_S = 30.0
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

# A queued event, for `sync` routes the future its request waits on, and its ticket: the
# event's place in submission order (1, 2, ...), which follows it until it is durable.
_Item = tuple["Event", "Future[None] | None", int]
# The tickets of the events a batch completes once it is durable (or declared lost).
Tickets = list[int]


class AuditUnavailable(RuntimeError):
    """A sync event's record could not be made durable (queue full, spool full, disk error)."""


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


def _reason(exc: BaseException) -> str:
    text = str(exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    return storable_text(f"{type(exc).__name__}: {first}"[:500])


def _event_id(event: Any) -> str:
    return str(getattr(event, "request_id", None) or getattr(event, "event_id", "?"))


def _settle(fut: Future[None], exc: BaseException | None = None) -> None:
    """Complete a sync waiter; one the request side gave up on (timed out, cancelled) is
    left alone - completing it would raise in a writer thread."""
    try:
        if exc is None:
            fut.set_result(None)
        else:
            fut.set_exception(exc)
    except InvalidStateError:
        pass


def _intent_id(event: Any) -> str:
    """`<kind>:<id>` as the intent log keeps it: r (request), s (shadow), g (governance)."""
    kind = "r" if isinstance(event, RequestEvent) else "s" if isinstance(event, ShadowEvent) else "g"
    return f"{kind}:{_event_id(event)}"


_TIMES = ("queue_time_s", "compute_time_s", "time_to_first_token_s", "time_per_output_token_s",
          "tolerance", "shadow_compute_time_s")


def _odd(x: Any) -> bool:
    """NaN or -0.0: values SQLite would store differently (NULL, 0.0) than they hash."""
    return isinstance(x, float) and (x != x or (x == 0.0 and math.copysign(1.0, x) < 0))


def _unsigned_zero(x: Any) -> Any:
    return 0.0 if isinstance(x, float) and x == 0.0 else x


def _fixed_token(t: TokenTrace) -> TokenTrace:
    dp = t.draft_prob
    return dataclasses.replace(
        t, draft_prob=None if isinstance(dp, float) and math.isnan(dp) else _unsigned_zero(dp),
        target_prob=_unsigned_zero(t.target_prob), target_margin=_unsigned_zero(t.target_margin))


def _storable(event: Event, *, sqlite: bool) -> Event:
    """Apply the storable forms the sealer cannot apply itself (`guardian.audit.chain`).

    `hashed` mode hashes the raw prompt/completion before anything escapes them, so a lone
    surrogate there is escaped first (the keyed hash is then over the escaped form). On
    SQLite (`sqlite`), which stores NaN as NULL and -0.0 as 0.0, a NaN draft probability
    (nullable) is recorded as NULL and -0.0 as 0.0, because the chain must hash what is
    stored; Postgres stores both as they are, so its hot path skips the per-token scan.
    Returns the event itself when nothing needs changing (the usual case).
    """
    if not isinstance(event, RequestEvent | ShadowEvent):
        return event
    changes: dict[str, Any] = {}
    if isinstance(event, RequestEvent) and event.redaction == "hashed":
        for name in ("prompt_text", "completion_text"):
            text = getattr(event, name)
            if text is not None and not is_plain(text):
                changes[name] = storable_text(text)
    if sqlite:
        for name in _TIMES:
            value = getattr(event, name, None)
            if _odd(value) and value == 0.0:
                changes[name] = 0.0  # drops the sign of -0.0
        name = "trace" if isinstance(event, RequestEvent) else "shadow_trace"
        trace = getattr(event, name)
        if any(_odd(t.draft_prob) or _odd(t.target_prob) or _odd(t.target_margin)
               for t in trace):
            changes[name] = [_fixed_token(t) for t in trace]
    return dataclasses.replace(event, **changes) if changes else event


def _merge(parts: list[SealedBatch]) -> SealedBatch | None:
    """Consecutive single-event batches of one chain as one batch."""
    if not parts:
        return None
    leaves = all(p.token_leaves is not None for p in parts)
    out = SealedBatch(parts[0].chain_id, parts[0].first_seq, parts[-1].last_seq,
                      token_leaves=[] if leaves else None)
    for p in parts:
        if out.token_leaves is not None:
            out.token_leaves += p.token_leaves  # type: ignore[operator]
        out.requests += p.requests
        out.shadow += p.shadow
        out.governance += p.governance
        out.token_lines += p.token_lines
        out.token_rows += p.token_rows
        out.request_ids += p.request_ids
    return out


def default_replica_id() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


class AuditWriter:
    """`AuditSink` that persists to the audit DB (see module docstring)."""

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
        self._queue: queue.Queue[_Item] = queue.Queue(maxsize=self.cfg.queue_size)
        # (batch, the tickets it completes, its WAL segment when it holds sync events)
        self._handoff: queue.Queue[tuple[SealedBatch, Tickets, int | None]] = queue.Queue(
            maxsize=self.cfg.handoff_batches)
        self._cond = threading.Condition()
        self._submitted = 0  # tickets handed out
        # Events durable (DB or spool) or declared lost: `_done` counts them, `_low` is the
        # low-watermark - every ticket <= _low is done; `_done_runs` holds the done tickets
        # above it as runs (first -> last). Batches finish out of order (several DB threads,
        # the WAL, the spool), so only the watermark says "everything submitted before X is
        # durable". Runs, not tickets: behind one stalled batch a million done events are a
        # few thousand entries (one or two per batch), drained in as many steps.
        self._done = 0
        self._low = 0
        self._done_runs: dict[int, int] = {}
        # Tickets whose loss is declared only in the pending `_gap` record: done once that
        # record is durable (a crash before then must still find their intent lines).
        self._gap_tickets: Tickets = []
        self._flush_wanted = threading.Event()
        self._closing = threading.Event()
        self._wake = threading.Event()  # the sealer's wait is cut short (see _SEAL_EVERY_S)
        self._wake_at = min(_SEAL_CHUNK, max(1, self.cfg.queue_size // 2))  # events queued
        self._sealer_done = threading.Event()
        self._gap_lock = threading.Lock()
        self._gap: dict[str, Any] = {"dropped_events": 0, "request_ids": [], "lost_seq": []}
        self._down_since: float | None = None
        self._write_s: float | None = None  # smoothed seconds per successful batch write
        self._last_retry = 0.0
        self.counters = {"dropped_events": 0, "lost_rows": 0, "written_rows": 0,
                         "written_batches": 0, "spooled_batches": 0, "replayed_batches": 0,
                         "duplicate_batches": 0, "unsealable_events": 0,
                         "spooled_rows": 0, "quarantined_rows": 0, "sync_events": 0,
                         "sync_failed": 0, "wal_fsyncs": 0, "sync_fsyncs": 0,
                         "recovered_lost_events": 0}
        # time.time() of the last write known durable (DB commit, spool or WAL fsync)
        self.last_durable_at: float | None = None
        self._failed: set[int] = set()  # positions the last _seal could not seal
        self._recovered = threading.Event()  # dead writers' leftovers handled (or deferred)
        self._acts_pending = 0  # governance acts between expect_act and settle_act
        # Set while dead writers' leftovers wait for the DB: DB thread 0 retries them then.
        self._orphans_retry_at: float | None = None
        self._orphans_backoff = 0.0
        self._orphans_warned = False
        self._count_lock = threading.Lock()
        self._replay_lock = threading.Lock()
        self._final_replay_done = False
        self._probe_lock = threading.Lock()
        self._probed_at = float("-inf")
        self._probe_ok, self._probe_error = True, None
        # Several DB threads: Postgres parses/indexes each COPY in its own backend, so two
        # connections nearly double the rows/s the database takes (batches are independent).
        # Sync batches on their way to the WAL: (batch, tickets it completes, its waiters).
        self._wal_queue: queue.Queue[tuple[SealedBatch, Tickets, list[Future[None]]]] = (
            queue.Queue())
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
        with self._cond:
            self._acts_pending += 1
        self._intents.note(f"g:{event_id}")

    def settle_act(self, event_id: str, *, took_effect: bool) -> None:
        """The act's record was submitted (`took_effect`), or the act did not happen: then
        its intent is withdrawn (`x:`), so no start declares a loss for it."""
        if not took_effect:
            self._intents.note(f"x:{event_id}")
        with self._cond:
            self._acts_pending -= 1

    def _enqueue(self, event: Event, fut: Future[None] | None) -> None:
        if self._closed:
            raise RuntimeError("audit writer is closed; events submitted after close() are lost")
        with self._cond:
            self._submitted += 1
            ticket = self._submitted
        # After counting it: an intent segment rotated in between keeps this id (see IntentLog).
        self._intents.note(_intent_id(event))
        try:
            self._queue.put_nowait((event, fut, ticket))
            if fut is not None or self._queue.qsize() >= self._wake_at:
                self._wake.set()
        except queue.Full:
            if fut is not None:
                self._count("sync_failed")
                _settle(fut, AuditUnavailable(f"audit queue full ({self.cfg.queue_size} events)"))
            rid = getattr(event, "request_id", None) or getattr(event, "event_id", "?")
            with self._gap_lock:
                self._gap["dropped_events"] += 1
                if len(self._gap["request_ids"]) < _MAX_LISTED_IDS:
                    self._gap["request_ids"].append(rid)
                self.counters["dropped_events"] += 1
                self._gap_tickets.append(ticket)  # done once the drop's record is durable
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
                        timeout_s, self._done, self._submitted)
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
        gap, gap_tickets = self._gap_event()
        batch = self._seal([gap]) if gap is not None else None
        if gap is not None and batch is not None:
            try:
                self._write(batch)
                self._mark_done(gap_tickets)
            except Exception as exc:
                self._went_down(exc)
                if self.spool.append(batch, headroom=True):
                    self._mark_done(gap_tickets)
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
        with self._cond:
            target = self._submitted
        self._flush_wanted.set()
        self._wake.set()
        with self._cond:
            while self._low < target:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.05))
                self._flush_wanted.set()
                self._wake.set()
        return True

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

    # -- internals ----------------------------------------------------------------------
    def _submitted_now(self) -> int:
        with self._cond:
            return self._submitted

    def _mark_done(self, tickets: Tickets) -> None:
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
        with self._cond:
            self._done += len(tickets)
            done = self._done_runs
            for first, last in runs:
                if (after := done.pop(last + 1, None)) is not None:
                    last = after  # joins the run that starts right after it
                done[first] = max(last, done.get(first, last))
            low = self._low
            while (last := done.pop(low + 1, None)) is not None:
                low = last
            self._low = low
            self._cond.notify_all()

    def _gap_event(self) -> tuple[GovernanceEvent | None, Tickets]:
        """The pending `audit_gap` record (None when nothing was lost) and the tickets of the
        events whose loss it declares: done when it is durable."""
        with self._gap_lock:
            gap, tickets = self._gap, self._gap_tickets
            if not gap["dropped_events"] and not gap["lost_seq"]:
                return None, []
            self._gap = {"dropped_events": 0, "request_ids": [], "lost_seq": []}
            self._gap_tickets = []
        return GovernanceEvent(event_id=f"gap-{uuid.uuid4().hex}", created_at=datetime.now(UTC),
                               kind="audit_gap", route=None, pair_hash=None, policy_hash=None,
                               actor=f"audit-writer:{self.chain_id}", details=gap), tickets

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
                self._intents.rotate(self._submitted_now)
                with self._cond:
                    low, acts_pending = self._low, self._acts_pending
                if not acts_pending:  # an act's intent may sit in any closed segment
                    self._intents.collect(low)
            gap, gap_tickets = self._gap_event()
            if gap is not None:
                # Its own batch, handed off before the events' (a flush that sees the events
                # done sees the loss declared too): a gap-only batch may use the spool's
                # headroom, so the declaration of a loss is not itself lost to a full spool.
                # Events that could not be sealed count as done when their declaration is.
                gap_batch = self._seal([gap])
                if gap_batch is not None:
                    self._hand_off(gap_batch, failed + gap_tickets)
                else:
                    self._mark_done(failed + gap_tickets)
            else:
                self._mark_done(failed)
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
                self._count("sync_failed")
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
        with self._gap_lock:
            self._gap["dropped_events"] += 1
            if len(self._gap["request_ids"]) < _MAX_LISTED_IDS:
                self._gap["request_ids"].append(rid)
            unsealable = self._gap.setdefault("unsealable", [])
            if len(unsealable) < _MAX_LISTED_IDS:
                unsealable.append({"request_id": rid, "reason": reason})
        self._count("unsealable_events")

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
            self._count("wal_fsyncs")
            self._count("sync_fsyncs")
            self.last_durable_at = time.time()
            for _, _, waiters in items:
                self._count("sync_events", len(waiters))
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

    def _to_spool(self, batch: SealedBatch, tickets: Tickets,
                  waiters: list[Future[None]] | None = None) -> bool:
        """Spool `batch` (fsync'd); False when the spool refused it (declared lost). A batch
        that also has a WAL copy keeps it then: the next start replays it."""
        gap_only = not (batch.requests or batch.shadow or batch.token_lines or batch.token_rows)
        lost = not self.spool.append(batch, headroom=gap_only)
        if not lost:
            self._count("spooled_batches")
            self._count("spooled_rows", batch.n_rows)
            self.last_durable_at = time.time()
            if waiters:
                self._count("sync_events", len(waiters))
                self._count("sync_fsyncs")
            for f in waiters or ():
                _settle(f)
        else:
            self._count("lost_rows", batch.n_rows)
            with self._gap_lock:
                self._gap["lost_seq"].append([batch.first_seq, batch.last_seq])
                self._gap["request_ids"].extend(batch.request_ids[:_MAX_LISTED_IDS])
                self._gap_tickets.extend(tickets)  # done when the loss's record is durable
            if waiters:
                self._count("sync_failed", len(waiters))
            for f in waiters or ():
                _settle(f, AuditUnavailable("the audit spool is full or unwritable"))
            return False
        self._mark_done(tickets)
        return True

    def _count(self, key: str, n: int = 1) -> None:
        with self._count_lock:
            self.counters[key] += n

    def _deliver(self, batch: SealedBatch, *, paced: bool = False) -> tuple[bool, bool]:
        """Write `batch`. Transient errors (DB down, timeouts) propagate: the caller spools.
        `paced`: SQLite token rows in paced slices (`BatchStore.write`), for a DB thread with
        nothing else waiting.

        A *permanent* error (the DB rejects the data itself) must not block the pipeline
        forever: the batch is split per event, the good events are written, and each rejected
        one is quarantined (`<spool>/rejected/`, fsync'd, for forensics) and declared lost in
        the chain. A transient error in the middle spools the parts not yet written.

        Returns (the database still answers, some part's loss is declared only in the
        pending gap record): the batch's events are done once that record is durable.
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
            self._quarantine(batch, cause)
            return True, True
        declared = False
        for i, part in enumerate(parts):
            try:
                self._write(part)
            except Exception as exc:
                if not _permanent(exc):
                    self._went_down(exc)
                    for rest in parts[i:]:
                        declared |= not self._to_spool(rest, [])
                    return False, declared
                self._quarantine(part, exc)
                declared = True
        return True, declared

    def _quarantine(self, batch: SealedBatch, exc: BaseException) -> None:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        log.error("audit DB rejected batch %s:%d-%d (%s); quarantined under %s/rejected and "
                  "declared lost in the chain", batch.chain_id, batch.first_seq, batch.last_seq,
                  reason, self.spool.dir)
        try:
            self.spool.quarantine(batch, reason)
        except OSError as err:
            log.error("could not quarantine batch %d-%d: %s", batch.first_seq, batch.last_seq, err)
        self._count("lost_rows", batch.n_rows)
        self._count("quarantined_rows", batch.n_rows)
        with self._gap_lock:
            self._gap["lost_seq"].append([batch.first_seq, batch.last_seq])
            self._gap["request_ids"].extend(batch.request_ids[:_MAX_LISTED_IDS])
            self._gap.setdefault("rejected", []).append(reason[:500])

    def _write(self, batch: SealedBatch, *, paced: bool = False) -> None:
        t0 = time.monotonic()
        fresh = self.store.write(batch, paced=paced)
        # The DB's own pace, for the sealer's patience (`_handoff_wait`).
        took = time.monotonic() - t0
        self._write_s = took if self._write_s is None else 0.7 * self._write_s + 0.3 * took
        if fresh:
            self._count("written_rows", batch.n_rows)
            self._count("written_batches")
        else:
            self._count("duplicate_batches")
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
                still_up, declared = self._deliver(batch, paced=self._handoff.empty())
                if still_up:  # (a transient error part way through has marked it down)
                    self._down_since = None
                if declared:  # done once the record declaring the rejected part is durable
                    with self._gap_lock:
                        self._gap_tickets.extend(tickets)
                else:
                    self._mark_done(tickets)
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
                    self._count("replayed_batches")
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

    def _committed(self, batch: SealedBatch) -> bool:
        """Whether a committed batch (`audit_batches`) covers `batch`'s whole seq range."""
        import sqlalchemy as sa

        from guardian.audit.models import AuditBatch

        b = AuditBatch.__table__
        with self.db.connect() as conn:
            return conn.execute(sa.select(b.c.first_seq).where(
                b.c.chain_id == batch.chain_id, b.c.first_seq <= batch.first_seq,
                b.c.last_seq >= batch.last_seq).limit(1)).first() is not None

    def _declare_crash_loss(self, name: str, intents: list[Path]) -> None:
        """Events a dead writer accepted (its intent log) that are neither in the DB nor
        already declared lost by that writer: declared now in an `audit_gap` record naming
        them (`details.crash_recovery`). Raises when the DB cannot be read (retried at the
        next start: the intent files stay)."""
        import sqlalchemy as sa

        from guardian.audit.models import AuditBatch, AuditGovernance, AuditRequest, AuditShadow

        wanted: dict[str, set[str]] = {"r": set(), "s": set(), "g": set()}
        chain_id: str | None = None
        withdrawn: set[str] = set()  # acts that did not take effect (AuditWriter.settle_act)
        for path in intents:
            chain, lines = read_intents(path)
            chain_id = chain_id or chain
            for line in lines:
                kind, _, ident = line.partition(":")
                if kind in wanted and ident:
                    wanted[kind].add(ident)
                elif kind == "x" and ident:
                    withdrawn.add(ident)
        wanted["g"] -= withdrawn
        holes: list[list[int]] = []
        if chain_id is not None:
            # Batches are written by several DB threads: one in flight when the process died
            # leaves a hole below later ones, which verify would otherwise report as deleted.
            b = AuditBatch.__table__
            with self.db.connect() as conn:
                expect = 1
                for lo, hi in conn.execute(sa.select(b.c.first_seq, b.c.last_seq)
                                           .where(b.c.chain_id == chain_id)
                                           .order_by(b.c.first_seq)):
                    if lo > expect:
                        holes.append([expect, lo - 1])
                    expect = max(expect, hi + 1)
        if not any(wanted.values()) and not holes:
            return
        columns = {"r": AuditRequest.__table__.c.request_id,
                   "s": AuditShadow.__table__.c.request_id,
                   "g": AuditGovernance.__table__.c.event_id}
        gov = AuditGovernance.__table__
        suffix = name.rsplit("_", 1)[-1]  # the chain's unique part (<replica>/<uuid12>)
        missing: list[str] = []
        with self.db.connect() as conn:
            declared: set[str] = set()
            for (actor, details) in conn.execute(sa.select(gov.c.actor, gov.c.details).where(
                    gov.c.kind == "audit_gap")):
                # Declared by the dead writer itself, or by an earlier recovery of it (one
                # whose intent files stayed because its declaration was not durable in time).
                if isinstance(details, dict) and (str(actor).endswith(suffix)
                                                  or details.get("dead_writer") == name):
                    rids, events = details.get("request_ids"), details.get("events")
                    if isinstance(rids, list):
                        declared.update(str(r) for r in rids)
                    if isinstance(events, list):
                        declared.update(str(e.get("id")) for e in events if isinstance(e, dict))
            for kind, ids in wanted.items():
                ordered = sorted(ids - declared)
                for i in range(0, len(ordered), 500):
                    chunk = ordered[i:i + 500]
                    found = {str(v) for (v,) in conn.execute(
                        sa.select(columns[kind]).where(columns[kind].in_(chunk)))}
                    missing += [f"{kind}:{x}" for x in chunk if x not in found]
        if not missing and not holes:
            return
        self._count("recovered_lost_events", len(missing))
        log.error("audit: writer %s died with %d accepted event(s) neither written nor "
                  "spooled (the async loss window); declared in an audit_gap record: %s",
                  name, len(missing), ", ".join(missing[:10]))
        kinds = {"r": "request", "s": "shadow", "g": "governance"}
        # Durable before the caller removes the dead writer's intent files, which are the only
        # other record of these ids: a start killed in between declared nothing (crash-safety
        # review). On a timeout or failure the files stay and the next start declares again.
        declared_at = self.submit_durable(GovernanceEvent(
            event_id=f"gap-{uuid.uuid4().hex}", created_at=datetime.now(UTC), kind="audit_gap",
            route=None, pair_hash=None, policy_hash=None,
            actor=f"audit-writer:{self.chain_id}", details={
                "crash_recovery": True, "dead_writer": name, "dropped_events": len(missing),
                # verify reads lost_seq of `lost_chain_id` (the dead chain), not this one's
                "lost_chain_id": chain_id, "lost_seq": holes,
                "request_ids": [m.split(":", 1)[1] for m in missing[:_MAX_LISTED_IDS]],
                "events": [{"kind": kinds[m[0]], "id": m[2:]} for m in missing[:_MAX_LISTED_IDS]],
                "reason": "accepted by a writer that died before the events were durable"}))
        declared_at.result(timeout=_DECLARE_TIMEOUT_S)

    def _attest_dead(self, chains: set[str], crashed_at: datetime) -> None:
        """Sign the tail a killed writer left unattested (`guardian.audit.recovery`)."""
        if self.heads is None:
            return
        for cid in sorted(chains):
            attest_crashed_chain(self.db, self.heads.dir.parent, cid, self.heads.signer,
                                 self.replica_id, crashed_at)

    def _replay_orphans(self) -> None:
        """Replay spools and write-ahead logs left by writers that are gone (crash, or DB down
        at shutdown), then declare what their intent logs name but the DB lacks."""
        try:
            for name, paths in self.spool.orphans():
                wal, intents = self.spool.orphan_files(name)
                crashed_at = crash_time(paths + wal + intents)
                dead = {c for c in (read_intents(p)[0] for p in intents) if c}
                for path in paths + wal:
                    for batch in read_segment(path):
                        dead.add(batch.chain_id)
                        if path.suffix == ".wal" and self._committed(batch):
                            # Part of a batch committed merged (see _wal_loop): skipped, as
                            # a replay of a committed batch always is.
                            self._count("duplicate_batches")
                            continue
                        still_up, _ = self._deliver(batch)
                        self._count("replayed_batches")
                        if not still_up:  # the file stays; its writes are idempotent
                            raise ConnectionError("the database went away during the replay")
                    self.spool.remove_orphan(path)
                if intents:
                    self._declare_crash_loss(name, intents)
                    for path in intents:
                        self.spool.remove_orphan(path)
                self._attest_dead(dead - {self.chain_id}, crashed_at)
                log.info("replayed orphaned audit spool %s (%d segments, %d WAL segments)",
                         name, len(paths), len(wal))
        except Exception as exc:
            from sqlalchemy.exc import DBAPIError

            what = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            if not isinstance(exc, DBAPIError | ConnectionError | TimeoutError):
                # Not the database being away (an unreadable file, a record that does not
                # parse): retrying cannot help; the files stay for the next start.
                self._orphans_retry_at = None
                log.error("could not replay orphaned audit spools (%s); left for the next "
                          "start", what)
                return
            # The database is away: retried while running, backing off to a minute.
            self._orphans_backoff = min(60.0, max(self.cfg.retry_interval_s,
                                                  2 * self._orphans_backoff))
            self._orphans_retry_at = time.monotonic() + self._orphans_backoff
            if not self._orphans_warned:
                self._orphans_warned = True
                log.warning("could not replay orphaned audit spools yet (%s); retrying while "
                            "the database is away", what)
        else:
            self._orphans_retry_at = None
