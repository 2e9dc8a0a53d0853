"""Speculation that silently stops: a route whose mode says speculative but whose served
requests propose no draft token (or accept none) over a window — the `speculation_silent`
speed anomaly.

Nothing else notices it: outputs stay exact (every token is the target's), so no shadow
verdict fails; acceptance triggers measure only what was proposed; a route with its depth
cap stuck at 0 serves as target-only would, at target-only speed, under a speculative
label. Per route this keeps the last `triggers.silent_window` served requests of a
speculative-mode route (every request's counters, from the audit events the rollback
controller already observes) and raises the anomaly once that whole window proposed nothing
(`kind="proposes_nothing"`) or proposed and accepted nothing (`kind="accepts_nothing"`),
with the reason when the engine or the serving core said it:

- `depth_cap`: the batch's depth cap answered 0 where the row asked to speculate (engine
  stats `capped_steps`) and it proposed nothing;
- `load_shed` / `unsupported_proposer`: the serving core skipped speculation
  (`fallback_reason`);
- `speculative_failed`: speculation raised and the request was re-run target-only;
- `unknown`: proposed nothing, and nothing says why.

Raised: a log warning when it starts and when it clears, `guardian.shadow.speed_anomalies`
{anomaly="speculation_silent"} counted once per episode, the gauge
`guardian_speculation_silent{route,kind,reason}` (1 while it lasts; the alert rule
`GuardianSpeculationSilent`, guardian.alerts.rules), and `status()` for the admin API and
dashboard. A request with any proposal clears a `proposes_nothing` episode; any acceptance
clears an `accepts_nothing` one. A mode change away from speculative forgets the window.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from guardian.audit.events import RequestEvent
from guardian.policy import Policy

logger = logging.getLogger(__name__)

ANOMALY = "speculation_silent"
KINDS = ("proposes_nothing", "accepts_nothing")


@dataclass(frozen=True, slots=True)
class _Served:
    proposed: int
    accepted: int
    reason: str | None


def reason_of(event: RequestEvent) -> str | None:
    """Why this request proposed nothing, where the serving core or the engine said so."""
    stats = event.stats or {}
    if event.fallback_reason:
        code = str(event.fallback_reason).split(":")[0]
        return "speculative_failed" if code not in ("load_shed", "unsupported_proposer") else code
    proposed = stats.get("proposed_tokens", stats.get("draft_tokens"))
    if int(stats.get("capped_steps") or 0) and not proposed:
        return "depth_cap"  # it asked for a depth and the batch's cap answered 0
    return None


class SilentSpeculationWatch:
    """Per-route windows of served requests on speculative-mode routes (thread-safe)."""

    def __init__(self, policy: Callable[[], Policy], *, telemetry: Any = None,
                 pair_hash: str = "") -> None:
        self._policy, self.pair_hash = policy, pair_hash
        self._lock = threading.Lock()
        self._windows: dict[str, deque[_Served]] = {}
        self._active: dict[str, tuple[str, str]] = {}  # route -> (kind, reason)
        self._counter = getattr(telemetry, "speed_anomalies", None)

    def observe(self, event: RequestEvent) -> None:
        route = event.route
        if event.mode != "speculative" or (event.finish_reason == "cancelled"):
            if event.mode != "speculative":
                with self._lock:
                    self._windows.pop(route, None)
                    self._end(route)
            return
        size = self._policy().route(route).triggers.silent_window
        stats = event.stats or {}
        proposed = stats.get("proposed_tokens", stats.get("draft_tokens"))
        served = _Served(int(proposed or 0), int(stats.get("accepted") or 0),
                         reason_of(event))
        with self._lock:
            window = self._windows.get(route)
            if window is None or window.maxlen != size:
                window = self._windows[route] = deque(window or (), maxlen=size)
            window.append(served)
            self._judge(route, window)

    def _judge(self, route: str, window: deque[_Served]) -> None:
        """(Under the lock.)"""
        active = self._active.get(route)
        if active is not None:
            kind = active[0]
            last = window[-1]
            if (kind == "proposes_nothing" and last.proposed) or (
                    kind == "accepts_nothing" and last.accepted):
                self._end(route)
            return
        if len(window) < (window.maxlen or 0):
            return
        proposed = sum(s.proposed for s in window)
        accepted = sum(s.accepted for s in window)
        if proposed and accepted:
            return
        kind = "proposes_nothing" if not proposed else "accepts_nothing"
        reasons = Counter(s.reason for s in window if s.reason)
        reason = reasons.most_common(1)[0][0] if reasons else "unknown"
        self._active[route] = (kind, reason)
        logger.warning("route %s is labelled speculative but its last %d served requests %s "
                       "(reason: %s): speculation_silent", route, len(window),
                       "proposed no draft token" if kind == "proposes_nothing"
                       else f"accepted none of {proposed} proposed draft tokens", reason)
        if self._counter is not None:
            self._counter.add(1, {"route": route, "pair": self.pair_hash[:12],
                                  "mode": "speculative", "anomaly": ANOMALY})

    def _end(self, route: str) -> None:
        """(Under the lock.)"""
        if self._active.pop(route, None) is not None:
            logger.warning("route %s speculates again: speculation_silent cleared", route)

    def status(self, route: str | None = None) -> dict[str, dict[str, Any]]:
        """{route: {"anomaly", "kind", "reason", "window"}} for routes where it holds."""
        with self._lock:
            return {r: {"anomaly": ANOMALY, "kind": k, "reason": why,
                        "window": len(self._windows.get(r, ()))}
                    for r, (k, why) in self._active.items() if route in (None, r)}

    def gauge_rows(self) -> list[tuple[str, str, dict[str, str], float]]:
        rows = []
        with self._lock:
            routes = sorted(self._windows)
            active = dict(self._active)
        for route in routes:
            kind, reason = active.get(route, ("", ""))
            rows.append(("guardian_speculation_silent", "1 while a route labelled speculative "
                         "served its last silent_window requests without proposing a draft "
                         "token (kind proposes_nothing) or accepting one (accepts_nothing).",
                         {"route": route, "kind": kind or "none", "reason": reason or "none"},
                         1.0 if kind else 0.0))
        return rows
