"""The `canary_state` table: `CanaryStatus` rows and `CanaryStore` (reads, compare-and-set
writes). The acts on it (start / advance / abort, audited) are `guardian.governance.canary`;
this module stays below `routestate` so the resolver can read canaries without a cycle.

Every write is signed by the act (`guardian.governance.statesig`; the resolver serves none of
a canary whose signature does not verify), but anyone who can write the database can put
anything in a row, so a read never raises on a row's values and never widens what a row says
(`_status`): a weight or step outside 0..100 (or NaN) is read as the share serving applies
(clamped, NaN as 0); an unknown status is read as `running` (a canary narrows; it never
reads as `complete`); a row whose values cannot be read at all (bad JSON, a text in a number
column, a bad timestamp) is a running canary at 0 % that cannot be advanced, only aborted.
Either way `problem` says what was wrong. Text is cut to `MAX_TEXT` characters on the
database side.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine

from guardian.audit.models import CanaryState
from guardian.governance.errors import GovernanceRefused
from guardian.governance.statesig import require_signer, sign_canary, state_signer


class CanaryConflict(GovernanceRefused):
    """Another replica or operator changed the canary first; re-read it and retry (a
    refusal, so every handler of governance refusals reports it)."""


def _utc(ts: datetime) -> datetime:
    return ts if ts.tzinfo else ts.replace(tzinfo=UTC)  # SQLite hands back naive UTC


@dataclass(frozen=True, slots=True)
class CanaryStatus:
    route: str
    status: str  # running | complete | aborted
    steps: tuple[float, ...]
    step_index: int
    weight_pct: float
    pair_hash: str | None
    reason: str | None
    version: int
    step_started_at: datetime
    updated_at: datetime
    updated_by: str
    problem: str | None = None  # what was wrong with the row as stored (see the module doc)
    signature: str | None = None  # the act's (`statesig.sign_canary`), as stored
    run: str | None = None  # the canary run (one start and its steps) the row belongs to

    @property
    def running(self) -> bool:
        return self.status == "running"

    def step_age_s(self, now: datetime | None = None) -> float:
        return ((now or datetime.now(UTC)) - _utc(self.step_started_at)).total_seconds()

    def as_dict(self) -> dict[str, Any]:
        return {"status": self.status, "steps": list(self.steps), "step_index": self.step_index,
                "weight_pct": self.weight_pct, "pair_hash": self.pair_hash,
                "reason": self.reason, "version": self.version,
                "step_started_at": _utc(self.step_started_at).isoformat(),
                "updated_at": _utc(self.updated_at).isoformat(), "updated_by": self.updated_by,
                **({"problem": self.problem} if self.problem else {})}


class CanaryStore:
    """Reads and compare-and-set writes of `canary_state`."""

    def __init__(self, db: Engine) -> None:
        self.db = db

    def all(self) -> dict[str, CanaryStatus]:
        with self.db.connect() as conn:
            rows = conn.execute(_select()).mappings().all()
        return {r["route"]: _status(r) for r in rows}

    def get(self, route: str) -> CanaryStatus | None:
        t = CanaryState.__table__
        with self.db.connect() as conn:
            row = conn.execute(_select().where(t.c.route == route)).mappings().first()
        return _status(row) if row is not None else None

    def write(self, route: str, *, status: str, steps: tuple[float, ...], step_index: int,
              weight_pct: float, pair_hash: str | None, reason: str, actor: str,
              expected_version: int, new_step: bool, run: str | None) -> CanaryStatus:
        """Write the route's canary only if its version is still `expected_version` (0: no
        row yet); `new_step` restarts the step clock; `run`: the canary run the row belongs
        to. The row is signed with this home's audit key (`statesig.sign_canary`): replicas
        serve none of a canary that does not verify, so only an abort is written without one
        (GovernanceRefused otherwise)."""
        now = datetime.now(UTC)
        t = CanaryState.__table__
        signer = (state_signer(actor) if status == "aborted"
                  else require_signer(actor, f"writing a {status} canary"))
        values: dict[str, Any] = dict(status=status, steps=json.dumps(list(steps)),
                                      step_index=step_index, weight_pct=weight_pct,
                                      pair_hash=pair_hash, reason=reason[:2000], updated_at=now,
                                      updated_by=actor)
        with self.db.begin() as conn:
            row = conn.execute(sa.select(t.c.version, t.c.step_started_at)
                               .where(t.c.route == route)).first()
            current = row[0] if row else 0
            if current != expected_version:
                raise CanaryConflict(f"the canary of route {route!r} changed (version {current}, "
                                    f"expected {expected_version}); re-read it and retry")
            started = now if new_step or row is None else row[1]
            values["run_id"] = run
            values["signature"] = signature = None if signer is None else sign_canary(
                signer, route=route, run=run, status=status, steps=steps,
                step_index=step_index, weight_pct=weight_pct, pair_hash=pair_hash,
                version=current + 1, updated_by=actor)
            if row is None:
                conn.execute(sa.insert(t).values(route=route, version=1, step_started_at=started,
                                                 **values))
            else:
                done = conn.execute(sa.update(t).where(t.c.route == route,
                                                       t.c.version == current)
                                    .values(version=current + 1, step_started_at=started,
                                            **values))
                if done.rowcount != 1:
                    raise CanaryConflict(f"the canary of route {route!r} changed concurrently; "
                                        "retry")
        return CanaryStatus(route, status, tuple(steps), step_index, weight_pct, pair_hash,
                            reason, current + 1, started, now, actor, signature=signature,
                            run=run)


MAX_TEXT = 2000  # characters of a text value read (`write` stores at most this of a reason)
MAX_STEPS_TEXT = 8192  # characters of the steps' JSON read (a policy allows at most 100 steps)
KNOWN_STATUSES = ("running", "complete", "aborted")
EPOCH = datetime.fromtimestamp(0, UTC)  # the time of a row whose own cannot be read


def _select() -> sa.Select[Any]:
    """The row, with text cut on the database side and timestamps as the driver hands them
    (SQLite's own parser would raise on a bad one while fetching, before `_status` sees it)."""
    t = CanaryState.__table__

    def cut(col: Any, n: int = MAX_TEXT) -> Any:
        return sa.func.substr(col, 1, n).label(col.name)

    return sa.select(t.c.route, cut(t.c.status), cut(t.c.steps, MAX_STEPS_TEXT), t.c.step_index,
                     t.c.weight_pct, cut(t.c.pair_hash), cut(t.c.reason), t.c.version,
                     sa.type_coerce(t.c.step_started_at, sa.Text).label("step_started_at"),
                     sa.type_coerce(t.c.updated_at, sa.Text).label("updated_at"),
                     cut(t.c.updated_by), cut(t.c.signature), cut(t.c.run_id))


def _pct(value: Any) -> float:
    """A share as serving applies it: within 0..100, NaN as 0 (the bucket line is 0..100)."""
    x = float(value)
    return 0.0 if math.isnan(x) else min(100.0, max(0.0, x))


def stored_time(value: Any) -> datetime:
    """A timestamp column read as text (SQLite) or a datetime (Postgres); raises on anything
    else, for the caller to read the row as unreadable."""
    if isinstance(value, datetime):
        return value
    if isinstance(value, str):
        return datetime.fromisoformat(value)
    raise TypeError(f"not a timestamp: {type(value).__name__}")


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _status(r: Any) -> CanaryStatus:
    """A row as the canary it can at most be (module docstring); never raises on values."""
    status = str(r["status"])
    problem = None
    if status not in KNOWN_STATUSES:
        problem, status = f"unknown status {status[:40]!r}, read as running", "running"
    try:
        raw = json.loads(r["steps"])
        if not isinstance(raw, list):
            raise TypeError(f"steps are not a list: {type(raw).__name__}")
        steps = tuple(_pct(x) for x in raw)
        step_index, weight = int(r["step_index"]), _pct(r["weight_pct"])
        started, updated = stored_time(r["step_started_at"]), stored_time(r["updated_at"])
        if status == "running" and not steps:
            raise ValueError("no steps")
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:  # '[' * 8192 nests
        why = f"unreadable row ({type(exc).__name__}: {str(exc)[:200]})"
        problem = f"{problem}; {why}" if problem else why
        if status == "running":
            problem += "; served as 0 %, abort it"
        steps, step_index, weight, started, updated = (), 0, 0.0, EPOCH, EPOCH
    if status in ("aborted", "complete"):  # as serving reads them: none / the whole route
        weight = 0.0 if status == "aborted" else 100.0
    if steps:
        step_index = min(max(step_index, 0), len(steps) - 1)
    try:
        version = int(r["version"])
    except (TypeError, ValueError, OverflowError):
        version = -1  # no compare-and-set write can match it: start / abort report a conflict
        problem = (f"{problem}; " if problem else "") + "unreadable version"
    return CanaryStatus(str(r["route"]), status, steps, step_index, weight, _text(r["pair_hash"]),
                        _text(r["reason"]), version, started, updated,
                        str(r["updated_by"]), problem, _text(r["signature"]),
                        _text(r["run_id"]))


def canaries_of(db: Engine) -> dict[str, CanaryStatus]:
    """Every route's canary row, for readers (`route status`, the dashboard); none when the
    table is not there yet (a database before migration 0003)."""
    try:
        return CanaryStore(db).all()
    except sa.exc.SQLAlchemyError:
        return {}
