"""`guardian route status|enable|disable|promote`: route state in the audit database.

These commands act on the database every replica reads (`route_state`), so they take effect
on all replicas within the ModeResolver's refresh bound (~1 s).

Who acts: the database credential alone is not an identity, so every state-changing command
(`enable`, `disable`, `promote`) authenticates with an API key, exactly as the admin API
does: `--key` or `GUARDIAN_API_KEY`, checked against the keys file (`--keys-file` or
`GUARDIAN_API_KEYS_FILE`). The role comes from the key (there is no `--role`), and the act
is audited as `api-key:<name>`. Without a keys file these commands refuse, unless `--dev`
(or `GUARDIAN_DEV_MODE=1`) says this is a development database: then the act runs as admin
and is audited as `cli-dev:<OS user>`. `status` only reads and needs no key.

Turning speculation on (`enable`, `promote`) needs a passing gate report for the pair and the
policy (`guardian.governance.gatecheck`); `--override --reason "..."` goes without one, for
an admin key only, audited as an override. `disable` never needs a report nor waits.

Exit codes: 0 done; 1 refused (unknown key, wrong role, a governance rule, a concurrent
change); 2 bad usage or configuration (no key, no keys file, unreadable keys or policy file).
Every failure is one line on stderr, never a traceback.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from guardian.cli.db import URL_HELP

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from guardian.audit.writer import AuditWriter
    from guardian.policy import Policy

app = typer.Typer(help="Route state: status, enable / disable speculation, promote a pair.",
                  no_args_is_help=True)

POLICY_HELP = "Policy YAML (default: GUARDIAN_POLICY_FILE, else policies/default.yaml)."
KEY_HELP = ("API key to act with (its role decides what you may do; audited as api-key:<name>). "
            "Prefer the environment variable: a flag shows in the process list.")
KEYS_FILE_HELP = ("API keys file the key is checked against, the sidecar's own (default: "
                  "GUARDIAN_API_KEYS_FILE).")
DEV_HELP = ("Development database only: act as admin without an API key when no keys file is "
            "configured (audited as cli-dev:<OS user>).")
OVERRIDE_HELP = ("Admin key only: turn speculation on without a passing gate report; needs "
                 "--reason, audited as an override.")


@dataclass(frozen=True, slots=True)
class Actor:
    """Who a CLI act is by: `actor` goes into the audit log, `role` decides what is allowed."""

    actor: str
    role: str


def authenticate(key: str | None, keys_file: Path | None, dev: bool,
                 roles: tuple[str, ...] = ()) -> Actor:
    """The identity behind a state-changing command, or exit with one line (1 refused, 2 bad
    configuration). The key check itself is `guardian.security.auth.authenticate_cli` (one rule for
    every CLI act); with `roles`, the key must hold one of them (or admin)."""
    from guardian.security.auth import AuthConfigError, AuthenticationError, authenticate_cli
    from guardian.settings import get_settings

    if dev and os.environ.get("GUARDIAN_DEV_MODE") != "1":
        # `--dev` is GUARDIAN_DEV_MODE=1 for all the act touches, as `guardian serve --dev`
        # sets it: the audit writer then takes the development secrets too, rather than
        # failing for want of real ones after the act was authorised as dev.
        os.environ["GUARDIAN_DEV_MODE"] = "1"
        get_settings.cache_clear()
    keys_file = keys_file or get_settings().api_keys_file
    if keys_file is None:
        if dev:
            who = Actor(f"cli-dev:{os_account()}", "admin")
            typer.secho(f"dev mode: no keys file, acting as admin ({who.actor})", fg="yellow",
                        err=True)
            _cli_origin(who.role, None)
            return who
        raise fail("no API keys file: state-changing commands authenticate with an API key "
                   "checked against it (--keys-file or GUARDIAN_API_KEYS_FILE); a database "
                   "credential is not an identity. On a development database pass --dev.", 2)
    if not key:
        raise fail("an API key is needed: --key or GUARDIAN_API_KEY (the sidecar's operator "
                   "issues keys)", 2)
    try:
        principal = authenticate_cli(keys_file, key, roles=roles)
    except AuthenticationError as exc:
        if isinstance(exc.__cause__, AuthConfigError):  # the keys file itself is unusable
            raise fail(str(exc), 2) from None
        raise fail(f"refused: {exc}") from None
    _cli_origin(principal.role, principal.key_id)
    return Actor(principal.actor, principal.role)


def os_account() -> str:
    """The operating-system account running this process, from its uid (getpass.getuser()
    reads $LOGNAME first, which the caller sets)."""
    import pwd

    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return f"uid-{os.getuid()}"


def _cli_origin(role: str, key_id: str | None) -> None:
    """What every act this command records says about where it came from."""
    import socket

    from guardian.audit.acts import ACT_ORIGIN

    ACT_ORIGIN.set({"via": "cli", "os_user": os_account(), "uid": os.getuid(),
                    "host": socket.gethostname(), "key_id": key_id, "role": role})


def _nonblank(value: str | None) -> str | None:
    """An option callback: a reason or pair given as blanks is an error, not a value."""
    if value is not None and not value.strip():
        raise typer.BadParameter("must not be empty or blank")
    return value.strip() if value is not None else None


def fail(message: str, code: int = 1) -> typer.Exit:
    typer.secho(message, fg="red", err=True)
    return typer.Exit(code)


def open_db(url: str | None) -> tuple[Engine, str]:
    """The audit DB (a SQLAlchemy Engine) and its URL; an embedded SQLite file is migrated,
    Postgres must be."""
    from guardian.audit import upgrade
    from guardian.core.db import DatabaseUnreachable, has_audit_schema, make_engine
    from guardian.settings import get_settings

    resolved = url or get_settings().resolved_database_url
    db = make_engine(resolved)
    safe = db.url.render_as_string(hide_password=True)
    try:
        if resolved.startswith("sqlite"):
            upgrade(resolved)
        ok = has_audit_schema(db, "route_state")
    except DatabaseUnreachable as exc:
        raise fail(f"cannot open the audit database {safe}: {exc}") from None
    except Exception as exc:  # the SQLite migration itself failed
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise fail(f"cannot open the audit database {safe}: {first}") from None
    if not ok:
        raise fail(f"no governance tables in {safe}; run `guardian db upgrade` first")
    return db, resolved


def open_writer(url: str) -> AuditWriter:
    """An audit writer for one CLI command's governance records (its own chain, `cli-<pid>`);
    the caller closes it, which flushes them."""
    from guardian.audit.heads import heads_config
    from guardian.audit.writer import AuditWriter
    from guardian.core.fileio import private_dir
    from guardian.settings import get_settings

    settings = get_settings()
    private_dir(settings.home)
    replica = f"cli-{os.getpid()}"
    return AuditWriter(url, spool_dir=settings.spool_dir, replica_id=replica,
                       heads=heads_config(settings, replica, required=False))


@contextmanager
def audited_change(url: str) -> Iterator[AuditWriter]:
    """An audit writer for one route change; a refusal or a concurrent change exits cleanly."""
    from guardian.governance.errors import GovernanceRefused
    from guardian.governance.routestate import StateConflict

    writer = open_writer(url)
    try:
        yield writer
    except (GovernanceRefused, StateConflict) as exc:
        raise fail(f"refused: {exc}") from None
    finally:
        writer.close()


# Operator-named inputs read whole: a cap far above any real one (a gate report, a checkpoint
# of many chains) that still keeps a wrong path such as /dev/zero from filling memory.
INPUT_FILE_LIMIT = 64 << 20


def check_input_file(path: Path | None, what: str, limit: int | None = INPUT_FILE_LIMIT) -> None:
    """Exit 2 with one line when `path` names something no reader should open: a FIFO (the
    read would block forever), a device or socket (/dev/zero: endless), or a file larger than
    `limit` bytes - the rule `guardian.core.fileio.read_small` applies to the keys file. A missing
    file or a directory passes: the reader's own message says so."""
    import stat

    if path is None:
        return
    try:
        st = path.stat()
    except (OSError, ValueError):  # missing, unreadable, NUL in the name: the reader says why
        return
    if stat.S_ISDIR(st.st_mode):
        return
    if not stat.S_ISREG(st.st_mode):
        raise fail(f"cannot read {what} {path}: not a regular file (a device, FIFO or socket)",
                   2)
    if limit is not None and st.st_size > limit:
        raise fail(f"cannot read {what} {path}: larger than {limit} bytes", 2)


