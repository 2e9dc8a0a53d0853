"""Signed route and canary states: a database writer without a key cannot undo a rollback.

A `route_state` row decides what every replica serves, and the database is not a trust
boundary. Gate reports are signed (`reportsig`), so a forged row for an ungated pair never
served; but a pair that holds a genuine passing report could be put back on speculation by
rewriting, replaying or deleting the row that rolled it back, and a canary widened by
editing its row. This module owns the rules that close that:

* Signing. A row that turns speculation ON is signed by the act that writes it
  (`RouteStateStore.set_mode`, `sign_state`) with this home's Ed25519 audit key, over its
  route, mode, version, pair, policy, reason, author and canary run; every `canary_state`
  write is signed too (`CanaryStore.write`, `sign_canary`), over its run, status, steps,
  weight, pair, version and author. An act that would turn speculation on without a key is
  refused (`require_signer`); turning it off needs no key and never waits for one.
* Freshness, by version. Versions only grow (compare-and-set), and every act records the
  version it wrote in its audit event (`state_version`). A speculative row counts only if
  its version is at least the highest the replica has seen for the route (kept in memory and
  in its last-known-state file) and the highest any act recorded (`recorded_version`: a
  `max` over the route's acts, which inserted rows can only raise). So a copy of the genuine
  promotion row put back over its rollback is stale everywhere the rollback is known.
* A missing row. A route whose row is gone while the replica saw one, or while acts are
  recorded for it, serves `target_only` until an act writes a new state (`set_mode` inserts
  above every recorded version).
* Canaries. A state written by a canary start names the run (`canary_run`, signed); the
  canary row must carry that run and verify, or the route serves 0 % (`canary_problem`).

Also: a replica that reads a different row back at a version not above the last one it read
raises its floor past it (`ModeResolver._note_seen`); audit rows whose version cannot be read
are read past, row by row (`_version_of`); and disable, promotion and re-enable end a running
canary, so no running canary row is left under a state no canary start wrote.

`guardian audit prune` records each route's highest version (`floor_events`, kind
`state_floor`, counted by `recorded_version`) and reads it back before deleting any act, so
the floor outlives the records that set it.

What it cannot do: a replica that never saw the rollback (started later, without its
last-known-state file) reading an audit trail from which the writer also deleted or edited
the rollback's record (and any floor carrying its version) accepts the replayed row;
`guardian audit verify` shows an edit once a signed tree head covers it. Denials (a
writer making routes serve target_only) are out of scope.
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

from guardian.audit.events import GovernanceEvent
from guardian.audit.models import AuditGovernance
from guardian.governance.errors import GovernanceRefused
from guardian.governance.reportsig import (
    CANARY_FORMAT,
    STATE_FORMAT,
    sign_report,
    signature_problem,
)

if TYPE_CHECKING:
    from guardian.audit.signing import Signer

logger = logging.getLogger(__name__)

__all__ = ["FLOOR_KIND", "STATE_ACTS", "VERSION_KINDS", "VanishedState", "canary_problem",
           "floor_events", "recorded_version", "recorded_versions", "require_signer",
           "sign_canary", "sign_state", "state_problem", "state_signer"]

# The acts that write a route state (each records `state_version` in its audit event).
STATE_ACTS = ("rollback", "reenable", "promotion", "canary")
# What `guardian audit prune` records, per route, before it deletes acts: the highest version
# they recorded, so the floor outlives the records that set it (`floor_event`).
FLOOR_KIND = "state_floor"
VERSION_KINDS = (*STATE_ACTS, FLOOR_KIND)


def state_signer(actor: str) -> Signer | None:
    """This home's audit signing key for an act, or None (logged) when it has none."""
    from guardian.audit.signing import SigningError, signer_for
    from guardian.settings import get_settings

    try:
        return signer_for(get_settings(), f"route:{actor}")
    except (SigningError, OSError, ValueError) as exc:  # an abort must never fail on a key
        logger.error("no audit signing key for %s: %s", actor, exc)
        return None


def require_signer(actor: str, act: str) -> Signer:
    """The signing key an act turning speculation on needs, or GovernanceRefused: an
    unsigned state would be reported done and then serve target_only on every replica."""
    signer = state_signer(actor)
    if signer is None:
        raise GovernanceRefused(
            f"{act} needs this home's audit signing key (replicas serve an unsigned "
            "speculative state as target_only); run it where `guardian audit keys init` made "
            "a key pinned in the replicas' trust file")
    return signer


