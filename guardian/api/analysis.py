"""Analysis endpoints for rollout controllers (Argo Rollouts, Flagger).

- `GET  /v1/analysis/{route}`           the route's analysis as JSON, shaped for Argo
                                        Rollouts' web metric provider: `verdict` is
                                        `pass` | `fail` | `inconclusive` (also booleans `pass`
                                        and `fail`), with every trigger's measurement, the mode
                                        in force and the canary's weight
- `GET|POST /v1/analysis/{route}/webhook`  Flagger webhook gate: 200 when the verdict is
                                        `pass`; 412 when `fail`; 425 (Too Early) when
                                        `inconclusive` (not enough evidence yet: Flagger
                                        counts it as a failed check, never as a pass)

Role: `analysis` (read-only: this endpoint and nothing else), or oncall / release / admin.
A rollout controller gets an `analysis` key (`guardian keys add argo --role analysis`): it
can read verdicts, but not send traffic, change routes, or read audit rows.

The verdict is the rollback controller's own measurements over the same rolling windows
(`guardian.governance.routeanalysis.analysis_result`): `fail` when a trigger's measurement fails
now, or the route was rolled back by a trigger, or its canary was aborted; `pass` when every
enabled trigger passes; otherwise `inconclusive` (fewer samples than a trigger's
`min_samples`, e.g. no traffic, no shadow baseline yet). Needs governance (an audit
database); without it the endpoints answer 404 (`no_governance`). No answer is a 5xx:
those mean the sidecar itself is broken. Documented examples: docs/guides/release-managers.md.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from guardian.api.deps import Services, ServicesDep, require
from guardian.api.schemas import ErrorResponse
from guardian.api.strictjson import StrictJSONRoute
from guardian.serving.core import ServingError

ANALYSIS_ROLES = ("analysis", "oncall", "release")
WEBHOOK_STATUS = {"pass": 200, "fail": 412, "inconclusive": 425}

router = APIRouter(route_class=StrictJSONRoute, tags=["analysis"],
                   dependencies=[Depends(require(*ANALYSIS_ROLES))],
                   responses={401: {"model": ErrorResponse}, 403: {"model": ErrorResponse},
                              404: {"model": ErrorResponse}, 412: {"model": ErrorResponse},
                              425: {"model": ErrorResponse}})


async def _analysis(services: Services, route: str) -> dict[str, Any]:
    if route not in services.policy.routes:
        raise ServingError(404, f"unknown route {route!r}; GET /admin/routes lists the routes",
                           param="route", code="route_not_found")
    governance = getattr(services, "governance", None)
    if governance is None:
        raise ServingError(404, "no analysis here: it needs governance (an audit database) "
                           "and this sidecar runs without one", code="no_governance")
    result: dict[str, Any] = await asyncio.to_thread(governance.controller.analysis, route)
    return result


@router.get("/v1/analysis/{route}")
async def analysis(route: str, services: ServicesDep) -> dict[str, Any]:
    """The route's analysis (Argo Rollouts web metric: jsonPath `{$.verdict}`)."""
    return await _analysis(services, route)


@router.post("/v1/analysis/{route}/webhook")
async def webhook(route: str, services: ServicesDep) -> JSONResponse:
    """Flagger webhook gate: 200 pass, 412 fail, 425 inconclusive (Flagger's JSON body, if
    any, is not read: the route in the path decides)."""
    return await _gate(services, route)


@router.get("/v1/analysis/{route}/webhook")
async def webhook_get(route: str, services: ServicesDep) -> JSONResponse:
    """The same gate for a GET (curl, probes)."""
    return await _gate(services, route)


async def _gate(services: Services, route: str) -> JSONResponse:
    result = await _analysis(services, route)
    status = WEBHOOK_STATUS[result["verdict"]]
    if status == 200:
        return JSONResponse(result)
    return JSONResponse({"error": {"message": f"route {route}: analysis {result['verdict']}: "
                                   f"{result['reason']}", "type": "analysis_not_passed",
                                   "param": None, "code": result["verdict"]},
                         "analysis": result}, status_code=status)
