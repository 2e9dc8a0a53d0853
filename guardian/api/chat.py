"""`POST /v1/chat/completions` (role: inference). The prompt is the pair's chat template."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from jinja2 import TemplateError

from guardian.api.choices import fan_out, refuse_streamed, serve_choices, total_usage
from guardian.api.deps import ServicesDep, authorized_route, require
from guardian.api.generation import (
    build_request,
    check_controls,
    extension,
    headers,
    off_loop,
    stream,
    usage,
)
from guardian.api.logprobs import ChatLogprobs
from guardian.api.schemas import (
    AssistantMessage,
    ChatChoice,
    ChatCompletion,
    ChatCompletionRequest,
    ErrorResponse,
)
from guardian.api.strictjson import StrictJSONRoute
from guardian.serving.core import GenerationRequest, Served, ServingError

router = APIRouter(route_class=StrictJSONRoute, tags=["inference"],
                   dependencies=[Depends(require("inference"))],
                   responses={400: {"model": ErrorResponse}, 401: {"model": ErrorResponse},
                              403: {"model": ErrorResponse}, 404: {"model": ErrorResponse}})


def render_prompt(services: ServicesDep, body: ChatCompletionRequest) -> str:
    # Tool calls and names only reach a backend that honours them (check_controls ran).
    messages = [{**m.wire(), "content": m.text()} for m in body.messages]
    tools = body.tools if body.tools and body.tool_choice != "none" else None
    try:
        return services.core.backend.chat_prompt(messages, tools=tools)
    # e.g. a template that rejects the role order (HF templates raise jinja2's TemplateError)
    except (ValueError, TypeError, TemplateError) as exc:
        raise ServingError(400, f"The pair's chat template rejected these messages: {exc}",
                           param="messages", code="invalid_messages") from exc


@router.post("/v1/chat/completions", response_model=ChatCompletion)
async def create_chat_completion(body: ChatCompletionRequest, request: Request,
                                 services: ServicesDep) -> Any:
    authorized_route(services.core, request, body.model)  # refuse before rendering the prompt
    check_controls(services, body)  # ... and a field the backend cannot honour
    if body.stream and body.tools and not services.core.backend.capabilities.streams_tool_calls:
        raise ServingError(400, "this backend parses tool calls from the whole answer; send "
                           "the request with tools unstreamed (stream: false)",
                           param="stream", code="unsupported_parameter")

    def prepare() -> GenerationRequest:  # rendering, tokenizing: off the event loop
        prompt = render_prompt(services, body)
        messages = [("system" if m.role == "developer" else m.role, m.text())
                    for m in body.messages]
        return build_request(services, request, body, "chat.completions", prompt, None,
                             body.requested_max_tokens, "chatcmpl", messages)

    refuse_streamed(body.n, body.stream)
    req = await off_loop(services, request, prepare)
    k = body.logprobs_wanted
    lp = None if k is None else ChatLogprobs(services.core.backend, k)
    if body.stream:
        def choice(delta: str, finish: str | None, logprobs: dict[str, Any] | None,
                   ) -> dict[str, Any]:
            return {"index": 0, "delta": {"content": delta} if delta else {},
                    "finish_reason": finish, "logprobs": logprobs}

        def tool_calls(served: Served) -> list[dict[str, Any]]:
            calls = served.result.stats.get("tool_calls")
            if not calls:
                return []
            return [{"index": 0, "finish_reason": None, "logprobs": None, "delta": {
                "tool_calls": [{"index": i, **c} for i, c in enumerate(calls)]}}]

        first = {"index": 0, "delta": {"role": "assistant", "content": ""},
                 "finish_reason": None, "logprobs": None}
        return stream(services, req, "chat.completion.chunk", choice, body.include_usage, first,
                      logprobs=lp, tail=tool_calls)
    served = await serve_choices(services, request, fan_out(req, body.n))
    per_choice = [usage(s) for s in served]
    result = ChatCompletion(
        id=req.request_id, created=int(time.time()), model=req.model,
        choices=[ChatChoice(index=i, message=_message(s), finish_reason=_finish(s),
                            logprobs=None if lp is None else lp(s.result.trace))
                 for i, s in enumerate(served)],
        usage=total_usage(served, per_choice), spec_guardian=extension(served[0]))
    body_out = result.model_dump(mode="json")
    if len(served) > 1:  # each choice's own record: its id, path and stats
        body_out["spec_guardian"]["choices"] = [extension(s) for s in served]
    return JSONResponse(body_out, headers=headers(served[0]))


def _finish(served: Served) -> str:
    """"tool_calls" where a backend that parses its own answer found calls in it."""
    if served.result.finish_reason == "stop" and served.result.stats.get("tool_calls"):
        return "tool_calls"
    return served.result.finish_reason


def _message(served: Served) -> AssistantMessage:
    calls = served.result.stats.get("tool_calls")
    # a local answer's text holds its <tool_call> blocks (what the tokens say): the message
    # content is what is left beside them (guardian.backends.tools)
    text = served.result.stats.get("tool_content", served.result.text)
    return AssistantMessage(content=None if calls and not text else text,
                            tool_calls=calls or None)
