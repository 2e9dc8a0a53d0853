"""Promotion: a route may serve a pair speculatively only with a passing gate report for that
exact pair hash and the active policy's hash, and only by someone with the `release` role
(or an admin override with a reason, audited as such: `gatecheck.speculation_evidence`).

Gate results are recorded as `gate_result` governance events, signed with the recording
home's audit key (`guardian.governance.reportsig`; the audit store is the system of record,
but only a report signed by a pinned key counts; a report file can also be passed explicitly
by a release key holder). A change of weights or tokenizer
changes the pair hash, a change of policy the policy hash: either way the old report no
longer matches and promotion is refused with the reason named. Every transition is audited.
"""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine

from guardian.audit.acts import act_intent, record_act
from guardian.audit.events import AuditSink, GovernanceEvent
from guardian.governance.errors import GovernanceRefused
from guardian.governance.gatecheck import check_override, mode_before, speculation_evidence
from guardian.governance.gatereport import GateReport
from guardian.governance.registry import PairRegistry
from guardian.governance.reportsig import current_signer, sign_report
from guardian.governance.routestate import RouteStateStore, RouteStatus, cooldown_refusal
from guardian.policy import Policy

if TYPE_CHECKING:
    from guardian.audit.signing import Signer

logger = logging.getLogger(__name__)

RELEASE_ROLES = ("release", "admin")


def record_gate_result(sink: AuditSink, registry: PairRegistry | None, report: GateReport, *,
                       actor: str, signer: Signer | None = None) -> None:
    """Audit a gate run (pass or fail), signed, and mark a passing pair `gated`.

    `signer`: the audit key that signs the report (None: this home's,
    `reportsig.current_signer`); only a report signed by a key pinned in the trust file
    can later grant speculation (`gatecheck.require_report`). Without a usable key the
    report is recorded unsigned, with an error logged."""
    signer = signer or current_signer(f"gate:{actor}")
    details = report.to_dict()
    if signer is not None:
        details = sign_report(details, signer)
    record_act(sink, GovernanceEvent(
        event_id=f"gov-{uuid.uuid4().hex}", created_at=datetime.now(UTC), kind="gate_result",
        route=report.route, pair_hash=report.pair_hash, policy_hash=report.policy_hash,
        actor=actor, details=details))
    if registry is not None and report.passed and registry.get(report.pair_hash):
        registry.set_state(report.pair_hash, "gated", actor=actor)


def promote(store: RouteStateStore, sink: AuditSink, *, route: str, pair_hash: str, policy: Policy,
            actor: str, role: str, reason: str, report: dict[str, Any] | None = None,
            db: Engine | None = None, registry: PairRegistry | None = None,
            override_reason: str | None = None) -> RouteStatus:
    """Set `route` to speculative for `pair_hash`, after checking role and gate report.

    `report`: an explicit report dict (a JSON file's contents); else the newest gate result
    for the pair in the audit database `db` (the rule itself: `guardian.governance.gatecheck`).
    `override_reason`: an admin override of a missing or failing report (None: no override).
    """
    if role not in RELEASE_ROLES:
        raise GovernanceRefused(f"promotion needs the release role; {actor} has {role!r}. Ask a "
                                "release manager.")
    if route not in policy.routes:
        raise GovernanceRefused(f"unknown route {route!r}; known routes: {', '.join(sorted(policy.routes))}")
    if override_reason is not None:
        check_override(actor=actor, role=role, reason=override_reason)
    elif registry is not None and registry.get(pair_hash) is None:
        raise GovernanceRefused(f"pair {pair_hash[:12]} is not registered; `guardian gate` registers "
                                "a pair when it runs its golden set")
    current = store.get(route)
    if override_reason is None and (current is None or current.pair_hash in (None, pair_hash)):
        # Promoting the very pair a trigger just rolled back is a re-enable by another name:
        # held to the same cool-down (an admin override, with its reason, may skip it).
        refusal = cooldown_refusal(current, policy.route(route).triggers.cooldown_s,
                                   act="promoting the same pair",
                                   bypass="have on-call re-enable it with force once the cause "
                                   "is fixed, or ask an admin for an override")
        if refusal is not None:
            raise GovernanceRefused(refusal)
    evidence = speculation_evidence(db, pair_hash=pair_hash, policy_hash=policy.content_hash,
                                    actor=actor, role=role, override_reason=override_reason,
                                    report=report, registry=registry, route=route)
    previous_mode = mode_before(store.db, policy, route, current, pair_hash=pair_hash)
    from guardian.governance.canary import CanaryStore
    from guardian.governance.canary import end_running as end_running_canary

    end_running_canary(CanaryStore(store.db), sink, route=route, policy=policy,
                       actor=actor, strict=True,
                       why=f"superseded by the promotion of pair {pair_hash[:12]}")
    status = turn_on(store, sink, kind="promotion", route=route, actor=actor,
                     reason=reason or "promotion", pair_hash=pair_hash, policy=policy,
                     expected_version=current.version if current else 0,
                     details={"previous_mode": previous_mode, "new_mode": "speculative",
                              "reason": reason, **evidence})
    if registry is not None and registry.get(pair_hash) is not None:
        registry.set_state(pair_hash, "promoted", actor=actor)
    logger.info("route %s promoted to speculative with pair %s by %s%s", route, pair_hash[:12],
                actor, " (gate OVERRIDDEN)" if "override" in evidence else "")
    return status


