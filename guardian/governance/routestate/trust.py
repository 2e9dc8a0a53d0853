"""Whether the route state a `ModeResolver` read may be acted on: the version floors (the
highest version this replica has read per route, kept in the state file too, and the highest
any act recorded in the audit trail), rows that vanished though a version of them is known,
failing closed when `route_state` cannot be read, and the verdicts on speculative rows (their
signature and signed evidence) and their canaries, reached before a refresh serves them.

`StateTrust` is a mixin of `ModeResolver` (guardian.governance.routestate.resolver): the
state it reads and writes lives on the resolver."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from guardian.governance import laststate
from guardian.governance.canarystate import EPOCH
from guardian.governance.gatecheck import (
    READ_RECORDED,
    canary_as_served,
    state_evidence_refusal,
    state_signature_refusal,
)
from guardian.governance.routestate.status import RouteStatus, saved_versions
from guardian.governance.statesig import VanishedState, recorded_versions

if TYPE_CHECKING:
    from guardian.governance.routestate.store import RouteStateStore


# One logger for the package, named as before it was split into modules.
logger = logging.getLogger("guardian.governance.routestate")


_UNREADABLE_RECORDS = object()  # they could not be read: no row can be shown fresh
FULL_SCAN_S = 60.0  # `ModeResolver._recorded`: the whole audit trail's versions this often
LATE_ACT_MARGIN = timedelta(seconds=30)  # and in between, acts from this long before the last


class StateTrust:
    """The trust half of `ModeResolver`: version floors, vanished rows, and the verdicts on
    speculative rows and their canaries (module docstring)."""

    # Set by `ModeResolver.__init__`.
    store: RouteStateStore
    state_file: Path | None
    pair_hash: str | None
    _states: dict[str, RouteStatus]
    _swap_lock: threading.Lock
    _state_gate: dict[str, tuple[tuple[Any, ...], str | None]]
    _seen: dict[str, int]
    _last_read: dict[str, tuple[int, tuple[Any, ...]]]
    _recorded_map: dict[str, int] | None
    _recorded_full_at: float
    _recorded_since: datetime
    _vanished_logged: set[str]
    _canary_checks: dict[str, tuple[tuple[Any, ...], Any, Any, str | None]]

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
