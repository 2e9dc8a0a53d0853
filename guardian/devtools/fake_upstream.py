"""A small OpenAI-compatible server that answers instantly and injects faults: the upstream
for `guardian bench proxy` (the sidecar's overhead, not a model's speed) and for tests.

The pool's model name picks the behaviour: `fake-*` answers (`fake-spec*` also returns
per-request speculative counters under `spec_decode`); `fault-500` answers HTTP 500;
`fault-malformed` answers non-JSON; `fault-truncated` drops the stream (or the finish
reason) half way; `fault-slow` waits 30 s before answering; `fault-nologprobs` answers
without logprobs. Text: `max_tokens` (default 8) tokens " w0", " w1", ...; each with
logprob -0.1 and alternatives " w<i>", " x<i>", " y<i>", ... at -0.1, -2.5, -3, ...

The request surface: every body received is kept (`app.state.received`, the last 256) and
echoed back under `fake_received`, so a test asserts what the sidecar forwarded. A chat with
`tools` (and tool_choice not "none") answers one call of the named / first tool with
arguments `{"w": 0}` and finish_reason `tool_calls` (streamed: name, then the arguments in
two pieces); `response_format` json_object / json_schema answers the text `{"w": 0}`.

Run: `python -m guardian.devtools.fake_upstream --port 8001`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

_ALT = "xyzuvst"


def _token(i: int, k: int, chat: bool) -> tuple[str, dict[str, Any] | None]:
    tok = f" w{i}"
    if k < 0:
        return tok, None
    alts = [(tok, -0.1)] + [(f" {_ALT[j % len(_ALT)]}{i}", -2.5 - 0.5 * j) for j in range(k - 1)]
    if chat:
        return tok, {"token": tok, "logprob": -0.1, "bytes": list(tok.encode()),
                     "top_logprobs": [{"token": t, "logprob": lp, "bytes": list(t.encode())}
                                      for t, lp in alts]}
    return tok, {"token": tok, "logprob": -0.1, "top": dict(alts)}


def _spec(n: int) -> dict[str, int]:
    return {"proposed_tokens": 4 * n // 3, "judged_tokens": n, "accepted": 3 * n // 4,
            "steps": max(1, n // 3)}


def _tool(body: dict[str, Any]) -> str | None:
    """The tool a chat's answer calls (None: answer with text)."""
    tools, choice = body.get("tools") or [], body.get("tool_choice", "auto")
    if not tools or choice == "none":
        return None
    if isinstance(choice, dict):
        return str((choice.get("function") or {}).get("name"))
    return str((tools[0].get("function") or {}).get("name"))