def turn_on(store: RouteStateStore, sink: AuditSink, *, kind: str, route: str, actor: str,
            reason: str, pair_hash: str, policy: Policy, expected_version: int,
            details: dict[str, Any]) -> RouteStatus:
    """Write the signed speculative state of a promotion or re-enable (`kind`) and record
    the act with the version written (`details` + `state_version`), its intent noted first
    (`act_intent`)."""
    with act_intent(sink) as act:
        status = store.set_mode(route, "speculative", actor=actor, reason=reason,
                                pair_hash=pair_hash, policy_hash=policy.content_hash,
                                expected_version=expected_version)
        act.took_effect()
        record_act(sink, GovernanceEvent(
            event_id=act.event_id, created_at=datetime.now(UTC), kind=kind,  # type: ignore[arg-type]
            route=route, pair_hash=pair_hash, policy_hash=policy.content_hash, actor=actor,
            details={**details, "state_version": status.version}))
    return status


def set_route_mode(store: RouteStateStore, sink: AuditSink, *, route: str, mode: str, policy: Policy,
                   actor: str, role: str, reason: str, pair_hash: str | None = None) -> RouteStatus:
    """Manual disable (speculation off → target_only) by oncall; audited as a rollback.

    Turning speculation off never waits: no gate report, no cool-down, no version check."""
    if role not in ("oncall", "admin"):
        raise GovernanceRefused(f"changing a route's mode needs the oncall role; {actor} has {role!r}")
    if mode == "speculative":  # turning speculation ON goes through the gate, never here
        raise GovernanceRefused("set_route_mode only turns speculation off; re-enable or promote "
                                "to turn it on (they check the gate report)")
    if route not in policy.routes:
        raise GovernanceRefused(f"unknown route {route!r}; known routes: {', '.join(sorted(policy.routes))}")
    current = store.get(route)
    previous_mode = mode_before(store.db, policy, route, current, pair_hash=pair_hash)
    from guardian.governance.canary import CanaryStore
    from guardian.governance.canary import end_running as end_running_canary

    with act_intent(sink) as act:
        status = store.set_mode(route, mode, actor=actor, reason=reason, pair_hash=pair_hash,
                                policy_hash=policy.content_hash)
        act.took_effect()
        end_running_canary(CanaryStore(store.db), sink, route=route, policy=policy,
                           actor=actor, strict=False, why=f"speculation turned off: {reason}")
        record_act(sink, GovernanceEvent(
            event_id=act.event_id, created_at=datetime.now(UTC), kind="rollback",
            route=route, pair_hash=pair_hash, policy_hash=policy.content_hash, actor=actor,
            details={"previous_mode": previous_mode, "new_mode": mode, "reason": reason,
                     "manual": True, "state_version": status.version}))
    return status
