"""OpenAI-style error responses: `{"error": {"message", "type", "param", "code"}}` with a 4xx.

Owns the exception handlers and the request-body size limit, so no bad input — malformed
JSON, an empty body, wrong types, out-of-range values, invalid Unicode, oversized bodies —
ever surfaces as a 500 or a stack trace. Validation failures are 400 (OpenAI's status), not
FastAPI's default 422.

Keep-alive: an error answer never closes the client's connection. Starlette's outermost
handler answers an unhandled exception with a 500 and then re-raises it, which makes uvicorn
drop the connection; `CatchAll` (inside it) answers the 500 itself and does not re-raise.
Error bodies are ASCII JSON, so an echoed value can never make the error itself fail.
"""

from __future__ import annotations

import json
import logging
import uuid
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from guardian.api.strictjson import DUPLICATE
from guardian.backends.base import Unsupported
from guardian.serving.core import ServingError

logger = logging.getLogger(__name__)

_TYPES = {400: "invalid_request_error", 401: "invalid_request_error", 403: "permission_error",
          404: "invalid_request_error", 405: "invalid_request_error", 413: "invalid_request_error",
          429: "rate_limit_error", 503: "service_unavailable"}


class _AsciiJSON(JSONResponse):
    def render(self, content: Any) -> bytes:
        # ensure_ascii: a lone surrogate from the request, echoed in a message, still encodes.
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def error_response(status: int, message: str, *, param: str | None = None,
                   code: str | None = None, type_: str | None = None,
                   headers: dict[str, str] | None = None,
                   request_id: str | None = None) -> JSONResponse:
    """OpenAI error body; every error carries an `x-request-id` to quote in a report."""
    body = {"error": {"message": message, "type": type_ or _TYPES.get(status, "server_error"),
                      "param": param, "code": code}}
    rid = request_id or f"err-{uuid.uuid4().hex}"
    return _AsciiJSON(body, status_code=status, headers={**(headers or {}), "x-request-id": rid})


_TYPE_TAGS = {"str", "int", "float", "bool", "list", "dict", "none"}


def _field_path(loc: tuple[Any, ...]) -> list[str]:
    """The field path of an error location, without pydantic's union-member tags
    (`constrained-str`, `list[int]`, `CompletionRequest`, ...)."""
    return [str(x) for x in loc if x != "body" and not (
        isinstance(x, str) and ("[" in x or "-" in x or x in _TYPE_TAGS or x[:1].isupper()))]


def _describe(errors: list[dict[str, Any]]) -> tuple[str, str | None]:
    """The most specific validation error as a readable sentence plus the offending parameter.

    For a union (`stop: str | list[str]`) pydantic reports one error per member; the member
    the value was meant for is the one whose type matched (its error is about the value, not
    a `*_type` mismatch), deepest first: "stop.1: not valid Unicode", not "stop: not a string".
    """
    rank = [(not str(e.get("type", "")).endswith("_type"),
             len(_field_path(tuple(e.get("loc", ()))))) for e in errors]
    first = errors[rank.index(max(rank))]
    loc = _field_path(tuple(first.get("loc", ())))
    param = ".".join(loc) or None
    if first.get("type") == "json_invalid":
        error = str((first.get("ctx") or {}).get("error", ""))
        if error.startswith(DUPLICATE):  # guardian.api.strictjson
            return (f"The JSON body has the {error}: send each parameter once.", None)
        return ("We could not parse the JSON body of your request. Send valid JSON with "
                "Content-Type: application/json.", None)
    if param is None and first.get("type") == "missing":
        return ("The request body is empty. Send a JSON object with the request parameters "
                "(Content-Type: application/json).", None)
    if param is None and first.get("type") in ("model_attributes_type", "dict_type",
                                                "model_type"):
        return ("The request body must be a JSON object with the request parameters "
                "(Content-Type: application/json).", None)
    if first.get("type") == "missing":
        return f"Missing required parameter: '{param}'.", param
    msg = first.get("msg", "invalid value")
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    where = f"'{param}'" if param else "the request body"
    return f"Invalid value for {where}: {msg}{more}.", param


def install(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        message, param = _describe(list(exc.errors()))
        return error_response(400, message, param=param, code="invalid_value" if param else None)

    @app.exception_handler(ServingError)
    async def _serving(_: Request, exc: ServingError) -> JSONResponse:
        return error_response(exc.status, exc.message, param=exc.param, code=exc.code,
                              type_=exc.type, headers=exc.headers,
                              request_id=getattr(exc, "request_id", None))

    @app.exception_handler(Unsupported)
    async def _unsupported(_: Request, exc: Unsupported) -> JSONResponse:
        # The backend lacks what the call needs (e.g. /v1/shadow's local tokenizer in front
        # of an upstream pool): the caller's request is fine, this sidecar cannot serve it.
        return error_response(501, f"Not supported by this sidecar's backend: {exc}",
                              code="not_supported", type_="not_supported_error")

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        code = None
        if exc.status_code == 404 and detail == "Not Found":
            detail, code = "Unknown endpoint; /openapi.json describes the served API.", "unknown_url"
        elif exc.status_code == 400 and detail == "There was an error parsing the body":
            detail = ("We could not parse the body of your request: send UTF-8 encoded JSON "
                      "with Content-Type: application/json.")
        elif exc.status_code == 405:
            detail, code = "Method not allowed for this endpoint.", "method_not_allowed"
        return error_response(exc.status_code, detail, code=code,
                              headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        # Reached only when CatchAll is not installed (it answers first otherwise).
        return internal_error(request.method, request.url.path)

    app.add_middleware(CatchAll)


def internal_error(method: str, path: str) -> JSONResponse:
    # A bug, not bad input: log it with the stack, tell the caller only what they can use.
    rid = f"err-{uuid.uuid4().hex}"
    logger.exception("unhandled error %s on %s %s", rid, method, path)
    return error_response(500, f"The sidecar hit an internal error ({rid}). Retry, or "
                          "report it with that id if it persists.", type_="server_error",
                          request_id=rid)


class CatchAll:
    """Answer an unhandled exception with the JSON 500 and keep the connection open.

    If the response has already started (a stream), nothing more can be sent: the exception
    propagates and the server ends that response as it must.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception:
            if started:
                raise
            response = internal_error(scope.get("method", "?"), scope.get("path", "?"))
            await response(scope, receive, send)


class BodySizeLimit:
    """Reject bodies over `max_bytes` with 413, by Content-Length or while streaming them in."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._reject(scope, receive, send)
            return
        seen = 0
        too_big = False

        async def limited() -> Message:
            nonlocal seen, too_big
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    too_big = True
                    # Stop the body here: the app sees a truncated (invalid) JSON, and we
                    # replace its answer with the 413 below.
                    return {"type": "http.request", "body": b"", "more_body": False}
            return message

        started = False

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if too_big:
                if not started and message["type"] == "http.response.start":
                    started = True
                    await self._send_413(send)
                return
            await send(message)

        await self.app(scope, limited, guarded_send)

    async def _reject(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._send_413(send)

    async def _send_413(self, send: Send) -> None:
        # Connection: close - the unread rest of the body would otherwise be parsed as the
        # next request on a kept-alive connection (a pipelined client hung until timeout).
        response = error_response(413, f"Request body is larger than {self.max_bytes} bytes; "
                                  "send a smaller request.", code="request_too_large",
                                  headers={"connection": "close"})
        await send({"type": "http.response.start", "status": 413,
                    "headers": response.raw_headers})
        await send({"type": "http.response.body", "body": response.body})
