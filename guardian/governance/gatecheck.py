"""The promotion rule, read from the audit store: may this pair serve speculatively under
this policy? A passing gate report for exactly this pair hash and policy hash says yes.

Shared by promotion (which raises) and the route-mode resolver (which needs an answer for a
policy FILE asking for `mode: speculative` without a promotion); kept apart from both so
neither imports the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import Engine

from guardian.audit.models import AuditGovernance
from guardian.governance.errors import GovernanceRefused

if TYPE_CHECKING:
    from guardian.governance.registry import PairRegistry


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
