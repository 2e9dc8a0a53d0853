"""`POST /v1/completions` (role: inference)."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from guardian.api.deps import ServicesDep, require
from guardian.api.generation import (
    build_request,
    extension,
    headers,
    off_loop,
    serve_watching,
    stream,
    usage,
)
from guardian.api.logprobs import CompletionLogprobs
from guardian.api.schemas import Completion, CompletionChoice, CompletionRequest, ErrorResponse
from guardian.api.strictjson import StrictJSONRoute
from guardian.serving.core import GenerationRequest

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

    req = await off_loop(services, request, prepare)
    lp = None if body.logprobs is None else CompletionLogprobs(backend, body.logprobs)
    if body.stream:
        def choice(delta: str, finish: str | None, logprobs: dict[str, Any] | None,
                   ) -> dict[str, Any]:
            return {"index": 0, "text": delta, "finish_reason": finish, "logprobs": logprobs}

        return stream(services, req, "text_completion", choice, body.include_usage,
                      logprobs=lp)
    served = await serve_watching(services, request, req)
    result = Completion(id=req.request_id, created=int(time.time()), model=req.model,
                        choices=[CompletionChoice(
                            text=served.result.text, finish_reason=served.result.finish_reason,
                            logprobs=None if lp is None else lp(served.result.trace))],
                        usage=usage(served), spec_guardian=extension(served))
    return JSONResponse(result.model_dump(mode="json"), headers=headers(served))
