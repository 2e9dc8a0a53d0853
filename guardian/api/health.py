"""`/healthz`, `/readyz` (public: probes carry no keys and reveal nothing) and `/metrics`
(role: oncall — Prometheus text of the app's OpenTelemetry metrics)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse

from guardian.api.deps import ServicesDep, require
from guardian.telemetry import PROMETHEUS_CONTENT_TYPE

public = APIRouter(tags=["health"])
metrics_router = APIRouter(tags=["oncall"], dependencies=[Depends(require("oncall"))])


@public.get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "ok"}


@public.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Readiness: the pair is loaded and the policy is in force."""
    services = getattr(request.app.state, "services", None)
    if services is None:
        error = getattr(request.app.state, "startup_error", None)
        return JSONResponse({"status": "failed" if error else "loading", "error": error},
                            status_code=503)
    return JSONResponse({"status": "ready", "pair_hash": services.core.backend.pair_hash,
                         "policy_hash": services.policy.content_hash,
                         "queue_depth": services.core.queue_depth,
                         "shadow_queue_depth": services.shadow.depth})


@metrics_router.get("/metrics", response_class=Response)
async def metrics(services: ServicesDep) -> Response:
    return Response(services.telemetry.render_prometheus(), media_type=PROMETHEUS_CONTENT_TYPE)
