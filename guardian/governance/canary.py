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

import logging
import uuid
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from guardian.audit.acts import act_intent, record_act
from guardian.audit.events import AuditSink, GovernanceEvent
from guardian.governance.canarystate import CanaryConflict, CanaryStatus, CanaryStore
from guardian.governance.errors import GovernanceRefused
from guardian.governance.gatecheck import speculation_evidence
from guardian.governance.routestate import RouteStateStore, cooldown_refusal

__all__ = ["CanaryStatus", "CanaryStore", "abort", "advance", "end_running", "start"]

if TYPE_CHECKING:
    from guardian.governance.registry import PairRegistry
    from guardian.policy import Policy

logger = logging.getLogger(__name__)

START_ROLES = ("release", "admin")
ADVANCE_ROLES = ("release", "admin")
ABORT_ROLES = ("release", "oncall", "admin")
ANALYSIS_ACTOR = "canary:analysis"


def _event(sink: AuditSink, route: str, status: CanaryStatus, *, action: str, actor: str,
           policy: Policy, previous: CanaryStatus | None, reason: str,
           extra: dict[str, Any] | None = None, event_id: str | None = None) -> None:
    record_act(sink, GovernanceEvent(
        event_id=event_id or f"gov-{uuid.uuid4().hex}", created_at=datetime.now(UTC),
        kind="canary",
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
    current = routes.get(route)
    if override_reason is None and (current is None or current.pair_hash in (None, pair_hash)):
        # A canary of the pair a trigger just rolled back would skip the cool-down step by step.
        refusal = cooldown_refusal(current, policy.route(route).triggers.cooldown_s,
                                   act="starting a canary of the same pair",
                                   bypass="ask an admin for an override")
        if refusal is not None:
            raise GovernanceRefused(refusal)
    evidence = speculation_evidence(routes.db, pair_hash=pair_hash,
                                    policy_hash=policy.content_hash, actor=actor, role=role,
                                    override_reason=override_reason, registry=registry,
                                    route=route)
    steps = tuple(policy.route(route).canary.steps)
    # The canary row first: between the two writes the route is not yet speculative, so a
    # crash here leaves speculation off, never on for all traffic.
    run = uuid.uuid4().hex  # binds the canary's rows to the route state this start writes
    with act_intent(sink) as act:
        status = canaries.write(route, status="complete" if steps[0] >= 100 else "running",
                                steps=steps, step_index=0, weight_pct=steps[0],
                                pair_hash=pair_hash, reason=reason, actor=actor,
                                expected_version=previous.version if previous else 0,
                                new_step=True, run=run)
        act.took_effect()
        state = routes.set_mode(route, "speculative", actor=actor, reason=f"canary: {reason}",
                                pair_hash=pair_hash, policy_hash=policy.content_hash,
                                expected_version=current.version if current else 0,
                                canary_run=run)
        _event(sink, route, status, action="start", actor=actor, policy=policy,
               previous=previous, reason=reason, event_id=act.event_id,
               extra={"previous_mode": current.mode if current else None,
                      "state_version": state.version, **evidence})
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
        raise CanaryConflict(f"the canary of route {route!r} changed; re-read it and retry")
    if not current.steps:  # an unreadable row (canarystate._status) is served as 0 %
        raise GovernanceRefused(f"the canary row of route {route!r} cannot be read "
                                f"({current.problem}); abort it and start a new canary")
    index = min(current.step_index + 1, len(current.steps) - 1)
    weight = current.steps[index]
    with act_intent(sink) as act:
        status = canaries.write(route, status="complete" if weight >= 100 else "running",
                                steps=current.steps, step_index=index, weight_pct=weight,
                                pair_hash=current.pair_hash, reason=reason, actor=actor,
                                expected_version=current.version, new_step=True,
                                run=current.run)
        act.took_effect()
        _event(sink, route, status, action="complete" if weight >= 100 else "advance",
               actor=actor, policy=policy, previous=current, reason=reason,
               event_id=act.event_id,
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
    with act_intent(sink) as act:
        status = canaries.write(route, status="aborted", steps=current.steps,
                                step_index=current.step_index, weight_pct=0.0,
                                pair_hash=current.pair_hash, reason=reason, actor=actor,
                                expected_version=current.version, new_step=False,
                                run=current.run)
        act.took_effect()
        extra: dict[str, Any] = {"evidence": evidence} if evidence is not None else {}
        if routes is not None:
            state = routes.set_mode(route, "target_only", actor=actor,
                                    reason=f"canary aborted: {reason}",
                                    pair_hash=current.pair_hash, policy_hash=policy.content_hash)
            extra["state_version"] = state.version
        _event(sink, route, status, action="abort", actor=actor, policy=policy,
               previous=current, reason=reason, extra=extra or None, event_id=act.event_id)
    return status


def end_running(canaries: CanaryStore, sink: AuditSink, *, route: str, policy: Policy,
                actor: str, why: str, strict: bool,
                evidence: dict[str, Any] | None = None) -> None:
    """Abort the route's running canary (signed, audited; nothing when none runs) when an act
    turns speculation off or writes a state no canary start wrote: a running canary row under
    such a state would narrow it only until a database writer marked it complete or deleted
    it (`gatecheck.canary_as_served`). `strict`: a canary that cannot be ended refuses the
    act (promotion, re-enable); a turn-off (disable, a trigger's rollback, which passes its
    `evidence`) is done already and goes on regardless (logged)."""
    try:
        abort(None, canaries, sink, route=route, policy=policy, actor=actor, role=None,
              reason=why, evidence=evidence)
    except Exception as exc:
        if strict:
            raise GovernanceRefused(f"the running canary of route {route!r} cannot be ended "
                                    f"({exc}); abort it first (`guardian canary abort`)") from exc
        logger.exception("could not end the canary of route %s", route)
