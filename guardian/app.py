"""FastAPI app factory: `create_app(settings=None, *, services=None)`.

Owns wiring only: which routers exist, the error handlers, the body-size limit, the browser
guards (trusted Host headers, Origin checks: guardian.api.browser), and building
`Services` (policy, serving backend, audit sink, telemetry, shadow evaluator, API keys) from
settings. With a database (`create_app()` from settings) governance is attached too: route state,
rollback controller and policy reload (guardian.governance.runtime). Nothing is built at
import time; `guardian serve` runs the factory under uvicorn with its connection limits and
start-up checks (run bare, `uvicorn guardian.app:create_app --factory` skips those; without a
keys file it still answers loopback clients only).

With `services` given (tests, embedding) the app uses them as they are and does not close
them. Otherwise the audit secrets are resolved first (guardian.audit.config.AuditSettings.
for_server: a missing secret stops the app here, before it serves), then the pair loads in a
background thread after startup — `/healthz` answers at once, `/readyz` and the API return 503
until the pair is ready — because building the demo pair on first use takes minutes and probes
must not time out meanwhile.
"""

from __future__ import annotations

import dataclasses
import gc
import logging
import os
import socket
import threading
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from guardian.api import admin, analysis, chat, completions, health, models, shadow
from guardian.api.browser import BrowserGuard, TrustedHosts
from guardian.api.deps import Services
from guardian.api.errors import BodySizeLimit, install
from guardian.audit.config import AuditSettings
from guardian.audit.events import AuditSink, GovernanceEvent
from guardian.audit.metrics import register_audit_metrics
from guardian.backends import ServingBackend, open_backend
from guardian.core.db import sqlite_path
from guardian.core.fileio import private_dir, warn_if_shared
from guardian.equivalence.shadow import ShadowEvaluator
from guardian.observability.telemetry import Telemetry
from guardian.observability.tracecontext import TraceContextMiddleware
from guardian.policy import Policy, load_policy
from guardian.security.auth import KeyStore, is_loopback
from guardian.serving.core import ServingCore
from guardian.settings import Settings, get_settings

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 1 << 20  # 1 MiB: far above any prompt that fits the context
SHADOW_QUEUE_CAPACITY = 16


def keys_file(settings: Settings) -> Path | None:
    return settings.api_keys_file


def build_services(backend: ServingBackend, sink: AuditSink, *, policy: Policy | None = None,
                   keys: KeyStore | None = None, telemetry: Telemetry | None = None,
                   replica_id: str | None = None, shadow_capacity: int = SHADOW_QUEUE_CAPACITY,
                   start_shadow: bool = True) -> Services:
    """Assemble the services around a serving backend and an audit sink."""
    telemetry = telemetry or Telemetry()
    core = ServingCore(backend, policy or load_policy(), sink, telemetry, replica_id=replica_id)
    evaluator = ShadowEvaluator(core, sink, telemetry, capacity=shadow_capacity)
    core.shadow = evaluator
    if backend.kind == "upstream":  # shadow across the route's two pools
        from guardian.backends.upstream.poolmetrics import PoolMetrics
        from guardian.equivalence.pool_shadow import PoolShadow

        core.shadow = PoolShadow(core, sink)
        # /metrics: each route's speculative pool's own spec_decode counters (pool-wide)
        telemetry.governance.add(PoolMetrics(lambda: core.policy).gauge_rows)
    if start_shadow:
        evaluator.start()
    services = Services(core=core, shadow=evaluator, sink=sink, telemetry=telemetry,
                        keys=keys or KeyStore(open_mode=True),
                        audit_reader=memory_reader(sink))
    register_audit_metrics(telemetry, sink)  # /metrics audit series (AuditWriter sinks only)
    batcher = backend.batcher
    if batcher is not None:  # continuous batching: batch size and the learnt depth caps
        telemetry.governance.add(batcher.gauge_rows)
    return services


def memory_reader(sink: AuditSink) -> Callable[[str], list[dict[str, Any]]] | None:
    """Reader over an in-memory sink (its `events` list); None for stores without one."""
    events = getattr(sink, "events", None)
    if events is None:
        return None

    kinds = {"RequestEvent": "request", "ShadowEvent": "shadow"}

    def read(request_id: str) -> list[dict[str, Any]]:
        found = [e for e in list(events) if getattr(e, "request_id", None) == request_id]
        return [{"kind": kinds.get(type(e).__name__, "other"), **dataclasses.asdict(e)}
                for e in found]

    return read


def db_reader(url: str) -> Callable[[str], list[dict[str, Any]]]:
    """Reader over the audit database (the store's own query helpers)."""
    from guardian.audit.queries import get_request
    from guardian.core.db import make_engine

    db = make_engine(url)  # search_path pinned, like every reader (guardian.audit.readers)

    def read(request_id: str) -> list[dict[str, Any]]:
        record = get_request(db, request_id)
        if record is None:
            return []
        return ([{"kind": "request", **record.request, "token_rows": len(record.tokens)}]
                + [{"kind": "shadow", **s} for s in record.shadows])

    return read


def close_services(services: Services) -> None:
    governance = getattr(services, "governance", None)
    if governance is not None:
        governance.close()
    services.shadow.shutdown()
    if services.core.shadow is not services.shadow:
        services.core.shadow.close()
    services.core.shutdown()
    services.sink.close()
    services.telemetry.shutdown()


