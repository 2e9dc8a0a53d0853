"""Recovery: what writers that are gone (crash, or DB down at shutdown) left behind.

Owns `_replay_orphans` (run by DB thread 0 before anything else, retried while the database
is away): dead writers' spools and write-ahead logs are replayed (`delivery._deliver`), the
events their intent logs name but the database lacks are declared lost in an `audit_gap`
record (`_declare_crash_loss`, durable before their intent files go), and the tail of a
killed writer's chain is signed (`_attest_dead`, `guardian.audit.recovery`).
"""

from __future__ import annotations

import logging
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from guardian.audit.events import GovernanceEvent
from guardian.audit.recovery import attest_crashed_chain, crash_time
from guardian.audit.rows import SealedBatch
from guardian.audit.spool import read_intents, read_segment
from guardian.audit.writer.base import WriterState
from guardian.audit.writer.ledger import _MAX_LISTED_IDS

log = logging.getLogger(__package__)  # "guardian.audit.writer": the name records always had

# How long a start waits for its declaration of a dead writer's losses to be durable before it
# leaves that writer's intent files for the next start.
_DECLARE_TIMEOUT_S = 30.0


class RecoveryMixin(WriterState):
    """The recovery of dead writers' files by `AuditWriter` (see the package docstring)."""

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
        self._ledger.count("recovered_lost_events", len(missing))
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
                            self._ledger.count("duplicate_batches")
                            continue
                        still_up, _ = self._deliver(batch)
                        self._ledger.count("replayed_batches")
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
