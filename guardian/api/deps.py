"""Shared API dependencies: the app's services, authentication and role checks.

Routers depend on `ServicesDep` and declare their roles with `Depends(require(...))`; the
role table itself is the routers' `dependencies=[...]`, so the role × endpoint test can read
it off the app.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request

from guardian.audit.events import AuditSink
from guardian.auth import KeyStore, Principal, allowed
from guardian.policy import Policy
from guardian.serving import ServingCore, ServingError
from guardian.shadow import ShadowEvaluator
from guardian.telemetry import Telemetry


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


def get_services(request: Request) -> Services:
    services = getattr(request.app.state, "services", None)
    if services is None:
        error = getattr(request.app.state, "startup_error", None)
        raise ServingError(503, f"The sidecar failed to start: {error}" if error else
                           "The sidecar is still loading its model pair; retry shortly "
                           "(GET /readyz turns 200 when ready).", type_="service_unavailable",
                           code="not_ready")
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization")
    if auth and auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return request.headers.get("x-api-key")


def require(*roles: str) -> Callable[[Request], Principal]:
    """Dependency: a known key (401 otherwise) whose role is one of `roles` or admin (403)."""

    def check(request: Request) -> Principal:
        keys: KeyStore | None = getattr(request.app.state, "keys", None)
        if keys is None:
            raise ServingError(503, "The sidecar is still starting; retry shortly.",
                               type_="service_unavailable", code="not_ready")
        principal = keys.authenticate(_bearer(request))
        if principal is None:
            raise ServingError(401, "Missing or unknown API key. Send `Authorization: Bearer "
                               "<key>`; keys are issued by the sidecar's operator.",
                               type_="invalid_request_error", code="invalid_api_key")
        if not allowed(principal, roles):
            raise ServingError(403, f"API key '{principal.name}' has role '{principal.role}'; "
                               f"this endpoint needs one of: {', '.join(roles)} (or admin).",
                               type_="permission_error", code="insufficient_role")
        request.state.principal = principal
        return principal

    check.roles = roles  # type: ignore[attr-defined]  # read by the role-matrix test
    return check
