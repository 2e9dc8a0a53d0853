"""The audit events of requests that were not served: a request its upstream pool failed.

(Served requests are recorded by guardian.serving.core; this module is where one recorder for
every request's audit events grows.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from guardian.backends.upstream.errors import UpstreamError
    from guardian.serving.core import GenerationRequest, ServingCore


def audit_failure(core: ServingCore, req: GenerationRequest, exc: UpstreamError) -> None:
    """Record a request its pool failed or refused: metadata, the prompt at the route's
    redaction, no completion, finish_reason `error`, the fault in `fallback_reason` (no
    evidence for the rollback triggers: `guardian.governance.windows.is_partial`)."""
    from guardian.audit.events import RequestEvent

    route = core.route_policy(req.route)
    core.sink.submit(RequestEvent(
        request_id=req.request_id, created_at=req.created_at, route=req.route, mode=route.mode,
        served_path="speculative" if route.mode == "speculative" else "target_only",
        pair_hash=core.backend.pair_hash, policy_hash=core.policy_hash, endpoint=req.endpoint,
        redaction=route.redaction, prompt_text=req.prompt_text, completion_text="",
        prompt_token_ids=list(req.prompt_ids), completion_token_ids=[], finish_reason="error",
        params=req.params(route), queue_time_s=0.0, compute_time_s=0.0,
        time_to_first_token_s=0.0, time_per_output_token_s=0.0,
        stats={"upstream_fault": exc.fault, "upstream_status": exc.status}, trace=[],
        fallback_reason=f"upstream_error: {exc.message} [{exc.detail}]"[:500],
        replica_id=core.replica_id))
