"""The route policy model: what mode each traffic slice runs in and how it is checked.

Owns the pydantic schema of a policy file (`policies/default.yaml`) and the policy's content
hash (recorded with every audit event so a verdict can be tied to the exact policy in force).
Each route nests `triggers:` (checked continuously, `guardian.policy.triggers`) and `gate:`
(checked before promotion, `guardian.policy.gate`).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from pydantic import Field, model_validator

from guardian.enums import GammaStrategy, Mode, ProposerKind, Redaction
from guardian.policy.base import Strict
from guardian.policy.gate import GatePolicy
from guardian.policy.triggers import TriggerPolicy
from guardian.tolerance import DEFAULT_NEAR_TIE_TOLERANCE

DEFAULT_POLICY_FILE = Path(__file__).resolve().parents[2] / "policies" / "default.yaml"

# How much each redaction protects a prompt, lowest first (`guardian.audit.redaction`):
# full keeps text and ids; redacted keeps text with PII masked (the rest in clear); hashed
# keeps only a keyed hash (a guess can be confirmed only with the salt); none keeps nothing.
# The redaction floor: an X-Guardian-Route header may pick a route only if its protection is
# at least that of the route the request's model maps to. Storing less (e.g. `none`) is not
# a privacy risk but loses evidence, so it is bounded by the key's authorized routes instead.
REDACTION_PROTECTION: dict[str, int] = {"full": 0, "redacted": 1, "hashed": 2, "none": 3}


class ShadowPolicy(Strict):
    sample_rate: float = Field(0.1, ge=0.0, le=1.0)
    max_new_tokens: int = Field(64, ge=1)  # caps shadow cost per request


class GammaPolicy(Strict):
    strategy: GammaStrategy = "constant"
    initial: int = Field(4, ge=1)
    min: int = Field(1, ge=1)
    max: int = Field(8, ge=1)

    @model_validator(mode="after")
    def _bounds(self) -> GammaPolicy:
        if not self.min <= self.initial <= self.max:
            raise ValueError(f"gamma needs min <= initial <= max, got {self.min}/{self.initial}/{self.max}")
        return self


class RoutePolicy(Strict):
    mode: Mode = "target_only"
    # What proposes draft tokens when this route speculates: the pair's draft model, or
    # n-gram prompt lookup (no draft forward; shines when outputs copy the prompt).
    proposer: ProposerKind = "draft_model"
    models: list[str] = Field(default_factory=list)
    shadow: ShadowPolicy = ShadowPolicy()
    gamma: GammaPolicy = GammaPolicy()
    load_shed_queue_depth: int = Field(8, ge=1)
    redaction: Redaction = "full"
    # Logit agreement a flipped argmax must show to be a near tie (guardian/tolerance.py: measured).
    near_tie_tolerance: float = Field(DEFAULT_NEAR_TIE_TOLERANCE, ge=0.0)
    distribution_tolerance: float = Field(0.02, gt=0.0, le=1.0)
    acceptance_window: int = Field(512, ge=1)
    acceptance_z: float = Field(4.0, gt=0.0)
    triggers: TriggerPolicy = TriggerPolicy()  # when serving speculatively, what rolls it back
    gate: GatePolicy = GatePolicy()  # what a pair must show before promotion to this route


class SloPolicy(Strict):
    """Service-level objectives the dashboard's Overview page and burn-rate alerts use."""

    latency_p50_s: float = Field(1.0, gt=0)
    latency_p95_s: float = Field(2.5, gt=0)
    latency_p99_s: float = Field(5.0, gt=0)
    ttft_p50_s: float = Field(0.2, gt=0)
    ttft_p95_s: float = Field(0.5, gt=0)
    ttft_p99_s: float = Field(1.0, gt=0)
    # A request is "good" for the error budget when both hold.
    good_latency_s: float = Field(2.5, gt=0)
    good_ttft_s: float = Field(0.5, gt=0)
    objective: float = Field(0.99, gt=0, lt=1)  # e.g. 0.99 = 1 % error budget
    period_days: int = Field(30, ge=1)


class Policy(Strict):
    version: int = 1
    default_route: str = "default"
    slo: SloPolicy = SloPolicy()
    routes: dict[str, RoutePolicy] = Field(default_factory=lambda: {"default": RoutePolicy()})

    @model_validator(mode="after")
    def _default_exists(self) -> Policy:
        if self.default_route not in self.routes:
            raise ValueError(f"default_route {self.default_route!r} is not one of routes "
                             f"{sorted(self.routes)}")
        return self

    @property
    def content_hash(self) -> str:
        """sha256 of the canonical JSON of the validated policy (comments/order don't count)."""
        canonical = json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()

    def route(self, name: str) -> RoutePolicy:
        return self.routes[name]

    def route_for_model(self, model: str) -> str | None:
        """The route whose `models` lists `model`, if any."""
        for name, route in self.routes.items():
            if model in route.models:
                return name
        return None

    def with_mode(self, route: str, mode: Mode) -> Policy:
        """A copy with one route's mode changed (rollback / re-enable / promotion)."""
        routes = dict(self.routes)
        routes[route] = routes[route].model_copy(update={"mode": mode})
        return self.model_copy(update={"routes": routes})
