"""The one recorder of every request's audit event: served, cancelled, abandoned, failed on its
upstream pool, or mirrored (a primary answer produced elsewhere, `POST /v1/shadow`).

Each record names the route's mode and redaction, the pair and policy in force, and the
replica; what differs by outcome is written here and nowhere else:

* **served** — the completion, its trace and stats; on an `audit.durability: sync` route the
  future that completes once the record is durable (`AuditWriter.submit_durable`);
* **cancelled** — what the generation had emitted when its client or deadline stopped it,
  `finish_reason="cancelled"` and why (in stats);
* **abandoned** — a generation that ended with a result its client never got (answered
  504/499 first): recorded as cancelled, with everything it generated;
* **upstream failure** — a request its pool failed or refused: metadata, the prompt at the
  route's redaction, no completion, `finish_reason="error"`, the fault in `fallback_reason`
  (no evidence for the rollback triggers: `guardian.governance.windows.is_partial`);
* **mirrored** — the primary's prompt and completion as the caller sent them,
  `served_path="external"`, `endpoint="shadow"`.

The recorder reads the core's sink, backend, policy hash and replica at each call (tests and
the app swap them), so it holds nothing of its own.
"""

from __future__ import annotations

import time
from concurrent.futures import Future
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from guardian.audit.events import RequestEvent
from guardian.serving.results import prompt_tokens, stats_dict, time_per_output_token

if TYPE_CHECKING:
    from guardian.backends.upstream.errors import UpstreamError
    from guardian.policy import RoutePolicy
    from guardian.serving.admission import Cancelled
    from guardian.serving.request import GenerationRequest, Served


class _Core(Protocol):
    """What the recorder reads of its serving core (guardian.serving.core.ServingCore)."""

    sink: Any
    backend: Any
    replica_id: str | None

    @property
    def policy_hash(self) -> str: ...

    def route_policy(self, name: str) -> RoutePolicy: ...


class RequestRecorder:
    """Builds and submits the request events of one serving core."""

    def __init__(self, core: _Core) -> None:
        self.core = core

    def _event(self, req: GenerationRequest, route: RoutePolicy, **fields: Any) -> RequestEvent:
        core = self.core
        base: dict[str, Any] = dict(
            request_id=req.request_id, created_at=req.created_at, route=req.route,
            mode=route.mode, pair_hash=core.backend.pair_hash, policy_hash=core.policy_hash,
            endpoint=req.endpoint, redaction=route.redaction, prompt_text=req.prompt_text,
            prompt_token_ids=list(req.prompt_ids), params=req.params(route),
            replica_id=core.replica_id)
        return RequestEvent(**{**base, **fields})

    def served(self, served: Served, route: RoutePolicy) -> Future[None] | None:
        """A served request; on a `sync` route, the future of its durability."""
        req, result = served.request, served.result
        event = self._event(
            req, route, served_path=served.served_path, policy_hash=served.policy_hash,
            completion_text=result.text, completion_token_ids=list(result.token_ids),
            finish_reason=result.finish_reason, queue_time_s=served.queue_time_s,
            compute_time_s=served.compute_time_s,
            time_to_first_token_s=result.timings.time_to_first_token_s,
            time_per_output_token_s=time_per_output_token(result),
            stats={**stats_dict(result), "decoding_rule": served.rule()},
            trace=list(result.trace),
            fallback_reason=served.fallback_reason,
            prompt_tokens=None if req.prompt_ids else prompt_tokens(req, result))
        sink = self.core.sink
        submit_durable = getattr(sink, "submit_durable", None)
        if route.audit.durability == "sync" and submit_durable is not None:
            return submit_durable(event)  # type: ignore[no-any-return]
        sink.submit(event)
        return None

    def cancelled(self, req: GenerationRequest, route: RoutePolicy, exc: Cancelled,
                  enqueued: float, started: float) -> None:
        """A generation stopped by its client or deadline (`exc.partial`: what it emitted)."""
        path, text, trace = getattr(exc, "partial", ("target_only", "", []))
        self.core.sink.submit(self._event(
            req, route, served_path=path, completion_text=text,
            completion_token_ids=[t.token_id for t in trace], finish_reason="cancelled",
            queue_time_s=started - enqueued, compute_time_s=time.perf_counter() - started,
            time_to_first_token_s=0.0, time_per_output_token_s=0.0,
            stats={"cancelled": exc.reason}, trace=trace))

    def abandoned(self, req: GenerationRequest, route: RoutePolicy, served: Served,
                  enqueued: float) -> None:
        """A result its client never got (answered 504/499 first): recorded as cancelled."""
        from guardian.serving.admission import Cancelled

        exc = Cancelled(req.cancel.reason or "client_disconnected")
        exc.partial = (served.served_path, served.result.text,  # type: ignore[attr-defined]
                       list(served.result.trace))
        self.cancelled(req, route, exc, enqueued, enqueued + served.queue_time_s)

    def upstream_failure(self, req: GenerationRequest, exc: UpstreamError) -> None:
        """A request its pool failed or refused."""
        route = self.core.route_policy(req.route)
        self.core.sink.submit(self._event(
            req, route, served_path="speculative" if route.mode == "speculative" else "target_only",
            completion_text="", completion_token_ids=[], finish_reason="error",
            queue_time_s=0.0, compute_time_s=0.0, time_to_first_token_s=0.0,
            time_per_output_token_s=0.0,
            stats={"upstream_fault": exc.fault, "upstream_status": exc.status}, trace=[],
            fallback_reason=f"upstream_error: {exc.message} [{exc.detail}]"[:500]))

    def mirrored(self, req: GenerationRequest, route: RoutePolicy, completion_text: str,
                 completion_ids: list[int], finish_reason: str | None, *,
                 prompt_ids: list[int] | None = None) -> str:
        """A primary answer produced elsewhere, recorded before it is judged; returns the
        policy hash it was recorded under (the verdict is bound to the same)."""
        policy_hash = self.core.policy_hash
        self.core.sink.submit(self._event(
            req, route, created_at=datetime.now(UTC), served_path="external",
            policy_hash=policy_hash, endpoint="shadow",
            prompt_token_ids=list(req.prompt_ids) if prompt_ids is None else prompt_ids,
            completion_text=completion_text, completion_token_ids=completion_ids,
            finish_reason=str(finish_reason or "unknown"), queue_time_s=0.0,
            compute_time_s=0.0, time_to_first_token_s=0.0, time_per_output_token_s=0.0,
            stats={}, trace=[]))
        return policy_hash

