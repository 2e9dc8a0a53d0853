"""A route's stored state as the resolver serves and saves it: `RouteStatus`, its rows in
the last-known-state file (`as_rows`, `from_rows`, `saved_versions`, `saved_canaries`,
`SavedCanary`) and the post-rollback cool-down (`cooldown_left`, `cooldown_refusal`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from guardian.governance import laststate


@dataclass(frozen=True, slots=True)
class RouteStatus:
    route: str
    mode: str
    pair_hash: str | None
    policy_hash: str | None
    reason: str | None
    version: int
    updated_at: datetime
    updated_by: str
    # The act's signature of a speculative row (JSON text, `reportsig.STATE_FORMAT`), or None.
    signature: str | None = None
    canary_run: str | None = None  # the canary run a canary start wrote this state for


def as_rows(states: dict[str, RouteStatus], canaries: dict[str, Any] | None = None,
            seen: dict[str, int] | None = None) -> laststate.Rows:
    """Route states as JSON values (the last-known-state file; a change is detected on them),
    each with its running canary's weight when one narrows it (`canaries`) and the highest
    version the replica has read for it (`seen`)."""
    rows: laststate.Rows = {}
    for name, s in sorted(states.items()):
        rows[name] = {"mode": s.mode, "pair_hash": s.pair_hash, "policy_hash": s.policy_hash,
                      "reason": s.reason, "version": s.version,
                      # SQLite hands back naive UTC: normalise, or a re-read looks like a change
                      "updated_at": (s.updated_at if s.updated_at.tzinfo
                                     else s.updated_at.replace(tzinfo=UTC)).isoformat(),
                      "updated_by": s.updated_by, "signature": s.signature,
                      "canary_run": s.canary_run}
        if (seen or {}).get(name) is not None:
            rows[name]["seen_version"] = int((seen or {})[name])
        c = (canaries or {}).get(name)
        if c is not None and c.status == "running":
            rows[name]["canary"] = {"status": c.status, "weight_pct": c.weight_pct}
    return rows


@dataclass(frozen=True, slots=True)
class SavedCanary:
    """A running canary as the last-known-state file has it (status and weight only)."""

    status: str
    weight_pct: float


def saved_versions(rows: laststate.Rows) -> dict[str, int]:
    """Per route, the highest version the file knows (its `seen_version`, or its row's)."""
    return {name: max(int(r.get("seen_version") or 0), int(r["version"]))
            for name, r in rows.items()}


def saved_canaries(rows: laststate.Rows) -> dict[str, SavedCanary]:
    return {name: SavedCanary(str(r["canary"]["status"]), float(r["canary"]["weight_pct"]))
            for name, r in rows.items() if r.get("canary")}


def from_rows(rows: laststate.Rows) -> dict[str, RouteStatus]:
    return {name: RouteStatus(name, str(r["mode"]), r.get("pair_hash"), r.get("policy_hash"),
                              r.get("reason"), int(r["version"]),
                              datetime.fromisoformat(r["updated_at"]), str(r["updated_by"]),
                              r.get("signature"), r.get("canary_run"))
            for name, r in rows.items()}


def cooldown_left(state: RouteStatus | None, cooldown_s: float,
                  now: datetime | None = None) -> float:
    """Seconds left of the post-rollback cool-down (0.0: none): a route a trigger rolled
    back stays off speculation for `cooldown_s` (`triggers.cooldown_s`) whatever act turns
    it on (re-enable, promotion of the same pair, canary start)."""
    if state is None or not state.updated_by.startswith("trigger:") or state.mode == "speculative":
        return 0.0
    updated = state.updated_at if state.updated_at.tzinfo else state.updated_at.replace(tzinfo=UTC)
    age = ((now or datetime.now(UTC)) - updated).total_seconds()
    return max(0.0, cooldown_s - age)


def cooldown_refusal(state: RouteStatus | None, cooldown_s: float, *, act: str,
                     bypass: str) -> str | None:
    """Why `act` may not turn the route on yet (None: no cool-down in force)."""
    left = cooldown_left(state, cooldown_s)
    if left <= 0.0 or state is None:
        return None
    return (f"route {state.route!r} was rolled back by {state.updated_by} ({state.reason}); "
            f"its cool-down is {cooldown_s:.0f} s, {left:.0f} s left, so {act} is refused. "
            f"Retry then, or {bypass}.")
