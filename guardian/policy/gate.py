"""Gate policy schema: a route's `gate:` section, what a pair must show before promotion."""

from __future__ import annotations

from pydantic import Field

from guardian.policy.base import Strict


class GatePolicy(Strict):
    """What a pair must show on a golden prompt set before it may serve speculatively."""

    near_tie_tolerance: float = Field(0.5, ge=0.0)  # margin under which a flipped argmax is a tie
    max_near_ties: int = Field(0, ge=0)  # near_ties allowed in the whole golden set
    distribution_tolerance: float = Field(0.02, gt=0.0, le=1.0)  # max TV for sampled prompts
    # acceptance_rate floor over the golden set; acceptance_rate = accepted / proposed draft
    # tokens (engine.metrics)
    min_acceptance_rate: float = Field(0.3, ge=0.0, le=1.0)
    min_speedup: float = Field(1.0, ge=0.0)  # target-only time / speculative time
    gamma: int = Field(4, ge=1)
    max_new_tokens: int = Field(48, ge=1)  # per prompt unless the golden line says otherwise
    # With an audit database attached, a policy FILE saying `mode: speculative` (no route state
    # in the DB overriding it) serves speculatively only with a passing gate report for this
    # exact pair and policy hash; without one the route serves target_only (audited once as a
    # `policy_decision`). false: the file's mode applies as written (tests, load tests).
    require_report: bool = True
