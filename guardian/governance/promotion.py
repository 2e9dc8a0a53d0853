"""Promotion: a route may serve a pair speculatively only with a passing gate report for that
exact pair hash and the active policy's hash, and only by someone with the `release` role.

Gate results are recorded as `gate_result` governance events (the audit store is the system
of record; a report file can also be passed explicitly). A change of weights or tokenizer
changes the pair hash, a change of policy the policy hash: either way the old report no
longer matches and promotion is refused with the reason named. Every transition is audited.
"""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine

from guardian.audit.events import AuditSink, GovernanceEvent
from guardian.audit.models import AuditGovernance
from guardian.governance.gates import GateReport
from guardian.governance.registry import PairRegistry, describe_change
from guardian.governance.rollback import GovernanceRefused
from guardian.governance.routestate import RouteStateStore, RouteStatus

logger = logging.getLogger(__name__)

RELEASE_ROLES = ("release", "admin")


def record_gate_result(sink: AuditSink, registry: PairRegistry | None, report: GateReport, *,
                       actor: str) -> None:
    """Audit a gate run (pass or fail) and mark a passing pair `gated`."""
    sink.submit(GovernanceEvent(
        event_id=f"gov-{uuid.uuid4().hex}", created_at=datetime.now(UTC), kind="gate_result",
        route=report.route, pair_hash=report.pair_hash, policy_hash=report.policy_hash,
        actor=actor, details=report.to_dict()))
    if registry is not None and report.passed and registry.get(report.pair_hash):
        registry.set_state(report.pair_hash, "gated", actor=actor)


def latest_gate_report(engine: Engine, pair_hash: str) -> dict[str, Any] | None:
    """The newest gate result recorded for `pair_hash` (passing or not), as a report dict."""
    t = AuditGovernance.__table__
    with engine.connect() as conn:
        row = conn.execute(sa.select(t.c.details).where(
            t.c.kind == "gate_result", t.c.pair_hash == pair_hash,
        ).order_by(t.c.created_at.desc()).limit(1)).first()
    return dict(row[0]) if row else None


def check_report(report: dict[str, Any] | None, *, pair_hash: str, policy_hash: str,
                 registry: PairRegistry | None = None) -> None:
    """Raise GovernanceRefused unless `report` is a passing report for exactly this pair+policy."""
    if report is None:
        hint = ""
        if registry is not None:
            entry = registry.get(pair_hash)
            if entry is not None:
                from engine.compat import PairIdentity

                ident = {k: (entry.get("details") or {}).get(k) for k in PairIdentity.__slots__}
                changed = registry.lineage_change(PairIdentity(**ident)) if all(ident.values()) else None
                if changed:
                    hint = (f" This pair differs from an earlier registered pair of the same models "
                            f"in: {changed}, so earlier reports do not apply.")
        raise GovernanceRefused(f"no gate report for pair {pair_hash[:12]}.{hint} Run `guardian gate "
                                "--pair ... --golden ...` on this exact pair first.")
    if report.get("pair_hash") != pair_hash:
        changed = describe_change(report.get("pair") or {}, (registry.get(pair_hash) or {}).get(
            "details") or {}) if registry else "the pair identity"
        raise GovernanceRefused(
            f"stale gate report: it is for pair {str(report.get('pair_hash'))[:12]}, not "
            f"{pair_hash[:12]} (changed: {changed}). Weights or tokenizer changed since the gate "
            "ran; re-run `guardian gate` on the new pair.")
    if report.get("policy_hash") != policy_hash:
        raise GovernanceRefused(
            f"stale gate report: it was produced under policy {str(report.get('policy_hash'))[:12]}, "
            f"the active policy is {policy_hash[:12]}. Re-run `guardian gate --policy` with the "
            "active policy file.")
    if not report.get("passed"):
        failed = [f"{c['name']} ({c['detail']})" for c in report.get("checks", [])
                  if c.get("outcome") == "fail"]
        raise GovernanceRefused("the gate report for this pair failed: " + "; ".join(failed)
                                + ". Fix the pair (or the golden set) and re-run the gate.")


