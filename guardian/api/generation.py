"""Shared plumbing of the two generation endpoints: build the engine request, answer it
whole or as an SSE stream (OpenAI chunk format, ending with `data: [DONE]`).

Streaming: the engine calls `on_text` on its worker thread after each step; deltas cross to
the event loop through an asyncio queue, so a slow client never blocks the engine thread.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from fastapi import Request
from fastapi.responses import StreamingResponse

from guardian.api.deps import ROUTE_HEADER, Services, authorized_route, principal_of
from guardian.api.schemas import _Request
from guardian.api.surface import Controls, controls_of, require_honoured
from guardian.backends import Sampling, TraceToken
from guardian.governance.modes import STICKY_HEADER, sticky_key
from guardian.serving.core import GenerationRequest, Served, ServingError

logger = logging.getLogger(__name__)

__all__ = ["DEADLINE_HEADER", "ROUTE_HEADER", "build_request", "check_controls", "extension",
           "headers",
           "off_loop", "serve", "serve_watching", "stream", "usage"]

T = TypeVar("T")

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

# Rendering a chat template and tokenizing run off the event loop: on it, one 1 MiB prompt
# (about a second to tokenize, measured on the demo pair) held every other caller, health
# probes included. A small executor of their own: a flood of big prompts queues here, not
# in front of the governance acts and probes that use the loop's default executor.
PREPARE_WORKERS = 2
_PREPARE = ThreadPoolExecutor(PREPARE_WORKERS, thread_name_prefix="guardian-prepare")


# Below this body size a backend without a local tokenizer (upstream pools: preparing is
# building a dict and, for chat, one JSON line per message) prepares on the loop: a thread
# hop would cost the proxy path more than the work (its added latency, `guardian bench proxy`).
INLINE_BODY_BYTES = 256 * 1024


async def off_loop(services: Services, request: Request, fn: Callable[[], T]) -> T:
    """`fn()` on the preparation executor, in this request's context (its trace) - or inline
    when it is cheap: no local tokenizer and a body under `INLINE_BODY_BYTES`."""
    if not services.core.backend.capabilities.local_tokenizer:
        try:
            size = int(request.headers.get("content-length") or 0)
        except ValueError:
            size = INLINE_BODY_BYTES
        if size < INLINE_BODY_BYTES:
            return fn()
    context = contextvars.copy_context()
    return await asyncio.get_running_loop().run_in_executor(
        _PREPARE, partial(context.run, fn))


# (delta, finish_reason, logprobs of the delta's tokens or None) -> choice
ChunkBuilder = Callable[[str, str | None, dict[str, Any] | None], dict[str, Any]]
LogprobsBuilder = Callable[[list[TraceToken]], dict[str, Any]]


def check_controls(services: Services, body: _Request) -> Controls:
    """The request's controls (guardian.api.surface), or a 400 naming the first one that is
    on and that the backend does not honour (`Capabilities.controls`)."""
    backend = services.core.backend
    controls = controls_of(body)
    require_honoured(controls, backend.capabilities.controls, backend.kind)
    bias = controls.sampling.get("logit_bias", ())
    if bias and backend.capabilities.local_tokenizer and max(t for t, _ in bias) >= \
            backend.vocab_size:
        raise ServingError(400, f"logit_bias names token {max(t for t, _ in bias)}; this "
                           f"model's vocabulary has {backend.vocab_size} tokens",
                           param="logit_bias", code="invalid_value")
    if "grammar" in controls.sampling:
        try:
            backend.check_sampling(Sampling(grammar=controls.sampling["grammar"]))
        except ValueError as exc:
            raise ServingError(400, f"response_format cannot be applied: {exc}",
                               param="response_format", code="invalid_value") from None
    return controls


def build_request(services: Services, request: Request, body: _Request, endpoint: str,
                  prompt_text: str, prompt_ids: list[int] | None, max_tokens: int | None,
                  id_prefix: str, messages: list[tuple[str, str]] | None = None,
                  ) -> GenerationRequest:
    core = services.core
    choice = authorized_route(core, request, body.model)
    controls = check_controls(services, body)
    deadline = deadline_of(request)
    principal = principal_of(request)
    k = getattr(body, "logprobs_wanted", None) or 0
    if k > core.backend.capabilities.top_logprobs:
        raise ServingError(400, f"this backend returns at most "
                           f"{core.backend.capabilities.top_logprobs} alternatives per token; "
                           "ask for fewer", param="top_logprobs", code="invalid_value")
    if not core.backend.capabilities.local_tokenizer:
        # An upstream pool tokenizes (and checks lengths) itself; `max_tokens` 0: its default.
        prompt_ids = prompt_ids or []
        max_tokens = max_tokens or 0
    else:
        if prompt_ids is None:
            core.check_text(prompt_text)
            prompt_ids = core.backend.encode(prompt_text)
        if not prompt_ids:
            raise ServingError(400, "The prompt is empty after tokenization; send some text.",
                               param="prompt", code="invalid_value")
        if max_tokens is None:  # OpenAI chat default: as much as the context allows
            max_tokens = max(1, core.backend.max_context - len(prompt_ids))
        core.check_lengths(prompt_ids, max_tokens)
        messages = None
    req = GenerationRequest(
        endpoint=endpoint, route=choice.name, model=body.model, prompt_text=prompt_text,  # type: ignore[arg-type]
        prompt_ids=prompt_ids, max_tokens=max_tokens, temperature=body.temperature,
        top_p=body.top_p, top_k=max(0, body.top_k), seed=body.seed,
        stop=body.stop,  # type: ignore[arg-type]  # validator normalised it to a list
        principal=principal.actor, key_id=principal.key_id, route_reason=choice.reason,
        top_logprobs=k, messages=messages, controls=controls.sampling,
        passthrough=controls.passthrough)
    req.request_id = f"{id_prefix}-{req.request_id.removeprefix('req-')}"
    req.cancel.deadline = deadline
    req.sticky_key = sticky_key(request.headers.get(STICKY_HEADER), body.user,
                                principal.key_id, req.request_id)
    return req


async def serve_watching(services: Services, request: Request, req: GenerationRequest) -> Served:
    """`core.serve`, cancelling the generation if the client hangs up while it runs: from
    `DISCONNECT_POLL_S` on, a watcher waits for the hang-up. Most proxied answers come
    sooner, and pay for no watcher task (before, every request ran in a task of its own
    with a timed wait beside it)."""
    loop = asyncio.get_running_loop()
    watcher: asyncio.Task[None] | None = None

    def start() -> None:
        nonlocal watcher
        watcher = loop.create_task(_watch_disconnect(request, req))

    timer = loop.call_later(DISCONNECT_POLL_S, start)
    try:
        return await serve(services, req)
    finally:
        timer.cancel()
        if watcher is not None:
            watcher.cancel()


async def _watch_disconnect(request: Request, req: GenerationRequest) -> None:
    """Wait for the server's `http.disconnect` (the body was read before serving, so the next
    ASGI message is the hang-up) instead of asking every DISCONNECT_POLL_S: under a flood,
    polling every in-flight request 20 times a second was about a third of the event loop's
    busy time, and it holds the GIL the engine thread steps with."""
    try:
        while req.cancel.reason is None:
            message = await request.receive()
            if message.get("type") == "http.disconnect":
                req.cancel.cancel("client_disconnected")  # the engine or upstream call stops
                return
            await asyncio.sleep(DISCONNECT_POLL_S)  # not a hang-up: look again later
    except Exception:  # the watcher only ever cancels; its trouble is not the answer's
        logger.debug("disconnect watcher of %s stopped", req.request_id, exc_info=True)


async def serve(services: Services, req: GenerationRequest, on_text: Any = None) -> Served:
    """`ServingCore.serve`, plus: an upstream pool's fault carries the request id and is
    audited (guardian.backends.upstream.errors) before it becomes the client's 502/504."""
    try:
        return await services.core.serve(req, on_text)
    except ServingError as exc:
        exc.request_id = req.request_id  # the answer names the id the audit record is under
        if getattr(exc, "fault", None) is not None:
            exc.with_request_id(req.request_id)  # type: ignore[attr-defined]
            # Audited whether the pool failed (5xx) or refused the request (its 400/413/422):
            # either way the prompt reached the pool. No evidence for triggers (windows).
            services.core.recorder.upstream_failure(req, exc)  # type: ignore[arg-type]
        raise