def load_policy(path: Path | None) -> Policy:
    import guardian.governance.triggers  # noqa: F401  (registers the trigger check on load)
    from guardian.policy import PolicyError, load_policy_file
    from guardian.settings import get_settings

    try:  # regular files only, capped: load_policy_file reads through fileio.read_small
        return load_policy_file(path or get_settings().policy_file)
    except PolicyError as exc:
        raise fail(str(exc), 2) from None


def _override_reason(override: bool, reason: str | None) -> str | None:
    if not override:
        return None
    if not (reason or "").strip():
        raise fail("--override needs --reason \"...\" (it is audited with who gave it)", 2)
    return (reason or "").strip()


@app.command()
def status(url: str | None = typer.Option(None, "--url", help=URL_HELP),
           policy_file: Path | None = typer.Option(None, "--policy", help=POLICY_HELP),
           pair: str | None = typer.Option(
               None, "--pair", help="Pair hash (or a unique prefix) that serves the routes, for "
               "the gate check of a policy file's `speculative` (default: the pair of each "
               "route's newest request)."),
           as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Each route's mode: from the policy file, from the database, and in force (with why).

    Lists every route of the policy file and every route that has state only in the
    database. "In force" is `guardian.governance.modes.effective_mode`, the answer serving
    gives (for a replica serving the pair shown).
    """
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from guardian.governance.canarystate import canaries_of
    from guardian.governance.gatecheck import modes_in_force
    from guardian.governance.registry import PairRefused, PairRegistry
    from guardian.governance.routestate import RouteStateStore

    policy = load_policy(policy_file)
    db, _ = open_db(url)
    store = RouteStateStore(db)
    states = store.all()
    pair_hash = None
    if pair is not None:
        try:
            pair_hash = PairRegistry(db).find(pair)["pair_hash"]
        except PairRefused as exc:
            raise fail(f"refused: {exc}") from None
    serving = {name: pair_hash or store.serving_pair(name)
               for name in set(policy.routes) | set(states)}
    decisions = modes_in_force(db, policy, states, pair_hash=serving.get,
                               canaries=canaries_of(db))
    rows = []
    for name, decision in decisions.items():
        route, st = policy.routes.get(name), states.get(name)
        rows.append({"route": name, "policy_mode": route.mode if route else None,
                     "db_mode": st.mode if st else None, "effective_mode": decision.mode,
                     "decided_by": decision.source, "why": decision.reason,
                     "pair": st.pair_hash if st else None, "serving_pair": serving[name],
                     "updated_by": st.updated_by if st else None,
                     "updated_at": st.updated_at.isoformat() if st else None,
                     "reason": st.reason if st else None})
    if as_json:
        typer.echo(json.dumps({"policy_hash": policy.content_hash, "routes": rows}, indent=2))
        return
    table = Table(title=f"routes (policy {policy.content_hash[:12]})")
    for col in ("route", "policy", "db", "in force", "why", "pair", "by"):
        table.add_column(col, no_wrap=col != "why")  # the reason wraps; names stay greppable
    for r in rows:  # cells as literal text: a stored reason such as "[/bold]" is not markup
        table.add_row(*(Text(str(c)) for c in (
            r["route"], r["policy_mode"] or "— (not in policy)", r["db_mode"] or "—",
            r["effective_mode"] or "not served", r["why"], (r["pair"] or "—")[:12],
            r["updated_by"] or "—")))
    Console().print(table)


@app.command()
def enable(route: str = typer.Argument(..., help="Route to serve speculatively again."),
           reason: str = typer.Option(..., "--reason", help="Why it is safe again (audited).",
                                       callback=_nonblank),
           force: bool = typer.Option(False, "--force", help="Skip the post-rollback cool-down "
                                      "(not the gate report)."),
           pair: str | None = typer.Option(
               None, "--pair", help="Pair hash (or a unique prefix) that will serve, whose gate "
               "report is checked (default: the pair of the route's newest request)."),
           override: bool = typer.Option(False, "--override", help=OVERRIDE_HELP),
           key: str | None = typer.Option(None, "--key", envvar="GUARDIAN_API_KEY", help=KEY_HELP),
           keys_file: Path | None = typer.Option(None, "--keys-file", help=KEYS_FILE_HELP),
           dev: bool = typer.Option(False, "--dev", envvar="GUARDIAN_DEV_MODE", help=DEV_HELP),
           url: str | None = typer.Option(None, "--url", help=URL_HELP),
           policy_file: Path | None = typer.Option(None, "--policy", help=POLICY_HELP)) -> None:
    """Re-enable speculation on a route after a rollback (oncall role; needs a gate report)."""
    from guardian.governance.rollback import reenable_route
    from guardian.governance.routestate import RouteStateStore

    who = authenticate(key, keys_file, dev)
    override_reason = _override_reason(override, reason)
    policy = load_policy(policy_file)
    db, resolved = open_db(url)
    store = RouteStateStore(db)
    current = store.get(route)
    pair_hash = (_find_pair(db, pair) if pair else
                 store.serving_pair(route) or (current.pair_hash if current else None))
    with audited_change(resolved) as writer:
        reenable_route(store, writer, route, actor=who.actor, role=who.role, reason=reason,
                       policy=policy, pair_hash=pair_hash, force=force,
                       override_reason=override_reason)
    typer.secho(f"route {route}: speculative (audited as {who.actor}"
                f"{', gate OVERRIDDEN' if override_reason else ''})", fg="green")


@app.command()
def disable(route: str = typer.Argument(..., help="Route to serve target-only."),
            reason: str = typer.Option(..., "--reason", help="Why (audited).",
                                       callback=_nonblank),
            key: str | None = typer.Option(None, "--key", envvar="GUARDIAN_API_KEY", help=KEY_HELP),
            keys_file: Path | None = typer.Option(None, "--keys-file", help=KEYS_FILE_HELP),
            dev: bool = typer.Option(False, "--dev", envvar="GUARDIAN_DEV_MODE", help=DEV_HELP),
            url: str | None = typer.Option(None, "--url", help=URL_HELP),
            policy_file: Path | None = typer.Option(None, "--policy", help=POLICY_HELP)) -> None:
    """Turn speculation off on a route now (oncall role): a manual rollback; never waits."""
    from guardian.governance.promotion import set_route_mode
    from guardian.governance.routestate import RouteStateStore

    who = authenticate(key, keys_file, dev)
    policy = load_policy(policy_file)
    db, resolved = open_db(url)
    store = RouteStateStore(db)
    current = store.get(route)
    with audited_change(resolved) as writer:
        set_route_mode(store, writer, route=route, mode="target_only", policy=policy,
                       actor=who.actor, role=who.role, reason=reason,
                       pair_hash=current.pair_hash if current else None)
    typer.secho(f"route {route}: target_only (audited as {who.actor})", fg="yellow")


def _find_pair(db: Engine, pair: str) -> str:
    from guardian.governance.registry import PairRefused, PairRegistry

    try:
        return str(PairRegistry(db).find(pair)["pair_hash"])
    except PairRefused as exc:
        raise fail(f"refused: {exc}") from None


@app.command()
def promote(route: str = typer.Argument(..., help="Route to serve the pair speculatively."),
            pair: str = typer.Option(..., "--pair", help="Pair hash (or a unique prefix).",
                                     callback=_nonblank),
            reason: str | None = typer.Option(None, "--reason", help="Why (audited; default "
                                              "'promotion'; required with --override).",
                                              callback=_nonblank),
            report: Path | None = typer.Option(None, "--report", help="Gate report JSON (default: "
                                               "the newest gate result for the pair in the DB)."),
            override: bool = typer.Option(False, "--override", help=OVERRIDE_HELP),
            key: str | None = typer.Option(None, "--key", envvar="GUARDIAN_API_KEY", help=KEY_HELP),
            keys_file: Path | None = typer.Option(None, "--keys-file", help=KEYS_FILE_HELP),
            dev: bool = typer.Option(False, "--dev", envvar="GUARDIAN_DEV_MODE", help=DEV_HELP),
            url: str | None = typer.Option(None, "--url", help=URL_HELP),
            policy_file: Path | None = typer.Option(None, "--policy", help=POLICY_HELP)) -> None:
    """Promote a gated pair to speculative on a route (release role)."""
    from guardian.governance.promotion import promote as do_promote
    from guardian.governance.registry import PairRegistry
    from guardian.governance.routestate import RouteStateStore

    who = authenticate(key, keys_file, dev)
    override_reason = _override_reason(override, reason)
    check_input_file(report, "gate report")
    policy = load_policy(policy_file)
    db, resolved = open_db(url)
    pair_hash = _find_pair(db, pair)
    report_data = None
    if report is not None:
        try:
            report_data = json.loads(report.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise fail(f"cannot read gate report {report}: {exc}", 2) from None
    with audited_change(resolved) as writer:
        do_promote(RouteStateStore(db), writer, route=route, pair_hash=pair_hash, policy=policy,
                   actor=who.actor, role=who.role, reason=reason or "promotion",
                   report=report_data, db=db, registry=PairRegistry(db),
                   override_reason=override_reason)
    typer.secho(f"route {route}: speculative with pair {pair_hash[:12]} (audited as {who.actor}"
                f"{', gate OVERRIDDEN' if override_reason else ''})", fg="green")
