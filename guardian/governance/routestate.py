"""Route state in the database, and the `ModeResolver` the serving path asks per request.

The `route_state` table holds a row for a route only once a governance action (rollback,
re-enable, disable, promotion) set its mode; without a row the policy file's mode applies.
Writes are compare-and-set on `version`, so two replicas rolling back the same route at once
do not overwrite each other's evidence.

`ModeResolver.mode(route, policy_mode, policy)` answers with `modes.effective_mode` (the one
implementation of "the mode in force"), fed from memory: a background thread re-reads the
(tiny) table every `ttl_s` (default 0.5 s), and a write through the same store updates the
cache at once. So a change made on this replica applies from the next request, and one made
on another replica within `ttl_s` plus one query (bound: ~1 s with the default). When the
database cannot be read the last known state stays in force (logged), never the other way.

Fail-safe across restarts: with a `state_file` the resolver keeps every route's row on local
disk too (`guardian.governance.laststate`, rewritten atomically whenever a refresh or a write
through the store changed it). If the database cannot be read when the resolver starts, it
serves that last known state (a rollback before the outage stays a rollback); with no usable
file either, the state is UNKNOWN and no route serves speculatively (decision source
`unknown_state`) until the database answers. The first successful read always wins.

Gate for policy files (issue #5): a route whose policy FILE says `mode: speculative`, with no
route state row overriding it, serves speculatively only with a passing gate report for this
replica's pair hash and the policy's content hash (`gate.require_report`, default true; the
check is promotion's own, `gatecheck.gate_refusal`). Otherwise it serves `target_only`, logged
as a WARNING and audited once per (route, pair, policy) as a `policy_decision`. The answer is
cached per route for the policy hash in force: one DB query when a policy is first seen, then a
dict lookup per request; the background refresh re-checks it, so a report recorded later (or
a newer failing one) applies within `ttl_s`. If the reports cannot be read the last answer
stays; with no answer yet the route serves target_only until they can be read.

Someone who can write the database but holds no key can insert a `speculative` row, or
rewrite, replay or delete a rollback's row. A row turning speculation on is signed by the act
that writes it (`set_mode`; `guardian.governance.statesig` has the rules). With
`require_signed_state=True` (`guardian serve`: `runtime.attach`) such a row serves
speculatively only if that signature verifies, its version is at least the highest this
replica has read for the route (`_seen`, kept in the state file too) and the highest any act
recorded in the audit trail, and, on routes whose policy asks for a gate report
(`gate.require_report`, the default), a signed passing gate report for the serving pair under
the policy the row names, or a signed admin override for the route, stands behind it
(`gatecheck.state_signature_refusal`, `state_evidence_refusal`); otherwise `target_only`,
source `gate`. A route whose row is gone though a version of it is known serves
`target_only` (`_held`). A canary narrows a verified state only when its own row verifies
(`gatecheck.canary_as_served`; else 0 %). Verdicts are reached in the refresh thread before
the rows they judge are served, and cached per (row, version floor): the hot path compares;
a verdict that cannot be reached (database error, a hostile audit row) is target_only, and
is reached again on the next refresh. With the database down the rows and verdicts last read
stay, as does a start from the last known state file (the gate then cannot be read: a
speculative row serves target_only); a database that answers while its `route_state` table
cannot be read serves no route speculatively (`_fail_closed`).

Canaries (`guardian.governance.canary`): the resolver re-reads `canary_state` with
`route_state` on every refresh and hands a route's canary to `effective_mode`, with the
request's sticky key when serving asks for one request (`mode(..., request_key=...)`). An
unreadable canary table (e.g. a database not yet at revision 0003) keeps the last canaries
read, and none when none was ever read.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import Engine

from guardian.audit.models import AuditRequest, RouteState
from guardian.core.enums import Mode
from guardian.governance import laststate
from guardian.governance.canarystate import EPOCH, CanaryStore, stored_time
from guardian.governance.gatecheck import (
    READ_RECORDED,
    canary_as_served,
    gate_refusal,
    state_evidence_refusal,
    state_signature_refusal,
)
from guardian.governance.modes import ModeDecision, effective_mode
from guardian.governance.statesig import (
    VanishedState,
    recorded_version,
    recorded_versions,
    require_signer,
    sign_state,
    state_signer,
)

if TYPE_CHECKING:
    from guardian.policy import Policy

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RouteStatus:
    route: str
    mode: str
    pair_hash: str | None
    policy_hash: str | None
    reason: str | None
    version: int
    updated_at: datetime
    updated_by: str
    # The act's signature of a speculative row (JSON text, `reportsig.STATE_FORMAT`), or None.
    signature: str | None = None
    canary_run: str | None = None  # the canary run a canary start wrote this state for


def as_rows(states: dict[str, RouteStatus], canaries: dict[str, Any] | None = None,
            seen: dict[str, int] | None = None) -> laststate.Rows:
    """Route states as JSON values (the last-known-state file; a change is detected on them),
    each with its running canary's weight when one narrows it (`canaries`) and the highest
    version the replica has read for it (`seen`)."""
    rows: laststate.Rows = {}
    for name, s in sorted(states.items()):
        rows[name] = {"mode": s.mode, "pair_hash": s.pair_hash, "policy_hash": s.policy_hash,
                      "reason": s.reason, "version": s.version,
                      # SQLite hands back naive UTC: normalise, or a re-read looks like a change
                      "updated_at": (s.updated_at if s.updated_at.tzinfo
                                     else s.updated_at.replace(tzinfo=UTC)).isoformat(),
                      "updated_by": s.updated_by, "signature": s.signature,
                      "canary_run": s.canary_run}
        if (seen or {}).get(name) is not None:
            rows[name]["seen_version"] = int((seen or {})[name])
        c = (canaries or {}).get(name)
        if c is not None and c.status == "running":
            rows[name]["canary"] = {"status": c.status, "weight_pct": c.weight_pct}
    return rows


@dataclass(frozen=True, slots=True)
class SavedCanary:
    """A running canary as the last-known-state file has it (status and weight only)."""

    status: str
    weight_pct: float


def saved_versions(rows: laststate.Rows) -> dict[str, int]:
    """Per route, the highest version the file knows (its `seen_version`, or its row's)."""
    return {name: max(int(r.get("seen_version") or 0), int(r["version"]))
            for name, r in rows.items()}


def saved_canaries(rows: laststate.Rows) -> dict[str, SavedCanary]:
    return {name: SavedCanary(str(r["canary"]["status"]), float(r["canary"]["weight_pct"]))
            for name, r in rows.items() if r.get("canary")}


def from_rows(rows: laststate.Rows) -> dict[str, RouteStatus]:
    return {name: RouteStatus(name, str(r["mode"]), r.get("pair_hash"), r.get("policy_hash"),
                              r.get("reason"), int(r["version"]),
                              datetime.fromisoformat(r["updated_at"]), str(r["updated_by"]),
                              r.get("signature"), r.get("canary_run"))
            for name, r in rows.items()}


def cooldown_left(state: RouteStatus | None, cooldown_s: float,
                  now: datetime | None = None) -> float:
    """Seconds left of the post-rollback cool-down (0.0: none): a route a trigger rolled
    back stays off speculation for `cooldown_s` (`triggers.cooldown_s`) whatever act turns
    it on (re-enable, promotion of the same pair, canary start)."""
    if state is None or not state.updated_by.startswith("trigger:") or state.mode == "speculative":
        return 0.0
    updated = state.updated_at if state.updated_at.tzinfo else state.updated_at.replace(tzinfo=UTC)
    age = ((now or datetime.now(UTC)) - updated).total_seconds()
    return max(0.0, cooldown_s - age)


def cooldown_refusal(state: RouteStatus | None, cooldown_s: float, *, act: str,
                     bypass: str) -> str | None:
    """Why `act` may not turn the route on yet (None: no cool-down in force)."""
    left = cooldown_left(state, cooldown_s)
    if left <= 0.0 or state is None:
        return None
    return (f"route {state.route!r} was rolled back by {state.updated_by} ({state.reason}); "
            f"its cool-down is {cooldown_s:.0f} s, {left:.0f} s left, so {act} is refused. "
            f"Retry then, or {bypass}.")


UNKNOWN_STATE = ("route state unknown: the database could not be read since this replica "
                 "started and there is no last known state file; no speculation until it answers")


def _status(r: Any) -> RouteStatus:
    """A `route_state` row as written; one whose values cannot be read (anyone who can write
    the database can put a text in `version` or a bad timestamp there on SQLite) is
    `target_only` with the reason saying so. A read never raises on a row's values: one bad
    row would otherwise stop every refresh, and with it every later rollback reaching this
    replica."""

    def text(v: Any) -> str | None:
        return None if v is None else str(v)[:2000]

    try:
        return RouteStatus(str(r["route"]), str(r["mode"])[:40], text(r["pair_hash"]),
                           text(r["policy_hash"]), text(r["reason"]), int(r["version"]),
                           stored_time(r["updated_at"]), str(r["updated_by"])[:2000],
                           text(r["signature"]), text(r["canary_run"]))
    except (TypeError, ValueError, OverflowError) as exc:
        return RouteStatus(str(r["route"]), "target_only", None, None,
                           f"unreadable route_state row ({type(exc).__name__}: "
                           f"{str(exc)[:200]}); served target_only", -1, EPOCH, "unreadable")


_UNREADABLE_RECORDS = object()  # they could not be read: no row can be shown fresh
FULL_SCAN_S = 60.0  # `ModeResolver._recorded`: the whole audit trail's versions this often
LATE_ACT_MARGIN = timedelta(seconds=30)  # and in between, acts from this long before the last


class StateConflict(RuntimeError):
    """Another replica changed the route first; re-read and decide again."""


class RouteStateStore:
    """Reads and compare-and-set writes of `route_state`."""

    def __init__(self, db: Engine) -> None:
        self.db = db
        self._listeners: list[Any] = []

    @classmethod
    def from_url(cls, url: str) -> RouteStateStore:
        from guardian.core.db import make_engine

        return cls(make_engine(url))

    def all(self) -> dict[str, RouteStatus]:
        t = RouteState.__table__
        with self.db.connect() as conn:
            # The timestamp as the driver hands it: SQLite's own parser would raise on a bad
            # one while fetching, before `_status` could read the row as unreadable.
            rows = conn.execute(sa.select(
                t.c.route, t.c.mode, t.c.pair_hash, t.c.policy_hash, t.c.reason, t.c.version,
                sa.type_coerce(t.c.updated_at, sa.Text).label("updated_at"),
                t.c.updated_by, t.c.signature, t.c.canary_run)).mappings().all()
        return {str(r["route"]): _status(r) for r in rows}

    def get(self, route: str) -> RouteStatus | None:
        return self.all().get(route)

    def set_mode(self, route: str, mode: str, *, actor: str, reason: str,
                 pair_hash: str | None = None, policy_hash: str | None = None,
                 expected_version: int | None = None,
                 canary_run: str | None = None) -> RouteStatus:
        """Write the route's mode; with `expected_version`, only if nobody changed it since.

        A `speculative` row is signed with this home's audit key (`sign_state`; without one
        the act is refused: GovernanceRefused); turning speculation off needs no key and
        never waits for one. The new version is above the row's and above every version an
        act recorded for the route (`statesig.recorded_version`), so a row deleted or
        rewritten by hand does not make a later act's state look older than its rollback.
        `canary_run`: the run of the canary start writing it (signed with the row)."""
        now = datetime.now(UTC)
        table = RouteState.__table__
        signer = (require_signer(actor, f"setting route {route!r} speculative")
                  if mode == "speculative" else None)
        try:
            recorded = recorded_version(self.db, route) or 0
        except Exception as exc:  # a turn-off never fails on the audit trail
            logger.warning("cannot read the versions recorded for route %s: %s", route, exc)
            recorded = 0
        reason = reason[:2000]
        with self.db.begin() as conn:
            current = conn.execute(sa.select(table.c.version).where(table.c.route == route)).scalar()
            if expected_version is not None and (current or 0) != expected_version:
                raise StateConflict(f"route {route!r} changed (version {current}, expected "
                                    f"{expected_version}); re-read its state and retry")
            version = max(current or 0, recorded) + 1
            fields = dict(route=route, mode=mode, version=version, pair_hash=pair_hash,
                          policy_hash=policy_hash, reason=reason, updated_by=actor,
                          canary_run=canary_run)
            signature = sign_state(signer, **fields) if signer is not None else None
            if signer is not None and (latest := state_signer(actor)) is not None \
                    and latest.key_id != signer.key_id:
                # The key was rotated since it was loaded (`guardian audit keys rotate`
                # retires the old one at once): a row signed by it would serve nowhere.
                signature = sign_state(latest, **fields)
            values = dict(mode=mode, pair_hash=pair_hash, policy_hash=policy_hash,
                          reason=reason, updated_at=now, updated_by=actor,
                          signature=signature, canary_run=canary_run)
            if current is None:
                conn.execute(sa.insert(table).values(route=route, version=version, **values))
            else:
                done = conn.execute(sa.update(table).where(
                    table.c.route == route, table.c.version == current).values(
                    version=version, **values))
                if done.rowcount != 1:
                    raise StateConflict(f"route {route!r} changed concurrently; retry")
        status = RouteStatus(route, mode, pair_hash, policy_hash, reason, version, now, actor,
                             signature, canary_run)
        for listener in list(self._listeners):
            try:
                listener(status)
            except Exception:  # the write is done: its act must still be recorded
                logger.exception("a route state listener failed after %s was written", route)
        return status

    def subscribe(self, listener: Any) -> None:
        """Call `listener(RouteStatus)` after every write through this store."""
        self._listeners.append(listener)

    def serving_pair(self, route: str, *, recent_s: float = 3600.0) -> str | None:
        """The pair of the route's newest served request (None before any request): the pair
        a report or a promotion must be for, as seen from outside a replica.

        Looked for among the last `recent_s` of requests first: the (created_at, route)
        index then bounds the scan, so a route idle for days does not walk the whole table.
        Without a recent request of its own, the newest request of any route answers (the
        pair the replicas serve now), else None."""
        t = AuditRequest.__table__
        newest = sa.select(t.c.pair_hash).order_by(t.c.created_at.desc()).limit(1)
        since = datetime.now(UTC) - timedelta(seconds=recent_s)
        with self.db.connect() as conn:
            pair = conn.execute(newest.where(t.c.created_at >= since, t.c.route == route)).scalar()
            return pair if pair is not None else conn.execute(newest).scalar()


class ModeResolver:
    """Effective mode per request: DB route state when a governance action set it, else policy."""

    def __init__(self, store: RouteStateStore, *, ttl_s: float = 0.5,
                 pair_hash: str | None = None, sink: Any = None,
                 actor: str = "route-resolver", state_file: Path | str | None = None,
                 require_signed_state: bool = False) -> None:
        """`pair_hash`: the pair this replica serves; a promotion of another pair does not
        make it speculative (its gate report was for different weights or tokenizer).
        `sink` (an AuditSink) receives the `policy_decision` events of the file-mode gate.
        `state_file`: the last-known-state file (None: none kept; without the database at
        start the state is then unknown). `require_signed_state`: hold a speculative
        database row to signed evidence (module docstring)."""
        self.require_signed_state = require_signed_state
        self.store, self.ttl_s, self.pair_hash = store, ttl_s, pair_hash
        self.sink, self.actor = sink, actor
        self.state_file = Path(state_file) if state_file is not None else None
        self._states: dict[str, RouteStatus] = {}
        self._canaries: dict[str, Any] = {}  # route -> canary.CanaryStatus, swapped whole
        self._saved_canaries: dict[str, SavedCanary] = {}  # from the file, while offline
        # Where `_states` came from: "database", "file" (last known, DB unreadable since
        # start) or "unknown" (neither: nothing may speculate).
        self.source = "unknown"
        self._saved: laststate.Rows | None = None
        self._file_tried = False
        self._save_lock = threading.Lock()
        # Writes through this replica's store, counted: a refresh whose read overlapped one
        # reads again rather than swap in rows older than the write (a race that put a just
        # started canary's route back on target_only until the next refresh).
        self._swap_lock = threading.Lock()
        self._local_writes = 0
        # route -> (policy_hash, refusal or None, re-check on refresh); swapped whole
        self._gate: dict[str, tuple[str, str | None, bool]] = {}
        self._gate_lock = threading.RLock()  # slow path only: decide / record once
        self._decided: set[tuple[str, str, str]] = set()  # (route, pair, policy) audited
        # route -> (the speculative row's identity, refusal or None); swapped whole
        self._state_gate: dict[str, tuple[tuple[Any, ...], str | None]] = {}
        # route -> the highest route_state version this replica has read (kept in the state
        # file too): a speculative row below it is a replayed copy, and a route whose row is
        # gone stays target_only (`_held`, `guardian.governance.statesig`).
        self._seen: dict[str, int] = {}
        self._last_read: dict[str, tuple[int, tuple[Any, ...]]] = {}  # route -> (version, row)
        self._recorded_map: dict[str, int] | None = None  # `_recorded`: the last read
        self._recorded_full_at, self._recorded_since = 0.0, EPOCH
        self._vanished_logged: set[str] = set()
        # route -> ((state row, version floor), canary row read, canary as served, problem)
        self._canary_checks: dict[str, tuple[tuple[Any, ...], Any, Any, str | None]] = {}
        if self.state_file is not None:
            self._seed_seen()
        self.loaded_at = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        store.subscribe(self._local_write)
        self.refresh()

    def _local_write(self, status: RouteStatus) -> None:
        # Canaries first: a canary is written before the route state it narrows, so the
        # route is never seen speculative without its canary (writes are rare: one query).
        canaries = self._read_canaries()
        with self._swap_lock:
            self._local_writes += 1
            if canaries is not None:
                self._canaries = canaries
            self._note_seen(status)
            self._states = {**self._states, status.route: status}
        if self.source == "database":  # a write means the DB answered; keep the file in step
            self._persist(self._states)

    def refresh(self) -> bool:
        """Re-read every route's state; False (old state kept) when the DB is unreachable."""
        for attempt in range(3):
            writes = self._local_writes
            try:
                states = self.store.all()
            except sa.exc.SQLAlchemyError as exc:
                if self._audit_trail_answers():
                    self._fail_closed(f"the route_state table cannot be read while the "
                                      f"database answers ({type(exc).__name__})")
                elif self.source == "unknown" and not self._file_tried:
                    self._file_tried = True
                    self._load_last_known(exc)
                else:
                    logger.warning("route state unreadable, keeping the last known state: %s",
                                   exc)
                return False
            # Read after the states, swapped with them: a route is never seen without its canary.
            canaries = self._read_canaries()
            recorded = self._recorded()
            with self._swap_lock:  # versions noted as `_local_write` notes them
                states = self._held(states, recorded)
            if self.require_signed_state:  # verdicts before the rows they judge are served
                self._precheck(states, canaries if canaries is not None else self._canaries,
                               recorded)
            with self._swap_lock:  # swapped whole; readers take no lock
                if self._local_writes == writes or attempt == 2:
                    if self._local_writes == writes and canaries is not None:
                        self._canaries = canaries
                    elif self._local_writes != writes:  # writes kept landing: newest per route
                        states = {**states, **{
                            r: s for r, s in self._states.items()
                            if r not in states or s.version > states[r].version}}
                    if self.source != "database":
                        logger.info("route state read from the database (was: %s)",
                                    self.source)
                    self._states, self.loaded_at = states, time.monotonic()
                    break
        self._saved_canaries = {}
        self._persist(states)  # before `source` says so: the file never lags the database
        self.source = "database"
        self._recheck_gates()
        return True

    # --- versions: what this replica and the audit trail know ---------------------------------
    def _note_seen(self, status: RouteStatus) -> None:
        """Raise the route's floor to the row's version; and past the last row read when a
        different row comes back at a version not above it (no act writes one: a writer kept
        a turn-off from raising the version, e.g. with a database trigger)."""
        if status.version < 0:
            return
        route, floor = status.route, status.version
        identity = (status.mode, status.pair_hash, status.policy_hash, status.reason,
                    status.updated_by, status.signature, status.canary_run)
        last = self._last_read.get(route)
        if last is not None and status.version <= last[0] and identity != last[1]:
            floor = last[0] + 1
            logger.error("route %s: a different route_state row at version %d after version %d "
                         "(written outside the sidecar?); speculative rows below %d are not "
                         "served", route, status.version, last[0], floor)
        self._last_read[route] = (status.version, identity)
        if floor > self._seen.get(route, 0):
            self._seen = {**self._seen, route: floor}

    def _recorded(self) -> dict[str, int] | None:
        """`statesig.recorded_versions`, or None when the audit trail cannot be read (then a
        speculative row cannot be shown fresh: it serves target_only). The whole trail every
        `FULL_SCAN_S`, and in between only the acts recorded since the last read (less a
        margin for acts inserted late): a max only grows, and a full scan of a long history
        on every refresh cost 156 ms per 5,000 acts on SQLite."""
        wall, mono = datetime.now(UTC), time.monotonic()
        try:
            if self._recorded_map is None or mono - self._recorded_full_at > FULL_SCAN_S:
                found = recorded_versions(self.store.db)
                self._recorded_full_at = mono
            else:
                found = dict(self._recorded_map)
                for route, v in recorded_versions(self.store.db,
                                                  since=self._recorded_since).items():
                    found[route] = max(v, found.get(route, v))
        except Exception as exc:
            logger.warning("the versions acts recorded cannot be read: %s", exc)
            return None
        self._recorded_map, self._recorded_since = found, wall - LATE_ACT_MARGIN
        return found

    def _audit_trail_answers(self) -> bool:
        return self._recorded() is not None

    def _fail_closed(self, why: str) -> None:
        """The database answers but its route states cannot be read (dropped or broken by
        hand): no route serves speculatively from the rows this replica held."""
        logger.error("%s: every route this replica held speculative serves target_only", why)
        with self._swap_lock:
            self._states = {r: replace(s, mode="target_only", reason=why, signature=None)
                            if s.mode == "speculative" else s for r, s in self._states.items()}
            self._state_gate, self._canary_checks = {}, {}

    def _held(self, states: dict[str, RouteStatus],
              recorded: dict[str, int] | None) -> dict[str, RouteStatus]:
        """The rows read, as this replica may act on them: each version noted, and a route
        whose row is gone though this replica read one, or though acts recorded its state,
        held `target_only` (no act deletes a row: a database writer undoing a rollback does)."""
        for status in states.values():
            self._note_seen(status)
        known = [(self._seen, "this replica has seen"), (recorded or {}, "the audit trail records")]
        held = dict(states)
        for versions, who in known:
            for route, version in versions.items():
                if route in held:
                    continue
                gone = VanishedState(route, version, who)
                if route not in self._vanished_logged:
                    self._vanished_logged.add(route)
                    logger.error("route %s: %s", route, gone.reason)
                held[route] = RouteStatus(route, gone.mode, None, None, gone.reason, version,
                                          EPOCH, gone.updated_by)
        return held

    def _seed_seen(self) -> None:
        """The versions recorded in the last-known-state file of this database (a file from
        another database says nothing about this one)."""
        assert self.state_file is not None
        source = self.store.db.url.render_as_string(hide_password=True)
        loaded = laststate.load(self.state_file, saved_versions, source=source)
        if loaded is not None:
            self._seen = loaded[0]

    def _read_canaries(self) -> dict[str, Any] | None:
        """Every route's canary, or None (the last one read is kept) when unreadable."""
        try:
            return CanaryStore(self.store.db).all()
        except Exception as exc:  # a hostile row must never stop the refresh (every rollback)
            logger.warning("canary state unreadable, keeping the last one read: %s", exc)
            return None

    def canary(self, route: str) -> Any:
        """The route's canary as last read (canary.CanaryStatus), or None."""
        return self._canaries.get(route)

    def _load_last_known(self, exc: Exception) -> None:
        """The DB has not answered since start: serve the last known state, or none at all."""
        loaded = (laststate.load(self.state_file, lambda rows: (from_rows(rows),
                                                               saved_canaries(rows)))
                  if self.state_file else None)
        if loaded is None:
            logger.warning("route state unreadable and no last known state%s: no route serves "
                           "speculatively until the database answers: %s",
                           f" in {self.state_file}" if self.state_file else "", exc)
            return
        (states, canaries), saved_at = loaded
        self._saved_canaries = canaries  # a canary keeps narrowing its route while offline
        self._states, self.source = states, "file"
        self._saved = as_rows(states, canaries, self._seen)
        logger.warning("route state unreadable; serving the last known state from %s (saved %s, "
                       "%d routes) until the database answers: %s", self.state_file, saved_at,
                       len(states), exc)

    def _persist(self, states: dict[str, RouteStatus]) -> None:
        """Rewrite the last-known-state file when the rows changed (never raises)."""
        if self.state_file is None:
            return
        rows = as_rows(states, self._canaries, self._seen)
        with self._save_lock:
            if rows == self._saved:
                return
            try:
                laststate.save(self.state_file, rows,
                               source=self.store.db.url.render_as_string(hide_password=True))
            except OSError as exc:  # serving goes on; only the restart safety net is missing
                logger.error("cannot write the last known route state to %s: %s",
                             self.state_file, exc)
                return
            self._saved = rows

    def start(self) -> ModeResolver:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="mode-resolver", daemon=True)
            self._thread.start()
        return self

    def _loop(self) -> None:
        while not self._stop.wait(self.ttl_s):
            try:
                self.refresh()
            except Exception:  # the thread carries every later rollback here: never let it die
                logger.exception("route state refresh failed; retrying in %g s", self.ttl_s)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def status(self, route: str) -> RouteStatus | None:
        return self._states.get(route)

    def mode(self, route: str, policy_mode: Mode, policy: Policy | None = None,
             policy_hash: str | None = None, request_key: str | None = None) -> Mode:
        """The mode to serve `route` in now (`decide(...).mode`)."""
        mode = self.decide(route, policy_mode, policy, policy_hash, request_key).mode
        assert mode is not None  # only a route missing from the policy has none
        return mode

    def decide(self, route: str, policy_mode: Mode | None, policy: Policy | None = None,
               policy_hash: str | None = None, request_key: str | None = None) -> ModeDecision:
        """`effective_mode` from this replica's cached route state, pair and gate answers.

        `policy` (the Policy in force; `policy_hash` its content hash when the caller has it
        cached) enables the file-mode gate; without it only DB route state is consulted.
        `request_key`: the request's sticky key, for a running canary (None: the route's
        answer, not one request's)."""
        gate = None
        if (policy is not None and policy_mode == "speculative"
                and policy.route(route).gate.require_report):
            def gate() -> str | None:
                entry = self._gate.get(route)
                if entry is not None and entry[0] == (policy_hash or policy.content_hash):
                    return entry[1]  # hot path: a dict lookup
                return self._check_gate(route, policy)
        # Every speculative row must be signed by its act and be no older than the newest
        # version known for the route; where the policy asks for a gate report, the act must
        # also have had signed evidence (a report or an admin override).
        state_gate = None
        if self.require_signed_state:
            rp = policy.routes.get(route) if policy is not None else None
            requires = rp is None or rp.gate.require_report

            def state_gate(st: Any) -> str | None:
                return self._state_answer(st, requires)
        state = self._states.get(route)
        canary = self._canaries.get(route)
        problem = None
        if canary is None and route in self._saved_canaries:
            # Offline, from the last-known-state file: it narrows as saved (a speculative
            # state's signed evidence cannot be read then, so the state gate refuses it anyway).
            canary = self._saved_canaries[route]
        elif state_gate is not None and state is not None and state.mode == "speculative":
            canary, problem = self._canary_answer(route, state, canary)
        decision = effective_mode(policy_mode, state, pair_hash=self.pair_hash,
                                  gate=gate, route=route, canary=canary,
                                  request_key=request_key, state_gate=state_gate)
        if decision.mode == "speculative" and self.source == "unknown":
            return ModeDecision("target_only", "unknown_state", UNKNOWN_STATE)
        if problem is not None and decision.source == "canary":
            return ModeDecision(decision.mode, "canary", f"{decision.reason}; {problem}")
        return decision

    # --- speculative rows and their canaries: verdicts, computed before a refresh serves ------
    # Cached per route under (the row, the version floor it was judged against): a hot-path
    # lookup compares them; a row or floor not judged yet is judged then. A verdict that cannot
    # be reached (database error, a hostile audit row) fails closed, and is never kept over a
    # later one.
    def _state_key(self, state: Any) -> tuple[Any, ...]:
        return (state, self._seen.get(state.route))

    def _state_verdict(self, state: Any, recorded: Any) -> tuple[str | None, str | None]:
        """(why the row may not serve at all, why its act lacked a report) - None: no reason."""
        if recorded is _UNREADABLE_RECORDS:
            return ("the versions acts recorded for the route cannot be read from the audit "
                    "trail; target_only until they can", None)
        try:
            problem = state_signature_refusal(self.store.db, state.route, state,
                                              seen_version=self._seen.get(state.route),
                                              recorded=recorded)
            if problem is not None:
                return problem, None
            return None, state_evidence_refusal(self.store.db, state.route, state,
                                                self.pair_hash)
        except Exception as exc:
            return (f"the signed evidence behind the route state cannot be checked "
                    f"({type(exc).__name__}); target_only until it can", None)

    def _judge_state(self, state: Any, recorded: Any) -> tuple[Any, ...]:
        entry = (self._state_key(state), *self._state_verdict(state, recorded))
        previous = self._state_gate.get(state.route)
        why = entry[1] or entry[2]
        if why is not None and (previous is None or (previous[1] or previous[2]) != why):
            logger.warning("route %s: database state says speculative: %s", state.route, why)
        return entry

    def _state_answer(self, state: Any, requires_report: bool) -> str | None:
        """The state gate of `decide` (hot path: a dict lookup and a comparison)."""
        entry = self._state_gate.get(state.route)
        if entry is None or entry[0] != self._state_key(state):
            entry = self._judge_state(state, READ_RECORDED)
            with self._swap_lock:
                self._state_gate = {**self._state_gate, state.route: entry}
        return entry[1] or (entry[2] if requires_report else None)

    def _canary_view(self, route: str, state: RouteStatus, canary: Any) -> tuple[Any, ...]:
        try:
            view, problem = canary_as_served(route, state, canary)
        except Exception as exc:
            problem = (f"the canary's signature cannot be checked ({type(exc).__name__}); "
                       "0 % until it can")
            view = (replace(canary, status="running", weight_pct=0.0, problem=problem)
                    if canary is not None else None)
        previous = self._canary_checks.get(route)
        if problem is not None and (previous is None or previous[3] != problem):
            logger.warning("route %s: its canary serves 0 %%: %s", route, problem)
        return (self._state_key(state), canary, view, problem)

    def _canary_answer(self, route: str, state: RouteStatus, canary: Any) -> tuple[Any, Any]:
        """`gatecheck.canary_as_served` as judged (hot path: a dict lookup, comparisons)."""
        entry = self._canary_checks.get(route)
        if entry is None or entry[0] != self._state_key(state) or entry[1] != canary:
            entry = self._canary_view(route, state, canary)
            with self._swap_lock:
                self._canary_checks = {**self._canary_checks, route: entry}
        return entry[2], entry[3]

    def _precheck(self, states: dict[str, RouteStatus], canaries: dict[str, Any],
                  recorded: dict[str, int] | None) -> None:
        """Judge every speculative row and its canary before `refresh` serves the rows: a
        replayed row never serves between the swap and its verdict."""
        gates: dict[str, tuple[Any, ...]] = {}
        checks: dict[str, tuple[Any, ...]] = {}
        for route, state in states.items():
            if state.mode != "speculative":
                continue
            known = (_UNREADABLE_RECORDS if recorded is None else recorded.get(route))
            gates[route] = self._judge_state(state, known)
            checks[route] = self._canary_view(route, state, canaries.get(route))
        with self._swap_lock:
            self._state_gate, self._canary_checks = gates, checks

    # --- file-mode gate --------------------------------------------------------------------
    def _check_gate(self, route: str, policy: Policy) -> str | None:
        """Slow path: first request under a policy (one DB query), then cached per route."""
        policy_hash = policy.content_hash
        with self._gate_lock:
            entry = self._gate.get(route)
            if entry is not None and entry[0] == policy_hash:
                return entry[1]
            require = policy.route(route).gate.require_report
            refusal: str | None = None
            if require:
                try:
                    refusal = self._gate_answer(route, policy_hash)
                except Exception as exc:  # an outage, or a hostile row: target_only either way
                    logger.warning("gate reports unreadable; route %s serves target_only until "
                                   "they can be read: %s", route, exc)
                    refusal = (f"gate reports unreadable ({type(exc).__name__}); target_only "
                               "until they can be read")
            self._gate = {**self._gate, route: (policy_hash, refusal, require)}
            return refusal

    def _gate_answer(self, route: str, policy_hash: str) -> str | None:
        """Ask the DB (promotion's rule); audit a refusal once per (route, pair, policy)."""
        pair = self.pair_hash or ""
        refusal = gate_refusal(self.store.db, pair, policy_hash)
        if refusal is None:
            return None
        key = (route, pair, policy_hash)
        with self._gate_lock:  # re-entrant: _check_gate holds it already
            first = key not in self._decided
            self._decided.add(key)
        if first:
            reason = (f"no passing gate report for pair {pair[:12] or 'unknown'} under policy "
                      f"{policy_hash[:12]}; run guardian gate and guardian route promote")
            logger.warning("route %s serves target_only, not the policy file's speculative: %s",
                           route, reason)
            logger.info("route %s gate check: %s", route, refusal)
            if self.sink is not None:
                from guardian.audit.events import GovernanceEvent

                self.sink.submit(GovernanceEvent(
                    event_id=f"gov-{uuid.uuid4().hex}", created_at=datetime.now(UTC),
                    kind="policy_decision", route=route, pair_hash=self.pair_hash,
                    policy_hash=policy_hash, actor=self.actor,
                    details={"requested_mode": "speculative", "effective_mode": "target_only",
                             "reason": reason}))
        return refusal

    def _recheck_gates(self) -> None:
        """On refresh: re-ask for every gated route (a report recorded since applies)."""
        for route, (policy_hash, _refusal, require) in list(self._gate.items()):
            if not require:
                continue
            try:
                now = self._gate_answer(route, policy_hash)
            except sa.exc.SQLAlchemyError as exc:
                logger.warning("gate reports unreadable, keeping the last answer: %s", exc)
                return
            except Exception as exc:  # the database answers, with a row that cannot be read
                now = (f"gate reports unreadable ({type(exc).__name__}); target_only until "
                       "they can be read")
            with self._gate_lock:
                current = self._gate.get(route)
                if current is not None and current[0] == policy_hash and current[1] != now:
                    self._gate = {**self._gate, route: (policy_hash, now, require)}
                    logger.info("route %s: gate answer for policy %s is now %s", route,
                                policy_hash[:12], "target_only" if now else "speculative")
