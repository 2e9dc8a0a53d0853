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

Route state rows are unsigned: someone who can write the database but holds no key can
insert a `speculative` row, or flip a rollback back. With `require_signed_state=True` such a
row serves speculatively only with a signed passing gate report for the serving pair under
the policy the row names, or a signed admin override for the route
(`gatecheck.state_refusal`); otherwise `target_only`, source `gate` — on routes whose policy
asks for a gate report (`gate.require_report`, the default; a route that serves speculatively
from its file without one gains nothing from a forged row). `guardian serve` turns it on
(`runtime.attach`). The answer is cached per route and row, re-checked on every refresh;
unreadable reports keep the last answer, and with none (e.g. a start from the last known
state file while the database is down) the route serves target_only.

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
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import Engine

from guardian.audit.models import AuditRequest, RouteState
from guardian.enums import Mode
from guardian.governance import laststate
from guardian.governance.canarystate import EPOCH, CanaryStore, stored_time
from guardian.governance.gatecheck import gate_refusal, state_refusal
from guardian.governance.modes import ModeDecision, effective_mode

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


def as_rows(states: dict[str, RouteStatus],
            canaries: dict[str, Any] | None = None) -> laststate.Rows:
    """Route states as JSON values (the last-known-state file; a change is detected on them),
    each with its running canary's weight when one narrows it (`canaries`)."""
    rows: laststate.Rows = {}
    for name, s in sorted(states.items()):
        rows[name] = {"mode": s.mode, "pair_hash": s.pair_hash, "policy_hash": s.policy_hash,
                      "reason": s.reason, "version": s.version,
                      # SQLite hands back naive UTC: normalise, or a re-read looks like a change
                      "updated_at": (s.updated_at if s.updated_at.tzinfo
                                     else s.updated_at.replace(tzinfo=UTC)).isoformat(),
                      "updated_by": s.updated_by}
        c = (canaries or {}).get(name)
        if c is not None and c.status == "running":
            rows[name]["canary"] = {"status": c.status, "weight_pct": c.weight_pct}
    return rows


@dataclass(frozen=True, slots=True)
class SavedCanary:
    """A running canary as the last-known-state file has it (status and weight only)."""

    status: str
    weight_pct: float


def saved_canaries(rows: laststate.Rows) -> dict[str, SavedCanary]:
    return {name: SavedCanary(str(r["canary"]["status"]), float(r["canary"]["weight_pct"]))
            for name, r in rows.items() if r.get("canary")}


def from_rows(rows: laststate.Rows) -> dict[str, RouteStatus]:
    return {name: RouteStatus(name, str(r["mode"]), r.get("pair_hash"), r.get("policy_hash"),
                              r.get("reason"), int(r["version"]),
                              datetime.fromisoformat(r["updated_at"]), str(r["updated_by"]))
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
                           stored_time(r["updated_at"]), str(r["updated_by"])[:2000])
    except (TypeError, ValueError, OverflowError) as exc:
        return RouteStatus(str(r["route"]), "target_only", None, None,
                           f"unreadable route_state row ({type(exc).__name__}: "
                           f"{str(exc)[:200]}); served target_only", -1, EPOCH, "unreadable")


class StateConflict(RuntimeError):
    """Another replica changed the route first; re-read and decide again."""


