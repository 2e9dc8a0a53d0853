"""`guardian keys add|list|revoke|rotate`: the API keys file.

The file holds SHA-256 digests only (`guardian.security.auth`); a key's plaintext is printed once, by
`add` and `rotate`, and never again. Every change replaces the file atomically with mode 0600,
and a running sidecar picks it up on its next authentication (no restart): a revoked key is
refused from the next request on.

Whoever can write the keys file can mint any key, so the file's permissions are the trust
boundary for these commands (they take no API key themselves).

`-f` must name a regular file (or, for `add`, a new one in an existing directory): a device,
FIFO or directory is refused, a symlink is written through to its target, and the checks on
names, routes and the file's content are those of `guardian.security.auth`, which the sidecar and the
dashboard load the same file with.

Exit codes: 0 done; 1 the file or the named key says no (missing key, duplicate name, invalid
file); 2 a usage error (missing option, unknown role).
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path

import typer

from guardian.security.auth import KEYS_FILE_ENV, ROLES, ROUTED_ROLES, AuthConfigError

app = typer.Typer(help="API keys: add, list, revoke, rotate (the keys file stores digests only).",
                  no_args_is_help=True)

RoleChoice = Enum("RoleChoice", {r: r for r in ROLES}, type=str)  # type: ignore[misc]

KEYS_FILE_HELP = f"The API keys YAML file (default: ${KEYS_FILE_ENV})."
KeysFileOption = typer.Option(..., "--keys-file", "-f", envvar=KEYS_FILE_ENV, help=KEYS_FILE_HELP,
                              dir_okay=False, show_envvar=False)


def _fail(message: str, code: int = 1) -> typer.Exit:
    typer.secho(f"error: {message}", fg="red", err=True)
    return typer.Exit(code)


def _routes(raw: list[str] | None) -> list[str] | None:
    """`--route a --route b` or `--route a,b`; None when not given. An empty name (`--route ""`,
    `a,,b`) is a usage error: it would otherwise leave a key with no route at all."""
    if not raw:
        return None
    routes = [r.strip() for item in raw for r in item.split(",")]
    if not all(routes):
        raise typer.BadParameter(f"empty route name in {raw!r}; name each route the key may "
                                 "use, or leave --route out", param_hint="--route")
    return routes


@app.command()
def add(name: str = typer.Argument(..., help="Who holds the key (recorded as api-key:<name>)."),
        role: RoleChoice = typer.Option(..., "--role", "-r", help="What the key may do."),
        route: list[str] = typer.Option(None, "--route", help=(
            "A route the key may use (repeat, or comma-separate); with it, the key may use "
            "only the routes listed. Inference/mirror keys only. Without it the key may use "
            "EVERY route, each through its own models (not by X-Guardian-Route).")),
        keys_file: Path = KeysFileOption) -> None:
    """Create an API key; prints the key ONCE (store it now), keeps only its SHA-256."""
    from guardian.security.auth import add_key_to_file

    try:
        key = add_key_to_file(keys_file, name, role.value, _routes(route))  # type: ignore[arg-type]
    except AuthConfigError as exc:
        raise _fail(str(exc)) from None
    typer.secho(f"added key {name!r} ({role.value}) to {keys_file}; it is shown only now:",
                err=True)
    typer.echo(key)


@app.command("list")
def list_keys(keys_file: Path = KeysFileOption) -> None:
    """Show each key's name, role, routes and key id (a digest prefix, never the digest)."""
    from guardian.security.auth import read_keys_file

    try:
        entries = read_keys_file(keys_file)
    except AuthConfigError as exc:
        if isinstance(exc.__cause__, FileNotFoundError):
            raise _fail(f"no keys file at {keys_file}; create one with `guardian keys add`") from None
        raise _fail(str(exc)) from None
    if not entries:
        typer.echo(f"{keys_file}: no keys")
        return
    width = max(len(e.name) for e in entries)
    typer.echo(f"{'NAME':<{width}}  {'ROLE':<10}  {'KEY ID':<12}  ROUTES")
    for e in entries:
        routes = ("all" if e.role == "admin" else "-" if e.role not in ROUTED_ROLES else
                  "model's route only" if e.routes is None else ", ".join(e.routes) or "(none)")
        typer.echo(f"{e.name:<{width}}  {e.role:<10}  {e.key_id:<12}  {routes}")


@app.command()
def revoke(name: str = typer.Argument(..., help="The key's name (`guardian keys list`)."),
           keys_file: Path = KeysFileOption) -> None:
    """Remove a key; a running sidecar refuses it from the next request on."""
    from guardian.security.auth import revoke_key_in_file

    try:
        removed = revoke_key_in_file(keys_file, name)
    except AuthConfigError as exc:
        raise _fail(str(exc)) from None
    typer.echo(f"revoked key {removed.name!r} ({removed.role}, key id {removed.key_id})")


@app.command()
def rotate(name: str = typer.Argument(..., help="The key's name (`guardian keys list`)."),
           keys_file: Path = KeysFileOption) -> None:
    """Give a key a new secret (same name, role, routes); prints it ONCE, the old one stops."""
    from guardian.security.auth import rotate_key_in_file

    try:
        key = rotate_key_in_file(keys_file, name)
    except AuthConfigError as exc:
        raise _fail(str(exc)) from None
    typer.secho(f"rotated key {name!r} in {keys_file}; the new key is shown only now:", err=True)
    typer.echo(key)
