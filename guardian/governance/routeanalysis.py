"""Route analysis: the controller's read-only view of its measurements.

Analysis (`analysis(route)`, served by `guardian.api.analysis` to rollout controllers) is the
same measurements the rollback controller (`guardian.governance.rollback`) evaluates,
read-only: `fail` when a measurement fails or the route was rolled back by a trigger / its
canary aborted, `pass` when every enabled measurement passes, else `inconclusive`. Canary
steps widen from it (`_canary_step`): a running canary advances one step once the analysis
has been `pass` at every evaluation for `canary.step_duration_s` and the step is at least
that old (`canary.auto_advance`; the step is audited as by `canary:analysis`).

Owns the pure helpers (`verdict_of`, `analysis_result`: the JSON of `GET /v1/analysis`) and
`RouteAnalysis`, the part of `RollbackController` (mixed in; it reads the controller's state)
that answers analysis, widens canaries and renders the scraped gauges.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any, get_args

from guardian.core.enums import Mode
from guardian.governance.canarystate import CanaryStatus
from guardian.governance.modes import ModeDecision
from guardian.governance.routestate import RouteStatus
from guardian.governance.stats import Measurement

# The controller's logger: its records keep the name they had before the split.
logger = logging.getLogger("guardian.governance.rollback")


class RouteAnalysis:
    """Analysis, canary steps and gauges of `RollbackController` (which mixes this in)."""

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