async def _generate(request: Request) -> Response:
    chat = request.url.path.endswith("/chat/completions")
    body = await request.json()
    request.app.state.received.append(body)
    model = str(body.get("model", ""))
    if model == "fault-500":
        return JSONResponse({"error": {"message": "boom", "type": "server_error"}}, 500)
    if model == "fault-422":  # the pool refuses the request itself (vLLM: a bad parameter)
        return JSONResponse({"error": {"message": "max_tokens too large",
                                       "type": "BadRequestError"}}, 422)
    if model == "fault-malformed":
        return Response("<html>bad gateway</html>", 200, media_type="application/json")
    if model == "fault-slow":
        await asyncio.sleep(30)
    n = int(body.get("max_tokens") or 8)
    if chat:
        k = int(body.get("top_logprobs") or 0) if body.get("logprobs") else -1
    else:
        k = int(body["logprobs"]) if body.get("logprobs") is not None else -1
    if model == "fault-nologprobs":
        k = -1
    tokens = [_token(i, k, chat) for i in range(n)]
    tool = _tool(body) if chat else None
    if (body.get("response_format") or {}).get("type") in ("json_object", "json_schema"):
        tokens = [('{"w": 0}', tokens[0][1] and {**tokens[0][1], "token": '{"w": 0}'})]
    if tool is not None:
        tokens = tokens[:1]
    rid = f"up-{time.monotonic_ns()}"
    spec = _spec(n) if model.startswith("fake-spec") else None
    usage = {"prompt_tokens": 3, "completion_tokens": n, "total_tokens": n + 3}
    truncate = model == "fault-truncated"

    call = {"id": "call-0", "type": "function",
            "function": {"name": tool, "arguments": '{"w": 0}'}}

    def choice(toks: list[tuple[str, dict[str, Any] | None]], finish: str | None,
               delta: bool) -> dict[str, Any]:
        text = "".join(t for t, _ in toks)
        out: dict[str, Any] = {"index": 0, "finish_reason": finish}
        if chat:
            out["delta" if delta else "message"] = ({"content": text} if delta else
                                                    {"role": "assistant", "content": text})
            if tool is not None and not delta:
                out["message"] = {"role": "assistant", "content": None, "tool_calls": [call]}
            out["logprobs"] = None if k < 0 else {"content": [lp for _, lp in toks]}
        else:
            out["text"] = text
            out["logprobs"] = None if k < 0 else {
                "tokens": [t for t, _ in toks],
                "token_logprobs": [lp["logprob"] for _, lp in toks if lp],
                "top_logprobs": [lp["top"] for _, lp in toks if lp],
                "text_offset": list(range(len(toks)))}
        return out

    obj = "chat.completion" if chat else "text_completion"
    if not body.get("stream"):
        finish = "tool_calls" if tool is not None else "length"
        data: dict[str, Any] = {"id": rid, "object": obj, "created": int(time.time()),
                                "model": model, "usage": usage, "fake_received": body,
                                "choices": [choice(tokens, None if truncate else finish,
                                                   False)]}
        if spec:
            data["spec_decode"] = spec
        return JSONResponse(data)

    async def events() -> AsyncIterator[str]:
        base = {"id": rid, "object": obj + ("" if not chat else ".chunk"),
                "created": int(time.time()), "model": model}
        if chat:
            first = {"index": 0, "delta": {"role": "assistant", "content": ""},
                     "finish_reason": None, "logprobs": None}
            yield f"data: {json.dumps({**base, 'choices': [first]})}\n\n"
        if tool is not None:  # name first, then the arguments in two pieces
            pieces = [{"index": 0, "id": "call-0", "type": "function",
                       "function": {"name": tool, "arguments": ""}},
                      {"index": 0, "function": {"arguments": '{"w": '}},
                      {"index": 0, "function": {"arguments": "0}"}}]
            for piece in pieces:
                delta = {"index": 0, "finish_reason": None, "delta": {"tool_calls": [piece]}}
                yield f"data: {json.dumps({**base, 'choices': [delta]})}\n\n"
        for i, tok in enumerate(tokens if tool is None else []):
            if truncate and i == len(tokens) // 2:
                return
            yield f"data: {json.dumps({**base, 'choices': [choice([tok], None, True)]})}\n\n"
        finish = "tool_calls" if tool is not None else "length"
        last: dict[str, Any] = {**base, "choices": [choice([], finish, True)]}
        if spec:
            last["spec_decode"] = spec
        yield f"data: {json.dumps(last)}\n\n"
        yield f"data: {json.dumps({**base, 'choices': [], 'usage': usage})}\n\n"
        yield "data: [DONE]\n\n"

    return StreamingResponse(events(), media_type="text/event-stream")


async def _models(_: Request) -> Response:
    return JSONResponse({"object": "list", "data": [{"id": "fake-target", "object": "model"}]})


def create_app() -> Starlette:
    app = Starlette(routes=[Route("/v1/completions", _generate, methods=["POST"]),
                            Route("/v1/chat/completions", _generate, methods=["POST"]),
                            Route("/v1/models", _models)])
    app.state.received = deque(maxlen=256)  # the bodies received, newest last
    return app


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description="A fast fault-injecting OpenAI-compatible "
                                     "upstream (tests, guardian bench proxy).")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    args = parser.parse_args()
    uvicorn.run(create_app(), host=args.host, port=args.port, log_level="warning",
                access_log=False)


if __name__ == "__main__":
    main()
