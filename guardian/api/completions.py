"""`POST /v1/completions` (role: inference)."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from guardian.api.choices import fan_out, refuse_streamed, serve_choices, total_usage
from guardian.api.deps import ServicesDep, require
from guardian.api.generation import (
    build_request,
    extension,
    headers,
    off_loop,
    stream,
    usage,
)
from guardian.api.logprobs import CompletionLogprobs
from guardian.api.schemas import Completion, CompletionChoice, CompletionRequest, ErrorResponse
from guardian.api.strictjson import StrictJSONRoute
from guardian.serving.core import GenerationRequest, ServingError

router = APIRouter(route_class=StrictJSONRoute, tags=["inference"],
                   dependencies=[Depends(require("inference"))],
                   responses={400: {"model": ErrorResponse}, 401: {"model": ErrorResponse},
                              403: {"model": ErrorResponse}, 404: {"model": ErrorResponse}})


@router.post("/v1/completions", response_model=Completion)
async def create_completion(body: CompletionRequest, request: Request, services: ServicesDep,
                            ) -> Any:
    backend = services.core.backend

    def prepare() -> GenerationRequest:  # tokenizing: off the event loop (`off_loop`)
        text = body.prompt if isinstance(body.prompt, str) else ""
        ids = None if isinstance(body.prompt, str) else list(body.prompt)  # type: ignore[arg-type]
        if ids is not None and backend.capabilities.local_tokenizer:
            services.core.check_token_ids(ids)
            text = backend.decode(ids)
        return build_request(services, request, body, "completions", text, ids,
                             body.max_tokens, "cmpl")

    refuse_streamed(body.n, body.stream)
    req = await off_loop(services, request, prepare)
    echo = ""
    if body.echo:
        if not req.prompt_text:  # ids to an upstream pool: no tokenizer here to show them
            raise ServingError(400, "echo needs a text prompt on this route (its backend has "
                               "no local tokenizer to show token ids as text)", param="echo",
                               code="unsupported_parameter")
        echo = req.prompt_text
    lp = None if body.logprobs is None else CompletionLogprobs(backend, body.logprobs)
    if body.stream:
        def choice(delta: str, finish: str | None, logprobs: dict[str, Any] | None,
                   ) -> dict[str, Any]:
            return {"index": 0, "text": delta, "finish_reason": finish, "logprobs": logprobs}

        first = ({"index": 0, "text": echo, "finish_reason": None, "logprobs": None}
                 if echo else None)
        return stream(services, req, "text_completion", choice, body.include_usage,
                      first, logprobs=lp)
    served = await serve_choices(services, request, fan_out(req, body.n))
    per_choice = [usage(s) for s in served]
    result = Completion(id=req.request_id, created=int(time.time()), model=req.model,
                        choices=[CompletionChoice(
                            index=i, text=echo + s.result.text,
                            finish_reason=s.result.finish_reason,  # type: ignore[arg-type]
                            logprobs=None if lp is None else lp(s.result.trace))
                            for i, s in enumerate(served)],
                        usage=total_usage(served, per_choice), spec_guardian=extension(served[0]))
    body_out = result.model_dump(mode="json")
    if len(served) > 1:  # each choice's own record: its id, path and stats
        body_out["spec_guardian"]["choices"] = [extension(s) for s in served]
    return JSONResponse(body_out, headers=headers(served[0]))
