"""Gate policy schema: a route's `gate:` section, what a pair must show before promotion."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from guardian.core.limits import MAX_GAMMA
from guardian.policy.base import MAX_COUNT, MAX_NEW_TOKENS, Strict, renamed_field
from guardian.policy.tolerance import DEFAULT_NEAR_TIE_TOLERANCE
from guardian.policy.triggers import ALPHA_NOT_RATE


class GatePolicy(Strict):
    """What a pair must show on a golden prompt set before it may serve speculatively."""

    # Logit agreement a flipped argmax must show to be a near tie (guardian/policy/tolerance.py: measured).
    near_tie_tolerance: float = Field(DEFAULT_NEAR_TIE_TOLERANCE, ge=0.0)
    max_near_ties: int = Field(0, ge=0, le=MAX_COUNT)  # near_ties allowed in the whole golden set
    distribution_tolerance: float = Field(0.02, gt=0.0, le=1.0)  # max TV for sampled prompts
    # alpha floor over the golden set: accepted / judged draft positions (engine.metrics);
    # the old name `min_acceptance_rate` is read as this for one release
    min_alpha: float = Field(0.3, ge=0.0, le=1.0)
    min_speedup: float = Field(1.0, ge=0.0)  # target-only time / speculative time
    gamma: int = Field(4, ge=1, le=MAX_GAMMA)
    # per prompt unless the golden line says otherwise
    max_new_tokens: int = Field(48, ge=1, le=MAX_NEW_TOKENS)
    # With an audit database attached, a policy FILE saying `mode: speculative` (no route state
    # in the DB overriding it) serves speculatively only with a passing gate report for this
    # exact pair and policy hash; without one the route serves target_only (audited once as a
    # `policy_decision`). false: the file's mode applies as written (tests, load tests).
    require_report: bool = True
    # The batched phase (guardian.governance.gatebatch): besides one at a time, the golden
    # prompts are served concurrently in mixed batches of these sizes (capped at the serving
    # engine's max_batch) through the engine `guardian serve` runs; [] judges alone only.
    batch_sizes: list[int] = Field(default_factory=lambda: [4], max_length=8)
    # Judged completions each of greedy and sampled must end by a stop string, by an EOS
    # accepted inside a draft block and at max_tokens (guardian.equivalence.stopcases);
    # fewer fails `stopping_coverage` (0, the default: counted and reported, never failed; a
    # tiny or custom pair may end its golden set differently). The shipped policy sets 1 on
    # the demo pair's `code` route: its golden set measured 1-2 of the rarest cases there.
    stopping_quota: int = Field(0, ge=0, le=MAX_COUNT)
    # With a stopping_quota, the most extra seeds of the golden set's sampled prompts the gate
    # judges while a sampled case is below it (guardian.governance.gatecoverage: how a sampled
    # completion stops is a draw, and a seed picked on one build of a pair may not end that way
    # on another). Each draw is a full judged run in the report; 0: no draws.
    coverage_draws: int = Field(16, ge=0, le=MAX_COUNT)

    @model_validator(mode="before")
    @classmethod
    def _old_name(cls, data: Any) -> Any:
        return renamed_field(data, "min_acceptance_rate", "min_alpha", ALPHA_NOT_RATE)
