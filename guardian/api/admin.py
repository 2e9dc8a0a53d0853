"""Route state and governance actions, plus the compliance audit read.

- `GET  /admin/routes`                    oncall, release: modes in force and the policy hash
- `POST /admin/routes/{route}/rollback`   oncall: serve target-only (speculation off)
- `POST /admin/routes/{route}/reenable`   oncall: back to speculative after a rollback; needs
                                          a passing gate report for this pair and policy hash
                                          (409 naming what is missing; `?force=true` skips
                                          only the post-rollback cool-down)
- `POST /admin/routes/{route}/promote`    release: promote a route to speculative; needs a
                                          passing gate report for this pair and policy hash
- `POST /admin/policy/reload`             oncall: re-read the policy file (invalid: 400, the
                                          last good policy stays; embedded policy: no-op). A
                                          route the new file makes speculative without a
                                          passing report serves target_only (audited once)

Re-enable and promote accept `{"override": true, "reason": "..."}`: an admin (only) may turn
speculation on without a passing report; the event records the override, who and why.
Turning speculation off (rollback) never needs a report and never waits for a cool-down.
- `GET  /admin/audit/{request_id}`        compliance: the audit events of one request
- `GET  /admin/speculation`               oncall, release: the engine's batch, the
                                          speculation depth cap per batch size in force (and
                                          what chose it), also as vLLM speculative-config keys

Every state change is a GovernanceEvent in the audit store. With governance attached (a
database: `guardian.governance.runtime`), route state lives in the database so a change
reaches every replica and the rules of `guardian.governance` apply (cool-down, gate reports);
without one (embedded tests) the change applies to this replica's policy only.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import Field, StrictBool
from sqlalchemy.exc import SQLAlchemyError

from guardian.api.deps import Services, ServicesDep, require
from guardian.api.schemas import ErrorResponse, RouteChange, RouteState, RouteStates
from guardian.api.strictjson import StrictJSONRoute
from guardian.audit.acts import record_act
from guardian.audit.events import GovernanceEvent
from guardian.core.enums import Mode
from guardian.security.auth import Principal
from guardian.serving.core import ServingError

logger = logging.getLogger(__name__)

_errors: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse}, 403: {"model": ErrorResponse}, 404: {"model": ErrorResponse},
    409: {"model": ErrorResponse}}
routes_read = APIRouter(route_class=StrictJSONRoute, tags=["admin"],
                        dependencies=[Depends(require("oncall", "release"))],
                        responses=_errors)
oncall = APIRouter(route_class=StrictJSONRoute, tags=["admin"], responses=_errors)
release = APIRouter(route_class=StrictJSONRoute, tags=["admin"], responses=_errors)
compliance = APIRouter(route_class=StrictJSONRoute, tags=["compliance"], responses=_errors)

OncallKey = Annotated[Principal, Depends(require("oncall"))]
ReleaseKey = Annotated[Principal, Depends(require("release"))]
ComplianceKey = Annotated[Principal, Depends(require("compliance"))]


class RouteAct(RouteChange):
    """A change that turns speculation on (re-enable, promote)."""

    override: StrictBool = Field(False, description="Admin only, with a non-empty `reason`: "
                                 "turn speculation on without a passing gate report (audited "
                                 "as an override). JSON true only: \"yes\" or 1 is a 400.")


def _override(body: RouteAct, who: Principal) -> str | None:
    """The override's reason, or None when none was asked; refuses a non-admin (403) or a
    missing reason (400) before anything changes."""
    if not body.override:
        return None
    if who.role != "admin":
        raise ServingError(403, f"API key '{who.name}' has role '{who.role}'; an override of the "
                           "gate needs the admin role. Run `guardian gate` on this pair instead.",
                           type_="permission_error", code="insufficient_role", param="override")
    if not body.reason.strip():
        raise ServingError(400, "an override needs a `reason` (it is audited with who gave it)",
                           param="reason", code="reason_required")
    return body.reason.strip()


def _states(services: Services) -> RouteStates:
    # `route_policy` carries the mode in force (guardian.governance.modes.effective_mode via
    # the serving resolver): the same answer requests get.
    policy, core = services.policy, services.core
    return RouteStates(policy_hash=policy.content_hash, routes=[
        RouteState(route=name, mode=core.route_policy(name).mode,
                   shadow_sample_rate=r.shadow.sample_rate, models=r.models)
        for name, r in sorted(policy.routes.items())])


def _known(services: Services, route: str) -> None:
    if route not in services.core.policy.routes:
        # No list of the known routes here: GET /admin/routes shows them to whoever may see them.
        raise ServingError(404, f"unknown route {route!r} (GET /admin/routes lists the routes)",
                           param="route", code="route_not_found")


def _refused(exc: Exception) -> ServingError:
    return ServingError(409, str(exc), code="governance_refused")


def _change(services: Services, route: str, mode: Mode, kind: str, actor: Principal,
            reason: str, override: str | None = None) -> RouteStates:
    """Without a database: this replica's policy copy (embedded use and tests). There is no
    audit store to hold gate reports here, so no gate applies; an override is still recorded."""
    core = services.core
    _known(services, route)
    previous = core.policy.route(route).mode
    core.policy = core.policy.with_mode(route, mode)
    record_act(services.sink, GovernanceEvent(
        event_id=f"gov-{uuid.uuid4().hex}", created_at=datetime.now(UTC), kind=kind,  # type: ignore[arg-type]
        route=route, pair_hash=core.backend.pair_hash, policy_hash=core.policy_hash,
        actor=actor.actor, details={"previous_mode": previous, "new_mode": mode, "reason": reason,
                                    **({"override": {"by": actor.actor, "reason": override}}
                                       if override is not None else {})}))
    return _states(services)


@routes_read.get("/admin/routes", response_model=RouteStates)
async def list_routes(services: ServicesDep) -> RouteStates:
    return _states(services)


@routes_read.get("/admin/speculation")
async def speculation(services: ServicesDep) -> dict[str, Any]:
    batcher = services.core.backend.batcher
    if batcher is None:
        return {"batching": "off", "note": "requests decode one at a time (GUARDIAN_BATCHING="
                "off, or a backend without a local engine); no depth cap by batch size"}
    return batcher.snapshot()  # type: ignore[no-any-return]


@contextmanager
def _governed(services: Services, route: str) -> Iterator[Any]:
    """The governance handle for an act on a known `route`; a refusal or a concurrent change
    by another replica becomes a 409 that says why (never a 500)."""
    from guardian.governance.errors import GovernanceRefused
    from guardian.governance.routestate import StateConflict

    _known(services, route)
    try:
        yield services.governance
    except (GovernanceRefused, StateConflict) as exc:
        raise _refused(exc) from None


@oncall.post("/admin/routes/{route}/rollback", response_model=RouteStates)
async def rollback(route: str, body: RouteChange, services: ServicesDep,
                   who: OncallKey) -> RouteStates:
    if getattr(services, "governance", None) is None:
        return await asyncio.to_thread(_change, services, route, "target_only", "rollback", who,
                                       body.reason)
    from guardian.governance.promotion import set_route_mode

    with _governed(services, route) as gov:
        await asyncio.to_thread(  # the act's audit record is made durable before the answer
            partial(set_route_mode, gov.store, services.sink, route=route, mode="target_only",
                    policy=services.policy, actor=who.actor, role=who.role,
                    reason=body.reason or "manual rollback",
                    pair_hash=services.core.backend.pair_hash))
    return _states(services)


@oncall.post("/admin/routes/{route}/reenable", response_model=RouteStates)
async def reenable(route: str, body: RouteAct, services: ServicesDep, who: OncallKey,
                   force: bool = False) -> RouteStates:
    override = _override(body, who)
    if getattr(services, "governance", None) is None:
        return await asyncio.to_thread(_change, services, route, "speculative", "reenable", who,
                                       body.reason, override)
    from guardian.governance.rollback import reenable_route

    with _governed(services, route) as gov:
        await asyncio.to_thread(partial(
            reenable_route, gov.store, services.sink, route, actor=who.actor, role=who.role,
            reason=body.reason, policy=services.policy,
            pair_hash=services.core.backend.pair_hash, force=force,
            on_done=gov.controller.reset, override_reason=override))
    return _states(services)


@release.post("/admin/routes/{route}/promote", response_model=RouteStates)
async def promote(route: str, body: RouteAct, services: ServicesDep,
                  who: ReleaseKey) -> RouteStates:
    override = _override(body, who)
    if getattr(services, "governance", None) is None:
        return await asyncio.to_thread(_change, services, route, "speculative", "promotion", who,
                                       body.reason, override)
    from guardian.governance.promotion import promote as do_promote

    with _governed(services, route) as gov:
        await asyncio.to_thread(partial(
            do_promote, gov.store, services.sink, route=route,
            pair_hash=services.core.backend.pair_hash, policy=services.policy, actor=who.actor,
            role=who.role, reason=body.reason or "promotion", db=gov.db, registry=gov.registry,
            override_reason=override))
    gov.controller.reset(route)
    return _states(services)


@oncall.post("/admin/policy/reload", response_model=RouteStates)
async def reload_policy(services: ServicesDep, who: OncallKey) -> RouteStates:
    gov = getattr(services, "governance", None)
    if gov is None or gov.reloader is None:
        # Embedded: the policy was handed over in memory, so its source has not changed.
        return _states(services)
    changed, message = await asyncio.to_thread(partial(gov.reloader.reload, actor=who.actor))
    if not changed and message != "unchanged":
        raise ServingError(400, f"policy reload refused, the previous policy stays in force: "
                           f"{message}", code="invalid_policy")
    return _states(services)


@compliance.get("/admin/audit/{request_id}")
async def audit_events(request_id: str, services: ServicesDep,
                       _who: ComplianceKey) -> dict[str, Any]:
    if services.audit_reader is None:
        raise ServingError(501, "This audit store cannot be read through the API; use "
                           "`guardian audit show`.", code="not_implemented", type_="server_error")
    try:  # in a thread: a slow or unreachable database must not hold the event loop
        events = await asyncio.to_thread(services.audit_reader, request_id)
    except SQLAlchemyError:
        logger.exception("audit read of %r failed", request_id[:200])
        raise ServingError(503, "The audit database cannot be read now; retry shortly (the "
                           "reason is in the sidecar's log).", type_="service_unavailable",
                           code="audit_unavailable") from None
    if not events:
        raise ServingError(404, f"no audit events for request {request_id!r} (yet: the store "
                           "writes in batches, retry in a second)", code="not_found")
    return {"request_id": request_id, "events": events}
