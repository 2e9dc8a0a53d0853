"""JSON request bodies with each key once: `StrictJSONRoute`, the routers' route class.

Python's `json` keeps the last of a duplicated key; other parsers keep the first or refuse.
A gateway in front of the sidecar that routes, authorises or bills on `{"model": ...}` may
read the other copy than the sidecar serves (the same reason a second `X-Guardian-Route`
header is refused). A body with a key twice, at any depth, is a 400 naming the key.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

DUPLICATE = "duplicate key "  # the start of the decode error's message (guardian.api.errors)


def _pairs(doc: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) != len(pairs):
            seen: set[str] = set()
            key = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
            raise json.JSONDecodeError(f"{DUPLICATE}{key!r}", doc, 0)
        return out
    return hook


class StrictJSONRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            body = await self.body()
            # As json.loads(bytes) decodes (UTF-8/16/32, a UTF-8 BOM), so only duplicates differ.
            text = body.decode(json.detect_encoding(body), "surrogatepass")
            self._json = json.loads(text, object_pairs_hook=_pairs(text))
        return self._json


class StrictJSONRoute(APIRoute):
    """An `APIRoute` whose handler parses JSON bodies with `StrictJSONRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict
