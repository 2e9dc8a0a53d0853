"""Browser safety for state-changing requests: Origin checks and no form posts to /admin.

A web page the operator happens to open can make their browser send requests to the sidecar
on loopback. Host headers are checked by `TrustedHosts` (Starlette's `TrustedHostMiddleware`
answering in the API's JSON error format; installed in guardian.app), which stops DNS
rebinding; `BrowserGuard` stops the cross-site requests that remain, in open mode too (no API
key to steal there, so this is the only barrier):

* a POST/PUT/PATCH/DELETE whose `Origin` is neither the sidecar's own (same scheme, host and
  port as the request) nor in `allowed_origins` gets 403; so does one without Origin that a
  browser marks `Sec-Fetch-Site: cross-site` or `same-site`. Requests without these headers
  (curl, SDKs, proxies) are unaffected: they are not a browser acting for someone else.
* a state-changing request to `/admin/*` with a form or text body (the Content-Types a page
  can send without a CORS preflight) gets 415: admin endpoints take JSON or no body.

"The sidecar's own origin" is built from the request's scheme and (already trusted) Host;
behind a TLS-terminating proxy list the public origin in `allowed_origins`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from guardian.api.errors import error_response

logger = logging.getLogger(__name__)

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data", "text/plain"})


def _normalise(origin: str) -> str:
    return origin.strip().rstrip("/").lower()


class TrustedHosts:
    """Serve only requests whose Host header names this sidecar (DNS rebinding); refuse the
    rest with 400 and an OpenAI-style JSON error, as every other refusal is answered.

    Starlette's `TrustedHostMiddleware` decides (its Host parsing, IPv6 literals and
    `*.domain` patterns); its plain-text refusal is replaced, never sent."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str]) -> None:
        self.app = app
        self._check = TrustedHostMiddleware(self._trusted, allowed_hosts=list(allowed_hosts),
                                            www_redirect=False)

    @staticmethod
    async def _trusted(scope: Scope, receive: Receive, send: Send) -> None:
        scope["guardian.trusted_host"] = True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        http = scope["type"] == "http"

        async def swallow(message: Message) -> None:  # Starlette's plain-text refusal
            return None

        # Lifespan passes; a refused websocket (none is served) gets Starlette's own answer.
        await self._check(scope, receive, swallow if http else send)
        if scope.pop("guardian.trusted_host", False):
            await self.app(scope, receive, send)
            return
        if not http:
            return
        host = dict(scope.get("headers", ())).get(b"host", b"").decode("latin-1")
        logger.warning("refused %s %s: Host %r is not one of this sidecar's names",
                       scope.get("method"), scope.get("path"), host[:100])
        await error_response(400, "Invalid Host header: this sidecar does not serve that name "
                             "(set GUARDIAN_TRUSTED_HOSTS to the names clients use).",
                             code="invalid_host", type_="invalid_request_error",
                             )(scope, receive, send)


class BrowserGuard:
    """Refuse cross-origin state-changing requests and form posts to /admin (see module doc)."""

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = frozenset(_normalise(o) for o in allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") not in STATE_CHANGING:
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", ())}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            status, message, code = refusal
            logger.warning("refused %s %s: %s", scope["method"], scope.get("path"), code)
            await error_response(status, message, code=code,
                                 type_="invalid_request_error" if status == 415 else None
                                 )(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str, str] | None:
        origin = headers.get("origin")
        if origin is not None:
            own = f"{scope.get('scheme', 'http')}://{headers.get('host', '')}"
            if _normalise(origin) not in self.allowed | {_normalise(own)}:
                return (403, f"Requests from the web origin {origin!r} may not change state "
                        "here. If that page is yours, add it to GUARDIAN_ALLOWED_ORIGINS.",
                        "origin_not_allowed")
        elif headers.get("sec-fetch-site") in ("cross-site", "same-site"):
            return (403, "Cross-site browser requests may not change state here.",
                    "origin_not_allowed")
        if scope.get("path", "").startswith("/admin/"):
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media in FORM_TYPES:
                return (415, f"Admin endpoints take a JSON body (Content-Type: "
                        f"application/json) or none, not {media}.", "unsupported_media_type")
        return None
