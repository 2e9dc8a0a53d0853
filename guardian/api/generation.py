"""Shared plumbing of the two generation endpoints: build the engine request, answer it
whole or as an SSE stream (OpenAI chunk format, ending with `data: [DONE]`).

Streaming: the engine calls `on_text` on its worker thread after each step; deltas cross to
the event loop through an asyncio queue, so a slow client never blocks the engine thread.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Request
from fastapi.responses import StreamingResponse

from guardian.api.deps import ROUTE_HEADER, Services, authorized_route, principal_of
from guardian.api.schemas import _Request
from guardian.governance.modes import STICKY_HEADER, sticky_key
from guardian.serving import GenerationRequest, Served, ServingError

logger = logging.getLogger(__name__)

__all__ = ["DEADLINE_HEADER", "ROUTE_HEADER", "build_request", "headers", "serve_watching",
           "stream", "usage"]

# Optional per-request deadline in milliseconds (queue + generation); past it the generation
# is cancelled and the answer is 504 deadline_exceeded.
DEADLINE_HEADER = "X-Guardian-Deadline-Ms"
MAX_DEADLINE_MS = 3_600_000
DISCONNECT_POLL_S = 0.05


def deadline_of(request: Request) -> float | None:
    """The request's deadline as a time.monotonic() value, or None without the header."""
    raw = request.headers.get(DEADLINE_HEADER)
    if raw is None:
        return None
    try:
        ms = int(raw.strip())
    except ValueError:
        ms = 0
    if not 1 <= ms <= MAX_DEADLINE_MS:
        raise ServingError(400, f"{DEADLINE_HEADER} must be a whole number of milliseconds in "
                           f"[1, {MAX_DEADLINE_MS}], got {raw[:40]!r}.", param=DEADLINE_HEADER,
                           code="invalid_value")
    return time.monotonic() + ms / 1000

ChunkBuilder = Callable[[str, str | None], dict[str, Any]]  # (delta, finish_reason) -> choice


def build_request(services: Services, request: Request, body: _Request, endpoint: str,
                  prompt_text: str, prompt_ids: list[int] | None, max_tokens: int | None,
                  id_prefix: str) -> GenerationRequest:
    core = services.core
    choice = authorized_route(core, request, body.model)
    deadline = deadline_of(request)
    principal = principal_of(request)
    if prompt_ids is None:
        prompt_ids = core.backend.encode(prompt_text)
    if not prompt_ids:
        raise ServingError(400, "The prompt is empty after tokenization; send some text.",
                           param="prompt", code="invalid_value")
    if max_tokens is None:  # OpenAI chat default: as much as the context allows
        max_tokens = max(1, core.backend.max_context - len(prompt_ids))
    core.check_lengths(prompt_ids, max_tokens)
    req = GenerationRequest(
        endpoint=endpoint, route=choice.name, model=body.model, prompt_text=prompt_text,  # type: ignore[arg-type]
        prompt_ids=prompt_ids, max_tokens=max_tokens, temperature=body.temperature,
        top_p=body.top_p, top_k=max(0, body.top_k), seed=body.seed,
        stop=body.stop,  # type: ignore[arg-type]  # validator normalised it to a list
        principal=principal.actor, key_id=principal.key_id, route_reason=choice.reason)
    req.request_id = f"{id_prefix}-{req.request_id.removeprefix('req-')}"
    req.cancel.deadline = deadline
    req.sticky_key = sticky_key(request.headers.get(STICKY_HEADER), body.user,
                                principal.key_id, req.request_id)
    return req


async def serve_watching(services: Services, request: Request, req: GenerationRequest) -> Served:
    """`core.serve`, cancelling the generation if the client hangs up while it runs."""
    task = asyncio.ensure_future(services.core.serve(req))
    while not task.done():
        await asyncio.wait({task}, timeout=DISCONNECT_POLL_S)
        if not task.done() and req.cancel.reason is None and await request.is_disconnected():
            req.cancel.cancel("client_disconnected")
    return task.result()


def usage(served: Served) -> dict[str, int]:
    p, c = len(served.request.prompt_ids), len(served.result.token_ids)
    return {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}


def headers(served_or_req: Served | GenerationRequest) -> dict[str, str]:
    req = served_or_req.request if isinstance(served_or_req, Served) else served_or_req
    return {"x-request-id": req.request_id, "x-guardian-route": req.route}


def stream(services: Services, req: GenerationRequest, obj: str, choice: ChunkBuilder,
           include_usage: bool, first_choice: dict[str, Any] | None = None) -> StreamingResponse:
    """SSE response. The first chunk (chat: the role) is sent before any text."""
    loop = asyncio.get_running_loop()
    q: asyncio.Queue[str | None] = asyncio.Queue()
    created = int(time.time())

    def on_text(delta: str, _traces: list[Any]) -> None:
        if delta:
            loop.call_soon_threadsafe(q.put_nowait, delta)

    def chunk(choices: list[dict[str, Any]], **extra: Any) -> str:
        body = {"id": req.request_id, "object": obj, "created": created, "model": req.model,
                "choices": choices, **extra}
        return f"data: {json.dumps(body)}\n\n"

    async def run() -> Served:
        try:
            return await services.core.serve(req, on_text)
        finally:
            loop.call_soon_threadsafe(q.put_nowait, None)

    def _consume(task: asyncio.Task[Served]) -> None:
        # Retrieve the outcome so a failure is logged once, not as "never retrieved"; a
        # generation cancelled because its client hung up is audited, not a failure.
        if (not task.cancelled() and task.exception() is not None
                and req.cancel.reason is None):
            logger.warning("stream %s ended with %r", req.request_id, task.exception())

    async def events() -> AsyncIterator[str]:
        task = asyncio.create_task(run())
        task.add_done_callback(_consume)
        try:
            if first_choice is not None:
                yield chunk([first_choice])
            while (delta := await q.get()) is not None:
                yield chunk([choice(delta, None)])
        finally:
            # The client hung up (the response closed this generator early): stop the
            # generation at its next engine step; it is audited as cancelled.
            if not task.done():
                req.cancel.cancel("client_disconnected")
        try:
            served = await task
        except ServingError as exc:
            yield f"data: {json.dumps({'error': {'message': exc.message, 'type': exc.type}})}\n\n"
            yield "data: [DONE]\n\n"
            return
        except Exception:
            # Headers are already sent; report in-band like OpenAI does, then end the stream.
            yield ("data: " + json.dumps({"error": {"message": "generation failed; see the "
                                                    "sidecar logs for " + req.request_id,
                                                    "type": "server_error"}}) + "\n\n")
            yield "data: [DONE]\n\n"
            return
        yield chunk([choice("", served.result.finish_reason)], spec_guardian=served.extension())
        if include_usage:
            yield chunk([], usage=usage(served))
        yield "data: [DONE]\n\n"

    return StreamingResponse(events(), media_type="text/event-stream", headers={
        **headers(req), "cache-control": "no-cache"})
