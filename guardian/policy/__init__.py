"""Route policy: what mode each traffic slice runs in and how it is checked.

Owns the pydantic schema of a policy file (`policies/default.yaml`), loading it, and the
policy's content hash (recorded with every audit event so a verdict can be tied to the exact
policy in force). Each route nests its governance settings (`triggers:` checked continuously,
`gate:` checked before promotion; schema in `guardian.governance.schema`). Loading goes through
`guardian.governance.policyfile`, whose errors name file:line, the field and what is allowed;
hot reload lives there too.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

from guardian.enums import GammaStrategy, Mode, ProposerKind, Redaction
from guardian.governance.schema import GatePolicy, TriggerPolicy

logger = logging.getLogger(__name__)


DEFAULT_POLICY_FILE = Path(__file__).resolve().parents[2] / "policies" / "default.yaml"


class PolicyError(ValueError):
    """A policy file that cannot be read or does not validate; the message says where."""


class _Strict(BaseModel):
    # Unknown keys are typos in an operator-edited file: reject them instead of ignoring.
    model_config = ConfigDict(extra="forbid", frozen=True)


class ShadowPolicy(_Strict):
    sample_rate: float = Field(0.1, ge=0.0, le=1.0)
    max_new_tokens: int = Field(64, ge=1)  # caps shadow cost per request


class GammaPolicy(_Strict):
    strategy: GammaStrategy = "constant"
    initial: int = Field(4, ge=1)
    min: int = Field(1, ge=1)
    max: int = Field(8, ge=1)

    @model_validator(mode="after")
    def _bounds(self) -> GammaPolicy:
        if not self.min <= self.initial <= self.max:
            raise ValueError(f"gamma needs min <= initial <= max, got {self.min}/{self.initial}/{self.max}")
        return self


class RoutePolicy(_Strict):
    mode: Mode = "target_only"
    # What proposes draft tokens when this route speculates: the pair's draft model, or
    # n-gram prompt lookup (no draft forward; shines when outputs copy the prompt).
    proposer: ProposerKind = "draft_model"
    models: list[str] = Field(default_factory=list)
    shadow: ShadowPolicy = ShadowPolicy()
    gamma: GammaPolicy = GammaPolicy()
    load_shed_queue_depth: int = Field(8, ge=1)
    redaction: Redaction = "full"
    near_tie_tolerance: float = Field(0.5, ge=0.0)
    distribution_tolerance: float = Field(0.02, gt=0.0, le=1.0)
    acceptance_window: int = Field(512, ge=1)
    acceptance_z: float = Field(4.0, gt=0.0)
    triggers: TriggerPolicy = TriggerPolicy()  # when serving speculatively, what rolls it back
    gate: GatePolicy = GatePolicy()  # what a pair must show before promotion to this route


class SloPolicy(_Strict):
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


class Policy(_Strict):
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


def load_policy(path: Path | str | None = None) -> Policy:
    """Read and validate a policy YAML file (default: the packaged `policies/default.yaml`).

    Raises PolicyError naming file:line, the field and what is allowed.
    """
    from guardian.governance.policyfile import load_policy_file

    policy = load_policy_file(path or DEFAULT_POLICY_FILE)
    logger.info("loaded policy %s (hash %s, routes %s)", path or DEFAULT_POLICY_FILE,
                policy.content_hash[:12], sorted(policy.routes))
    return policy


__all__ = [
    "DEFAULT_POLICY_FILE",
    "GammaPolicy",
    "GatePolicy",
    "Mode",
    "Policy",
    "PolicyError",
    "RoutePolicy",
    "ShadowPolicy",
    "SloPolicy",
    "TriggerPolicy",
    "load_policy",
]
