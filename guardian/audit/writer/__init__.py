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

The package's parts: `facade` (`AuditWriter`: construction, submit, flush, close, stats,
health), `sealer` (the seal loop, batching, sealing, unsealable events, the hand-off),
`groupcommit` (the WAL thread for sync batches), `delivery` (the DB threads, the spool and
its replay, quarantine, down/up), `recovery` (dead writers' spools, WAL and intent logs:
replay, declared crash losses, attestation), `ledger` (tickets, the done watermark, the
pending gap record, counters), `normalise` (the storable forms of events before sealing) and
`base` (the state the threads share, `AuditUnavailable`).
"""

from __future__ import annotations

from guardian.audit.writer.base import AuditUnavailable
from guardian.audit.writer.base import _merge as _merge  # re-exported: tests import it from here
from guardian.audit.writer.facade import AuditWriter, default_replica_id
from guardian.audit.writer.ledger import Tickets
from guardian.audit.writer.normalise import _storable as _storable  # (tests too)

__all__ = ["AuditUnavailable", "AuditWriter", "Tickets", "default_replica_id"]