def gate_refusal(engine: Engine, pair_hash: str, policy_hash: str) -> str | None:
    """Why `pair_hash` may not serve speculatively under `policy_hash`, or None when it may.

    The promotion rule itself (`latest_gate_report` + `check_report`), for callers that need
    an answer rather than an exception: the route-mode resolver, for a policy FILE that asks
    for `mode: speculative` without a promotion. Raises SQLAlchemyError when the DB is down.
    """
    try:
        check_report(latest_gate_report(engine, pair_hash), pair_hash=pair_hash,
                     policy_hash=policy_hash)
    except GovernanceRefused as exc:
        return str(exc)
    return None


def promote(store: RouteStateStore, sink: AuditSink, *, route: str, pair_hash: str, policy: Any,
            actor: str, role: str, reason: str, report: dict[str, Any] | None = None,
            engine: Engine | None = None, registry: PairRegistry | None = None) -> RouteStatus:
    """Set `route` to speculative for `pair_hash`, after checking role and gate report.

    `report`: an explicit report dict (a JSON file's contents); else the newest gate result
    for the pair in the audit database behind `engine`.
    """
    if role not in RELEASE_ROLES:
        raise GovernanceRefused(f"promotion needs the release role; {actor} has {role!r}. Ask a "
                                "release manager.")
    if route not in policy.routes:
        raise GovernanceRefused(f"unknown route {route!r}; known routes: {', '.join(sorted(policy.routes))}")
    if registry is not None and registry.get(pair_hash) is None:
        raise GovernanceRefused(f"pair {pair_hash[:12]} is not registered; `guardian gate` registers "
                                "a pair when it runs its golden set")
    if report is None and engine is not None:
        report = latest_gate_report(engine, pair_hash)
    check_report(report, pair_hash=pair_hash, policy_hash=policy.content_hash, registry=registry)
    assert report is not None
    current = store.get(route)
    status = store.set_mode(route, "speculative", actor=actor, reason=reason or "promotion",
                            pair_hash=pair_hash, policy_hash=policy.content_hash,
                            expected_version=current.version if current else 0)
    sink.submit(GovernanceEvent(
        event_id=f"gov-{uuid.uuid4().hex}", created_at=datetime.now(UTC), kind="promotion",
        route=route, pair_hash=pair_hash, policy_hash=policy.content_hash, actor=actor,
        details={"previous_mode": current.mode if current else policy.route(route).mode,
                 "new_mode": "speculative", "reason": reason,
                 "gate_report": {"created_at": report.get("created_at"),
                                 "golden_sha256": report.get("golden_sha256"),
                                 "checks": report.get("checks")}}))
    if registry is not None:
        registry.set_state(pair_hash, "promoted", actor=actor)
    logger.info("route %s promoted to speculative with pair %s by %s", route, pair_hash[:12], actor)
    return status


def set_route_mode(store: RouteStateStore, sink: AuditSink, *, route: str, mode: str, policy: Any,
                   actor: str, role: str, reason: str, pair_hash: str | None = None) -> RouteStatus:
    """Manual disable (speculation off → target_only) by oncall; audited as a rollback."""
    if role not in ("oncall", "admin"):
        raise GovernanceRefused(f"changing a route's mode needs the oncall role; {actor} has {role!r}")
    if route not in policy.routes:
        raise GovernanceRefused(f"unknown route {route!r}; known routes: {', '.join(sorted(policy.routes))}")
    current = store.get(route)
    status = store.set_mode(route, mode, actor=actor, reason=reason, pair_hash=pair_hash,
                            policy_hash=policy.content_hash)
    sink.submit(GovernanceEvent(
        event_id=f"gov-{uuid.uuid4().hex}", created_at=datetime.now(UTC), kind="rollback",
        route=route, pair_hash=pair_hash, policy_hash=policy.content_hash, actor=actor,
        details={"previous_mode": current.mode if current else policy.route(route).mode,
                 "new_mode": mode, "reason": reason, "manual": True}))
    return status
