"""`/healthz`, `/readyz` (public: probes carry no keys and reveal nothing) and `/metrics`
(roles: metrics, oncall — Prometheus text of the app's OpenTelemetry metrics). A Prometheus
scraper gets a `metrics` key: it reads, and can do nothing else (an oncall key could also
roll routes back).

`/readyz` answers anyone with its status (`ready`, `degraded`, `loading`, `failed`) and the
reason; the details behind it — pair and policy hashes, serving and shadow queue depths, the
audit spool — only a caller whose key could read `/metrics` (metrics, oncall, admin; open
mode from loopback). Queue depths tell an outsider how loaded the replica is, and when a burst would
hurt; the hashes which pair and policy it runs.

`/readyz` while the audit database is unreachable: **200 with `"status": "degraded"`**, not
503. Serving goes on (the audit writer spools to local disk and replays when the database
answers), and every replica shares that database: a 503 would make the load balancer pull
every replica at once and turn an audit-DB outage into a full outage. Alert on `degraded`
(and on the spool size it reports) instead. 503 stays for "cannot serve": still loading,
startup failed, or the local engine's thread died.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse

from guardian.api.deps import ServicesDep, optional_principal, require
from guardian.observability.telemetry import PROMETHEUS_CONTENT_TYPE
from guardian.security.auth import allowed

public = APIRouter(tags=["health"])
METRICS_ROLES = ("metrics", "oncall")  # and admin
metrics_router = APIRouter(tags=["metrics"], dependencies=[Depends(require(*METRICS_ROLES))])


@public.get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "ok"}




def _sees_details(request: Request) -> bool:
    """The caller's key would be admitted to `/metrics`. A probe with no key, or a bad one,
    is answered (status only), never refused."""
    principal = optional_principal(request)
    return principal is not None and allowed(principal, METRICS_ROLES)


@public.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Readiness: the pair is loaded and the policy is in force. Details for oncall keys."""
    body = await _readiness(request)
    status = 503 if body["status"] in ("loading", "failed") else 200
    if not _sees_details(request):
        body = {k: v for k, v in body.items() if k in ("status", "reason", "error")}
    return JSONResponse(body, status_code=status)


async def _readiness(request: Request) -> dict[str, Any]:
    services = getattr(request.app.state, "services", None)
    if services is None:
        error = getattr(request.app.state, "startup_error", None)
        return {"status": "failed" if error else "loading", "error": error}
    batcher = services.core.backend.batcher
    if batcher is not None and not batcher.alive:
        # The local engine's thread is gone: every request would be a 503 engine_unavailable
        # (engine.batching). Out of the load balancer until it is restarted.
        return {"status": "failed", "error": "the engine thread is not running "
                "(the reason is in the sidecar's log)"}
    body = {"status": "ready", "pair_hash": services.core.backend.pair_hash,
            "policy_hash": services.policy.content_hash,
            "queue_depth": services.core.queue_depth,
            "shadow_queue_depth": services.shadow.depth}
    health = getattr(services.sink, "health", None)
    if health is not None:
        audit = await asyncio.to_thread(health)  # may wait for a connect timeout
        body["audit"] = {"db_up": audit["db_up"], "spooling": audit["spooling"],
                         "spool_bytes": audit["spool_bytes"]}
        if not audit["db_up"]:
            body["status"] = "degraded"
            body["reason"] = ("audit database unreachable: serving continues, audit records "
                              "are spooled locally and replayed when it answers")
    return body


@metrics_router.get("/metrics", response_class=Response)
async def metrics(services: ServicesDep) -> Response:
    # In a thread: the governance gauges include the audit store's health probe.
    body = await asyncio.to_thread(services.telemetry.render_prometheus)
    return Response(body, media_type=PROMETHEUS_CONTENT_TYPE)