def _load_from_settings(settings: Settings, keys: KeyStore,
                        audit: AuditSettings | None = None) -> Services:
    from guardian.audit import open_sink, upgrade

    policy = load_policy(settings.policy_file)
    # The backend kind from settings (default: the local engine over the configured pair, or
    # the demo pair under settings.home).
    backend = open_backend(settings)
    url = settings.resolved_database_url
    private_dir(settings.home)
    if url.startswith("sqlite"):
        # Embedded SQLite: nobody else will migrate this file, so do it here (idempotent).
        # Postgres is migrated by the operator (`guardian db upgrade`).
        upgrade(url)
        if (path := sqlite_path(url)) is not None:  # created 0600; an older one may not be
            warn_if_shared(path, "audit database (prompts and completions)")
    sink = open_sink(settings, audit_settings=audit)
    replica = settings.replica_id or f"{socket.gethostname()}-{os.getpid()}"
    services = build_services(backend, sink, policy=policy, keys=keys, replica_id=replica)
    services.audit_reader = db_reader(url)
    from guardian.governance.runtime import attach

    # Route state in the DB (rollbacks reach every replica), the rollback controller fed by
    # the audit events, and policy hot reload; the policy in force comes from its loader.
    attach(services, url=url, policy_file=settings.policy_file)
    policy = services.core.policy
    sink.submit(GovernanceEvent(
        event_id=f"gov-{uuid.uuid4().hex}", created_at=datetime.now(UTC), kind="policy_loaded",
        route=None, pair_hash=backend.pair_hash, policy_hash=policy.content_hash,
        actor=f"replica:{replica}", details={"policy": policy.model_dump(mode="json"),
                                             "policy_file": str(settings.policy_file or "")}))
    logger.info("ready: pair %s, policy %s, audit %s", backend.pair_hash[:12],
                policy.content_hash[:12], type(sink).__name__)
    return services


class _QueryRedacted(logging.Filter):
    """uvicorn's access log line with every query-string value as *** (`?api_key=***`): the
    API takes keys in headers only, but a key someone wrongly puts in a URL must not end up in
    the logs. Parameter names stay, for debugging."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str) \
                and "?" in args[2]:
            path, _, query = args[2].partition("?")
            hidden = "&".join(part.partition("=")[0] + "=***" if "=" in part else "***"
                              for part in query.split("&"))
            record.args = (args[0], args[1], f"{path}?{hidden}", args[3], args[4])
        return True


def redact_access_log() -> None:
    """Install `_QueryRedacted` on uvicorn's access logger (once)."""
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, _QueryRedacted) for f in access.filters):
        access.addFilter(_QueryRedacted())


def create_app(settings: Settings | None = None, *, services: Services | None = None) -> FastAPI:
    settings = settings or get_settings()
    redact_access_log()  # uvicorn has configured its loggers before calling this factory
    own = services is None
    # Before anything else: a sidecar without its secrets must not start (SecretsError).
    audit = AuditSettings.for_server(settings) if own else None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if own:
            def load() -> None:
                try:
                    app.state.services = _load_from_settings(settings, app.state.keys, audit)
                except Exception as exc:  # keep serving /readyz with the reason
                    logger.exception("sidecar startup failed")
                    # Shown to unauthenticated callers (/readyz, any request): the kind of
                    # failure only; its message (paths, hosts) is in the log above.
                    app.state.startup_error = (f"{type(exc).__name__} (the reason is in the "
                                               "sidecar's log)")
                    return
                # What startup made (modules, models, policy) lives as long as the process:
                # out of the collector's sight, a full collection no longer walks it (measured
                # on the proxy path: the slowest of 2,000 requests 190-220 ms -> 18-42 ms).
                gc.collect()
                gc.freeze()

            threading.Thread(target=load, name="guardian-load", daemon=True).start()
        yield
        loaded = getattr(app.state, "services", None)
        if loaded is not None:  # an upstream backend's sessions live on this loop
            await loaded.core.backend.aclose()
        if own and loaded is not None:
            close_services(loaded)

    # No /docs or /redoc pages: they run Swagger UI / ReDoc scripts from a CDN on the
    # sidecar's own origin, where the browser guard lets same-origin requests change state
    # (in open mode, as admin). The schema stays at /openapi.json for tools.
    app = FastAPI(title="spec-guardian", version="0.1.0", lifespan=lifespan,
                  docs_url=None, redoc_url=None,
                  summary="OpenAI-compatible sidecar with shadow equivalence checks for "
                          "speculative decoding.")
    app.state.services = services
    app.state.startup_error = None
    app.state.keys = services.keys if services else KeyStore.for_server(keys_file(settings),
                                                                         settings.host)
    max_body = services.max_body_bytes if services else MAX_BODY_BYTES
    install(app)
    for router in (completions.router, chat.router, models.router, shadow.router,
                   health.public, health.metrics_router, admin.routes_read, admin.oncall,
                   admin.release, admin.compliance, analysis.router):
        app.include_router(router)
    app.add_middleware(BodySizeLimit, max_bytes=max_body)
    app.add_middleware(TraceContextMiddleware)  # an incoming `traceparent` continues its trace
    # Outermost (added last): refuse a foreign Host or a cross-site request before any work.
    app.add_middleware(BrowserGuard, allowed_origins=settings.allowed_origins)
    trusted = settings.resolved_trusted_hosts
    if own and settings.trusted_hosts is None and not is_loopback(settings.host):
        logger.warning("bound to %s: only Host headers %s are served; set "
                       "GUARDIAN_TRUSTED_HOSTS to the names clients use", settings.host, trusted)
    app.add_middleware(TrustedHosts, allowed_hosts=trusted)
    return app
