"""`RouteStateStore`: reads and compare-and-set writes of the `route_state` table (a
speculative row signed by the act that writes it), `StateConflict` when another replica
changed the route first, and the row reader that never raises on a row's values."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine

from guardian.audit.models import AuditRequest, RouteState
from guardian.governance.canarystate import EPOCH, stored_time
from guardian.governance.routestate.status import RouteStatus
from guardian.governance.statesig import (
    recorded_version,
    require_signer,
    sign_state,
    state_signer,
)

# One logger for the package, named as before it was split into modules.
logger = logging.getLogger("guardian.governance.routestate")


def _status(r: Any) -> RouteStatus:
    """A `route_state` row as written; one whose values cannot be read (anyone who can write
    the database can put a text in `version` or a bad timestamp there on SQLite) is
    `target_only` with the reason saying so. A read never raises on a row's values: one bad
    row would otherwise stop every refresh, and with it every later rollback reaching this
    replica."""

    def text(v: Any) -> str | None:
        return None if v is None else str(v)[:2000]

    try:
        return RouteStatus(str(r["route"]), str(r["mode"])[:40], text(r["pair_hash"]),
                           text(r["policy_hash"]), text(r["reason"]), int(r["version"]),
                           stored_time(r["updated_at"]), str(r["updated_by"])[:2000],
                           text(r["signature"]), text(r["canary_run"]))
    except (TypeError, ValueError, OverflowError) as exc:
        return RouteStatus(str(r["route"]), "target_only", None, None,
                           f"unreadable route_state row ({type(exc).__name__}: "
                           f"{str(exc)[:200]}); served target_only", -1, EPOCH, "unreadable")


class StateConflict(RuntimeError):
    """Another replica changed the route first; re-read and decide again."""


class RouteStateStore:
    """Reads and compare-and-set writes of `route_state`."""

    def __init__(self, db: Engine) -> None:
        self.db = db
        self._listeners: list[Any] = []

    @classmethod
    def from_url(cls, url: str) -> RouteStateStore:
        from guardian.core.db import make_engine

        return cls(make_engine(url))

    def all(self) -> dict[str, RouteStatus]:
        t = RouteState.__table__
        with self.db.connect() as conn:
            # The timestamp as the driver hands it: SQLite's own parser would raise on a bad
            # one while fetching, before `_status` could read the row as unreadable.
            rows = conn.execute(sa.select(
                t.c.route, t.c.mode, t.c.pair_hash, t.c.policy_hash, t.c.reason, t.c.version,
                sa.type_coerce(t.c.updated_at, sa.Text).label("updated_at"),
                t.c.updated_by, t.c.signature, t.c.canary_run)).mappings().all()
        return {str(r["route"]): _status(r) for r in rows}

    def get(self, route: str) -> RouteStatus | None:
        return self.all().get(route)

    def set_mode(self, route: str, mode: str, *, actor: str, reason: str,
                 pair_hash: str | None = None, policy_hash: str | None = None,
                 expected_version: int | None = None,
                 canary_run: str | None = None) -> RouteStatus:
        """Write the route's mode; with `expected_version`, only if nobody changed it since.

        A `speculative` row is signed with this home's audit key (`sign_state`; without one
        the act is refused: GovernanceRefused); turning speculation off needs no key and
        never waits for one. The new version is above the row's and above every version an
        act recorded for the route (`statesig.recorded_version`), so a row deleted or
        rewritten by hand does not make a later act's state look older than its rollback.
        `canary_run`: the run of the canary start writing it (signed with the row)."""
        now = datetime.now(UTC)
        table = RouteState.__table__
        signer = (require_signer(actor, f"setting route {route!r} speculative")
                  if mode == "speculative" else None)
        try:
            recorded = recorded_version(self.db, route) or 0
        except Exception as exc:  # a turn-off never fails on the audit trail
            logger.warning("cannot read the versions recorded for route %s: %s", route, exc)
            recorded = 0
        reason = reason[:2000]
        with self.db.begin() as conn:
            current = conn.execute(sa.select(table.c.version).where(table.c.route == route)).scalar()
            if expected_version is not None and (current or 0) != expected_version:
                raise StateConflict(f"route {route!r} changed (version {current}, expected "
                                    f"{expected_version}); re-read its state and retry")
            version = max(current or 0, recorded) + 1
            fields = dict(route=route, mode=mode, version=version, pair_hash=pair_hash,
                          policy_hash=policy_hash, reason=reason, updated_by=actor,
                          canary_run=canary_run)
            signature = sign_state(signer, **fields) if signer is not None else None
            if signer is not None and (latest := state_signer(actor)) is not None \
                    and latest.key_id != signer.key_id:
                # The key was rotated since it was loaded (`guardian audit keys rotate`
                # retires the old one at once): a row signed by it would serve nowhere.
                signature = sign_state(latest, **fields)
            values = dict(mode=mode, pair_hash=pair_hash, policy_hash=policy_hash,
                          reason=reason, updated_at=now, updated_by=actor,
                          signature=signature, canary_run=canary_run)
            if current is None:
                conn.execute(sa.insert(table).values(route=route, version=version, **values))
            else:
                done = conn.execute(sa.update(table).where(
                    table.c.route == route, table.c.version == current).values(
                    version=version, **values))
                if done.rowcount != 1:
                    raise StateConflict(f"route {route!r} changed concurrently; retry")
        status = RouteStatus(route, mode, pair_hash, policy_hash, reason, version, now, actor,
                             signature, canary_run)
        for listener in list(self._listeners):
            try:
                listener(status)
            except Exception:  # the write is done: its act must still be recorded
                logger.exception("a route state listener failed after %s was written", route)
        return status

    def subscribe(self, listener: Any) -> None:
        """Call `listener(RouteStatus)` after every write through this store."""
        self._listeners.append(listener)

    def serving_pair(self, route: str, *, recent_s: float = 3600.0) -> str | None:
        """The pair of the route's newest served request (None before any request): the pair
        a report or a promotion must be for, as seen from outside a replica.

        Looked for among the last `recent_s` of requests first: the (created_at, route)
        index then bounds the scan, so a route idle for days does not walk the whole table.
        Without a recent request of its own, the newest request of any route answers (the
        pair the replicas serve now), else None."""
        t = AuditRequest.__table__
        newest = sa.select(t.c.pair_hash).order_by(t.c.created_at.desc()).limit(1)
        since = datetime.now(UTC) - timedelta(seconds=recent_s)
        with self.db.connect() as conn:
            pair = conn.execute(newest.where(t.c.created_at >= since, t.c.route == route)).scalar()
            return pair if pair is not None else conn.execute(newest).scalar()
