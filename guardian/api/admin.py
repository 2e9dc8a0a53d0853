"""Route state and governance actions, plus the compliance audit read.

- `GET  /admin/routes`                    oncall, release: modes in force and the policy hash
- `POST /admin/routes/{route}/rollback`   oncall: serve target-only (speculation off)
- `POST /admin/routes/{route}/reenable`   oncall: back to speculative after a rollback
- `POST /admin/routes/{route}/promote`    release: promote a route to speculative
- `GET  /admin/audit/{request_id}`        compliance: the audit events of one request

Every state change is a GovernanceEvent in the audit store. Route state lives in this replica
only for now; a later issue moves it to the database so a rollback reaches every replica.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends

from guardian.api.deps import Services, ServicesDep, require
from guardian.api.schemas import ErrorResponse, RouteChange, RouteState, RouteStates
from guardian.audit.events import GovernanceEvent
from guardian.auth import Principal
from guardian.policy import Mode
from guardian.serving import ServingError

_errors: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse}, 403: {"model": ErrorResponse}, 404: {"model": ErrorResponse}}
routes_read = APIRouter(tags=["admin"], dependencies=[Depends(require("oncall", "release"))],
                        responses=_errors)
oncall = APIRouter(tags=["admin"], responses=_errors)
release = APIRouter(tags=["admin"], responses=_errors)
compliance = APIRouter(tags=["compliance"], responses=_errors)

OncallKey = Annotated[Principal, Depends(require("oncall"))]
ReleaseKey = Annotated[Principal, Depends(require("release"))]
ComplianceKey = Annotated[Principal, Depends(require("compliance"))]


def _states(services: Services) -> RouteStates:
    policy = services.policy
    return RouteStates(policy_hash=policy.content_hash, routes=[
        RouteState(route=name, mode=r.mode, shadow_sample_rate=r.shadow.sample_rate,
                   models=r.models) for name, r in sorted(policy.routes.items())])


def _change(services: Services, route: str, mode: Mode, kind: str, actor: Principal,
            reason: str) -> RouteStates:
    core = services.core
    if route not in core.policy.routes:
        raise ServingError(404, f"unknown route {route!r}; known: {', '.join(sorted(core.policy.routes))}",
                           param="route", code="route_not_found")
    previous = core.policy.route(route).mode
    core.policy = core.policy.with_mode(route, mode)
    services.sink.submit(GovernanceEvent(
        event_id=f"gov-{uuid.uuid4().hex}", created_at=datetime.now(UTC), kind=kind,  # type: ignore[arg-type]
        route=route, pair_hash=core.backend.pair_hash, policy_hash=core.policy_hash,
        actor=actor.actor, details={"previous_mode": previous, "new_mode": mode, "reason": reason}))
    return _states(services)


@routes_read.get("/admin/routes", response_model=RouteStates)
async def list_routes(services: ServicesDep) -> RouteStates:
    return _states(services)


@oncall.post("/admin/routes/{route}/rollback", response_model=RouteStates)
async def rollback(route: str, body: RouteChange, services: ServicesDep,
                   who: OncallKey) -> RouteStates:
    return _change(services, route, "target_only", "rollback", who, body.reason)


@oncall.post("/admin/routes/{route}/reenable", response_model=RouteStates)
async def reenable(route: str, body: RouteChange, services: ServicesDep,
                   who: OncallKey) -> RouteStates:
    return _change(services, route, "speculative", "reenable", who, body.reason)


@release.post("/admin/routes/{route}/promote", response_model=RouteStates)
async def promote(route: str, body: RouteChange, services: ServicesDep,
                  who: ReleaseKey) -> RouteStates:
    return _change(services, route, "speculative", "promotion", who, body.reason)


@compliance.get("/admin/audit/{request_id}")
async def audit_events(request_id: str, services: ServicesDep,
                       _who: ComplianceKey) -> dict[str, Any]:
    if services.audit_reader is None:
        raise ServingError(501, "This audit store cannot be read through the API; use "
                           "`guardian audit show`.", code="not_implemented", type_="server_error")
    events = services.audit_reader(request_id)
    if not events:
        raise ServingError(404, f"no audit events for request {request_id!r} (yet: the store "
                           "writes in batches, retry in a second)", code="not_found")
    return {"request_id": request_id, "events": events}
