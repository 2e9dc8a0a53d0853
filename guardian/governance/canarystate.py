"""The `canary_state` table: `CanaryStatus` rows and `CanaryStore` (reads, compare-and-set
writes). The acts on it (start / advance / abort, audited) are `guardian.governance.canary`;
this module stays below `routestate` so the resolver can read canaries without a cycle."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine

from guardian.audit.models import CanaryState
from guardian.governance.errors import GovernanceRefused


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
                "updated_at": _utc(self.updated_at).isoformat(), "updated_by": self.updated_by}


class CanaryStore:
    """Reads and compare-and-set writes of `canary_state`."""

    def __init__(self, db: Engine) -> None:
        self.db = db

    def all(self) -> dict[str, CanaryStatus]:
        with self.db.connect() as conn:
            rows = conn.execute(sa.select(CanaryState.__table__)).mappings().all()
        return {r["route"]: _status(r) for r in rows}

    def get(self, route: str) -> CanaryStatus | None:
        t = CanaryState.__table__
        with self.db.connect() as conn:
            row = conn.execute(sa.select(t).where(t.c.route == route)).mappings().first()
        return _status(row) if row is not None else None

    def write(self, route: str, *, status: str, steps: tuple[float, ...], step_index: int,
              weight_pct: float, pair_hash: str | None, reason: str, actor: str,
              expected_version: int, new_step: bool) -> CanaryStatus:
        """Write the route's canary only if its version is still `expected_version` (0: no
        row yet); `new_step` restarts the step clock."""
        now = datetime.now(UTC)
        t = CanaryState.__table__
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
                            reason, current + 1, started, now, actor)


def _status(r: Any) -> CanaryStatus:
    return CanaryStatus(r["route"], r["status"], tuple(float(x) for x in json.loads(r["steps"])),
                        int(r["step_index"]), float(r["weight_pct"]), r["pair_hash"],
                        r["reason"], int(r["version"]), r["step_started_at"], r["updated_at"],
                        r["updated_by"])


def canaries_of(db: Engine) -> dict[str, CanaryStatus]:
    """Every route's canary row, for readers (`route status`, the dashboard); none when the
    table is not there yet (a database before migration 0003)."""
    try:
        return CanaryStore(db).all()
    except sa.exc.SQLAlchemyError:
        return {}
