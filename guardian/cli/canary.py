"""`guardian canary start|advance|abort|status`: canary steps of a route, in the audit database.

A canary serves a route speculatively on a growing share of its traffic (the policy's
`routes.<r>.canary.steps`, default 1, 5, 25, 50, 100 %), sticky per request key; every
replica reads the same `canary_state` row (`guardian.governance.canary`). The sidecar widens
it one step by itself when the route's analysis has passed for a whole step
(`canary.auto_advance`); `advance` does it by hand, `abort` drops it to 0 % and sets the route
target_only. A trigger's rollback aborts it too.

Who acts: as `guardian route` — an API key checked against the keys file (`--key` /
GUARDIAN_API_KEY, `--keys-file` / GUARDIAN_API_KEYS_FILE), or `--dev` on a development
database. `start` and `advance` need the release role (start also a passing gate report for
the pair and policy, like `route promote`; `--override --reason` for an admin key); `abort`
release or oncall. Every step is a `canary` governance event (who, why, weight before/after).

Exit codes: 0 done; 1 refused; 2 bad usage or configuration. Failures are one line.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from guardian.cli.db import URL_HELP
from guardian.cli.route import (
    DEV_HELP,
    KEY_HELP,
    KEYS_FILE_HELP,
    OVERRIDE_HELP,
    POLICY_HELP,
    _find_pair,
    _override_reason,
    audited_change,
    authenticate,
    fail,
    load_policy,
    open_db,
)

app = typer.Typer(help="Canary steps: serve a route speculatively on a growing share of traffic.",
                  no_args_is_help=True)

ROUTE_ARG = typer.Argument(..., help="The route.")
REASON = typer.Option(..., "--reason", help="Why (audited).")
# Who acts and on what: the same options on every act.
KEY = typer.Option(None, "--key", envvar="GUARDIAN_API_KEY", help=KEY_HELP)
KEYS_FILE = typer.Option(None, "--keys-file", help=KEYS_FILE_HELP)
DEV = typer.Option(False, "--dev", envvar="GUARDIAN_DEV_MODE", help=DEV_HELP)
URL = typer.Option(None, "--url", help=URL_HELP)
POLICY = typer.Option(None, "--policy", help=POLICY_HELP)


@app.command()
def start(route: str = ROUTE_ARG,
          pair: str = typer.Option(..., "--pair", help="Pair hash (or a unique prefix)."),
          reason: str = REASON,
          override: bool = typer.Option(False, "--override", help=OVERRIDE_HELP),
          key: str | None = KEY,
          keys_file: Path | None = KEYS_FILE,
          dev: bool = DEV,
          url: str | None = URL,
          policy_file: Path | None = POLICY) -> None:
    """Start a canary at the policy's first step (release role, passing gate report)."""
    from guardian.governance import canary
    from guardian.governance.registry import PairRegistry
    from guardian.governance.routestate import RouteStateStore

    who = authenticate(key, keys_file, dev)
    override_reason = _override_reason(override, reason)
    policy = load_policy(policy_file)
    db, resolved = open_db(url)
    pair_hash = _find_pair(db, pair)
    with audited_change(resolved) as writer:
        status = canary.start(RouteStateStore(db), canary.CanaryStore(db), writer, route=route,
                              pair_hash=pair_hash, policy=policy, actor=who.actor,
                              role=who.role, reason=reason, registry=PairRegistry(db),
                              override_reason=override_reason)
    typer.secho(f"route {route}: canary started at {status.weight_pct:g}% with pair "
                f"{pair_hash[:12]} (steps {', '.join(f'{s:g}' for s in status.steps)} %; "
                f"audited as {who.actor})", fg="green")


@app.command()
def advance(route: str = ROUTE_ARG, reason: str = REASON,
            key: str | None = KEY,
            keys_file: Path | None = KEYS_FILE,
            dev: bool = DEV,
            url: str | None = URL,
            policy_file: Path | None = POLICY) -> None:
    """Widen the route's canary one step now (release role)."""
    from guardian.governance import canary

    who = authenticate(key, keys_file, dev)
    policy = load_policy(policy_file)
    db, resolved = open_db(url)
    with audited_change(resolved) as writer:
        status = canary.advance(canary.CanaryStore(db), writer, route=route, policy=policy,
                                actor=who.actor, role=who.role, reason=reason)
    typer.secho(f"route {route}: canary at {status.weight_pct:g}% ({status.status}; audited "
                f"as {who.actor})", fg="green")


@app.command()
def abort(route: str = ROUTE_ARG, reason: str = REASON,
          key: str | None = KEY,
          keys_file: Path | None = KEYS_FILE,
          dev: bool = DEV,
          url: str | None = URL,
          policy_file: Path | None = POLICY) -> None:
    """Drop the canary to 0 % and serve the route target-only (release or oncall role)."""
    from guardian.governance import canary
    from guardian.governance.routestate import RouteStateStore

    who = authenticate(key, keys_file, dev)
    policy = load_policy(policy_file)
    db, resolved = open_db(url)
    with audited_change(resolved) as writer:
        canary.abort(RouteStateStore(db), canary.CanaryStore(db), writer, route=route,
                     policy=policy, actor=who.actor, role=who.role, reason=reason)
    typer.secho(f"route {route}: canary aborted, serving target_only (audited as {who.actor})",
                fg="yellow")


@app.command()
def status(url: str | None = URL,
           as_json: bool = typer.Option(False, "--json", help="Print JSON."),
           policy_file: Path | None = POLICY) -> None:
    """Every route's canary: status, weight, step and who set it, and whether replicas apply
    it (`in_force`: the mode `guardian route status` shows; reads only; no key)."""
    import sqlalchemy as sa

    from guardian.governance.canarystate import CanaryStore
    from guardian.governance.gatecheck import modes_in_force
    from guardian.governance.routestate import RouteStateStore

    policy = load_policy(policy_file)
    db, _ = open_db(url)
    try:
        canaries = CanaryStore(db).all()
        store = RouteStateStore(db)
        # A canary narrows only a speculative state that serves, and serves 0 % unless its
        # act signed it: say when replicas ignore it, exactly as `route status` decides
        # (gatecheck.modes_in_force).
        decisions = modes_in_force(db, policy, store.all(), pair_hash=store.serving_pair,
                                   canaries=canaries)
    except sa.exc.SQLAlchemyError as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise fail(f"cannot read canary state ({first}); run `guardian db upgrade`") from None
    rows = {}
    for name, c in sorted(canaries.items()):
        d = decisions.get(name)
        rows[name] = {**c.as_dict(), "in_force": {"mode": d.mode if d else None,
                                                  "decided_by": d.source if d else None,
                                                  "why": d.reason if d else None}}
    if as_json:
        typer.echo(json.dumps({"canaries": rows}, indent=2))
        return
    if not rows:
        typer.echo("no canary has run on any route")
        return
    for name, c in rows.items():
        step = f"step {c['step_index'] + 1}/{len(c['steps'])}"
        typer.echo(f"{name}: {c['status']} at {c['weight_pct']:g}% ({step}) by {c['updated_by']}"
                   f" at {c['updated_at']}: {c['reason']}"
                   + (f" [{c['problem']}]" if c.get("problem") else "")
                   + (f" — NOT APPLIED: replicas serve {c['in_force']['mode'] or 'nothing'}"
                      f" ({c['in_force']['why']})" if c["status"] == "running"
                      and c["in_force"]["decided_by"] != "canary" else ""))
