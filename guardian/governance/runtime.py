"""Governance inside a running sidecar: wiring the pieces onto the app's services.

`attach(services, url=..., policy_file=...)` adds to a built `Services`:
- a `RouteStateStore` on the audit database and a started `ModeResolver` (the serving core
  asks it per request: `core.resolver`); it also holds a policy file's `mode: speculative`
  to the gate (a passing report for this pair + policy, unless `gate.require_report: false`),
  whether loaded at start or by a reload, and keeps the last known route state in
  `<home>/route-state.json` so a restart while the database is down fails safe;
- a started `RollbackController`, fed by wrapping the services' audit sink in an
  `ObservingSink` (serving and shadow results reach it without knowing about governance);
- a started `PolicyReloader` (file change or `reload()` from the admin API; an invalid file
  is refused and the last good policy stays);
- `services.governance`, the handle the admin API uses; `close()` stops the threads.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from guardian.governance.observing import ObservingSink
from guardian.governance.registry import PairRegistry
from guardian.governance.rollback import RollbackController
from guardian.governance.routestate import ModeResolver, RouteStateStore
from guardian.governance.triggers import check_policy
from guardian.policy import PolicyReloader

logger = logging.getLogger(__name__)


@dataclass
class Governance:
    db: Engine  # the audit database (SQLAlchemy), not the inference engine
    store: RouteStateStore
    resolver: ModeResolver
    controller: RollbackController
    registry: PairRegistry
    reloader: PolicyReloader | None

    def close(self) -> None:
        if self.reloader is not None:
            self.reloader.stop()
        self.controller.stop()
        self.resolver.stop()
        self.db.dispose()

    @property
    def engine(self) -> Engine:
        """The old name of `db`; tests/guardian/governance/test_gate_serving.py still reads it."""
        return self.db


def attach(services: Any, *, url: str, policy_file: Path | str | None = None,
           watch_policy: bool = True, resolver_ttl_s: float = 0.5,
           start_controller: bool = True, state_file: Path | str | None = None) -> Governance:
    """Attach governance to `services` (guardian.api.deps.Services); returns the handle.

    `state_file`: the last known route state (default `<GUARDIAN_HOME>/route-state.json`)."""
    from guardian.core.db import make_engine
    from guardian.governance.laststate import FILE_NAME
    from guardian.settings import get_settings

    core = services.core
    # The policy may have been loaded before the trigger table registered its load-time
    # check (guardian.governance.triggers); hold it to the same check before acting on it.
    check_policy(core.policy)
    db = make_engine(url)
    store = RouteStateStore(db)
    resolver = ModeResolver(store, ttl_s=resolver_ttl_s, pair_hash=core.backend.pair_hash,
                            actor=f"replica:{core.replica_id}", require_signed_state=True,
                            state_file=state_file or get_settings().home / FILE_NAME).start()
    controller = RollbackController(store, services.sink, lambda: core.policy,
                                    pair_hash=core.backend.pair_hash, resolver=resolver,
                                    telemetry=services.telemetry)
    reloader = None
    if watch_policy:
        def apply(policy: Any) -> None:
            core.policy = policy

        reloader = PolicyReloader(policy_file, apply, sink=services.sink,
                                  actor=f"replica:{core.replica_id}", db=db)
        # One loader for the policy in force, so hashes agree everywhere (gate reports too).
        core.policy = reloader.policy
        reloader.start()
    wrapped = ObservingSink(services.sink, controller)
    services.sink = core.sink = services.shadow.sink = wrapped
    # An upstream backend's shadow runs across the route's pools (guardian.equivalence.
    # pool_shadow), not through `services.shadow`: its verdicts must reach the controller too.
    if core.shadow is not services.shadow and hasattr(core.shadow, "sink"):
        core.shadow.sink = wrapped
    resolver.sink = wrapped  # audits the file-mode gate's `policy_decision` events
    core.resolver = resolver
    if start_controller:
        controller.start()
    governance = Governance(db, store, resolver, controller, PairRegistry(db, wrapped), reloader)
    services.governance = governance
    logger.info("governance attached: route state in %s, resolver ttl %.2f s",
                db.url.render_as_string(hide_password=True), resolver_ttl_s)
    return governance
