"""Shared API dependencies: the app's services, authentication, role and route checks.

Routers depend on `ServicesDep` and declare their roles with `Depends(require(...))`; the
role table itself is the routers' `dependencies=[...]`, so the role × endpoint test can read
it off the app. Handlers that serve or judge traffic pick the request's route with
`authorized_route` (the key's authorized routes and the redaction floor; `guardian.security.auth`).
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request

from guardian.audit.acts import ACT_ORIGIN
from guardian.audit.events import AuditSink
from guardian.equivalence.shadow import ShadowEvaluator
from guardian.observability.telemetry import Telemetry
from guardian.policy import Policy
from guardian.security.auth import OPEN_PRINCIPAL, KeyStore, Principal, allowed, is_loopback
from guardian.serving.core import RouteChoice, ServingCore, ServingError


@dataclass
class Services:
    """Everything a request handler needs; built once per app (see `guardian.app`)."""

    core: ServingCore
    shadow: ShadowEvaluator
    sink: AuditSink
    telemetry: Telemetry
    keys: KeyStore
    started_at: float = field(default_factory=time.time)
    max_body_bytes: int = 1 << 20
    # request_id -> audit events, for the compliance read endpoint when the store has no reader
    audit_reader: Callable[[str], list[dict[str, Any]]] | None = None

    @property
    def policy(self) -> Policy:
        return self.core.policy


# The dependencies are `async def` on purpose: FastAPI runs a plain `def` dependency on its
# thread pool, a thread hop per dependency per request (profiled: the largest item of the
# proxy path's overhead); they only read app state (and stat the keys file).
async def get_services(request: Request) -> Services:
    services = getattr(request.app.state, "services", None)
    if services is None:
        error = getattr(request.app.state, "startup_error", None)
        raise ServingError(503, f"The sidecar failed to start: {error}" if error else
                           "The sidecar is still loading its model pair; retry shortly "
                           "(GET /readyz turns 200 when ready).", type_="service_unavailable",
                           code="not_ready")
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


ROUTE_HEADER = "x-guardian-route"


CREDENTIAL_HEADERS = ("authorization", "x-api-key")


def _bearer(request: Request) -> str | None:
    """The key the request presents: `Authorization: Bearer <key>`, else `X-API-Key`.

    A credential header sent twice is refused (401), not resolved by taking one of them:
    `Authorization` is a single-value field (RFC 9110), and a proxy that appends its own
    header may read the other copy than this sidecar does, so who is acting would depend on
    which component one asks."""
    headers = request.headers
    for name in CREDENTIAL_HEADERS:
        if len(headers.getlist(name)) > 1:
            raise ServingError(401, f"The request carries more than one {name} header; send "
                               "exactly one API key (`Authorization: Bearer <key>`).",
                               type_="invalid_request_error", code="invalid_api_key")
    auth = headers.get("authorization")
    if auth and auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return headers.get("x-api-key")


def _remote_client(request: Request) -> bool:
    """The connection comes from an IP address that is not loopback. A transport without
    one (a Unix socket, an in-process client) is local."""
    host = request.client.host if request.client else ""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return not is_loopback(host)


def _identify(request: Request) -> Principal:
    """Who the caller is, or the ServingError that says why not: 503 while starting, 401 for
    no key, an unknown key or a repeated credential header, 403 for open mode from a remote
    address.

    Open mode (no keys file: everyone is admin) admits loopback clients only: the Host check
    stops DNS rebinding, not a remote client that writes `Host: localhost` itself, and the
    bound address may not be `settings.host` (uvicorn run directly)."""
    keys: KeyStore | None = getattr(request.app.state, "keys", None)
    if keys is None:
        raise ServingError(503, "The sidecar is still starting; retry shortly.",
                           type_="service_unavailable", code="not_ready")
    principal = keys.authenticate(None if keys.open_mode else _bearer(request))
    if principal is OPEN_PRINCIPAL and _remote_client(request):
        raise ServingError(403, "This sidecar runs without API keys (open mode), which "
                           "serves loopback clients only. Ask its operator to configure "
                           "API keys (GUARDIAN_API_KEYS_FILE).", type_="permission_error",
                           code="open_mode_loopback_only")
    if principal is None:
        raise ServingError(401, "Missing or unknown API key. Send `Authorization: Bearer "
                           "<key>`; keys are issued by the sidecar's operator.",
                           type_="invalid_request_error", code="invalid_api_key")
    return principal


def optional_principal(request: Request) -> Principal | None:
    """Who `require` would find the caller to be, or None where it would refuse them for who
    they are: for public endpoints that tell some callers more (`/readyz`'s details)."""
    try:
        return _identify(request)
    except ServingError:
        return None


def require(*roles: str) -> Callable[[Request], Awaitable[Principal]]:
    """Dependency: a known key (401 otherwise, see `_identify`) whose role is one of `roles`
    or admin (403)."""

    async def check(request: Request) -> Principal:
        principal = _identify(request)
        if not allowed(principal, roles):
            raise ServingError(403, f"API key '{principal.name}' has role '{principal.role}'; "
                               f"this endpoint needs one of: {', '.join(roles)} (or admin).",
                               type_="permission_error", code="insufficient_role")
        request.state.principal = principal
        ACT_ORIGIN.set({"via": "api", "key_id": principal.key_id, "role": principal.role,
                        "client": request.client.host if request.client else None})
        return principal

    check.roles = roles  # type: ignore[attr-defined]  # read by the role-matrix test
    return check


def principal_of(request: Request) -> Principal:
    """The principal `require` authenticated for this request."""
    principal: Principal | None = getattr(request.state, "principal", None)
    if principal is None:  # a handler without `require`: a programming error, never a pass
        raise RuntimeError("no authenticated principal on this request")
    return principal


def _no_such_model(model: str) -> ServingError:
    """What an unknown model gets (`ServingCore.resolve_route`), word for word."""
    return ServingError(404, f"The model '{model}' does not exist; GET /v1/models lists the "
                        "served models", param="model", code="model_not_found")


def authorized_route(core: ServingCore, request: Request, model: str) -> RouteChoice:
    """The request's route if its key may use it: 404 for an unknown model (or, for admin,
    an unknown route), 403 for a route outside the key's list or a header pick by a key
    without one (whether or not the route exists), 403 when a header would lower redaction
    below the model's route. A model whose route is outside the key's `routes:` is a 404 like
    an unknown model: a key must not learn which models and routes exist beyond its own
    (`/v1/models` lists only those). The header is single-valued: sent twice, 400."""
    if len(request.headers.getlist(ROUTE_HEADER)) > 1:
        # A gateway that reads the other copy would disagree with this sidecar on the route.
        raise ServingError(400, f"The request carries more than one {ROUTE_HEADER} header; "
                           "send at most one.", param=ROUTE_HEADER, code="invalid_value")
    header = request.headers.get(ROUTE_HEADER)
    principal = principal_of(request)
    if header and principal.role != "admin":
        # Before the route is looked up: a key must not learn which route names exist from
        # 404 (unknown) versus 403 (known, not yours).
        policy_route = core.policy.route_for_model(model) or core.policy.default_route
        denial = principal.route_denial(header, by_header=True, policy_route=policy_route)
        if denial is not None:
            raise ServingError(403, denial, type_="permission_error", code="route_not_allowed",
                               param="X-Guardian-Route")
    routed = core.policy.route_for_model(model)
    if (principal.role != "admin" and principal.routes is not None and routed is not None
            and routed not in principal.routes):
        # A model another route serves is unknown to this key, header or not: a 403 or the
        # redaction floor's answer told it which models and routes exist beyond its own.
        raise _no_such_model(model)
    choice = core.resolve_route(header, model)
    denial = principal.route_denial(choice.name, by_header=choice.reason == "header",
                                    policy_route=choice.policy_route)
    if denial is not None and choice.reason != "header":
        raise _no_such_model(model)
    if denial is not None:
        raise ServingError(403, denial, type_="permission_error", code="route_not_allowed",
                           param="X-Guardian-Route")
    core.check_redaction_floor(choice)
    return choice
