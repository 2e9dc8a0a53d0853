"""The floor under `guardian bench proxy`: the least a Python proxy doing the sidecar's wire
work costs on this machine, measured beside the sidecar in the same run.

One raw ASGI app on the sidecar's own stack (uvicorn with h11 on asyncio, an aiohttp
session with keep-alive to the upstream) that does what the proxy path cannot skip and
nothing else: read and parse the request's JSON, ask the upstream for the top-2 logprobs
the audit needs, parse the answer and drop the logprobs the client did not ask for, write it
back (streamed answers: parse, strip and re-encode every SSE event). No routing table,
middleware, auth, admission, audit, telemetry or policy. What the sidecar adds over this is
its own cost; what this adds over a direct request is the language and stack on this
machine, which no change inside the sidecar can take away.

Run: `python -m guardian.devtools.benchmarks.bare_proxy --port 8002 --upstream http://127.0.0.1:8001`.
Not a product: it forwards only POST /v1/completions and /v1/chat/completions, with no
limits, and serves only the benchmark on loopback.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

_TOP = 2  # the alternatives the sidecar asks for (guardian.backends.upstream)


def _ask_logprobs(body: dict[str, Any], chat: bool) -> bool:
    """Ask the upstream for the top-2 logprobs; whether the client asked for logprobs."""
    if chat:
        wanted = bool(body.get("logprobs"))
        body["logprobs"], body["top_logprobs"] = True, max(_TOP, body.get("top_logprobs") or 0)
    else:
        wanted = body.get("logprobs") is not None
        body["logprobs"] = max(_TOP, body.get("logprobs") or 0)
    return wanted


def _strip(data: dict[str, Any]) -> None:
    for choice in data.get("choices") or ():
        choice["logprobs"] = None


class BareProxy:
    """The ASGI app: one upstream base URL (up to, not including, /v1)."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.session: Any = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] == "http" and scope["path"] == "/v1/models":  # the readiness probe
            await _answer(send, 200, b'{"object": "list", "data": []}')
            return
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] not in (
                "/v1/completions", "/v1/chat/completions"):
            await _answer(send, 404, b'{"error": {"message": "not found"}}')
            return
        raw = b""
        while True:
            message = await receive()
            raw += message.get("body", b"")
            if not message.get("more_body"):
                break
        body = json.loads(raw)
        chat = scope["path"].endswith("/chat/completions")
        wanted = _ask_logprobs(body, chat)
        async with self.session.post(self.upstream + scope["path"], json=body) as r:
            if not body.get("stream"):
                data = json.loads(await r.read())
                if not wanted:
                    _strip(data)
                await _answer(send, r.status, json.dumps(data).encode())
                return
            await send({"type": "http.response.start", "status": r.status,
                        "headers": [(b"content-type", b"text/event-stream")]})
            async for line in r.content:
                if line.startswith(b"data: {") and not wanted:
                    event = json.loads(line[6:])
                    _strip(event)
                    line = b"data: " + json.dumps(event).encode() + b"\n"
                await send({"type": "http.response.body", "body": line, "more_body": True})
            await send({"type": "http.response.body", "body": b""})

    async def _lifespan(self, receive: Any, send: Any) -> None:
        import aiohttp

        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.session = aiohttp.ClientSession(
                    connector=aiohttp.TCPConnector(limit=512, limit_per_host=512))
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.session.close()
                await send({"type": "lifespan.shutdown.complete"})
                return


async def _answer(send: Any, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description="A bare Python proxy: the floor under "
                                     "`guardian bench proxy` (not a product).")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8002)
    parser.add_argument("--upstream", required=True, help="Base URL, e.g. http://127.0.0.1:8001")
    args = parser.parse_args()
    # The sidecar's stack: h11 on asyncio's own loop (guardian serve), no access log.
    uvicorn.run(BareProxy(args.upstream), host=args.host, port=args.port, http="h11",
                loop="asyncio", log_level="warning", access_log=False, lifespan="on")


if __name__ == "__main__":
    main()
