"""What every part of the audit writer shares: the state its threads share, the sync error.

`WriterState` declares the attributes that the facade (`AuditWriter.__init__`) sets and the
mixins (`sealer`, `groupcommit`, `delivery`, `recovery`) read and write, grouped by the
part that owns them: the threads hand batches to one another through this state, so it is
declared once here rather than copied onto each part. Also here: the sync waiters' error
(`AuditUnavailable`), completing a waiter (`_settle`) and merging consecutive batches
(`_merge`), which the sealer and the group commit both do.
"""

from __future__ import annotations

import queue
import threading
from concurrent.futures import Future, InvalidStateError
from typing import TYPE_CHECKING

from guardian.audit.rows import Event, SealedBatch
from guardian.audit.writer.ledger import Ledger, Tickets

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from guardian.audit.config import AuditSettings
    from guardian.audit.heads import HeadPublisher
    from guardian.audit.rows import Sealer
    from guardian.audit.spool import IntentLog, Spool, WriteAheadLog
    from guardian.audit.store import BatchStore

# A queued event, for `sync` routes the future its request waits on, and its ticket: the
# event's place in submission order (1, 2, ...), which follows it until it is durable.
_Item = tuple["Event", "Future[None] | None", int]


class AuditUnavailable(RuntimeError):
    """A sync event's record could not be made durable (queue full, spool full, disk error)."""


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


class WriterState:
    """The attributes the writer's threads share (set by `AuditWriter.__init__`)."""

    # The writer's identity and resources (facade).
    cfg: AuditSettings
    replica_id: str
    chain_id: str
    heads: HeadPublisher | None  # signed tree heads: fed after each durable DB write
    db: Engine
    store: BatchStore
    spool: Spool
    _wal: WriteAheadLog
    _intents: IntentLog
    _ledger: Ledger  # tickets, the done watermark, the pending gap record, counters
    _threads: list[threading.Thread]
    # Submission -> sealer (facade, sealer).
    _queue: queue.Queue[_Item]
    _flush_wanted: threading.Event
    _closing: threading.Event
    _wake: threading.Event  # the sealer's wait is cut short (see sealer._SEAL_EVERY_S)
    _wake_at: int  # events queued that wake the sealer
    _sealer_done: threading.Event
    # Sealing (sealer).
    _sealer: Sealer
    _failed: set[int]  # positions the last _seal could not seal
    # Group commit: sync batches on their way to the WAL (batch, tickets, waiters).
    _wal_queue: queue.Queue[tuple[SealedBatch, Tickets, list[Future[None]]]]
    _wal_done: threading.Event
    # Delivery: (batch, the tickets it completes, its WAL segment when it holds sync events).
    _handoff: queue.Queue[tuple[SealedBatch, Tickets, int | None]]
    _down_since: float | None
    _write_s: float | None  # smoothed seconds per successful batch write
    _last_retry: float
    _replay_lock: threading.Lock
    _final_replay_done: bool
    last_durable_at: float | None  # time.time() of the last write known durable
    # Recovery of dead writers' files (recovery).
    _recovered: threading.Event  # dead writers' leftovers handled (or deferred)
    _orphans_retry_at: float | None  # set while they wait for the DB: DB thread 0 retries
    _orphans_backoff: float
    _orphans_warned: bool