class RouteStateStore:
    """Reads and compare-and-set writes of `route_state`."""

    def __init__(self, db: Engine) -> None:
        self.db = db
        self._listeners: list[Any] = []

    @classmethod
    def from_url(cls, url: str) -> RouteStateStore:
        from guardian.db import make_engine

        return cls(make_engine(url))

    def all(self) -> dict[str, RouteStatus]:
        t = RouteState.__table__
        with self.db.connect() as conn:
            # The timestamp as the driver hands it: SQLite's own parser would raise on a bad
            # one while fetching, before `_status` could read the row as unreadable.
            rows = conn.execute(sa.select(
                t.c.route, t.c.mode, t.c.pair_hash, t.c.policy_hash, t.c.reason, t.c.version,
                sa.type_coerce(t.c.updated_at, sa.Text).label("updated_at"),
                t.c.updated_by)).mappings().all()
        return {str(r["route"]): _status(r) for r in rows}

    def get(self, route: str) -> RouteStatus | None:
        return self.all().get(route)

    def set_mode(self, route: str, mode: str, *, actor: str, reason: str,
                 pair_hash: str | None = None, policy_hash: str | None = None,
                 expected_version: int | None = None) -> RouteStatus:
        """Write the route's mode; with `expected_version`, only if nobody changed it since."""
        now = datetime.now(UTC)
        table = RouteState.__table__
        with self.db.begin() as conn:
            current = conn.execute(sa.select(table.c.version).where(table.c.route == route)).scalar()
            if expected_version is not None and (current or 0) != expected_version:
                raise StateConflict(f"route {route!r} changed (version {current}, expected "
                                    f"{expected_version}); re-read its state and retry")
            values = dict(mode=mode, pair_hash=pair_hash, policy_hash=policy_hash,
                          reason=reason[:2000], updated_at=now, updated_by=actor)
            if current is None:
                conn.execute(sa.insert(table).values(route=route, version=1, **values))
                version = 1
            else:
                done = conn.execute(sa.update(table).where(
                    table.c.route == route, table.c.version == current).values(
                    version=current + 1, **values))
                if done.rowcount != 1:
                    raise StateConflict(f"route {route!r} changed concurrently; retry")
                version = current + 1
        status = RouteStatus(route, mode, pair_hash, policy_hash, reason, version, now, actor)
        for listener in list(self._listeners):
            listener(status)
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
                if self.source == "unknown" and not self._file_tried:
                    self._file_tried = True
                    self._load_last_known(exc)
                else:
                    logger.warning("route state unreadable, keeping the last known state: %s",
                                   exc)
                return False
            # Read after the states, swapped with them: a route is never seen without its canary.
            canaries = self._read_canaries()
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
        if self.require_signed_state:
            self._recheck_states()
        return True

    def _read_canaries(self) -> dict[str, Any] | None:
        """Every route's canary, or None (the last one read is kept) when unreadable."""
        try:
            return CanaryStore(self.store.db).all()
        except sa.exc.SQLAlchemyError as exc:
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
        self._saved = as_rows(states, canaries)
        logger.warning("route state unreadable; serving the last known state from %s (saved %s, "
                       "%d routes) until the database answers: %s", self.state_file, saved_at,
                       len(states), exc)

    def _persist(self, states: dict[str, RouteStatus]) -> None:
        """Rewrite the last-known-state file when the rows changed (never raises)."""
        if self.state_file is None:
            return
        rows = as_rows(states, self._canaries)
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
        # A speculative row needs signed evidence where the route's policy asks for a gate
        # report at all; a route whose file grants speculation without one gains nothing
        # from a forged row that the file does not already give.
        state_gate = None
        rp = policy.routes.get(route) if policy is not None else None
        if self.require_signed_state and (rp is None or rp.gate.require_report):
            state_gate = self._state_answer
        decision = effective_mode(policy_mode, self._states.get(route), pair_hash=self.pair_hash,
                                  gate=gate, route=route,
                                  canary=self._canaries.get(route) or self._saved_canaries.get(route),
                                  request_key=request_key, state_gate=state_gate)
        if decision.mode == "speculative" and self.source == "unknown":
            return ModeDecision("target_only", "unknown_state", UNKNOWN_STATE)
        return decision

    # --- speculative route state: signed evidence behind the unsigned row ---------------------
    @staticmethod
    def _state_key(state: Any) -> tuple[Any, ...]:
        return (state.version, state.pair_hash, getattr(state, "policy_hash", None),
                state.updated_at, state.updated_by)

    def _state_answer(self, state: Any) -> str | None:
        """`state_refusal` for a speculative row: cached per row (hot path: a dict lookup)."""
        entry = self._state_gate.get(state.route)
        if entry is not None and entry[0] == self._state_key(state):
            return entry[1]
        return self._ask_state(state, keep_last=False)

    def _ask_state(self, state: Any, *, keep_last: bool) -> str | None:
        key = self._state_key(state)
        try:
            refusal = state_refusal(self.store.db, state.route, state, self.pair_hash)
        except sa.exc.SQLAlchemyError as exc:
            last = self._state_gate.get(state.route)
            if keep_last and last is not None and last[0] == key:
                return last[1]
            logger.warning("gate reports unreadable; route %s serves target_only until they "
                           "can be read: %s", state.route, exc)
            return (f"gate reports unreadable ({type(exc).__name__}); a speculative route "
                    "state needs its signed evidence, target_only until it can be read")
        previous = self._state_gate.get(state.route)
        if refusal is not None and (previous is None or previous[1] != refusal):
            logger.warning("route %s: database state says speculative, serving target_only: %s",
                           state.route, refusal)
        self._state_gate = {**self._state_gate, state.route: (key, refusal)}
        return refusal

    def _recheck_states(self) -> None:
        """On refresh: re-check every speculative row (a newer failing report applies)."""
        for state in list(self._states.values()):
            if state.mode == "speculative":
                self._ask_state(state, keep_last=True)

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
                except sa.exc.SQLAlchemyError as exc:
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
            with self._gate_lock:
                current = self._gate.get(route)
                if current is not None and current[0] == policy_hash and current[1] != now:
                    self._gate = {**self._gate, route: (policy_hash, now, require)}
                    logger.info("route %s: gate answer for policy %s is now %s", route,
                                policy_hash[:12], "target_only" if now else "speculative")
