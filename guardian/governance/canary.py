"""Canary steps: serve a route speculatively on a growing share of its traffic.

Owns the `canary_state` table's reads and compare-and-set writes (`CanaryStore`) and the
three acts on it — `start`, `advance`, `abort` — each audited as a `canary` governance event
(who, why, the step and weight before and after).

How a canary runs:
- `start` (release role, with a passing gate report for the pair and policy, exactly as a
  promotion; an admin may override with a reason) sets the route's state to `speculative`
  and writes the canary at the policy's first step (`routes.<r>.canary.steps`, default
  1, 5, 25, 50, 100 %);
- serving asks `modes.effective_mode`, which then serves speculatively only the requests
  whose sticky key falls inside the current weight (`modes.canary_bucket`), on every replica
  alike (the resolver re-reads this table with `route_state`);
- `advance` widens one step: by hand (`guardian canary advance`, release role) or by the
  rollback controller once the route's analysis (`guardian.api.analysis`) has been `pass`
  for a whole `step_duration_s` and the step is that old (`auto_advance`). At 100 % the
  canary is `complete` and the route simply serves speculatively;
- `abort` (release or oncall) drops the weight to 0 and sets the route `target_only`; a
  trigger's rollback aborts the canary too (actor `trigger:<names>`).

A canary narrows speculation only: if anyone sets the route to a non-speculative mode, the
canary row is ignored (and `status` shows it as such).
"""

from __future__ import annotations

import json
import logging
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import Engine

from guardian.audit.events import AuditSink, GovernanceEvent
from guardian.audit.models import CanaryState
from guardian.governance.errors import GovernanceRefused
from guardian.governance.gatecheck import speculation_evidence
from guardian.governance.routestate import RouteStateStore, StateConflict

if TYPE_CHECKING:
    from guardian.governance.registry import PairRegistry
    from guardian.policy import Policy

logger = logging.getLogger(__name__)

