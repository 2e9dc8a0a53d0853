"""Trigger policy schema: a route's `triggers:` section, the continuous checks that roll a
speculative route back.

Every section is a `TriggerSection` (it can be disabled and has a `failure_limit`); which
trigger reads which section is declared once, in the trigger registry
(`guardian.governance.triggers`), and checked against this schema when a policy loads.

Every trigger follows the Argo Rollouts AnalysisRun vocabulary: a measurement on a rolling
window is `pass`, `fail` or `inconclusive` (fewer than `min_samples`); the trigger fires after
`failure_limit` consecutive failing evaluations that each saw new data.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from guardian.policy.base import (
    MAX_COUNT,
    MAX_FAILURE_LIMIT,
    MAX_INTERVAL_S,
    MAX_PERIOD_S,
    MAX_WINDOW,
    Strict,
    check_http_url,
    renamed_field,
)

# Why the acceptance floors are on alpha, not on acceptance_rate (shared with policy/gate.py).
ALPHA_NOT_RATE = ("the floor is on alpha = accepted / judged draft positions, which does not "
                  "depend on gamma; acceptance_rate = accepted / proposed falls as gamma grows")


class TriggerSection(Strict):
    """What every trigger section has: an off switch and a failure limit."""

    enabled: bool = True
    # consecutive failing evaluations before it fires
    failure_limit: int = Field(1, ge=1, le=MAX_FAILURE_LIMIT)


class AcceptanceTrigger(TriggerSection):
    """alpha (accepted / judged draft positions, engine.metrics) of the speculative path below
    `min_alpha` over the window. Alpha, not acceptance_rate: acceptance_rate = accepted /
    proposed shrinks as gamma grows (a goodput controller raising gamma on a *good* pair
    would trip a rate floor), alpha does not. The old name `min_rate` is read as `min_alpha`
    for one release."""

    min_alpha: float = Field(0.3, ge=0.0, le=1.0)
    min_samples: int = Field(128, ge=1, le=MAX_COUNT)  # judged positions; below: inconclusive
    failure_limit: int = Field(2, ge=1, le=MAX_FAILURE_LIMIT)

    @model_validator(mode="before")
    @classmethod
    def _old_name(cls, data: Any) -> Any:
        return renamed_field(data, "min_rate", "min_alpha", ALPHA_NOT_RATE)


class DivergenceTrigger(TriggerSection):
    """Any greedy `divergence` verdict (a `near_tie` within tolerance is not one).

    `distribution_mismatch` counts too when `include_distribution_mismatch` (sampled
    traffic); it is a statistical call, so it has its own limit.
    """

    max_divergences: int = Field(0, ge=0, le=MAX_COUNT)  # more than this many in the window fails
    include_distribution_mismatch: bool = True
    max_distribution_mismatches: int = Field(2, ge=0, le=MAX_COUNT)
    # a divergence is a bug: fire on the first failure
    failure_limit: int = Field(1, ge=1, le=MAX_FAILURE_LIMIT)


class LatencyTrigger(TriggerSection):
    """p95 latency of the served speculative path vs the target-only baseline from shadow."""

    metric: str = Field("time_per_output_token_s", pattern="^(time_per_output_token_s|compute_time_s)$")
    max_ratio: float = Field(1.1, gt=0.0)  # fail when p95(speculative) > max_ratio * p95(baseline)
    min_samples: int = Field(20, ge=1, le=MAX_COUNT)  # per side
    failure_limit: int = Field(3, ge=1, le=MAX_FAILURE_LIMIT)


class DriftTrigger(TriggerSection):
    """Drift of the accepted-length and emitted-token distributions from a reference window.

    `statistic: requests` (default, issue 11): the reference is the first
    `reference_requests` speculative requests after (re-)enabling the route. Outcomes (token
    ids, or accepted draft tokens per step) fall into `bins` bins fixed in advance (token ids
    by a fixed hash, accepted lengths by value): never fitted to the reference, which would
    make every token it happened to miss look like drift. Each request is one observation,
    its vector of shares per bin (tokens of one request are strongly correlated and never
    count as independent evidence); per bin Welch's z compares the mean share of the
    requests in the window after the reference with the reference's, and the largest |z| is
    turned into a Bonferroni-corrected p-value. It fails when p < `alpha`: with unchanged
    (exchangeable) traffic one evaluation fails with probability about `alpha`, and a
    rollback needs `failure_limit` consecutive failures on new data.

    `statistic: js_psi` (the earlier rule): JS divergence in bits and PSI of token-level
    histograms against the first `reference_size` observations, thresholds `max_js` /
    `max_psi`. On a ~2,000-token vocabulary with a 200-token reference it fires on clean
    traffic (issue 11), so it is kept only for comparison.
    """

    statistic: Literal["requests", "js_psi"] = "requests"
    reference_requests: int = Field(50, ge=2, le=200)  # requests in the reference
    min_requests: int = Field(50, ge=2, le=MAX_COUNT)  # requests after the reference; below: inconclusive
    bins: int = Field(8, ge=2, le=64)  # fixed bins (accepted lengths >= bins-1 share the last)
    alpha: float = Field(1e-4, gt=0.0, lt=1.0)  # per-evaluation false-alarm rate
    reference_size: int = Field(200, ge=1, le=MAX_COUNT)  # js_psi: steps (acceptance) / tokens
    min_samples: int = Field(200, ge=1, le=MAX_COUNT)  # js_psi
    max_js: float = Field(0.1, gt=0.0, le=1.0)  # js_psi
    max_psi: float = Field(0.25, gt=0.0)  # js_psi: 0.1 moderate, 0.25 significant
    failure_limit: int = Field(3, ge=1, le=MAX_FAILURE_LIMIT)


class NearTieTrigger(TriggerSection):
    """Share of greedy shadow verdicts that are proven near ties (issue 11).

    A near tie is now proven (both paths' logits within the measured numeric tolerance and a
    runner-up swap), so on a healthy pair they are rare: a correct fp32 CPU engine produced
    none in 300 demo requests. A rising rate means the two paths' numerics drifted apart (a
    dtype, kernel or device change) or the tolerance is too loose for this pair. Fails when
    more than `max_rate` of at least `min_samples` greedy verdicts in the window are ties.
    """

    max_rate: float = Field(0.05, ge=0.0, le=1.0)
    min_samples: int = Field(40, ge=1, le=MAX_COUNT)  # greedy verdicts (match / near_tie / divergence)
    failure_limit: int = Field(2, ge=1, le=MAX_FAILURE_LIMIT)


class TriggerPolicy(Strict):
    """Continuous checks of a route serving speculatively; any firing rolls it back."""

    window_s: float = Field(300.0, gt=0.0, le=MAX_PERIOD_S)  # rolling window length
    window_max: int = Field(2048, ge=1, le=MAX_WINDOW)  # observations kept per series, newest first
    evaluation_interval_s: float = Field(5.0, gt=0.0, le=MAX_INTERVAL_S)  # background loop period
    # after a rollback, re-enable is refused this long
    cooldown_s: float = Field(600.0, ge=0.0, le=MAX_PERIOD_S)
    webhook_url: str | None = None  # POSTed the rollback evidence (bounded timeout, off-path)
    webhook_timeout_s: float = Field(2.0, gt=0.0, le=30.0)
    # Count verdicts on mirrored traffic (`/v1/shadow`, mirror role) as evidence here? The
    # mirror caller supplies the primary's response, so it can fabricate divergences; trust
    # it only when that caller is the operator's own mesh. Off: mirrored verdicts are still
    # judged, audited and shown, they just never fire a rollback.
    mirror_evidence: bool = False
    # Served speculative-mode requests over which a route that proposes no draft token (or
    # accepts none) raises the `speculation_silent` speed anomaly (guardian.governance.silent).
    silent_window: int = Field(20, ge=1, le=MAX_WINDOW)
    # Shadow verdicts judged in a shared batch (>= 2 rows, speculating) since the rollback /
    # re-enable that a re-enable, a canary step or a passing analysis needs
    # (guardian.governance.batchevidence); 0: not required.
    min_batched_evidence: int = Field(8, ge=0, le=MAX_WINDOW)
    acceptance: AcceptanceTrigger = AcceptanceTrigger()
    divergence: DivergenceTrigger = DivergenceTrigger()
    latency: LatencyTrigger = LatencyTrigger()
    drift: DriftTrigger = DriftTrigger()
    near_tie: NearTieTrigger = NearTieTrigger()

    @classmethod
    def section_names(cls) -> tuple[str, ...]:
        """The fields that are trigger sections (each must be read by a registered trigger)."""
        return tuple(name for name, f in cls.model_fields.items()
                     if isinstance(f.annotation, type) and issubclass(f.annotation, TriggerSection))

    def section(self, name: str) -> TriggerSection:
        """The section called `name`; KeyError (not another section) when there is none."""
        if name not in self.section_names():
            raise KeyError(f"no trigger section {name!r} in the policy schema; sections: "
                           f"{', '.join(self.section_names())}")
        return getattr(self, name)

    @field_validator("webhook_url")
    @classmethod
    def _webhook_url(cls, v: str | None) -> str | None:
        return v if v is None else check_http_url(v, allow_query=True)

    def never_conclusive(self) -> list[str]:
        """Enabled triggers that need more observations than a series keeps (`window_max`):
        they can never be conclusive, so they never fire. Not refused (a shipped example has
        one); the loader warns, naming the file and route. (Acceptance counts draft
        positions, many per request, so its `min_samples` is not bounded by `window_max`.)"""
        needs = {"near_tie.min_samples": (self.near_tie, self.near_tie.min_samples),
                 "latency.min_samples": (self.latency, self.latency.min_samples)}
        if self.drift.statistic == "requests":
            needs["drift.min_requests"] = (self.drift, self.drift.min_requests)
        return [f"{name} = {n} > window_max = {self.window_max}"
                for name, (section, n) in needs.items() if section.enabled and n > self.window_max]