def extension(served: Served) -> dict[str, Any]:
    """The `spec_guardian` field as clients see it: an upstream pool's address stays in the
    audit trail, not in answers to inference keys."""
    ext = served.extension()
    stats = ext.get("stats")
    hidden = ("upstream_url", "tool_calls", "tool_content")
    if isinstance(stats, dict) and any(k in stats for k in hidden):
        # tool calls (and the content beside them) are answered in the message, not twice
        ext["stats"] = {k: v for k, v in stats.items() if k not in hidden}
    return ext


def usage(served: Served) -> dict[str, int]:
    p, c = len(served.request.prompt_ids), len(served.result.token_ids)
    upstream = served.result.stats.get("upstream_usage")
    if isinstance(upstream, dict):  # an upstream pool counted the tokens itself
        p = int(upstream.get("prompt_tokens") or p)
        c = int(upstream.get("completion_tokens") or c)
    return {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}


def headers(served_or_req: Served | GenerationRequest) -> dict[str, str]:
    req = served_or_req.request if isinstance(served_or_req, Served) else served_or_req
    return {"x-request-id": req.request_id, "x-guardian-route": req.route}


def stream(services: Services, req: GenerationRequest, obj: str, choice: ChunkBuilder,
           include_usage: bool, first_choice: dict[str, Any] | None = None,
           logprobs: LogprobsBuilder | None = None,
           tail: Callable[[Served], list[dict[str, Any]]] | None = None) -> StreamingResponse:
    """SSE response. The first chunk (chat: the role) is sent before any text. With
    `logprobs`, each chunk carries its tokens' logprobs; `tail`: choices sent after the text,
    before the finish (chat: an upstream pool's tool calls, whole). A full route is a 429
    before the stream starts: the route slot is taken here and the generation starts at once."""
    services.core.precheck(req)
    loop = asyncio.get_running_loop()
    q: asyncio.Queue[tuple[str, list[TraceToken]] | None] = asyncio.Queue()
    created = int(time.time())

    loop_thread = threading.get_ident()  # an upstream pool calls on_text on the loop itself
    crossed = False  # some delta came from another thread (the engine's)

    def on_text(delta: str, traces: list[TraceToken]) -> None:
        nonlocal crossed
        if delta or (logprobs is not None and traces):
            if threading.get_ident() == loop_thread:
                q.put_nowait((delta, traces))  # no self-pipe write and wake-up per token
            else:
                crossed = True
                loop.call_soon_threadsafe(q.put_nowait, (delta, traces))

    def chunk(choices: list[dict[str, Any]], **extra: Any) -> str:
        body = {"id": req.request_id, "object": obj, "created": created, "model": req.model,
                "choices": choices, **extra}
        return f"data: {json.dumps(body)}\n\n"

    async def run() -> Served:
        try:
            return await serve(services, req, on_text)
        finally:
            if crossed:  # after the deltas the engine's thread scheduled (FIFO)
                loop.call_soon_threadsafe(q.put_nowait, None)
            else:
                q.put_nowait(None)

    def _consume(task: asyncio.Task[Served]) -> None:
        # Retrieve the outcome so a failure is logged once, not as "never retrieved"; a
        # generation cancelled because its client hung up is audited, not a failure.
        if (not task.cancelled() and task.exception() is not None
                and req.cancel.reason is None):
            logger.warning("stream %s ended with %r", req.request_id, task.exception())

    # Started now, not when the body is first read: its route slot is already held
    # (precheck), and `serve` releases it whatever happens to the response.
    task = asyncio.create_task(run())
    task.add_done_callback(_consume)

    async def events() -> AsyncIterator[str]:
        try:
            if first_choice is not None:
                yield chunk([first_choice])
            ended = False
            while not ended and (item := await q.get()) is not None:
                # Every delta already queued goes out in one write: one send (and one wake-up
                # of the client) for what an upstream pool delivered in one read.
                events = []
                while item is not None:
                    delta, traces = item
                    events.append(chunk([choice(delta, None,
                                                None if logprobs is None else logprobs(traces))]))
                    if q.empty():
                        break
                    item = q.get_nowait()
                    ended = item is None
                yield "".join(events)
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
        for extra in tail(served) if tail is not None else []:
            yield chunk([extra])
        yield chunk([choice("", served.result.finish_reason, None)],
                    spec_guardian=extension(served))
        if include_usage:
            yield chunk([], usage=usage(served))
        yield "data: [DONE]\n\n"

    return StreamingResponse(events(), media_type="text/event-stream", headers={
        **headers(req), "cache-control": "no-cache"})
