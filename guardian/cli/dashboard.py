"""`guardian dashboard`: start the Streamlit on-call dashboard against the audit database.

Login: with the sidecar's API keys (`--keys-file`, else `GUARDIAN_API_KEYS_FILE`); compliance
and admin keys see prompt and completion text, oncall and release keys metadata only, other
roles are refused (`dashboard.auth` says why this mechanism). Without a keys file it refuses to
start unless `--dev` (loopback only, no login, a banner says so).

The dashboard only reads: its sessions are read-only (see `dashboard.data`), and on Postgres it
should connect as a role that can only SELECT - `--print-role-sql NAME` prints the statements
that create one. Registered in `guardian/cli/__init__.py` as the command `dashboard` (the function; `app` is
kept for tests that mount it on an app of their own).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import typer

from guardian.cli.db import URL_HELP, _url, require_sqlite_file

LOGIN_HELP = """Start the dashboard (read-only) against the configured audit database.

\b
Login: every session logs in with a sidecar API key from the keys file
(--keys-file, else GUARDIAN_API_KEYS_FILE; the sidecar's keys).
  compliance, admin   metadata + prompt/completion text, token ids, exports
  oncall, release     metadata only (ids, lengths, hashes, verdicts, timings)
  other roles         refused (inference, mirror, analysis)

Without a keys file it refuses to start; --dev runs it without login, on a loopback address only, under a "development mode: no login" banner."""  # noqa: E501

app = typer.Typer(help="On-call dashboard (Streamlit): SLOs, drift, shadow equivalence, audit.",
                  invoke_without_command=True)

APP_FILE = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


_ROLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


def readonly_role_sql(role: str, database: str) -> str:
    """SQL that creates a login role allowed only to read the audit/governance tables. The role
    must be a plain identifier (it is printed unquoted); the database name, taken from a URL,
    is quoted as an identifier, so no name can end the statement."""
    if not _ROLE.fullmatch(role):
        raise typer.BadParameter("a role name is a letter or _ then letters, digits and _ "
                                 "(at most 63)", param_hint="--print-role-sql")
    if "\x00" in database:
        raise typer.BadParameter("the database name holds a NUL character", param_hint="--url")
    quoted_db = '"' + database.replace('"', '""') + '"'
    return "\n".join([
        f"CREATE ROLE {role} LOGIN;  -- add PASSWORD '...' unless you use trust/peer/cert auth",
        f"GRANT CONNECT ON DATABASE {quoted_db} TO {role};",
        f"GRANT USAGE ON SCHEMA public TO {role};",
        f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role};",
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO {role};",
        f"ALTER ROLE {role} SET default_transaction_read_only = on;",
    ])


def _check_db(url: str) -> None:
    """Fail with a clear message (not a Streamlit page of errors) when the DB is unusable."""
    from guardian.core.db import DatabaseUnreachable, has_audit_schema, make_engine

    require_sqlite_file(url)  # the dashboard only reads: no empty database left behind
    db = make_engine(url)
    safe = db.url.render_as_string(hide_password=True)
    try:
        ok = has_audit_schema(db)
    except DatabaseUnreachable as exc:
        typer.secho(f"cannot open the audit database {safe}: {exc}\nCheck that it is running "
                    "and the URL (--url / GUARDIAN_DATABASE_URL) is right.", fg="red", err=True)
        raise typer.Exit(1) from None
    finally:
        db.dispose()
    if not ok:
        typer.secho(f"no audit schema in {safe}: run `guardian db upgrade` first.", fg="red",
                    err=True)
        raise typer.Exit(1)


# The names a loopback dashboard is reached by (Streamlit compares Host names without port
# or IPv6 brackets): a DNS-rebound name pointing at 127.0.0.1 is not among them.
DEV_HOSTS = ("localhost", "127.0.0.1", "::1")
_HOST_NAME = re.compile(r"(\*\.)?[A-Za-z0-9]([A-Za-z0-9.-]{0,252})|[0-9A-Fa-f:]{2,39}")


@app.callback(help=LOGIN_HELP)
def dashboard(
    url: str | None = typer.Option(None, "--url", help=URL_HELP + " Use a read-only role."),
    port: int = typer.Option(8501, min=1, max=65535, help="HTTP port."),
    address: str = typer.Option("127.0.0.1", help="Listen address (0.0.0.0 to expose it)."),
    print_role_sql: str | None = typer.Option(
        None, "--print-role-sql", metavar="ROLE",
        help="Print the SQL that creates a read-only Postgres role ROLE, then exit."),
    keys_file: Path | None = typer.Option(
        None, "--keys-file", envvar="GUARDIAN_API_KEYS_FILE", dir_okay=False,
        help="API keys YAML of the sidecar (hashed keys + roles): users log in with a key."),
    dev: bool = typer.Option(False, "--dev", help="No login (loopback only), for local try-outs: "
                             "anyone reaching the port sees all text."),
    allowed_host: list[str] = typer.Option(
        [], "--allowed-host", metavar="NAME",
        help="A host name browsers use to reach the dashboard (repeatable): connections naming "
             "any other Host are refused (DNS rebinding). --dev allows the loopback names "
             "only; with --keys-file and none given, any Host."),
) -> None:
    from sqlalchemy.engine import make_url

    from guardian.core.db import is_postgres, normalize_url
    from guardian.security.auth import AuthConfigError, KeyStore, is_loopback

    resolved = normalize_url(_url(url))
    if print_role_sql is not None:
        if not is_postgres(resolved):
            raise typer.BadParameter("read-only roles are a Postgres feature; SQLite is opened "
                                     "with query_only", param_hint="--print-role-sql")
        typer.echo(readonly_role_sql(print_role_sql, make_url(resolved).database or "postgres"))
        return
    if keys_file is not None:
        if dev:
            raise typer.BadParameter("--dev runs without login; leave it out when a keys file "
                                     "is given (or unset GUARDIAN_API_KEYS_FILE)",
                                     param_hint="--dev")
        try:
            KeyStore.from_file(keys_file)  # fail here, not on the first login
        except AuthConfigError as exc:
            raise typer.BadParameter(str(exc), param_hint="--keys-file") from None
    elif not dev:
        typer.secho("no API keys file: the dashboard shows audit data only after a login with a "
                    "sidecar API key. Pass --keys-file FILE (or set GUARDIAN_API_KEYS_FILE); for "
                    "a local try-out without login, --dev.", fg="red", err=True)
        raise typer.Exit(2)
    elif not is_loopback(address):
        raise typer.BadParameter(f"--dev (no login) is allowed on a loopback address only, not "
                                 f"{address!r}; use --keys-file to expose the dashboard",
                                 param_hint="--address")
    for name in allowed_host:
        if not _HOST_NAME.fullmatch(name):
            raise typer.BadParameter(f"{name!r} is not a host name (e.g. dashboard.internal, "
                                     "*.example.com, 10.0.0.5)", param_hint="--allowed-host")
    if dev:
        if any(not is_loopback(n) for n in allowed_host):
            raise typer.BadParameter("--dev (no login) serves loopback names only",
                                     param_hint="--allowed-host")
        allowed_host = list(DEV_HOSTS)
    _check_db(resolved)
    cmd = [sys.executable, "-m", "streamlit", "run", str(APP_FILE), "--server.port", str(port),
           "--server.address", address, "--server.headless", "true",
           "--browser.gatherUsageStats", "false",
           # A read-only dashboard: no "Deploy" button or developer menu for its users
           # (set from app.py it does not apply to the first page load).
           "--client.toolbarMode", "viewer"]
    for name in allowed_host:  # Streamlit refuses WebSockets whose Host is not listed
        cmd += ["--server.allowedHosts", name]
    env = {**os.environ, "GUARDIAN_DATABASE_URL": resolved}
    env.pop("GUARDIAN_DASHBOARD_DEV", None)  # only this command's --dev turns login off
    if keys_file is not None:
        env["GUARDIAN_API_KEYS_FILE"] = str(keys_file.resolve())
    else:
        env.pop("GUARDIAN_API_KEYS_FILE", None)
        env["GUARDIAN_DASHBOARD_DEV"] = "1"
    safe = make_url(resolved).render_as_string(hide_password=True)
    login = f"login with API keys from {keys_file}" if keys_file else \
        "DEVELOPMENT MODE: no login"
    typer.echo(f"dashboard on http://{address}:{port} reading {safe} (read-only; {login}); "
               "Ctrl-C stops it")
    try:
        raise typer.Exit(subprocess.call(cmd, env=env))
    except KeyboardInterrupt:
        raise typer.Exit(0) from None
