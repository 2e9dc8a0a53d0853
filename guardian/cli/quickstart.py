"""The quickstart's first run: the gate evidence a speculative route needs, produced by the gate.

`guardian serve` with nothing configured (the embedded SQLite audit store under home, a
loopback bind, no API keys file, the local backend) is the quickstart. Its policy
(`policies/default.yaml`) has a `code` route that asks for `mode: speculative` with
`gate.require_report: true`: it serves speculatively only once a passing gate report exists
for exactly the serving pair and this policy's hash. `ensure_gate_report` produces that
evidence before the sidecar starts, the way a release manager would: it runs the real gate
(`guardian.governance.gates.run_gate`, the golden set `policies/golden/python-code.jsonl`,
the route's own gate settings) on the pair the sidecar will serve, shows progress, and records
the report (pass or fail) in the audit store. Nothing is skipped: a failing gate is recorded
and the route keeps serving target_only, saying why.

Only for the quickstart: anywhere else (a database URL, a keys file, another bind) recording
a gate report is a release act (`guardian gate --key`), never done on start-up.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from guardian.core.resources import data_path

if TYPE_CHECKING:
    from guardian.governance.gatereport import GateReport, PromptResult
    from guardian.policy import Policy
    from guardian.settings import Settings

logger = logging.getLogger(__name__)

GOLDEN_FILE = data_path("policies", "golden", "python-code.jsonl")
ACTOR = "quickstart:guardian-serve"


@dataclass
class GateOutcome:
    """What `ensure_gate_report` found or did."""

    routes: list[str]  # routes whose `speculative` waits on the gate
    pair_hash: str = ""
    policy_hash: str = ""
    ran: bool = False  # a gate ran now (else an existing passing report was found)
    passed: bool = False
    report: dict[str, Any] | None = None
    refusal: str | None = None  # why the routes still may not speculate (None: they may)
    checks: list[dict[str, Any]] = field(default_factory=list)
    # Routes the database keeps off speculation whatever the gate says (a rollback, a
    # disable): route -> who and why.
    held_back: dict[str, str] = field(default_factory=dict)


def applies(settings: Settings) -> bool:
    """The quickstart: embedded SQLite under home, loopback bind, open (no keys file), the
    local backend (it is what the gate runs)."""
    from guardian.security.auth import is_loopback

    return (settings.database_url is None and is_loopback(settings.host)
            and settings.api_keys_file is None and settings.backend == "local")


def gated_routes(policy: Policy) -> list[str]:
    """Routes whose file mode is `speculative` and held to the gate (sorted)."""
    return sorted(name for name, r in policy.routes.items()
                  if r.mode == "speculative" and r.gate.require_report)


def ensure_gate_report(settings: Settings, policy: Policy, *,
                       on_start: Callable[[str, int], None] | None = None,
                       on_prompt: Callable[[PromptResult], None] | None = None,
                       golden: Path = GOLDEN_FILE) -> GateOutcome:
    """A passing gate report for the serving pair under `policy`, found or produced now.

    `on_start(message, n_prompts)` before a gate runs, `on_prompt(result)` after each golden
    prompt (progress). Builds the demo pair on first use (it prints its own progress).
    """
    routes = gated_routes(policy)
    out = GateOutcome(routes=routes, policy_hash=policy.content_hash)
    if not routes:
        return out
    from guardian.audit import upgrade
    from guardian.backends import open_backend
    from guardian.core.db import make_engine
    from guardian.core.fileio import private_dir
    from guardian.governance.gatecheck import gate_refusal

    url = settings.resolved_database_url
    private_dir(settings.home)
    upgrade(url)
    db = make_engine(url)
    try:
        from guardian.governance.routestate import RouteStateStore

        for route, state in RouteStateStore(db).all().items():
            if route in routes and state.mode != "speculative":
                out.held_back[route] = f"{state.mode}, set by {state.updated_by}: {state.reason}"
        if settings.backend == "local":
            # A later start finds its report by the pair's identity, hashed from disk: no
            # second load of the pair beside the app's (on smollm2, ~10 s and its timings).
            from engine import identify_pair
            from guardian.backends.local import pair_dirs

            out.pair_hash = identify_pair(*pair_dirs(settings)).pair_hash  # (built on first use)
            out.refusal = gate_refusal(db, out.pair_hash, out.policy_hash)
            if out.refusal is None:
                out.passed = True
                return out
        backend = open_backend(settings)  # the pair the sidecar will serve (built on first use)
        try:
            out.pair_hash = backend.pair_hash
            out.refusal = gate_refusal(db, out.pair_hash, out.policy_hash)
            if out.refusal is None:
                out.passed = True
                return out
            report = _run(backend, policy, routes[0], golden, on_start, on_prompt)
            _record(settings, backend, report)
            out.ran, out.passed, out.report = True, report.passed, report.to_dict()
            out.checks = [c for c in out.report.get("checks", [])]
            out.refusal = gate_refusal(db, out.pair_hash, out.policy_hash)
        finally:
            # Its engine thread would keep this copy of the pair alive beside the app's for
            # the server's life (a second ~1 GB for the packed smollm2 pair).
            backend.shutdown()
    finally:
        db.dispose()
    return out


def _run(backend: Any, policy: Policy, route: str, golden: Path,
         on_start: Callable[[str, int], None] | None,
         on_prompt: Callable[[PromptResult], None] | None) -> GateReport:
    from guardian.governance.gatebatch import planned_runs
    from guardian.governance.gates import run_gate
    from guardian.governance.golden import load_golden

    prompts = load_golden(golden)
    rp = policy.route(route)
    if on_start is not None:
        on_start(f"gate: pair {backend.pair_hash[:12]}, policy {policy.content_hash[:12]}, "
                 f"route {route}, golden set {golden.name}", planned_runs(backend, prompts, rp.gate))
    return run_gate(backend, prompts, rp.gate, policy_hash=policy.content_hash, route=route,
                    golden_file=golden, on_prompt=on_prompt, proposer=rp.proposer)


def _record(settings: Settings, backend: Any, report: GateReport) -> None:
    """Register the pair and record the report (the audit writer flushes on close)."""
    from guardian.audit.config import AuditSettings
    from guardian.audit.heads import heads_config
    from guardian.audit.writer import AuditWriter
    from guardian.governance.promotion import record_gate_result
    from guardian.governance.registry import PairRegistry

    replica = f"quickstart-{os.getpid()}"
    # Its chain gets a signed head like every writer's: without one `guardian audit verify`
    # reported the quickstart's own gate record as an unattested (possibly forged) chain.
    writer = AuditWriter(settings.resolved_database_url, spool_dir=settings.spool_dir,
                         replica_id=replica,
                         config=AuditSettings.for_server(settings, announce=False),
                         heads=heads_config(settings, replica))
    try:
        registry = PairRegistry(writer.db, writer)
        registry.register(backend.identity, actor=ACTOR)
        record_gate_result(writer, registry, report, actor=ACTOR)
    finally:
        writer.close()
