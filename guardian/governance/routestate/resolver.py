"""`ModeResolver`: the mode the serving path asks for per request, from route state held in
memory (re-read every `ttl_s`, updated at once by a write through the same store), the last
known state file while the database cannot be read, the file-mode gate of policy files, and
the route's canary. Whether a stored state may be trusted is `StateTrust`
(guardian.governance.routestate.trust); the package docstring has the whole design."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from guardian.core.enums import Mode
from guardian.governance import laststate
from guardian.governance.canarystate import EPOCH, CanaryStore
from guardian.governance.gatecheck import gate_refusal
from guardian.governance.modes import ModeDecision, effective_mode
from guardian.governance.routestate.status import (
    RouteStatus,
    SavedCanary,
    as_rows,
    from_rows,
    saved_canaries,
)
from guardian.governance.routestate.store import RouteStateStore
from guardian.governance.routestate.trust import StateTrust

if TYPE_CHECKING:
    from guardian.policy import Policy


# One logger for the package, named as before it was split into modules.
logger = logging.getLogger("guardian.governance.routestate")


UNKNOWN_STATE = ("route state unknown: the database could not be read since this replica "
                 "started and there is no last known state file; no speculation until it answers")


class ModeResolver(StateTrust):
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
