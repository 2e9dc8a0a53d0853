"""Route, mode and request checks of the serving core, and the backend's view of a request.

`Routing`, a mixin of guardian.serving.core.ServingCore: which route a request takes
(`resolve_route`, the redaction floor), the mode in force on it (`route_policy`: database
state over the file, via the attached resolver), the length / vocabulary checks before a
request is queued, and the `BackendRequest` a run on a route sends (`backend_request`,
`run_backend`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from guardian.backends import BackendRequest, BackendResult, Distributions, OnText, ServingBackend
from guardian.core.errors import ServingError
from guardian.policy import REDACTION_PROTECTION, Policy, RoutePolicy
from guardian.serving.request import GenerationRequest, RouteChoice


class Routing:
    """The serving core's route, mode and validation methods (reads its policy and backend)."""

    backend: ServingBackend
    resolver: Any
    policy_hash: str
    _policy: Policy

    @property
    def policy(self) -> Policy:
        return self._policy

    # route and mode ----------------------------------------------------------------------
    def resolve_route(self, header_route: str | None, model: str) -> RouteChoice:
        """The request's route: the header's, else its model's, else the default route.

        Only the policy is consulted here; whether the caller may use the route is the API's
        check (`guardian.api.deps.authorized_route`), and the redaction floor is
        `check_redaction_floor`. An unknown route's error never lists the routes.
        """
        routed = self.policy.route_for_model(model)
        if not routed and model != self.backend.model_name:
            # Checked with a header too: the model name is echoed, audited and a metrics
            # label, so an unchecked one let any caller grow the label set without bound.
            raise ServingError(404, f"The model '{model}' does not exist; GET /v1/models lists "
                               "the served models", param="model", code="model_not_found")
        if header_route:
            if header_route not in self.policy.routes:
                raise ServingError(404, f"unknown route {header_route!r} (X-Guardian-Route); ask "
                                   "the operator which routes your API key may use, or drop the "
                                   "header to use the route of your model",
                                   param="X-Guardian-Route", code="route_not_found")
            return RouteChoice(header_route, "header", routed or self.policy.default_route)
        if routed:
            return RouteChoice(routed, "model", routed)
        default = self.policy.default_route
        return RouteChoice(default, "default", default)

    def check_redaction_floor(self, choice: RouteChoice) -> None:
        """A header may not pick a route that keeps more of the prompt than the route the
        request's model maps to (`guardian.policy.REDACTION_PROTECTION`)."""
        if choice.name == choice.policy_route:
            return
        picked = self.policy.route(choice.name).redaction
        floor = self.policy.route(choice.policy_route).redaction
        if REDACTION_PROTECTION[picked] < REDACTION_PROTECTION[floor]:
            raise ServingError(
                403, f"route {choice.name!r} (X-Guardian-Route) keeps more of the prompt "
                f"(redaction {picked!r}) than the route this model maps to (redaction "
                f"{floor!r}); a header may not lower redaction. Drop the header or pick a "
                f"route whose redaction is at least {floor!r}.", param="X-Guardian-Route",
                code="redaction_floor", type_="permission_error")

    def model_names(self) -> list[str]:
        names = [self.backend.model_name]
        for route in self.policy.routes.values():
            names += [m for m in route.models if m not in names]
        return names

    # validation ------------------------------------------------------------------------------
    def check_token_ids(self, ids: list[int]) -> None:
        vocab = self.backend.vocab_size
        bad = [t for t in ids if not 0 <= t < vocab]
        if bad:
            raise ServingError(400, f"prompt token ids {bad[:3]} are outside the vocabulary "
                               f"(size {vocab}); send ids in [0, {vocab}).", param="prompt",
                               code="invalid_value")

    def check_text(self, text: str, param: str = "prompt") -> None:
        """Refuse text that cannot fit the context before it is tokenized (a backend's
        `max_prompt_chars`, when it has one: tokenizing a 1 MiB prompt takes a second)."""
        limit = self.backend.max_prompt_chars
        if limit is not None and len(text) > limit:
            raise ServingError(400, f"The {param} has {len(text):,} characters, more than "
                               f"this model's context of {self.backend.max_context} tokens can "
                               f"hold (at most {limit:,} characters); shorten it.",
                               param=param, code="context_length_exceeded")

    def check_lengths(self, prompt_ids: list[int], max_tokens: int) -> None:
        ctx = self.backend.max_context
        if len(prompt_ids) >= ctx:
            raise ServingError(400, f"This model's maximum context length is {ctx} tokens, but "
                               f"the prompt has {len(prompt_ids)}; shorten the prompt.",
                               param="prompt", code="context_length_exceeded")
        if len(prompt_ids) + max_tokens > ctx:
            raise ServingError(400, f"max_tokens={max_tokens} plus the prompt's {len(prompt_ids)} "
                               f"tokens exceeds the context length {ctx}; lower max_tokens to at "
                               f"most {ctx - len(prompt_ids)}.", param="max_tokens",
                               code="context_length_exceeded")

    # serving -------------------------------------------------------------------------------
    def route_policy(self, name: str, request_key: str | None = None) -> RoutePolicy:
        """The route's policy with the mode in force now (database state over the file);
        `request_key`: one request's sticky key, for a running canary."""
        route = self.policy.route(name)
        if self.resolver is not None:
            # The policy goes along so a file saying `speculative` is held to the gate
            # (a passing report for this pair + policy hash); cached in the resolver.
            mode = self.resolver.mode(name, route.mode, self._policy, self.policy_hash,
                                      request_key=request_key)
            if mode != route.mode:
                route = route.model_copy(update={"mode": mode})
        return route

    def backend_request(self, req: GenerationRequest, route: RoutePolicy, speculative: bool,
                        max_new_tokens: int | None = None, *,
                        check: Callable[[], None] | None = None) -> BackendRequest:
        """The backend's view of a request on `route` (its proposer and gamma policy).

        `check`: the cancellation check a batching backend runs while the run waits for a row
        (the serving path passes the request's token). Runs on behalf of the shadow evaluator
        or a gate pass none: the client's deadline bounds its answer, not the evaluation of
        the same request that runs after it was answered."""
        return BackendRequest(
            prompt_ids=list(req.prompt_ids), max_new_tokens=max_new_tokens or req.max_tokens,
            speculative=speculative, sampling=req.sampling, seed=req.seed,
            stop=tuple(req.stop or ()), proposer=route.proposer, gamma=route.gamma.initial,
            gamma_strategy=route.gamma.strategy, gamma_max=route.gamma.max,
            top_logprobs=req.top_logprobs, prompt_text=req.prompt_text,
            messages=None if req.messages is None else tuple(req.messages), route=req.route,
            upstream=getattr(route, "upstream", None), check=check,
            principal=req.principal, weight=route.weight,
            passthrough=req.passthrough)

    def run_backend(self, req: GenerationRequest, route: RoutePolicy, speculative: bool,
                    on_text: OnText | None, *, max_new_tokens: int | None = None,
                    evidence: bool = False, check: Callable[[], None] | None = None,
                    ) -> tuple[BackendResult, Distributions | None]:
        """One backend run; with `evidence` (full_distributions backends only) also the
        target distributions it used, for the shadow evaluator. `check`: see
        `backend_request`."""
        breq = self.backend_request(req, route, speculative, max_new_tokens, check=check)
        if evidence:
            return self.backend.generate_with_evidence(breq, on_text)
        return self.backend.generate(breq, on_text), None