def _state_fields(*, route: str, mode: str, version: int, pair_hash: str | None,
                  policy_hash: str | None, reason: str | None, updated_by: str,
                  canary_run: str | None) -> dict[str, Any]:
    return {"route": route, "mode": mode, "version": version, "pair_hash": pair_hash,
            "policy_hash": policy_hash, "reason": reason, "updated_by": updated_by,
            "canary_run": canary_run}


def sign_state(signer: Signer, *, route: str, mode: str, version: int, pair_hash: str | None,
               policy_hash: str | None, reason: str | None, updated_by: str,
               canary_run: str | None = None) -> str:
    """The `signature` column of a speculative row: JSON of {format, key_id, signed_at, sig}."""
    row = _state_fields(route=route, mode=mode, version=version, pair_hash=pair_hash,
                        policy_hash=policy_hash, reason=reason, updated_by=updated_by,
                        canary_run=canary_run)
    return json.dumps(sign_report(row, signer, fmt=STATE_FORMAT)["signature"], sort_keys=True)


def _canary_fields(*, route: str, run: str | None, status: str, steps: Any, step_index: int,
                   weight_pct: float, pair_hash: str | None, version: int,
                   updated_by: str) -> dict[str, Any]:
    return {"route": route, "run": run, "status": status, "steps": list(steps),
            "step_index": step_index, "weight_pct": weight_pct, "pair_hash": pair_hash,
            "version": version, "updated_by": updated_by}


def sign_canary(signer: Signer, *, route: str, run: str | None, status: str, steps: Any,
                step_index: int, weight_pct: float, pair_hash: str | None, version: int,
                updated_by: str) -> str:
    """The `signature` column of a `canary_state` row (every write signs)."""
    row = _canary_fields(route=route, run=run, status=status, steps=steps,
                         step_index=step_index, weight_pct=weight_pct, pair_hash=pair_hash,
                         version=version, updated_by=updated_by)
    return json.dumps(sign_report(row, signer, fmt=CANARY_FORMAT)["signature"], sort_keys=True)


def _version_of(db: Engine | sa.Connection) -> Any:
    """`details.state_version` as an integer where the row holds one, else NULL, row by row:
    one row a writer made unreadable (not JSON, a text version) must not make the whole
    query fail, or an act would have no floor to write above (and replicas none to check)."""
    t = AuditGovernance.__table__
    if db.dialect.name == "postgresql":
        path = t.c.details.op("->")("state_version")
        return sa.case((sa.func.jsonb_typeof(path) == "number",
                        sa.cast(t.c.details.op("->>")("state_version"), sa.Numeric)))
    text = sa.type_coerce(t.c.details, sa.Text)
    return sa.case((sa.and_(sa.func.json_valid(text) == 1,
                            sa.func.json_type(text, "$.state_version") == "integer"),
                    sa.func.json_extract(text, "$.state_version")))


def _query(db: Engine | sa.Connection, query: Any) -> list[Any]:
    if isinstance(db, sa.Connection):
        return list(db.execute(query).all())
    with db.connect() as conn:
        return list(conn.execute(query).all())


def recorded_version(db: Engine | sa.Connection, route: str) -> int | None:
    """The highest route-state version any act recorded for `route` in the audit trail
    (None: no act recorded one). A `max`: rows a writer inserts can raise it (a denial of
    speculation), never lower it. Raises SQLAlchemyError when the DB cannot answer."""
    t = AuditGovernance.__table__
    rows = _query(db, sa.select(sa.func.max(_version_of(db))).where(
        t.c.kind.in_(VERSION_KINDS), t.c.route == route))
    value = rows[0][0] if rows else None
    return None if value is None else int(value)


def recorded_versions(db: Engine, *, since: datetime | None = None) -> dict[str, int]:
    """`recorded_version` of every route any act recorded one for (one query); `since`: of
    the acts recorded at or after that time only (the (kind, created_at) index bounds it)."""
    t = AuditGovernance.__table__
    where = [t.c.kind.in_(VERSION_KINDS), t.c.route.is_not(None)]
    if since is not None:
        where.append(t.c.created_at >= since)
    rows = _query(db, sa.select(t.c.route, sa.func.max(_version_of(db))).where(*where)
                  .group_by(t.c.route))
    return {str(route): int(v) for route, v in rows if v is not None}


