"""The rollback controller: continuous trigger evaluation and automatic fallback.

Producers hand it audit events (`observe`): cheap appends under a lock, safe to call from the
serving and shadow threads (`guardian.governance.observing.ObservingSink` shows it every
event the app audits). A background loop (`start`, `guardian.governance.rollbackloop`)
evaluates every route's triggers each `evaluation_interval_s` and as soon as new evidence
arrives, with a bounded share of a core. A pass reads running sums
(`guardian.governance.runningsums`), so its cost grows with the requests since the last
pass, not with the window. `evaluate` runs one route synchronously (tests,
`python -m guardian.governance.bench`).

When a trigger fires on a route serving speculatively, the controller
1. writes `target_only` to the database route state (every replica's `ModeResolver` sees it),
2. submits a `rollback` GovernanceEvent with the evidence (every measurement, examples),
3. adds to the `guardian.governance.rollbacks` counter {route, trigger},
4. POSTs the evidence to the policy's webhook on its own thread (bounded timeout; a slow or
   dead webhook never delays serving or the next evaluation),
5. aborts the route's running canary (weight 0, audited `canary` event) and posts
   `GuardianTriggerFired` / `GuardianRouteRolledBack` to Alertmanager when
   `GUARDIAN_ALERTMANAGER_URL` is set (`guardian.alerts.alertmanager`, own thread too).

Analysis (`analysis(route)`) and the canary steps that widen from it are the same
measurements, read-only (`guardian.governance.routeanalysis`).

Whose evidence: verdicts on mirrored traffic (`/v1/shadow`: the mirror key supplied the
judged response) are ignored unless the route's `triggers.mirror_evidence` is true, and the
rollback's evidence lists the principal behind every counted failing verdict
(`details["verdicts"]`, `details["evidence_principals"]`), and how many of the window's
speculative requests (acceptance and drift evidence) each principal sent
(`details["request_principals"]`): acceptance, latency and drift evidence is not capped per
principal, so one key's unusual traffic can fire those triggers for everyone - on-call sees
whose it was before re-enabling.

Anti-flapping: a trigger fires only after `failure_limit` consecutive failing evaluations that
each saw new data; a pass resets it; inconclusive windows never fire. A rolled-back route
stays target-only until someone re-enables it (`reenable`, oncall role), which needs a
passing gate report for the serving pair and the policy in force (or an admin override with a
reason: `gatecheck.speculation_evidence`) and is refused during `cooldown_s` after the
rollback unless forced; re-enabling clears the window so only fresh evidence counts. Turning
speculation off (a rollback, `promotion.set_route_mode`) never waits for either. This module
owns evidence, evaluation, rollback and re-enable (`reenable_route`: also the CLI's and API's).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from guardian.alerts.alertmanager import AlertSender
from guardian.audit.acts import act_intent, record_act
from guardian.audit.events import AuditSink, GovernanceEvent, RequestEvent, ShadowEvent
from guardian.core.enums import Mode
from guardian.governance.batchevidence import BatchedTally, reenable_refusal
from guardian.governance.canarystate import CanaryStore
from guardian.governance.errors import GovernanceRefused
from guardian.governance.gatecheck import mode_before, speculation_evidence
from guardian.governance.modes import ModeDecision, effective_mode
from guardian.governance.rollbackloop import EvaluationLoop
from guardian.governance.routeanalysis import RouteAnalysis
from guardian.governance.routestate import (
    ModeResolver,
    RouteStateStore,
    RouteStatus,
    StateConflict,
    cooldown_left,
)
from guardian.governance.silent import SilentSpeculationWatch
from guardian.governance.stats import FailureCounter, Measurement
from guardian.governance.triggers import evaluate_triggers, failure_limit
from guardian.governance.webhook import post_webhook
from guardian.governance.windows import RouteWindow, is_mirrored
from guardian.policy import Policy, TriggerPolicy

logger = logging.getLogger(__name__)

ONCALL_ROLES = ("oncall", "admin")
MAX_LISTED_VERDICTS = 50  # failing verdicts named in a rollback's evidence (newest kept)
MAX_LISTED_PRINCIPALS = 20  # principals named with their share of a rollback's request evidence


@dataclass(slots=True)
class Evaluation:
    route: str
    mode: Mode
    measurements: dict[str, Measurement]
    fired: list[str] = field(default_factory=list)
    action: str = "none"  # none | rolled_back | not_speculative | state_changed


class RollbackController(RouteAnalysis, EvaluationLoop):
    def __init__(self, store: RouteStateStore, sink: AuditSink, policy: Callable[[], Policy], *,
                 pair_hash: str, resolver: ModeResolver | None = None, telemetry: Any = None,
                 clock: Callable[[], float] = time.monotonic,
                 webhook_post: Callable[[str, dict[str, Any], float], None] | None = None,
                 alerts: AlertSender | None = None) -> None:
        """`policy` returns the policy in force (a callable: hot reload swaps it); `alerts`
        defaults to `AlertSender.from_env()` (None without GUARDIAN_ALERTMANAGER_URL)."""
        self.store, self.sink, self._policy, self.pair_hash = store, sink, policy, pair_hash
        self.resolver = resolver
        self.clock = clock
        self._post = webhook_post or post_webhook
        self._lock = threading.Lock()
        self._windows: dict[str, RouteWindow] = {}
        self._counters: dict[tuple[str, str], FailureCounter] = {}
        self._seen: dict[tuple[str, str], int] = {}
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.rollbacks = 0
        self.last: dict[str, Evaluation] = {}
        self.alerts = alerts if alerts is not None else AlertSender.from_env()
        self.canaries = CanaryStore(store.db)
        self._pass_since: dict[str, float] = {}  # route -> clock() since analysis is `pass`
        # Evidence older than a route's last reset (re-enable, promotion) is not fresh: a shadow
        # verdict judged after the reset about a request served before it must not count.
        self._reset_at: dict[str, datetime] = {}
        # Route state version each route was last evaluated at, and routes this controller
        # reset itself for an act on this replica: a turn-on made by ANOTHER replica
        # (re-enable, promotion, canary start) must clear this replica's window and failure
        # counts too, or its old evidence rolls the route straight back (`_follow_turn_on`).
        self._state_version: dict[str, int] = {}
        self._reset_here: set[str] = set()
        self._counter = None
        # Speculation that silently stops (guardian.governance.silent): a speed anomaly.
        self.silent = SilentSpeculationWatch(policy, telemetry=telemetry, pair_hash=pair_hash)
        # Verdicts judged in a shared batch since each route's reset (governance.batchevidence)
        self.batched = BatchedTally()
        if telemetry is not None:
            meter = telemetry.meter_provider.get_meter("guardian.governance")
            self._counter = meter.create_counter(
                "guardian.governance.rollbacks", unit="{rollback}",
                description="Automatic rollbacks of a route to target_only, by trigger.")
            collector = getattr(telemetry, "governance", None)
            if collector is not None:
                from guardian.observability.gauges import audit_health_rows

                collector.add(self.gauge_rows)
                collector.add(self.silent.gauge_rows)
                collector.add(audit_health_rows(sink))

    # --- evidence -----------------------------------------------------------------------------
    def _triggers(self, route: str) -> TriggerPolicy:
        return self._policy().route(route).triggers

    def window(self, route: str) -> RouteWindow:
        with self._lock:
            w = self._windows.get(route)
            if w is None:
                t = self._triggers(route)
                w = RouteWindow(route, t.window_s, t.window_max, t.drift.reference_size, self.clock)
                self._windows[route] = w
            return w

    def _measure(self, w: RouteWindow, policy: TriggerPolicy) -> tuple[dict[str, Measurement], int]:
        """The window's measurements and the evidence version they saw. Only the pruning and
        a copy of the window hold the lock: `observe`, which the serving path calls after
        every request, never waits for a pass (a full window's pass takes milliseconds)."""
        now = self.clock()
        with self._lock:
            w.window_s = policy.window_s
            w.prune(now)
            snapshot, version = w.snapshot(), w.version
        return evaluate_triggers(snapshot, policy, now), version

    def observe(self, event: RequestEvent | ShadowEvent | GovernanceEvent) -> None:
        """Feed one audit event (others are ignored); never blocks on I/O."""
        if isinstance(event, GovernanceEvent) or event.route not in self._policy().routes:
            return
        if event.pair_hash != self.pair_hash:
            return  # evidence about another pair says nothing about this one
        triggers = self._triggers(event.route)
        if isinstance(event, ShadowEvent) and is_mirrored(event.stats) and not triggers.mirror_evidence:
            logger.debug("mirrored verdict %s on route %s not counted (mirror_evidence: false)",
                         event.request_id, event.route)
            return
        if isinstance(event, RequestEvent):
            self.silent.observe(event)
        metric = triggers.latency.metric
        w = self.window(event.route)
        with self._lock:
            if self._stale(event):
                logger.debug("evidence about %s predates the last reset of route %s; not counted",
                             event.request_id, event.route)
                return
            if isinstance(event, RequestEvent):
                w.observe_request(event, metric)
            else:
                w.observe_shadow(event, metric)
                self.batched.observe(event.route, event.verdict, event.stats)
        self._wake.set()

    # --- evaluation -----------------------------------------------------------------------------
    def decide_mode(self, route: str) -> ModeDecision:
        """`effective_mode` of the route: through the serving resolver when attached (the
        same cached answer serving uses), else from the store (tests, one-off evaluation)."""
        policy = self._policy()
        policy_mode = policy.route(route).mode
        if self.resolver is not None:
            return self.resolver.decide(route, policy_mode, policy)
        return effective_mode(policy_mode, self.store.get(route), pair_hash=self.pair_hash)

    def effective_mode(self, route: str) -> Mode:
        mode = self.decide_mode(route).mode
        assert mode is not None  # the controller only evaluates the policy's routes
        return mode

    def evaluate(self, route: str) -> Evaluation:
        """Measure the route's triggers; roll it back when one fires."""
        policy = self._triggers(route)
        w = self.window(route)
        # The route's state as the evidence is measured: a rollback applies only if nobody
        # changed the route since (a re-enable in between makes this evidence stale).
        state = self.resolver.status(route) if self.resolver is not None else self.store.get(route)
        self._follow_turn_on(route, state)
        measurements, version = self._measure(w, policy)
        with self._lock:
            fired = []
            for name, m in measurements.items():
                key = (route, name)
                # Re-evaluating the same evidence is not another failure.
                counter = self._counters.setdefault(key, FailureCounter())
                if self._seen.get(key) == version:
                    if m.outcome == "fail" and counter.consecutive >= failure_limit(policy, name):
                        fired.append(name)
                    continue
                self._seen[key] = version
                if counter.update(m, failure_limit(policy, name)):
                    fired.append(name)
        mode = self.effective_mode(route)
        result = Evaluation(route, mode, measurements, fired)
        if fired:
            self._pass_since.pop(route, None)
            if mode == "speculative":
                try:
                    self._roll_back(route, fired, measurements, policy,
                                    expected_version=state.version if state else 0)
                    result.action = "rolled_back"
                except StateConflict as exc:
                    logger.info("route %s changed while its evidence was measured; not rolled "
                                "back on that evidence (%s)", route, exc)
                    result.action = "state_changed"
            else:
                result.action = "not_speculative"
        else:
            try:
                self._canary_step(route, measurements)
            except (GovernanceRefused, StateConflict) as exc:  # another replica stepped first
                logger.info("canary of route %s not advanced: %s", route, exc)
        self.last[route] = result
        return result

    def evaluate_all(self) -> list[Evaluation]:
        out = []
        for route in list(self._policy().routes):
            try:
                out.append(self.evaluate(route))
            except Exception:  # one route's failure must not stop the others' protection
                logger.exception("trigger evaluation failed for route %s", route)
        return out

    def _roll_back(self, route: str, fired: list[str], measurements: dict[str, Measurement],
                   policy: TriggerPolicy, expected_version: int | None = None) -> None:
        actor = "trigger:" + ",".join(fired)
        evidence = {name: m.as_dict() for name, m in measurements.items()}
        reason = "; ".join(f"{n}: {measurements[n].name}={_fmt(measurements[n].value)} vs "
                           f"{_fmt(measurements[n].threshold)}" for n in fired)
        current = self.store.get(route)
        with act_intent(self.sink) as act:
            state = self.store.set_mode(route, "target_only", actor=actor, reason=reason,
                                        pair_hash=self.pair_hash,
                                        policy_hash=self._policy().content_hash,
                                        expected_version=expected_version)
            act.took_effect()
            details = {"previous_mode": current.mode if current else "speculative",
                       "new_mode": "target_only", "fired": fired, "reason": reason,
                       "evidence": evidence, "state_version": state.version,
                       **self._verdict_principals(route)}
            record_act(self.sink, GovernanceEvent(
                event_id=act.event_id, created_at=datetime.now(UTC), kind="rollback",
                route=route, pair_hash=self.pair_hash, policy_hash=self._policy().content_hash,
                actor=actor, details=details))
        self.rollbacks += 1
        if self._counter is not None:
            for name in fired:
                self._counter.add(1, {"route": route, "trigger": name})
        logger.warning("route %s rolled back to target_only: %s", route, reason)
        from guardian.governance.canary import end_running as end_running_canary

        end_running_canary(self.canaries, self.sink, route=route, policy=self._policy(),
                           actor=actor, why=reason, strict=False, evidence=evidence)
        if policy.webhook_url:
            threading.Thread(target=self._post, name="rollback-webhook", daemon=True, args=(
                policy.webhook_url, {"route": route, **details}, policy.webhook_timeout_s)).start()
        if self.alerts is not None:
            self.alerts.rollback(route, fired, reason, pair_hash=self.pair_hash)
        with self._lock:
            for name in fired:
                self._counters.pop((route, name), None)

    def _verdict_principals(self, route: str) -> dict[str, Any]:
        """Who is behind the evidence in the window: every failing verdict with its principal
        (bounded), a count of all counted verdicts per principal, and the speculative requests
        (acceptance and drift evidence) per principal, the most first (bounded) - so on-call
        sees when one key supplied most of what fired (one caller's unusual prompts can lower
        a route's acceptance for everyone)."""
        w = self.window(route)
        with self._lock:
            samples = list(w.verdicts)
            requests = w.spec_principals()
        failing = [{"request_id": v.request_id, "verdict": v.verdict, "principal": v.principal}
                   for v in samples if v.verdict in ("divergence", "distribution_mismatch")]
        per_principal: dict[str, int] = {}
        for v in samples:
            per_principal[v.principal] = per_principal.get(v.principal, 0) + 1
        return {"verdicts": failing[-MAX_LISTED_VERDICTS:], "evidence_principals": per_principal,
                "request_principals": dict(requests.most_common(MAX_LISTED_PRINCIPALS))}

    # --- deliberate acts ------------------------------------------------------------------------
    def reenable(self, route: str, *, actor: str, role: str, reason: str,
                 force: bool = False, override_reason: str | None = None) -> RouteStatus:
        """Serve `route` speculatively again after a rollback (oncall role; audited)."""
        return reenable_route(self.store, self.sink, route, actor=actor, role=role, reason=reason,
                              policy=self._policy(), pair_hash=self.pair_hash, force=force,
                              on_done=self.reset, override_reason=override_reason)

    def _stale(self, event: RequestEvent | ShadowEvent) -> bool:
        """Whether `event` is about a request served before its route's last reset. A shadow
        verdict says when its request was served (`stats.request_created_at`, set by every
        shadow evaluator); one that does not is taken as fresh."""
        reset_at = self._reset_at.get(event.route)
        if reset_at is None:
            return False
        if isinstance(event, RequestEvent):
            served_at: datetime | None = event.created_at
        else:
            served_at = None
            stamped = (event.stats or {}).get("request_created_at")
            if isinstance(stamped, str):
                with contextlib.suppress(ValueError):
                    served_at = datetime.fromisoformat(stamped)
        if served_at is not None and served_at.tzinfo is None:
            served_at = served_at.replace(tzinfo=UTC)
        return served_at is not None and served_at < reset_at

    def _follow_turn_on(self, route: str, state: RouteStatus | None) -> None:
        """Reset the route when its state turned speculative since the last evaluation by an
        act this controller did not reset for (one made on another replica)."""
        before = self._state_version.get(route)
        now = state.version if state is not None else 0
        self._state_version[route] = now
        if state is None or state.mode != "speculative" or before is None or before == now:
            return
        if route in self._reset_here:
            self._reset_here.discard(route)
            return
        logger.info("route %s turned speculative by %s (state version %d); its earlier "
                    "evidence no longer counts here", route, state.updated_by, now)
        at = state.updated_at if state.updated_at.tzinfo else state.updated_at.replace(tzinfo=UTC)
        self.reset(route, at=at, local=False)

    def reset(self, route: str, *, at: datetime | None = None, local: bool = True) -> None:
        """Forget the route's evidence and failure counts (after re-enable / promotion);
        verdicts that arrive later about requests served before `at` (default now) are not
        counted."""
        with self._lock:
            self._reset_at[route] = at or datetime.now(UTC)
            if local:
                self._reset_here.add(route)
            if route in self._windows:
                self._windows[route].reset()
            self.batched.reset(route)
            for key in [k for k in self._counters if k[0] == route]:
                del self._counters[key]



def reenable_route(store: RouteStateStore, sink: AuditSink, route: str, *, actor: str, role: str,
                   reason: str, policy: Policy, pair_hash: str | None, force: bool = False,
                   on_done: Callable[[str], None] | None = None,
                   override_reason: str | None = None) -> RouteStatus:
    """Shared by the controller, the CLI and the admin API.

    `pair_hash`: the pair that will serve speculatively; its gate report (for this policy)
    is read from the store's database. `override_reason`: an admin override of a missing or
    failing report (None: no override)."""
    if role not in ONCALL_ROLES:
        raise GovernanceRefused(f"re-enabling speculation needs the oncall role; {actor} has "
                                f"{role!r}. Ask an on-call engineer.")
    if route not in policy.routes:
        raise GovernanceRefused(f"unknown route {route!r}; known routes: {', '.join(sorted(policy.routes))}")
    if not reason.strip():
        raise GovernanceRefused("say why the route is safe again (--reason): it goes into the audit log")
    current = store.get(route)
    cooldown = policy.route(route).triggers.cooldown_s
    left = 0.0 if force else cooldown_left(current, cooldown)
    if current is not None and left > 0.0:
        raise GovernanceRefused(
            f"route {route!r} was rolled back {cooldown - left:.0f} s ago by "
            f"{current.updated_by} ({current.reason}); the cool-down is {cooldown:.0f} s. "
            f"Retry in {left:.0f} s, or force it if the cause is fixed (CLI --force, "
            "API ?force=true).")
    evidence = speculation_evidence(store.db, pair_hash=pair_hash, policy_hash=policy.content_hash,
                                    actor=actor, role=role, override_reason=override_reason,
                                    route=route)
    # After a trigger's rollback on a batching engine: clean shadow evidence judged in shared
    # batches since then (guardian.governance.batchevidence); an admin override is recorded.
    refused, batched = reenable_refusal(store.db, route, pair_hash, current,
                                        policy.route(route).triggers.min_batched_evidence)
    if refused is not None and override_reason is None:
        raise GovernanceRefused(f"route {route!r} cannot be re-enabled: {refused}")
    if batched:
        evidence = {**evidence, "batched_evidence": {**batched, "refusal_overridden": refused}}
    if on_done is not None:
        # Forget the old evidence BEFORE the route serves speculatively again: an evaluation
        # measured on it can then only act against the old state version and is refused.
        on_done(route)
    previous_mode = mode_before(store.db, policy, route, current, pair_hash=pair_hash)
    from guardian.governance.canary import CanaryStore
    from guardian.governance.canary import end_running as end_running_canary

    end_running_canary(CanaryStore(store.db), sink, route=route, policy=policy,
                       actor=actor, strict=True, why=f"superseded by a re-enable: {reason}")
    from guardian.governance.promotion import turn_on

    return turn_on(store, sink, kind="reenable", route=route, actor=actor, reason=reason,
                   pair_hash=pair_hash, policy=policy,
                   expected_version=current.version if current else 0,
                   details={"previous_mode": previous_mode, "new_mode": "speculative",
                            "reason": reason, "forced": force,
                            "previous_reason": current.reason if current else None,
                            **evidence})



def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.4g}"

