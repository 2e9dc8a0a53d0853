"""`guardian audit keys init|rotate|show|vkey`: the signing keys of signed tree heads."""

from __future__ import annotations

from pathlib import Path

import typer

from guardian.cli.audit.common import TRUST_HELP, _fail, _require_text, _trust, _trust_path

keys_app = typer.Typer(help="Signing keys of signed tree heads: init, rotate, show.",
                       no_args_is_help=True)


@keys_app.command("init")
def keys_init() -> None:
    """Create this replica's Ed25519 signing key (0600) and pin it in the trust file."""
    from guardian.audit.signing import generate, key_paths
    from guardian.audit.writer import default_replica_id
    from guardian.settings import get_settings

    settings = get_settings()
    key_path, trust_path = key_paths(settings)
    if key_path.exists():
        typer.secho(f"{key_path} exists; use `guardian audit keys rotate` to replace it",
                    fg="red", err=True)
        raise typer.Exit(1)
    signer = generate(key_path, trust_path, settings.replica_id or default_replica_id())
    typer.echo(f"key {signer.key_id} written to {key_path}, pinned in {trust_path}")


@keys_app.command("rotate")
def keys_rotate() -> None:
    """New signing key; the old one is retired in the trust file (its heads stay valid)."""
    from guardian.audit.signing import key_paths, rotate
    from guardian.audit.writer import default_replica_id
    from guardian.settings import get_settings

    settings = get_settings()
    key_path, trust_path = key_paths(settings)
    old, signer = rotate(key_path, trust_path, settings.replica_id or default_replica_id())
    typer.echo(f"key {signer.key_id} now signs (retired: {old or 'none'}); trust file "
               f"{trust_path} updated - copy it to wherever heads are verified; restart "
               "the sidecar to use the new key")


@keys_app.command("show")
def keys_show(trust: Path | None = typer.Option(None, "--trust", help=TRUST_HELP)) -> None:
    """List the pinned keys and their validity."""
    _require_text({"--trust": trust})
    keys = _trust(trust)["keys"]
    if not keys:
        typer.echo(f"no keys pinned in {_trust_path(trust)}", err=True)
    for k in keys:
        typer.echo(f"{k['key_id']}  {k.get('replica', '?')}  from {k.get('not_before')}  "
                   f"until {k.get('not_after') or 'now'}")


@keys_app.command("vkey")
def keys_vkey(trust: Path | None = typer.Option(None, "--trust", help=TRUST_HELP),
              name: str | None = typer.Option(None, "--name", help="Log name (key name of the "
                                              "C2SP checkpoints; default "
                                              "$GUARDIAN_AUDIT_LOG_NAME or "
                                              "spec-guardian.local/audit).")) -> None:
    """Print each pinned key as a signed-note verifier key (vkey), one a line.

    Give these to anyone verifying the C2SP checkpoints and tlog-proof receipts (e.g. with
    golang.org/x/mod/sumdb/note) or running a witness; the checkpoint origins are
    `<name>/<chain id>`. Retired keys are listed too: what they signed stays verifiable.
    """
    import base64

    from guardian.audit.checkpoints import CheckpointError, log_name
    from guardian.audit.notes import NoteError, verifier

    _require_text({"--trust": trust, "--name": name})
    try:
        key_name = log_name(name)
    except CheckpointError as exc:
        _fail(str(exc))
    keys = _trust(trust)["keys"]
    if not keys:
        _fail(f"no keys pinned in {_trust_path(trust)}", 1)
    for k in keys:
        try:
            typer.echo(verifier(key_name, base64.b64decode(k["public_key"])).vkey)
        except (NoteError, ValueError) as exc:
            _fail(f"key {k['key_id']} in the trust file is not an Ed25519 key: {exc}", 1)
