"""`POST /v1/shadow` (role: mirror): evaluate a response produced elsewhere, without serving.

A separate role from `inference`: the caller supplies the response being judged, so its
verdicts could be fabricated. They are always audited, attributed to the mirror key
(RequestEvent params, ShadowEvent stats `principal`), but count toward a route's rollback
triggers only where its policy sets `triggers.mirror_evidence: true`. The route is
authorized exactly as for serving (the key's routes, the redaction floor).

For traffic mirrored by Istio/Envoy: the body carries the original request and the primary's
response; the sidecar judges the primary's tokens against its target at the same prefixes
and records a RequestEvent (served_path "external") plus a ShadowEvent. The job goes through
the same bounded, lower-priority shadow queue as sampled requests: 202 "queued" (or
"dropped" when saturated); with `wait: true` the verdict comes back in the answer, or
status "failed" when the evaluator hit an error on the job (never a 500: the mirror was
accepted and audited).
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Future
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from guardian.api.chat import render_prompt
from guardian.api.deps import ServicesDep, authorized_route, principal_of, require
from guardian.api.generation import build_request, check_controls, off_loop
from guardian.api.schemas import (
    ChatCompletionRequest,
    CompletionRequest,
    ErrorResponse,
    ShadowAccepted,
    ShadowRequest,
)
from guardian.api.strictjson import StrictJSONRoute
from guardian.equivalence.shadow import ShadowJob
from guardian.policy import RoutePolicy
from guardian.serving.core import GenerationRequest, ServingError

router = APIRouter(route_class=StrictJSONRoute, tags=["inference"], dependencies=[Depends(require("mirror"))],
                   responses={400: {"model": ErrorResponse}, 401: {"model": ErrorResponse},
                              403: {"model": ErrorResponse}})

logger = logging.getLogger(__name__)

WAIT_TIMEOUT_S = 60.0


@router.post("/v1/shadow", response_model=ShadowAccepted, status_code=202)
async def mirror(body: ShadowRequest, request: Request, services: ServicesDep) -> JSONResponse:
    core, inner = services.core, body.request
    choice = authorized_route(core, request, inner.model)
    principal = principal_of(request)
    route_name = choice.name
    route = core.route_policy(route_name)  # the mode in force, as serving sees it
    if not core.backend.capabilities.local_tokenizer:  # upstream pools: judged by the pool
        return await _mirror_to_pool(services, request, body, route)
    # The target judges the primary's tokens under the same controls, or refuses: a mirror of
    # a penalised request judged without its penalties would be a false divergence.
    controls = check_controls(services, inner)
    if inner.n > 1 or (isinstance(inner, CompletionRequest) and inner.echo):
        raise ServingError(400, "a mirrored request is one completion of n=1 without echo; "
                           "mirror each choice as its own request", param="request.n",
                           code="unsupported_parameter")

    def prepare() -> tuple[str, str, list[int], str, list[int]]:  # off the event loop
        if isinstance(inner, ChatCompletionRequest):
            endpoint, prompt = "chat.completions", render_prompt(services, inner)
            core.check_text(prompt)
            prompt_ids = core.backend.encode(prompt)
        else:
            endpoint = "completions"
            if isinstance(inner.prompt, str):
                core.check_text(inner.prompt)
                prompt, prompt_ids = inner.prompt, core.backend.encode(inner.prompt)
            else:
                prompt_ids = list(inner.prompt)  # type: ignore[arg-type]
                core.check_token_ids(prompt_ids)
                prompt = core.backend.decode(prompt_ids)
        try:
            completion = body.response.completion_text()
        except ValueError as exc:
            raise ServingError(400, str(exc), param="response.choices") from exc
        core.check_text(completion, "response.choices")
        completion_ids = core.backend.encode(completion, prompt=False)
        core.check_lengths(prompt_ids, 1)  # the prompt alone: a 400 naming `prompt`
        ctx = core.backend.max_context
        if len(prompt_ids) + len(completion_ids) > ctx:  # the caller sent no max_tokens here
            raise ServingError(400, f"The mirrored completion has {len(completion_ids)} tokens; "
                               f"with the prompt's {len(prompt_ids)} that exceeds the context "
                               f"length {ctx}, so the target cannot score it.",
                               param="response.choices", code="context_length_exceeded")
        return endpoint, prompt, prompt_ids, completion, completion_ids

    endpoint, prompt, prompt_ids, completion, completion_ids = await off_loop(services, request,
                                                                              prepare)
    req = GenerationRequest(endpoint=endpoint, route=route_name, model=inner.model,  # type: ignore[arg-type]
                            prompt_text=prompt, prompt_ids=prompt_ids,
                            max_tokens=max(1, len(completion_ids)), temperature=inner.temperature,
                            top_p=inner.top_p, top_k=max(0, inner.top_k), seed=inner.seed,
                            stop=inner.stop,  # type: ignore[arg-type]
                            principal=principal.actor, key_id=principal.key_id,
                            route_reason=choice.reason, controls=controls.sampling,
                            passthrough=controls.passthrough)
    req.request_id = f"shadow-{req.request_id.removeprefix('req-')}"
    policy_hash = core.recorder.mirrored(
        req, route, completion, completion_ids, body.response.choices[0].get("finish_reason"))
    # The primary's text and the request's own max_tokens: how the primary ended is judged
    # against them (its text holds neither EOS nor the stop string that ended it).
    limit = (inner.requested_max_tokens if isinstance(inner, ChatCompletionRequest)
             else inner.max_tokens)
    job = ShadowJob(req, route, policy_hash, route.mode, external_ids=completion_ids,
                    external_finish_reason=body.response.choices[0].get("finish_reason"),
                    external_text=completion, external_max_tokens=limit)
    return await _answer(req.request_id, services.shadow.offer(job), body.wait, job.done,
                         warn=True)


async def _mirror_to_pool(services: ServicesDep, request: Request, body: ShadowRequest,
                          route: RoutePolicy) -> JSONResponse:
    """`/v1/shadow` over upstream pools: the route's target-only pool answers the mirrored
    request greedily and the primary's text is walked along its tokens
    (guardian.equivalence.pool_mirror); audited as on the local engine."""
    from guardian.equivalence.pool_shadow import MirrorJob, PoolShadow

    core, inner = services.core, body.request
    pool_shadow = core.shadow
    if not isinstance(pool_shadow, PoolShadow) or route.upstream is None:
        raise ServingError(400, f"route {request.url.path!r} has no upstream pools to judge "
                           "mirrored traffic with (routes.<route>.upstream)", code="no_pools")
    if inner.temperature != 0:
        raise ServingError(400, "mirrored traffic over upstream pools is judged greedily: one "
                           "sampled text cannot be checked against a pool's top-k logprobs; "
                           "mirror temperature 0 requests", param="request.temperature",
                           code="invalid_value")
    try:
        completion = body.response.completion_text()
    except ValueError as exc:
        raise ServingError(400, str(exc), param="response.choices") from exc
    core.check_text(completion, "response.choices")
    if isinstance(inner, ChatCompletionRequest):
        prompt = render_prompt(services, inner)
        messages = [("system" if m.role == "developer" else m.role, m.text())
                    for m in inner.messages]
        req = build_request(services, request, inner, "chat.completions", prompt, None,
                            inner.requested_max_tokens, "shadow", messages)
    else:
        text = inner.prompt if isinstance(inner.prompt, str) else ""
        ids = None if isinstance(inner.prompt, str) else list(inner.prompt)  # type: ignore[arg-type]
        req = build_request(services, request, inner, "completions", text, ids,
                            inner.max_tokens, "shadow")
    finish = body.response.choices[0].get("finish_reason")
    policy_hash = core.recorder.mirrored(req, route, completion, [], finish, prompt_ids=[])
    job = MirrorJob(req, route, policy_hash, completion, finish)
    return await _answer(req.request_id, pool_shadow.offer_mirror(job), body.wait, job.done)


async def _answer(request_id: str, offered: bool, wait: bool, done: Future[Any], *,
                  warn: bool = False) -> JSONResponse:
    """A mirror call's answer: dropped (the queue was full), queued (not waited for, or not
    judged within WAIT_TIMEOUT_S), failed, or the verdict. `warn`: log a failed evaluation
    here (the pool shadow logs its own)."""
    hdrs = {"x-request-id": request_id}

    def accepted(status: str) -> JSONResponse:
        return JSONResponse(ShadowAccepted(id=request_id, status=status).model_dump(),
                            status_code=202, headers=hdrs)

    if not offered:
        return accepted("dropped")
    if not wait:
        return accepted("queued")
    try:
        event = await asyncio.wait_for(asyncio.wrap_future(done), WAIT_TIMEOUT_S)
    except TimeoutError:
        event = None
    except Exception:  # the evaluator logged it with the stack; the mirror call itself is fine
        if warn:
            logger.warning("shadow evaluation of %s failed; answering status 'failed'",
                           request_id)
        return accepted("failed")
    if event is None:
        return accepted("queued")
    return JSONResponse(ShadowAccepted(
        id=request_id, status="evaluated", verdict=event.verdict,
        first_divergence_position=event.first_divergence_position,
        margin_at_divergence=event.margin_at_divergence).model_dump(), status_code=200,
        headers=hdrs)
