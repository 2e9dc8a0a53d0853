"""The rollback controller: continuous trigger evaluation and automatic fallback.

Producers hand it audit events (`observe`): cheap appends under a lock, safe to call from the
serving and shadow threads. A background loop (`start`) evaluates every route's triggers each
`evaluation_interval_s`, and as soon as new evidence arrives (`observe` wakes it), so a fired
trigger takes effect within a fraction of a second (~0.1 s); its share of a core is bounded
(`MAX_BUSY_SHARE`: after a pass the loop rests 49 times the CPU time the pass took, and at
least `MIN_REST_S` or `evaluation_interval_s` if that is shorter), so at a high request rate
it evaluates every so many requests rather than after each one. A pass reads running sums
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

Analysis (`analysis(route)`, served by `guardian.api.analysis` to rollout controllers) is the
same measurements, read-only: `fail` when a measurement fails or the route was rolled back
by a trigger / its canary aborted, `pass` when every enabled measurement passes, else
`inconclusive`. Canary steps widen from it (`_canary_step`): a running canary advances one
step once the analysis has been `pass` at every evaluation for `canary.step_duration_s` and
the step is at least that old (`canary.auto_advance`; the step is audited as by
`canary:analysis`).

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
speculation off (a rollback, `promotion.set_route_mode`) never waits for either.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, get_args

from guardian.alerts.alertmanager import AlertSender
from guardian.audit.acts import act_intent, record_act
from guardian.audit.events import AuditSink, GovernanceEvent, RequestEvent, ShadowEvent
from guardian.core.enums import Mode
from guardian.core.limits import MAX_WAIT_S
from guardian.governance.batchevidence import BatchedTally, reenable_refusal
from guardian.governance.canarystate import CanaryStatus, CanaryStore
from guardian.governance.errors import GovernanceRefused
from guardian.governance.gatecheck import mode_before, speculation_evidence
from guardian.governance.modes import ModeDecision, effective_mode
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
from guardian.governance.windows import RouteWindow, is_mirrored
from guardian.policy import Policy, TriggerPolicy

logger = logging.getLogger(__name__)

ONCALL_ROLES = ("oncall", "admin")
MAX_LISTED_VERDICTS = 50  # failing verdicts named in a rollback's evidence (newest kept)
MAX_LISTED_PRINCIPALS = 20  # principals named with their share of a rollback's request evidence
# The background loop's share of one core (and of the GIL, which serving needs too): after an
# evaluation pass that used d CPU-seconds, the next one waits at least d * (1/share - 1). With
# evidence arriving on every request, evaluating at once each time cost a proxying sidecar a
# quarter of its CPU (profiled: `guardian bench proxy`, 1 client).
MAX_BUSY_SHARE = 0.02
# ... and at least this long: a pass costs well under a millisecond with the drift statistics'
# running sums, and passes as often as the share allows (~40 a second at one client) each take
# the GIL from the event loop (`guardian bench proxy --baseline`: p50 +0.34 ms against the
# whole-window passes, which ran ~3 a second). A fired trigger still acts within ~0.1 s. (A
# policy's `evaluation_interval_s` below this caps the rest, as it caps the busy share's.)
MIN_REST_S = 0.1


@dataclass(slots=True)
class Evaluation:
    route: str
    mode: Mode
    measurements: dict[str, Measurement]
    fired: list[str] = field(default_factory=list)
    action: str = "none"  # none | rolled_back | not_speculative | state_changed


class RollbackController:
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

    # --- gauges (scraped: in-memory state only, never the database) -------------------------
    def gauge_rows(self) -> list[tuple[str, str, dict[str, str], float]]:
        rows: list[tuple[str, str, dict[str, str], float]] = []
        policy = self._policy()
        for route in sorted(policy.routes):
            decision = self.decide_mode(route)
            for mode in get_args(Mode):
                rows.append(("guardian_route_mode", "1 for the mode in force on the route "
                             "(effective_mode), 0 for the others.",
                             {"route": route, "mode": mode}, 1.0 if decision.mode == mode else 0.0))
            state = self.resolver.status(route) if self.resolver is not None else None
            canary = self.resolver.canary(route) if self.resolver is not None else None
            if canary is not None and canary.running and decision.source == "canary":
                weight = canary.weight_pct
            else:
                weight = 100.0 if decision.mode == "speculative" else 0.0
            rows.append(("guardian_canary_weight_percent", "Share of the route's requests "
                         "served speculatively: the running canary's weight, 100 for a "
                         "speculative route without one, else 0.", {"route": route}, weight))
            if canary is not None:
                rows.append(("guardian_canary_step", "Index of the canary's step (0-based); "
                             "-1 once aborted.", {"route": route},
                             -1.0 if canary.status == "aborted" else float(canary.step_index)))
            rolled = (state is not None and state.mode != "speculative"
                      and state.updated_by.startswith("trigger:"))
            rows.append(("guardian_route_rolled_back", "1 while a trigger's rollback is in "
                         "force on the route (until re-enabled).", {"route": route},
                         1.0 if rolled else 0.0))
            last = self.last.get(route)
            if last is not None:
                verdict = verdict_of(last.measurements)[0]
                for v in ("pass", "fail", "inconclusive"):
                    rows.append(("guardian_analysis_verdict", "1 for the route's analysis "
                                 "verdict at the last evaluation.", {"route": route, "verdict": v},
                                 1.0 if verdict == v else 0.0))
                for name, m in sorted(last.measurements.items()):
                    labels = {"route": route, "trigger": name}
                    rows.append(("guardian_trigger_failing", "1 when the trigger's last "
                                 "measurement failed.", labels, 1.0 if m.outcome == "fail" else 0.0))
                    with self._lock:
                        counter = self._counters.get((route, name))
                        consecutive = counter.consecutive if counter is not None else 0
                    rows.append(("guardian_trigger_consecutive_failures", "Consecutive failing "
                                 "evaluations of the trigger (it fires at its failure_limit).",
                                 labels, float(consecutive)))
        return rows

    # --- analysis and canary steps ------------------------------------------------------------
    def _canary(self, route: str) -> CanaryStatus | None:
        if self.resolver is not None:
            return self.resolver.canary(route)  # type: ignore[no-any-return]
        return self.canaries.get(route)

    def analysis(self, route: str) -> dict[str, Any]:
        """The route's analysis now (read-only; see the module docstring)."""
        policy = self._policy()
        triggers = self._triggers(route)
        w = self.window(route)
        measurements, _ = self._measure(w, triggers)
        decision = self.decide_mode(route)
        state = self.store.get(route)
        canary = self._canary(route)
        out = analysis_result(route, measurements, decision, state, canary,
                              policy_hash=policy.content_hash, pair_hash=self.pair_hash)
        out["batched_evidence"] = self.batched.as_dict(route)
        short = self.batched.shortfall(route, triggers.min_batched_evidence)
        if out["verdict"] == "pass" and short is not None:
            # A pass needs evidence gathered under batching (governance.batchevidence).
            out.update(verdict="inconclusive", reason=f"not enough batched evidence: {short}",
                       **{"pass": False})
        return out

    def _canary_step(self, route: str, measurements: dict[str, Measurement]) -> None:
        canary = self._canary(route)
        if canary is None or not canary.running:
            self._pass_since.pop(route, None)
            return
        cfg = self._policy().route(route).canary
        verdict = verdict_of(measurements)[0]
        if self.batched.shortfall(route, self._triggers(route).min_batched_evidence):
            verdict = "inconclusive"  # a step needs evidence judged under batching
        now = self.clock()
        if verdict != "pass" or self.effective_mode(route) != "speculative":
            # (a route someone turned off keeps its canary row, which it ignores: no widening)
            self._pass_since.pop(route, None)
            return
        since = self._pass_since.setdefault(route, now)
        if not cfg.auto_advance or now - since < cfg.step_duration_s:
            return
        if canary.step_age_s() < cfg.step_duration_s:
            return
        from guardian.governance import canary as acts

        status = acts.advance(self.canaries, self.sink, route=route, policy=self._policy(),
                              actor=acts.ANALYSIS_ACTOR, role=None,
                              reason=f"analysis passed for {cfg.step_duration_s:g} s",
                              expected_version=canary.version,
                              evidence={n: m.as_dict() for n, m in measurements.items()})
        self._pass_since[route] = now  # the next step needs a whole passing step of its own
        if self.resolver is not None:
            self.resolver.refresh()
        logger.info("route %s canary widened to %g%%", route, status.weight_pct)

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

    # --- background loop ----------------------------------------------------------------------
    def start(self) -> RollbackController:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="rollback-controller", daemon=True)
            self._thread.start()
        return self

    def _loop(self) -> None:
        rest = 0.0
        while not self._stop.is_set():
            try:
                interval = min((self._triggers(r).evaluation_interval_s
                                for r in self._policy().routes), default=5.0)
            except Exception:  # never end the controller: rollbacks would stop, silently
                logger.exception("cannot read the evaluation interval; evaluating every 5 s")
                interval = 5.0
            # A wait past threading.TIMEOUT_MAX raises OverflowError in this thread (the
            # policy bounds the interval; this keeps the thread alive whatever it says).
            interval = min(interval, MAX_WAIT_S)
            if rest > 0.0 and self._stop.wait(min(rest, interval)):
                break
            self._wake.wait(max(0.0, interval - rest))
            self._wake.clear()
            if not self._stop.is_set():
                cpu0 = time.thread_time()
                self.evaluate_all()
                rest = max(MIN_REST_S,
                           (time.thread_time() - cpu0) * (1.0 / MAX_BUSY_SHARE - 1.0))

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)


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