START_ROLES = ("release", "admin")
ADVANCE_ROLES = ("release", "admin")
ABORT_ROLES = ("release", "oncall", "admin")
ANALYSIS_ACTOR = "canary:analysis"


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
                raise StateConflict(f"the canary of route {route!r} changed (version {current}, "
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
                    raise StateConflict(f"the canary of route {route!r} changed concurrently; "
                                        "retry")
        return CanaryStatus(route, status, tuple(steps), step_index, weight_pct, pair_hash,
                            reason, current + 1, started, now, actor)


def _status(r: Any) -> CanaryStatus:
    return CanaryStatus(r["route"], r["status"], tuple(float(x) for x in json.loads(r["steps"])),
                        int(r["step_index"]), float(r["weight_pct"]), r["pair_hash"],
                        r["reason"], int(r["version"]), r["step_started_at"], r["updated_at"],
                        r["updated_by"])


def _event(sink: AuditSink, route: str, status: CanaryStatus, *, action: str, actor: str,
           policy: Policy, previous: CanaryStatus | None, reason: str,
           extra: dict[str, Any] | None = None) -> None:
    sink.submit(GovernanceEvent(
        event_id=f"gov-{uuid.uuid4().hex}", created_at=datetime.now(UTC), kind="canary",
        route=route, pair_hash=status.pair_hash, policy_hash=policy.content_hash, actor=actor,
        details={"action": action, "reason": reason, "status": status.status,
                 "step_index": status.step_index, "steps": list(status.steps),
                 "weight_pct": status.weight_pct,
                 "previous_weight_pct": previous.weight_pct if previous else None,
                 "previous_status": previous.status if previous else None, **(extra or {})}))
    logger.warning("route %s canary %s: %g%% (%s, by %s)", route, action, status.weight_pct,
                   reason, actor)


def _check_role(role: str, roles: tuple[str, ...], actor: str, act: str) -> None:
    if role not in roles:
        raise GovernanceRefused(f"{act} a canary needs one of the roles {', '.join(roles)}; "
                                f"{actor} has {role!r}")


def start(routes: RouteStateStore, canaries: CanaryStore, sink: AuditSink, *, route: str,
          pair_hash: str, policy: Policy, actor: str, role: str, reason: str,
          registry: PairRegistry | None = None,
          override_reason: str | None = None) -> CanaryStatus:
    """Start a canary at the policy's first step (release role; gate report as promotion)."""
    _check_role(role, START_ROLES, actor, "starting")
    if route not in policy.routes:
        raise GovernanceRefused(f"unknown route {route!r}; known routes: "
                                f"{', '.join(sorted(policy.routes))}")
    if policy.route(route).mode == "off":
        raise GovernanceRefused(f"route {route!r} is `off` in the policy file; no canary can "
                                "serve it speculatively")
    if not reason.strip():
        raise GovernanceRefused("say why (--reason): it goes into the audit log")
    previous = canaries.get(route)
    if previous is not None and previous.running:
        raise GovernanceRefused(f"a canary already runs on route {route!r} at "
                                f"{previous.weight_pct:g}%; advance or abort it")
    evidence = speculation_evidence(routes.db, pair_hash=pair_hash,
                                    policy_hash=policy.content_hash, actor=actor, role=role,
                                    override_reason=override_reason, registry=registry)
    steps = tuple(policy.route(route).canary.steps)
    # The canary row first: between the two writes the route is not yet speculative, so a
    # crash here leaves speculation off, never on for all traffic.
    status = canaries.write(route, status="complete" if steps[0] >= 100 else "running",
                            steps=steps, step_index=0, weight_pct=steps[0], pair_hash=pair_hash,
                            reason=reason, actor=actor,
                            expected_version=previous.version if previous else 0, new_step=True)
    current = routes.get(route)
    routes.set_mode(route, "speculative", actor=actor, reason=f"canary: {reason}",
                    pair_hash=pair_hash, policy_hash=policy.content_hash,
                    expected_version=current.version if current else 0)
    _event(sink, route, status, action="start", actor=actor, policy=policy, previous=previous,
           reason=reason, extra={"previous_mode": current.mode if current else None, **evidence})
    return status


def advance(canaries: CanaryStore, sink: AuditSink, *, route: str, policy: Policy, actor: str,
            role: str | None, reason: str, expected_version: int | None = None,
            evidence: dict[str, Any] | None = None) -> CanaryStatus:
    """Widen the route's canary one step (release role; `role=None`: the analysis itself)."""
    if role is not None:
        _check_role(role, ADVANCE_ROLES, actor, "advancing")
    current = canaries.get(route)
    if current is None or not current.running:
        raise GovernanceRefused(f"no canary runs on route {route!r}"
                                + (f" (it is {current.status})" if current else "")
                                + "; start one with `guardian canary start`")
    if expected_version is not None and current.version != expected_version:
        raise StateConflict(f"the canary of route {route!r} changed; re-read it and retry")
    index = min(current.step_index + 1, len(current.steps) - 1)
    weight = current.steps[index]
    status = canaries.write(route, status="complete" if weight >= 100 else "running",
                            steps=current.steps, step_index=index, weight_pct=weight,
                            pair_hash=current.pair_hash, reason=reason, actor=actor,
                            expected_version=current.version, new_step=True)
    _event(sink, route, status, action="complete" if weight >= 100 else "advance", actor=actor,
           policy=policy, previous=current, reason=reason,
           extra={"analysis": evidence} if evidence is not None else None)
    return status


def abort(routes: RouteStateStore | None, canaries: CanaryStore, sink: AuditSink, *,
          route: str, policy: Policy, actor: str, role: str | None, reason: str,
          evidence: dict[str, Any] | None = None) -> CanaryStatus | None:
    """Drop the canary to 0 % and (with `routes`) set the route `target_only`.

    `role=None`: a trigger's rollback (it has set the route state itself; pass `routes=None`).
    Returns None when no canary was running (nothing to abort)."""
    if role is not None:
        _check_role(role, ABORT_ROLES, actor, "aborting")
    current = canaries.get(route)
    if current is None or not current.running:
        if role is not None:
            raise GovernanceRefused(f"no canary runs on route {route!r}; to stop speculation "
                                    "anyway use `guardian route disable`")
        return None
    status = canaries.write(route, status="aborted", steps=current.steps,
                            step_index=current.step_index, weight_pct=0.0,
                            pair_hash=current.pair_hash, reason=reason, actor=actor,
                            expected_version=current.version, new_step=False)
    if routes is not None:
        routes.set_mode(route, "target_only", actor=actor, reason=f"canary aborted: {reason}",
                        pair_hash=current.pair_hash, policy_hash=policy.content_hash)
    _event(sink, route, status, action="abort", actor=actor, policy=policy, previous=current,
           reason=reason, extra={"evidence": evidence} if evidence is not None else None)
    return status
