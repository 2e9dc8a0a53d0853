"""The promotion rule, read from the audit store: may this pair serve speculatively under
this policy? A passing gate report for exactly this pair hash and policy hash says yes.

Every path to `speculative` asks it: promotion and re-enable (`speculation_evidence`, which
also admits an audited admin override), and the route-mode resolver (`gate_refusal`, for a
policy FILE, loaded or reloaded, asking for `mode: speculative` without a promotion). Kept
apart from all of them so none imports another. Turning speculation OFF never asks it.

A report read from the database counts only if it is signed by a key pinned in the trust
file (`guardian.governance.reportsig`): someone who can write the database but holds no key
could otherwise insert a passing `gate_result` row. An unsigned or badly signed report is
treated as no report (refused, naming why, logged once). `state_refusal` holds a database
route state saying `speculative` to the same rule, and to the row's own signature
(`guardian.governance.statesig`), used by the resolver only when asked:
`ModeResolver(require_signed_state=True)`; `modes_in_force` shows a route whose row was
deleted while the audit trail records its state as the replicas serve it: target_only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import Engine

from guardian.audit.models import AuditGovernance
from guardian.governance.errors import GovernanceRefused
from guardian.governance.modes import ModeDecision, RouteStatus, effective_mode, route_modes
from guardian.governance.statesig import (
    VanishedState,
    canary_problem,
    recorded_version,
    recorded_versions,
    state_problem,
)

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


NOT_SIGNED = ("gate report not signed by a pinned key ({why}) — a database row alone cannot "
              "grant speculation; re-run `guardian gate` on this pair (its report is signed "
              "with this home's audit key)")
_logged: set[tuple[str, str, str]] = set()


def unsigned_refusal(report: dict[str, Any], *, trust: dict[str, Any] | None = None) -> str | None:
    """Why a report read from the database may not count (None: signed by a pinned key).

    `trust`: the trust file's contents (None: this home's, `reportsig.current_trust`)."""
    from guardian.audit.signing import SigningError
    from guardian.governance.reportsig import current_trust, signature_problem

    try:
        why = signature_problem(report, trust if trust is not None else current_trust())
    except SigningError as exc:
        why = str(exc)
    if why is None:
        return None
    key = (str(report.get("pair_hash")), str(report.get("policy_hash")), why)
    if key not in _logged:
        _logged.add(key)
        logger.warning("gate report for pair %s under policy %s ignored: %s",
                       key[0][:12], key[1][:12], why)
    return NOT_SIGNED.format(why=why)


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


def gate_refusal(db: Engine, pair_hash: str, policy_hash: str, *,
                 trust: dict[str, Any] | None = None) -> str | None:
    """Why `pair_hash` may not serve speculatively under `policy_hash`, or None when it may.

    The promotion rule itself (`require_report`: the newest report, signed by a pinned key,
    passing for exactly this pair and policy), for callers that need an answer rather than
    an exception. Raises SQLAlchemyError when the DB is down.
    """
    try:
        require_report(db, pair_hash=pair_hash, policy_hash=policy_hash, trust=trust)
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
    state_gate = None
    if db is not None:
        def state_gate(st: RouteStatus) -> str | None:  # as serving holds the row
            return state_refusal(db, route, st, pair_hash,
                                 require_report=requires_report(policy, route))
    return effective_mode(route_policy.mode if route_policy else None, state,
                          pair_hash=pair_hash, gate=gate, state_gate=state_gate)


def requires_report(policy: Policy, route: str) -> bool:
    """Whether a speculative state of `route` needs a signed gate report behind it (its
    policy's `gate.require_report`; a route the policy does not name: yes)."""
    rp = policy.routes.get(route)
    return rp is None or rp.gate.require_report


def mode_before(db: Engine | None, policy: Policy, route: str, state: RouteStatus | None, *,
                pair_hash: str | None) -> str:
    """The mode an act replaces, for its audit record (`decide_mode`), decided before the act
    writes: "unknown" when it cannot be decided — a record with that is better than an act
    done and not recorded."""
    try:
        return str(decide_mode(db, policy, route, state, pair_hash=pair_hash).mode)
    except Exception:
        logger.exception("cannot tell the mode route %s served before this act", route)
        return "unknown"


def require_report(db: Engine | None, *, pair_hash: str, policy_hash: str,
                   report: dict[str, Any] | None = None,
                   registry: PairRegistry | None = None,
                   trust: dict[str, Any] | None = None) -> dict[str, Any]:
    """The passing report that lets `pair_hash` serve speculatively under `policy_hash`.

    `report`: an explicit report (a JSON file's contents, passed by a key holder); else the
    newest gate result for the pair in the audit database `db`, which counts only when
    signed by a key pinned in the trust file (`trust`; None: this home's). Raises
    GovernanceRefused naming what is missing.
    """
    if report is None and db is not None and pair_hash:
        report = latest_gate_report(db, pair_hash)
        if report is not None:
            refusal = unsigned_refusal(report, trust=trust)
            if refusal is not None:
                raise GovernanceRefused(refusal)
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
                         registry: PairRegistry | None = None,
                         route: str | None = None) -> dict[str, Any]:
    """What entitles an act to turn speculation on, for its audit event's details.

    Every path to `speculative` (re-enable, promotion) asks this: a passing gate report for
    exactly `pair_hash` + `policy_hash` (`{"gate_report": summary}`), or, only when no such
    report exists, an admin override with a reason (`{"override": {by, reason, refusal}}`,
    logged as a WARNING). `override_reason` None: no override asked. Raises GovernanceRefused.
    `route`: the route the act turns on; an override is signed for it (and pair and policy)
    with this home's audit key, so the route state it sets keeps serving (`state_refusal`).
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
        return {"override": signed_override(route, pair_hash, policy_hash, actor=actor,
                                            reason=override_reason, refusal=str(exc))}
    return {"gate_report": {"created_at": found.get("created_at"),
                            "golden_sha256": found.get("golden_sha256"),
                            "checks": found.get("checks")}}


def signed_override(route: str | None, pair_hash: str | None, policy_hash: str, *, actor: str,
                    reason: str, refusal: str) -> dict[str, Any]:
    """An override's audit details, signed with this home's key when it has one."""
    from guardian.governance.reportsig import OVERRIDE_FORMAT, current_signer, sign_report

    override = {"by": actor, "reason": reason, "refusal": refusal, "route": route,
                "pair_hash": pair_hash, "policy_hash": policy_hash}
    signer = current_signer(f"override:{actor}") if route else None
    return sign_report(override, signer, fmt=OVERRIDE_FORMAT) if signer else override


GRANTING_KINDS = ("promotion", "reenable", "canary")


def signed_override_for(db: Engine, route: str, pair_hash: str, policy_hash: str, *,
                        trust: dict[str, Any] | None = None, recent: int = 20) -> bool:
    """Whether one of the route's `recent` newest speculation-granting acts carries an
    override signed by a pinned key for exactly this route, pair and policy."""
    from guardian.audit.signing import SigningError
    from guardian.governance.reportsig import OVERRIDE_FORMAT, current_trust, signature_problem

    t = AuditGovernance.__table__
    with db.connect() as conn:
        rows = conn.execute(sa.select(t.c.details).where(
            t.c.kind.in_(GRANTING_KINDS), t.c.route == route,
        ).order_by(t.c.created_at.desc()).limit(recent)).all()
    try:
        trust = trust if trust is not None else current_trust()
    except SigningError:
        return False
    for (details,) in rows:
        o = (details or {}).get("override") if isinstance(details, dict) else None
        if (isinstance(o, dict) and (o.get("route"), o.get("pair_hash"), o.get("policy_hash"))
                == (route, pair_hash, policy_hash)
                and signature_problem(o, trust, fmt=OVERRIDE_FORMAT) is None):
            return True
    return False


READ_RECORDED = object()  # `state_signature_refusal`: read the recorded version from the audit trail


def state_signature_refusal(db: Engine, route: str, state: RouteStatus, *,
                            trust: dict[str, Any] | None = None,
                            seen_version: int | None = None,
                            recorded: int | object | None = READ_RECORDED) -> str | None:
    """Why a speculative database row may not be served whatever evidence stood behind its
    act: not signed by a pinned key, or older than the newest version known for the route
    (`seen_version`: the highest this replica read; `recorded`: the highest any act recorded,
    read from the audit trail unless given). Raises SQLAlchemyError when the DB is down."""
    from guardian.audit.signing import SigningError
    from guardian.governance.reportsig import current_trust

    try:
        trust = trust if trust is not None else current_trust()
    except SigningError as exc:
        return f"the trust file cannot be read ({exc}); no signed route state can be checked"
    if recorded is READ_RECORDED:
        recorded = recorded_version(db, route)
    floors = [(v, who) for v, who in ((seen_version, "this replica has seen"),
                                      (recorded, "the audit trail records"))
              if isinstance(v, int)]
    problem = state_problem(state, trust, floor=max(floors) if floors else None)
    if problem is not None:
        return f"the route state says speculative (set by {state.updated_by}), but {problem}"
    return None


def state_evidence_refusal(db: Engine, route: str, state: RouteStatus, serving_pair: str | None,
                           *, trust: dict[str, Any] | None = None) -> str | None:
    """Why the act behind a speculative row had no evidence a key signed (None: it had): a
    passing gate report for the serving pair under the policy the state names, or an admin
    override signed for this route, pair and policy. Raises SQLAlchemyError when the DB is
    down."""
    pair, policy_hash = serving_pair or state.pair_hash, getattr(state, "policy_hash", None)
    if not pair or not policy_hash:
        return ("the route state says speculative but names no pair or policy; a database "
                "row alone cannot grant speculation")
    refusal = gate_refusal(db, pair, policy_hash, trust=trust)
    if refusal is None or signed_override_for(db, route, pair, policy_hash, trust=trust):
        return None
    return f"the route state says speculative (set by {state.updated_by}), but: {refusal}"


def state_refusal(db: Engine, route: str, state: RouteStatus, serving_pair: str | None, *,
                  trust: dict[str, Any] | None = None, seen_version: int | None = None,
                  require_report: bool = True) -> str | None:
    """Why a database route state saying `speculative` may not be served (None: it may):
    `state_signature_refusal`, then, with `require_report` (the route's
    `gate.require_report`), `state_evidence_refusal`. Raises SQLAlchemyError when the DB is
    down."""
    refusal = state_signature_refusal(db, route, state, trust=trust, seen_version=seen_version)
    if refusal is None and require_report:
        refusal = state_evidence_refusal(db, route, state, serving_pair, trust=trust)
    return refusal


def canary_as_served(route: str, state: RouteStatus | None, canary: Any, *,
                     trust: dict[str, Any] | None = None) -> tuple[Any, str | None]:
    """(the canary as replicas apply it, what was wrong with the row or None).

    Only a verified speculative state meets its canary (`effective_mode`). Under a state a
    canary start wrote (it names the run, signed: `canary_run`), the canary row decides the
    share: one that is missing (deleting it would serve the whole route), says `aborted`, or
    does not verify (not signed by a pinned key, of another run, for another pair) serves
    0 %. Under a state a promotion or re-enable wrote, a `complete` or `aborted` row narrows
    nothing and is left as it is; a running one narrows, to 0 % unless it verifies."""
    from dataclasses import replace

    from guardian.audit.signing import SigningError
    from guardian.governance.canarystate import EPOCH, CanaryStatus
    from guardian.governance.reportsig import current_trust

    if state is None or state.mode != "speculative":
        return canary, None
    by_canary = getattr(state, "canary_run", None) is not None
    if canary is None:
        if not by_canary:
            return None, None
        problem = ("the route state was written by a canary start, but its canary row is gone "
                   "(deleted outside the sidecar?)")
        return CanaryStatus(route, "running", (), 0, 0.0, state.pair_hash, None, -1, EPOCH,
                            EPOCH, "route-resolver:missing-canary", problem), problem
    if not by_canary and canary.status != "running":
        return canary, None
    try:
        trust = trust if trust is not None else current_trust()
    except SigningError as exc:
        problem: str | None = f"the trust file cannot be read ({exc})"
    else:
        problem = canary_problem(canary, state, trust)
    if problem is None and by_canary and canary.status == "aborted":
        problem = ("the route state was written by a canary start, but its canary row says "
                   "aborted")
    if problem is None:
        return canary, None
    return replace(canary, status="running", weight_pct=0.0, problem=problem), problem


def modes_in_force(db: Engine, policy: Policy, states: Mapping[str, RouteStatus], *,
                   pair_hash: Callable[[str], str | None] | str | None,
                   canaries: Mapping[str, Any] | None) -> dict[str, ModeDecision]:
    """Every route's mode as replicas decide it from this database: `modes.route_modes` with
    the gate check and the signed-state check serving applies. `guardian route status`,
    `guardian canary status` and the dashboard ask this, so they show what replicas serve."""
    states = {**{route: VanishedState(route, version, "the audit trail records")
                 for route, version in recorded_versions(db).items()}, **states}
    served = dict(canaries or {})
    for name in set(policy.routes) | set(states):
        view, _problem = canary_as_served(name, states.get(name), served.get(name))
        if view is not None:
            served[name] = view
    return route_modes(policy, states, pair_hash=pair_hash,
                       gate_refusal=lambda pair: gate_refusal(db, pair, policy.content_hash),
                       canaries=served,
                       state_refusal=lambda route, st, pair: state_refusal(
                           db, route, st, pair, require_report=requires_report(policy, route)))
