"""`guardian audit prune --older-than ...`: retention that keeps the chains verifiable.

Per chain, prune removes a *prefix*: every record up to seq S, where S is the last seq before
the chain's first record at/after the cutoff. The hash of record S goes into `audit_anchors`
first, in the same transaction, so `verify` starts that chain from the anchor instead of the
genesis hash, together with the Merkle compact range of the pruned leaves
(`audit_merkle_prefix`), so every remaining record stays provable against signed heads. An
`audit_prune` governance record (its own chain) says who pruned what: `prune_recorded`, the
command's protocol, writes it (and the route-state floors) durably before anything is deleted.

Postgres: the cutoff is rounded down to a day boundary and `audit_tokens` days before it are
removed by dropping their partitions (cheap, no row trigger fires); a partition is kept while
it holds a token newer than its chain's prefix (a straggler), so nothing outside the prefix is
lost. Other chained tables: DELETE under the transaction-local `guardian.allow_prune` GUC,
which the append-only trigger honours. SQLite: DELETE with the append-only triggers dropped
and re-created inside one `BEGIN IMMEDIATE` transaction.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine

from guardian.audit.chain import CANON_COLUMNS
from guardian.audit.merkle import Frontier, record_leaf
from guardian.audit.models import CHAINED_TABLES
from guardian.audit.partitions import existing_partitions

log = logging.getLogger(__name__)

CHAINED = tuple(CANON_COLUMNS)
AGE = re.compile(r"(\d{1,12})([dhmw])", re.ASCII)  # ASCII digits only: int() would take '²'
MIN_PRUNE_AGE = timedelta(days=1)  # `prune --older-than` refuses anything more recent


@dataclass
class PruneResult:
    cutoff: datetime
    anchors: dict[str, tuple[int, str]] = field(default_factory=dict)
    deleted: dict[str, int] = field(default_factory=dict)
    dropped_partitions: list[str] = field(default_factory=list)
    prefixes: dict[str, Frontier] = field(default_factory=dict)  # Merkle compact ranges


def _prefix_ends(conn: sa.Connection, cutoff: datetime) -> dict[str, int]:
    """Per chain: last seq before its first record created at/after `cutoff`."""
    first_new: dict[str, int] = {}
    last: dict[str, int] = {}
    for t in CHAINED_TABLES.values():
        # Typed comparison: SQLite stores timestamps as naive UTC text.
        for cid, mn in conn.execute(sa.select(t.c.chain_id, sa.func.min(t.c.seq))
                                    .where(t.c.created_at >= cutoff).group_by(t.c.chain_id)):
            first_new[cid] = min(mn, first_new.get(cid, mn))
        for cid, mx in conn.execute(sa.select(t.c.chain_id, sa.func.max(t.c.seq))
                                    .group_by(t.c.chain_id)):
            last[cid] = max(mx, last.get(cid, mx))
    return {cid: (first_new[cid] - 1 if cid in first_new else mx) for cid, mx in last.items()}


def _hash_at(conn: sa.Connection, cid: str, seq: int) -> str | None:
    for t in CHAINED:
        h = conn.execute(sa.text(f"SELECT hash FROM {t} WHERE chain_id = :c AND seq = :s"),
                         {"c": cid, "s": seq}).scalar()
        if h is not None:
            return h
    return None


def _plan(conn: sa.Connection, cutoff: datetime) -> tuple[datetime, dict[str, int], list[str]]:
    if conn.dialect.name != "postgresql":
        return cutoff, _prefix_ends(conn, cutoff), []
    cutoff = cutoff.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    while True:
        ends = _prefix_ends(conn, cutoff)
        parts = sorted((d, n) for d, n in existing_partitions(conn).items()
                       if datetime(d.year, d.month, d.day, tzinfo=UTC) < cutoff)
        straggler_day = None
        for day, name in parts:
            for cid, mx in conn.execute(sa.text(
                    f"SELECT chain_id, max(seq) FROM {name} GROUP BY chain_id")):
                if mx > ends.get(cid, 0):
                    straggler_day = day
                    break
            if straggler_day:
                break
        if straggler_day is None:
            return cutoff, ends, [n for _, n in parts]
        log.warning("partition of %s holds records newer than their chain's prunable prefix; "
                    "pruning only up to that day", straggler_day)
        cutoff = datetime(straggler_day.year, straggler_day.month, straggler_day.day, tzinfo=UTC)


def prune(db: Engine, cutoff: datetime, *, actor: str,
          before_delete: Callable[[PruneResult, list[str]], None] | None = None,
          ) -> PruneResult:
    """Remove every chain's prefix older than `cutoff`, anchoring what remains.

    `before_delete(plan, partitions)` runs once the plan (cutoff, anchors, Merkle prefixes;
    the token partitions to drop) shows something to delete, before anything is: the CLI
    records the prune and what must outlive the records there, durably, so a process killed
    mid-prune never leaves a deletion no record names. If it raises, nothing is pruned."""
    cutoff = cutoff.astimezone(UTC)
    with db.connect() as conn:
        cutoff, ends, partitions = _plan(conn, cutoff)
        current = dict(conn.execute(sa.text(
            "SELECT chain_id, max(seq) FROM audit_anchors GROUP BY chain_id")).all())
        anchors: dict[str, tuple[int, str]] = {}
        for cid, s in ends.items():
            if s > current.get(cid, 0):
                h = _hash_at(conn, cid, s)
                if h is None:
                    raise RuntimeError(f"chain {cid} has no record at seq {s}; run "
                                       "`guardian audit verify` before pruning")
                anchors[cid] = (s, h)
    res = PruneResult(cutoff, anchors)
    if not anchors and not partitions:
        return res
    with db.connect() as conn:
        res.prefixes = _merkle_prefixes(conn, anchors)
    if before_delete is not None:
        before_delete(res, list(partitions))
    if db.dialect.name == "postgresql":
        with db.begin() as conn:
            conn.execute(sa.text("SET LOCAL guardian.allow_prune = 'on'"))
            _anchor_and_delete(conn, res, actor, tokens=False)
            for name in partitions:
                conn.execute(sa.text(f"DROP TABLE {name}"))
            res.dropped_partitions = partitions
    else:
        _sqlite_prune(db, res, actor)
    log.info("pruned audit records before %s: %s; dropped partitions %s", res.cutoff,
             res.deleted, res.dropped_partitions)
    return res


class PruneNotRecorded(RuntimeError):
    """`what` (the prune's own record, or route-state versions) could not be recorded before
    the deletion, `db_error` saying why when the database did (" (...)", else ""): nothing
    was pruned, and an `audit_prune_aborted` record says so."""

    def __init__(self, what: str, db_error: str = "") -> None:
        super().__init__(f"{what} could not be recorded before pruning{db_error}")
        self.what, self.db_error = what, db_error


def prune_recorded(db: Engine, sink: Any, cutoff: datetime, *, actor: str,
                   floor_events: Callable[..., list[Any]],
                   recorded_versions: Callable[..., dict[str, int]]) -> PruneResult:
    """`guardian audit prune`'s protocol: `prune`, recorded before it deletes anything
    (`_record_prune`; PruneNotRecorded, and nothing pruned, when that fails).

    `sink` is the audit writer, opened (its start's recovery done) before this plans: that
    recovery replays dead writers' spools into the database, and a replay landing between
    the plan and the deletion (old tokens into a day partition the plan drops, on Postgres)
    was deleted with no anchor covering it. `floor_events` and `recorded_versions`:
    `guardian.governance.statesig`'s."""
    sink.flush(timeout_s=60.0)
    return prune(db, cutoff, actor=actor,
                 before_delete=lambda plan, parts: _record_prune(
                     db, sink, plan, parts, actor, floor_events=floor_events,
                     recorded_versions=recorded_versions))


def _record_prune(db: Any, sink: Any, plan: Any, partitions: list[str], actor: str, *,
                  floor_events: Callable[..., list[Any]],
                  recorded_versions: Callable[..., dict[str, int]]) -> None:
    """Before a prune deletes anything: put the prune in the tamper-evident governance log
    (its anchors and Merkle prefixes, which `verify` requires for every anchor) and each
    route's highest state version in a `state_floor` record, so replicas started after the
    prune still refuse a replayed older route state (governance.statesig) - and see both in
    the database. Recorded first, a prune killed midway never leaves a deletion that no
    record names (`verify` would call its anchor forged); unsure, it prunes nothing and
    records that (`audit_prune_aborted`, naming the prune record, which may still land) and
    raises PruneNotRecorded. `floor_events` and `recorded_versions` are
    `guardian.governance.statesig`'s (a layer above this one: the caller hands them in)."""
    import uuid

    from guardian.audit.acts import ACT_ORIGIN
    from guardian.audit.events import GovernanceEvent
    from guardian.audit.models import AuditGovernance

    floors = floor_events(db, actor=actor, why=f"carried over by guardian audit prune "
                          f"(cutoff {plan.cutoff.isoformat()}): the acts that recorded it may go")
    record = GovernanceEvent(
        event_id=f"prune-{uuid.uuid4().hex}", created_at=datetime.now(UTC), kind="audit_prune",
        route=None, pair_hash=None, policy_hash=None, actor=actor,
        details={"cutoff": plan.cutoff.isoformat(), "recorded": "before the deletion",
                 "origin": ACT_ORIGIN.get(),
                 "dropped_partitions": partitions,
                 "anchors": {c: [s, h] for c, (s, h) in plan.anchors.items()},
                 "merkle_prefix": {c: [f.size, f.root().hex()]
                                   for c, f in plan.prefixes.items()}})
    for event in [*floors, record]:
        sink.submit(event)
    sink.flush(timeout_s=30.0)
    heads = getattr(sink, "heads", None)
    if heads is not None:  # a signed head covers the record before anything is deleted
        heads.publish()
    t = AuditGovernance.__table__
    db_error = ""
    try:
        with db.connect() as conn:
            recorded = conn.execute(sa.select(sa.func.count()).where(
                t.c.event_id == record.event_id)).scalar_one()
        kept = recorded_versions(db, since=min([record.created_at, *(
            e.created_at for e in floors)])) if floors else {}
    except sa.exc.SQLAlchemyError as exc:
        recorded, kept = 0, {}
        db_error = f" ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})"
    missing = [str(e.route) for e in floors
               if kept.get(str(e.route), -1) < e.details["state_version"]]
    if not recorded or missing:
        what = ("the prune's own record" if not recorded
                else "the route-state versions of " + ", ".join(missing))
        # The prune record may sit in this writer's spool (the database went away) or even
        # in the database (it went away after the write): wherever it lands, a record that
        # it never took effect follows it in the same chain, so no reader takes a prune that
        # deleted nothing for one that did.
        sink.submit(GovernanceEvent(
            event_id=f"prune-aborted-{uuid.uuid4().hex}", created_at=datetime.now(UTC),
            kind="audit_prune_aborted", route=None, pair_hash=None, policy_hash=None,
            actor=actor, details={"prune_event_id": record.event_id,
                                  "cutoff": plan.cutoff.isoformat(), "deleted": 0,
                                  "reason": f"{what} could not be recorded{db_error}",
                                  "origin": ACT_ORIGIN.get()}))
        sink.flush(timeout_s=10.0)
        raise PruneNotRecorded(what, db_error)


def _merkle_prefixes(conn: sa.Connection, anchors: dict[str, tuple[int, str]]
                     ) -> dict[str, Frontier]:
    """Per chain to be pruned: the compact range of every leaf up to its new anchor (the
    previous prune's range extended by the records it now removes, in seq order)."""
    out: dict[str, Frontier] = {}
    for cid, (seq, _h) in anchors.items():
        row = conn.execute(sa.text(
            "SELECT leaves, seq, peaks FROM audit_merkle_prefix WHERE chain_id = :c "
            "ORDER BY leaves DESC LIMIT 1"), {"c": cid}).first()
        f, done = (Frontier(), 0) if row is None else (
            Frontier.from_json(int(row[0]), row[2] if isinstance(row[2], list)
                               else json.loads(row[2])), int(row[1]))
        hashes: list[tuple[int, str]] = []
        for t in CHAINED:
            hashes += conn.execute(sa.text(f"SELECT seq, hash FROM {t} WHERE chain_id = :c AND "
                                           "seq > :lo AND seq <= :hi"),
                                   {"c": cid, "lo": done, "hi": seq}).all()
        f.extend(record_leaf(h) for _, h in sorted(hashes))
        out[cid] = f
    return out


def _anchor_and_delete(conn: Any, res: PruneResult, actor: str, *, tokens: bool) -> None:
    now = datetime.now(UTC)
    for cid, (seq, h) in res.anchors.items():
        conn.execute(sa.text("INSERT INTO audit_anchors (chain_id, seq, hash, cutoff, pruned_at, "
                             "actor) VALUES (:c, :s, :h, :cut, :now, :a)"),
                     {"c": cid, "s": seq, "h": h, "cut": res.cutoff, "now": now, "a": actor})
        f = res.prefixes[cid]
        conn.execute(sa.text("INSERT INTO audit_merkle_prefix (chain_id, leaves, seq, peaks, "
                             "pruned_at) VALUES (:c, :n, :s, :p, :now)"),
                     {"c": cid, "n": f.size, "s": seq, "p": json.dumps(f.to_json()),
                      "now": now})
        for t in CHAINED if tokens else tuple(t for t in CHAINED if t != "audit_tokens"):
            n = conn.execute(sa.text(f"DELETE FROM {t} WHERE chain_id = :c AND seq <= :s"),
                             {"c": cid, "s": seq}).rowcount
            res.deleted[t] = res.deleted.get(t, 0) + n
        conn.execute(sa.text("DELETE FROM audit_batches WHERE chain_id = :c AND last_seq <= :s"),
                     {"c": cid, "s": seq})


def _sqlite_prune(db: Engine, res: PruneResult, actor: str) -> None:
    with db.connect() as conn:
        dbapi = conn.connection.driver_connection
        saved = dbapi.isolation_level
        dbapi.isolation_level = None  # we issue BEGIN/COMMIT ourselves: DDL must be inside
        try:
            dbapi.execute("BEGIN IMMEDIATE")
            triggers = dbapi.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE "
                "'%_no_delete'").fetchall()
            for name, _ in triggers:
                dbapi.execute(f"DROP TRIGGER {name}")
            _anchor_and_delete(_SqliteExec(dbapi), res, actor, tokens=True)
            for _, sql in triggers:
                dbapi.execute(sql)
            dbapi.execute("COMMIT")
        except BaseException:
            dbapi.execute("ROLLBACK")
            raise
        finally:
            dbapi.isolation_level = saved


class _SqliteExec:
    """Minimal adapter so `_anchor_and_delete` runs on a raw sqlite3 connection."""

    def __init__(self, dbapi: Any) -> None:
        self.dbapi = dbapi

    def execute(self, clause: sa.TextClause, params: dict[str, Any]) -> Any:
        p = {k: (v.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f") if isinstance(v, datetime)
                 else v) for k, v in params.items()}
        return self.dbapi.execute(str(clause), p)


def older_than(spec: str, now: datetime | None = None) -> datetime:
    """Parse '90d', '36h', '30m', '2w' or an ISO date/time into a UTC datetime.

    ValueError (saying which formats are accepted) for anything else, or a date out of range."""
    now = now or datetime.now(UTC)
    units = {"d": "days", "h": "hours", "m": "minutes", "w": "weeks"}
    if m := AGE.fullmatch(spec.strip().lower()):
        try:
            return now - timedelta(**{units[m[2]]: int(m[1])})
        except OverflowError:
            raise ValueError(f"{spec!r} reaches before year 1; give a smaller age") from None
    try:
        ts = datetime.fromisoformat(spec)
    except ValueError:
        raise ValueError(f"cannot read {spec!r} as an age (90d, 36h, 30m, 2w: a whole number "
                         "and a unit) or an ISO date (2026-01-31 or 2026-01-31T12:00:00+00:00)"
                         ) from None
    try:
        return ts.replace(tzinfo=UTC) if ts.tzinfo is None else ts.astimezone(UTC)
    except OverflowError:
        raise ValueError(f"{spec!r} is out of range once converted to UTC") from None


def prune_cutoff(spec: str, now: datetime | None = None) -> datetime:
    """`older_than`, refusing a cutoff in the future or less than `MIN_PRUNE_AGE` ago: a typo
    such as `0d` or `2999-01-01` would otherwise delete the whole trail."""
    now = now or datetime.now(UTC)
    cutoff = older_than(spec, now)
    if cutoff > now:
        raise ValueError(f"the cutoff {cutoff.isoformat()} ({spec!r}) is in the future: that "
                         "would delete every record; give an age such as 90d or a past date")
    if now - cutoff < MIN_PRUNE_AGE:
        raise ValueError(f"the cutoff {cutoff.isoformat()} ({spec!r}) is less than a day ago: "
                         "prune keeps at least the last day of records; give 1d or more")
    return cutoff
