"""The promotion rule, read from the audit store: may this pair serve speculatively under
this policy? A passing gate report for exactly this pair hash and policy hash says yes.

Every path to `speculative` asks it: promotion and re-enable (`speculation_evidence`, which
also admits an audited admin override), and the route-mode resolver (`gate_refusal`, for a
policy FILE, loaded or reloaded, asking for `mode: speculative` without a promotion). Kept
apart from all of them so none imports another. Turning speculation OFF never asks it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import Engine

from guardian.audit.models import AuditGovernance
from guardian.governance.errors import GovernanceRefused
from guardian.governance.modes import ModeDecision, RouteStatus, effective_mode

if TYPE_CHECKING:
    from guardian.governance.registry import PairRegistry
    from guardian.policy import Policy

logger = logging.getLogger(__name__)


def latest_gate_report(db: Engine, pair_hash: str) -> dict[str, Any] | None:
    """The newest gate result recorded for `pair_hash` (passing or not), as a report dict."""
    t = AuditGovernance.__table__
    with db.connect() as conn:
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
                from engine.identity import PairIdentity

                ident = {k: (entry.get("details") or {}).get(k) for k in PairIdentity.__slots__}
                changed = registry.lineage_change(PairIdentity(**ident)) if all(ident.values()) else None
                if changed:
                    hint = (f" This pair differs from an earlier registered pair of the same models "
                            f"in: {changed}, so earlier reports do not apply.")
        raise GovernanceRefused(f"no gate report for pair {pair_hash[:12] or '(unknown)'}.{hint} Run "
                                "`guardian gate --pair ... --golden ...` on this exact pair first.")
    if report.get("pair_hash") != pair_hash:
        from guardian.governance.registry import describe_change

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


def gate_refusal(db: Engine, pair_hash: str, policy_hash: str) -> str | None:
    """Why `pair_hash` may not serve speculatively under `policy_hash`, or None when it may.

    The promotion rule itself (`latest_gate_report` + `check_report`), for callers that need
    an answer rather than an exception. Raises SQLAlchemyError when the DB is down.
    """
    try:
        check_report(latest_gate_report(db, pair_hash), pair_hash=pair_hash,
                     policy_hash=policy_hash)
    except GovernanceRefused as exc:
        return str(exc)
    return None


def decide_mode(db: Engine | None, policy: Policy, route: str, state: RouteStatus | None, *,
                pair_hash: str | None) -> ModeDecision:
    """`effective_mode` for an act outside the serving path (promotion, re-enable, manual
    rollback recording the mode it replaces): with the pair that serves and, where the file
    says `speculative` and the gate applies, the gate rule read from the audit DB — so the
    recorded `previous_mode` is what serving was actually doing."""
    route_policy = policy.routes.get(route)
    gate = None
    if (route_policy is not None and route_policy.mode == "speculative"
            and route_policy.gate.require_report and pair_hash is not None):
        if db is None:
            def gate() -> str | None:
                return "no audit database to read a gate report from"
        else:
            def gate() -> str | None:
                return gate_refusal(db, pair_hash, policy.content_hash)
    return effective_mode(route_policy.mode if route_policy else None, state,
                          pair_hash=pair_hash, gate=gate)


def require_report(db: Engine | None, *, pair_hash: str, policy_hash: str,
                   report: dict[str, Any] | None = None,
                   registry: PairRegistry | None = None) -> dict[str, Any]:
    """The passing report that lets `pair_hash` serve speculatively under `policy_hash`.

    `report`: an explicit report (a JSON file's contents); else the newest gate result for
    the pair in the audit database `db`. Raises GovernanceRefused naming what is missing.
    """
    if report is None and db is not None and pair_hash:
        report = latest_gate_report(db, pair_hash)
    check_report(report, pair_hash=pair_hash, policy_hash=policy_hash, registry=registry)
    assert report is not None
    return report


def check_override(*, actor: str, role: str, reason: str | None) -> str:
    """The override's reason, or GovernanceRefused: an override needs the admin role and a
    reason (it goes into the audit log with who gave it)."""
    if role != "admin":
        raise GovernanceRefused(f"an override of the gate needs the admin role; {actor} has "
                                f"{role!r}. Run `guardian gate` on this pair instead, or ask an "
                                "admin.")
    if not (reason or "").strip():
        raise GovernanceRefused("an override needs a reason (it is audited with who gave it)")
    return (reason or "").strip()


def speculation_evidence(db: Engine | None, *, pair_hash: str | None, policy_hash: str,
                         actor: str, role: str, override_reason: str | None = None,
                         report: dict[str, Any] | None = None,
                         registry: PairRegistry | None = None) -> dict[str, Any]:
    """What entitles an act to turn speculation on, for its audit event's details.

    Every path to `speculative` (re-enable, promotion) asks this: a passing gate report for
    exactly `pair_hash` + `policy_hash` (`{"gate_report": summary}`), or, only when no such
    report exists, an admin override with a reason (`{"override": {by, reason, refusal}}`,
    logged as a WARNING). `override_reason` None: no override asked. Raises GovernanceRefused.
    """
    if override_reason is not None:
        override_reason = check_override(actor=actor, role=role, reason=override_reason)
    try:
        found = require_report(db, pair_hash=pair_hash or "", policy_hash=policy_hash,
                               report=report, registry=registry)
    except GovernanceRefused as exc:
        if override_reason is None:
            raise
        logger.warning("gate OVERRIDDEN by %s for pair %s: %s (refusal was: %s)", actor,
                       (pair_hash or "unknown")[:12], override_reason, exc)
        return {"override": {"by": actor, "reason": override_reason, "refusal": str(exc)}}
    return {"gate_report": {"created_at": found.get("created_at"),
                            "golden_sha256": found.get("golden_sha256"),
                            "checks": found.get("checks")}}
