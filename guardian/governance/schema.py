"""Trigger and gate policy schema: the governance part of a route's policy.

Pydantic models designed to be nested into `guardian.policy.RoutePolicy` as `triggers:` and
`gate:`; `route_governance` reads them from a route whether or not the route model has the
fields yet, so callers never depend on which version of RoutePolicy is loaded.

Every trigger follows the Argo Rollouts AnalysisRun vocabulary: a measurement on a rolling
window is `pass`, `fail` or `inconclusive` (fewer than `min_samples`); the trigger fires after
`failure_limit` consecutive failing evaluations that each saw new data.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    # Unknown keys are typos in an operator-edited file: reject them instead of ignoring.
    model_config = ConfigDict(extra="forbid", frozen=True)


class AcceptanceTrigger(_Strict):
    """Acceptance rate α of the speculative path below `min_rate` over the window."""

    enabled: bool = True
    min_rate: float = Field(0.3, ge=0.0, le=1.0)
    min_samples: int = Field(128, ge=1)  # drafted tokens; below this the outcome is inconclusive
    failure_limit: int = Field(2, ge=1)


class DivergenceTrigger(_Strict):
    """Any greedy `divergence` verdict (a `near_tie` within tolerance is not one).

    `distribution_mismatch` counts too when `include_distribution_mismatch` (sampled
    traffic); it is a statistical call, so it has its own limit.
    """

    enabled: bool = True
    max_divergences: int = Field(0, ge=0)  # more than this many in the window fails
    include_distribution_mismatch: bool = True
    max_distribution_mismatches: int = Field(2, ge=0)
    failure_limit: int = Field(1, ge=1)  # a divergence is a bug: fire on the first failure


class LatencyTrigger(_Strict):
    """p95 latency of the served speculative path vs the target-only baseline from shadow."""

    enabled: bool = True
    metric: str = Field("time_per_output_token_s", pattern="^(time_per_output_token_s|compute_time_s)$")
    max_ratio: float = Field(1.1, gt=0.0)  # fail when p95(speculative) > max_ratio * p95(baseline)
    min_samples: int = Field(20, ge=1)  # per side
    failure_limit: int = Field(3, ge=1)


class DriftTrigger(_Strict):
    """Drift of the accepted-length and emitted-token distributions from a reference window.

    The reference is the first `reference_size` observations after (re-)enabling the route;
    JS is Jensen-Shannon divergence in bits (0..1), PSI the population stability index.
    """

    enabled: bool = True
    reference_size: int = Field(200, ge=1)  # steps (acceptance) / tokens (token distribution)
    min_samples: int = Field(200, ge=1)
    max_js: float = Field(0.1, gt=0.0, le=1.0)
    max_psi: float = Field(0.25, gt=0.0)  # 0.1 moderate, 0.25 significant (credit-risk convention)
    failure_limit: int = Field(3, ge=1)


class TriggerPolicy(_Strict):
    """Continuous checks of a route serving speculatively; any firing rolls it back."""

    window_s: float = Field(300.0, gt=0.0)  # rolling window length
    window_max: int = Field(2048, ge=1)  # observations kept per series, newest first
    evaluation_interval_s: float = Field(5.0, gt=0.0)  # background loop period
    cooldown_s: float = Field(600.0, ge=0.0)  # after a rollback, re-enable is refused this long
    webhook_url: str | None = None  # POSTed the rollback evidence (bounded timeout, off-path)
    webhook_timeout_s: float = Field(2.0, gt=0.0, le=30.0)
    acceptance: AcceptanceTrigger = AcceptanceTrigger()
    divergence: DivergenceTrigger = DivergenceTrigger()
    latency: LatencyTrigger = LatencyTrigger()
    drift: DriftTrigger = DriftTrigger()


class GatePolicy(_Strict):
    """What a pair must show on a golden prompt set before it may serve speculatively."""

    near_tie_tolerance: float = Field(0.5, ge=0.0)  # margin under which a flipped argmax is a tie
    max_near_ties: int = Field(0, ge=0)  # near_ties allowed in the whole golden set
    distribution_tolerance: float = Field(0.02, gt=0.0, le=1.0)  # max TV for sampled prompts
    min_acceptance_rate: float = Field(0.3, ge=0.0, le=1.0)
    min_speedup: float = Field(1.0, ge=0.0)  # target-only time / speculative time
    gamma: int = Field(4, ge=1)
    max_new_tokens: int = Field(48, ge=1)  # per prompt unless the golden line says otherwise
    # With an audit database attached, a policy FILE saying `mode: speculative` (no route state
    # in the DB overriding it) serves speculatively only with a passing gate report for this
    # exact pair and policy hash; without one the route serves target_only (audited once as a
    # `policy_decision`). false: the file's mode applies as written (tests, load tests).
    require_report: bool = True


class RouteGovernance(_Strict):
    triggers: TriggerPolicy = TriggerPolicy()
    gate: GatePolicy = GatePolicy()


def route_governance(route_policy: Any) -> RouteGovernance:
    """The governance settings of a route (defaults for a RoutePolicy without the fields)."""
    triggers = getattr(route_policy, "triggers", None)
    gate = getattr(route_policy, "gate", None)
    return RouteGovernance(triggers=triggers if isinstance(triggers, TriggerPolicy) else TriggerPolicy(),
                           gate=gate if isinstance(gate, GatePolicy) else GatePolicy())


__all__ = ["AcceptanceTrigger", "DivergenceTrigger", "DriftTrigger", "GatePolicy",
           "LatencyTrigger", "RouteGovernance", "TriggerPolicy", "route_governance"]