def verdict_of(measurements: dict[str, Measurement]) -> tuple[str, list[str], list[str]]:
    """(verdict, failing, inconclusive) over the enabled measurements."""
    failing = sorted(n for n, m in measurements.items() if m.outcome == "fail")
    unsure = sorted(n for n, m in measurements.items() if m.outcome not in ("pass", "fail"))
    if failing:
        return "fail", failing, unsure
    if unsure or not measurements:
        return "inconclusive", failing, unsure
    return "pass", failing, unsure


def analysis_result(route: str, measurements: dict[str, Measurement], decision: ModeDecision,
                    state: RouteStatus | None, canary: CanaryStatus | None, *,
                    policy_hash: str, pair_hash: str | None) -> dict[str, Any]:
    """The JSON of `GET /v1/analysis/{route}` (documented in docs/guides/release-managers.md)."""
    verdict, failing, unsure = verdict_of(measurements)
    rolled_back = (state is not None and state.mode != "speculative"
                   and state.updated_by.startswith("trigger:"))
    aborted = canary is not None and canary.status == "aborted" and (
        state is None or state.mode != "speculative")
    # Speculation turned off by hand (on-call's rollback / disable): the window may still
    # pass on evidence from before, but a rollout controller must not widen on it.
    disabled = (state is not None and state.mode != "speculative" and not rolled_back)
    if rolled_back:
        verdict, reason = "fail", f"rolled back by {state.updated_by}: {state.reason}"  # type: ignore[union-attr]
    elif disabled:
        verdict, reason = "fail", (f"speculation turned off by {state.updated_by}: "  # type: ignore[union-attr]
                                   f"{state.reason}")  # type: ignore[union-attr]
    elif aborted:
        verdict, reason = "fail", f"canary aborted by {canary.updated_by}: {canary.reason}"  # type: ignore[union-attr]
    elif failing:
        reason = "failing: " + ", ".join(failing)
    elif verdict == "inconclusive":
        reason = ("not enough evidence yet: " + ", ".join(unsure) if unsure
                  else "no trigger is enabled on this route")
    else:
        reason = "every enabled trigger passes"
    checks = {n: {"outcome": m.outcome, "value": m.value, "threshold": m.threshold,
                  "samples": m.samples, "min_samples": m.min_samples}
              for n, m in sorted(measurements.items())}
    return {"route": route, "verdict": verdict, "reason": reason,
            "pass": verdict == "pass", "fail": verdict == "fail",
            "mode": decision.mode, "mode_source": decision.source,
            "rolled_back": rolled_back, "failing": failing, "inconclusive": unsure,
            "canary": canary.as_dict() if canary is not None else None,
            "canary_weight_pct": (canary.weight_pct if canary is not None and canary.running
                                  else None),
            "checks": checks, "pair_hash": pair_hash, "policy_hash": policy_hash,
            "evaluated_at": datetime.now(UTC).isoformat()}