def floor_events(db: Engine, *, actor: str, why: str) -> list[GovernanceEvent]:
    """One `state_floor` event per route any act recorded a version for, carrying that
    version: what `guardian audit prune` records (durably) before it deletes the acts, so a
    replica started after the prune still holds a replayed older row to the rollback's
    version. Raises SQLAlchemyError when the DB cannot answer."""
    now = datetime.now(UTC)
    return [GovernanceEvent(
        event_id=f"floor-{uuid.uuid4().hex}", created_at=now, kind=FLOOR_KIND, route=route,
        pair_hash=None, policy_hash=None, actor=actor,
        details={"state_version": version, "why": why})
        for route, version in sorted(recorded_versions(db).items())]


EPOCH = datetime.fromtimestamp(0, UTC)


@dataclass(frozen=True, slots=True)
class VanishedState:
    """What a replica serves for a route whose `route_state` row is gone although a version
    of it is known (no act deletes a row: a database writer undoing a rollback does):
    `target_only` until an act writes a new state. Reads like a `RouteStatus`."""

    route: str
    version: int
    known_by: str  # who knows the version: "this replica has seen" / "the audit trail records"
    mode: str = "target_only"
    pair_hash: str | None = None
    policy_hash: str | None = None
    updated_at: datetime = EPOCH
    updated_by: str = "route-resolver:vanished-row"
    signature: str | None = None
    canary_run: str | None = None

    @property
    def reason(self) -> str:
        return (f"the route_state row is gone (deleted outside the sidecar?), though "
                f"{self.known_by} version {self.version}: target_only until an act writes a "
                "new state")


def _signature_problem(what: str, raw: str | None, row: dict[str, Any], fmt: str,
                       trust: dict[str, Any]) -> str | None:
    if not raw:
        return (f"the {what} row is not signed by a pinned key (no signature: written into the "
                "database by hand, or before revision 0005 — repeat the act once)")
    try:
        sig = json.loads(raw)
    except ValueError:
        sig = "malformed"
    problem = signature_problem({**row, "signature": sig}, trust, fmt=fmt)
    if problem is not None:
        return (f"the {what} row is not signed by a pinned key "
                f"({problem.replace('report', 'row')})")
    return None


def state_problem(state: Any, trust: dict[str, Any], *,
                  floor: tuple[int, str] | None = None) -> str | None:
    """Why the speculative row `state` (a RouteStatus) may not be served, or None: not signed
    by a pinned key, or older than `floor` = (the newest version known for the route, who
    knows it)."""
    row = _state_fields(route=state.route, mode=state.mode, version=state.version,
                        pair_hash=state.pair_hash, policy_hash=getattr(state, "policy_hash", None),
                        reason=state.reason, updated_by=state.updated_by,
                        canary_run=getattr(state, "canary_run", None))
    problem = _signature_problem("route state", getattr(state, "signature", None), row,
                                 STATE_FORMAT, trust)
    if problem is None and floor is not None and state.version < floor[0]:
        problem = (f"the route state row is version {state.version}; {floor[1]} version "
                   f"{floor[0]}: a copy of an older state cannot undo a rollback")
    return problem


def canary_problem(canary: Any, state: Any, trust: dict[str, Any]) -> str | None:
    """Why the canary row `canary` (a CanaryStatus, as read) may not narrow the verified
    speculative `state` to its own weight (it then serves 0 %), or None: not signed by a
    pinned key, for another canary run than the one the state names, or another pair."""
    row = _canary_fields(route=canary.route, run=getattr(canary, "run", None),
                         status=canary.status, steps=canary.steps, step_index=canary.step_index,
                         weight_pct=canary.weight_pct, pair_hash=canary.pair_hash,
                         version=canary.version, updated_by=canary.updated_by)
    problem = _signature_problem("canary", getattr(canary, "signature", None), row,
                                 CANARY_FORMAT, trust)
    if problem is not None:
        return problem
    run = getattr(state, "canary_run", None)
    if run is not None and getattr(canary, "run", None) != run:
        return (f"the canary row is of run {str(getattr(canary, 'run', None))[:12]}, the route "
                f"state of run {run[:12]}: a copy of an earlier canary")
    if canary.pair_hash != state.pair_hash:
        return (f"the canary row is for pair {str(canary.pair_hash)[:12]}, the route state "
                f"for {str(state.pair_hash)[:12]}")
    return None
