"""A request on the serving path and what serving it produced: `RouteChoice` (its route and
why), `GenerationRequest` (everything the API resolved: prompt, sampling, limits, caller,
cancellation token) and `Served` (the backend's result, the path and mode it was served on,
its timings and the `spec_guardian` extension clients see)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from guardian.backends import (
    BackendResult,
    Distributions,
    Sampling,
)
from guardian.core.enums import DecodePath
from guardian.policy import RoutePolicy
from guardian.serving.admission import CancelToken
from guardian.serving.provenance import decoding_rule
from guardian.serving.results import (
    stats_dict,
)

# Why a request is on its route: the X-Guardian-Route header, its model, or the default.
RouteReason = Literal["header", "model", "default"]


# --- requests and results ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RouteChoice:
    """A request's route, why it was chosen, and the route its model maps to without any
    header (`policy_route`: the redaction floor and an un-listed key's only route)."""

    name: str
    reason: RouteReason
    policy_route: str


@dataclass(slots=True)
class GenerationRequest:
    endpoint: Literal["completions", "chat.completions"]
    route: str
    model: str
    prompt_text: str
    prompt_ids: list[int]
    max_tokens: int
    temperature: float = 0.0
    top_p: float = 1.0
    top_k: int = 0
    seed: int | None = None
    stop: list[str] | None = None
    request_id: str = field(default_factory=lambda: f"req-{uuid.uuid4().hex}")
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    # Attribution, recorded in the audit event's params (hash-covered, kept at every
    # redaction): who sent it (`api-key:<name>`, never the key), which of its secrets
    # (digest prefix), and why this route (header / model / default).
    principal: str | None = None
    key_id: str | None = None
    route_reason: RouteReason | None = None
    # Set by the API when the client hangs up or the deadline passes; checked every step.
    cancel: CancelToken = field(default_factory=CancelToken)
    # The key a running canary splits traffic by (guardian.governance.modes.sticky_key).
    sticky_key: str | None = None
    # Alternatives per token the client asked for (logprobs); and, for backends without a
    # local tokenizer, the chat messages as sent (role, content).
    top_logprobs: int = 0
    messages: list[tuple[str, str]] | None = None
    admitted: bool = False  # its route slot is already held (ServingCore.precheck)
    keyed: bool = False  # the slot counts against its principal's max_queue_per_key
    # The request surface beyond the core fields (guardian.api.surface): sampling controls
    # as `Sampling` takes them (penalties, min_p, logit_bias pairs), and the fields forwarded
    # unchanged to an upstream pool. Both are recorded in the audit params when set.
    controls: dict[str, Any] = field(default_factory=dict)
    passthrough: dict[str, Any] = field(default_factory=dict)
    choice_index: int = 0  # which of the request's n choices this generation is

    @property
    def greedy(self) -> bool:
        return self.temperature == 0.0

    @property
    def sampling(self) -> Sampling:
        return Sampling(temperature=self.temperature, top_p=self.top_p, top_k=self.top_k,
                        **self.controls)

    def params(self, route: RoutePolicy) -> dict[str, Any]:
        out = {"max_tokens": self.max_tokens, "temperature": self.temperature,
               "top_p": self.top_p, "top_k": self.top_k, "seed": self.seed, "stop": self.stop,
               "model": self.model, "gamma_strategy": route.gamma.strategy,
               "gamma": route.gamma.initial, "gamma_max": route.gamma.max,
               **self.attribution()}
        # Only when set: the params of a request without them are as they always were.
        out.update(self.sampling.controls())
        # The messages stay in the prompt text (redacted as it is), never in the params.
        out.update({k: v for k, v in self.passthrough.items() if k != "messages"})
        if self.choice_index:
            out["choice_index"] = self.choice_index
        return out

    def attribution(self) -> dict[str, str]:
        """Who sent the request and why it is on its route (only what is known)."""
        out = {"principal": self.principal, "key_id": self.key_id,
               "route_reason": self.route_reason}
        return {k: v for k, v in out.items() if v is not None}


@dataclass(slots=True)
class Served:
    request: GenerationRequest
    result: BackendResult
    mode: str
    served_path: DecodePath
    fallback_reason: str | None
    queue_time_s: float
    compute_time_s: float
    policy_hash: str
    shadow_sampled: bool
    # Shadow evidence, not for serving: the target distributions a sampled speculative run
    # used, kept for the shadow evaluator (only from backends with full_distributions).
    evidence: Distributions | None = None
    route: RoutePolicy | None = None  # the route as served (its proposer, depth)

    def rule(self) -> dict[str, Any]:
        """Which rule produced the tokens (guardian.serving.provenance)."""
        return decoding_rule(self, self.route)

    def extension(self) -> dict[str, Any]:
        """The `spec_guardian` field added to OpenAI responses."""
        return {"request_id": self.request.request_id, "route": self.request.route,
                "mode": self.mode, "served_path": self.served_path,
                "fallback_reason": self.fallback_reason, "shadow_sampled": self.shadow_sampled,
                "queue_time_s": self.queue_time_s, "compute_time_s": self.compute_time_s,
                "speculation": self.rule(), "stats": stats_dict(self.result)}