def post_webhook(url: str, payload: dict[str, Any], timeout_s: float) -> None:
    """POST JSON; failures are logged, never raised (runs on its own thread)."""
    body = json.dumps(payload, default=str).encode()
    req = urllib.request.Request(url, data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout_s) as resp:
            logger.info("rollback webhook %s answered %s", url, resp.status)
    except Exception as exc:  # any failure is only worth a log line
        logger.warning("rollback webhook %s failed: %s", url, exc)


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.4g}"


class ObservingSink:
    """An AuditSink that forwards every event to `inner` and shows it to the controller.

    Wrapping the app's sink is how served and shadow results reach the rollback controller
    without the serving path knowing about governance; `observe` only appends, so the request
    path still never blocks.
    """

    def __init__(self, inner: AuditSink, controller: RollbackController) -> None:
        self.inner, self.controller = inner, controller

    def submit(self, event: RequestEvent | ShadowEvent | GovernanceEvent) -> None:
        self.inner.submit(event)
        try:
            self.controller.observe(event)
        except Exception:  # governance trouble must never fail a request
            logger.exception("rollback controller could not observe %s", type(event).__name__)

    def flush(self, timeout_s: float = 10.0) -> None:
        self.inner.flush(timeout_s)

    def close(self, timeout_s: float = 30.0) -> None:
        self.inner.close(timeout_s)

    def __getattr__(self, name: str) -> Any:
        # memory sinks expose `events` etc.; keep them reachable through the wrapper
        return getattr(self.inner, name)
