"""What the `guardian audit` subcommands share: the red-line exit (`_fail`), argument and
output-file checks, the audit database (`_db`), the heads directory and trust file, the
verify report's printing, the tlog-proof receipt of a proof, and the option help strings
of `--heads-dir` and `--trust`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from guardian.cli.db import _url, require_sqlite_file

if TYPE_CHECKING:
    from sqlalchemy import Engine

HEADS_HELP = "Directory of published signed tree heads (default: <home>/audit-heads)."
TRUST_HELP = "Trust file pinning the replicas' public keys (default: <home>/audit-trust.json)."


def _fail(message: str, code: int = 2) -> NoReturn:
    """One red line on stderr, then exit `code` (2: bad input, refused before any work)."""
    typer.secho(message, fg="red", err=True)
    raise typer.Exit(code)


def _require_text(values: dict[str, str | Path | list[str] | None]) -> None:
    """Refuse arguments that are not UTF-8 text, up front: their undecodable bytes reach Python
    as lone surrogates, which fail later - in the database driver, or mid-export."""
    for name, value in values.items():
        for v in value if isinstance(value, list) else [value]:
            try:
                str(v or "").encode("utf-8")
            except UnicodeEncodeError:
                _fail(f"{name} {str(v)!r} is not valid UTF-8 text (undecodable bytes in the "
                      "argument); pass it as UTF-8")


def _out_path(path: Path, name: str) -> Path:
    """An output file that can be written, checked before any work is done."""
    if path.is_dir():
        _fail(f"{name} {path} is a directory; give a file name")
    if not path.parent.is_dir():
        _fail(f"{name} {path}: the directory {path.parent} does not exist")
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        _fail(f"{name} {path} is not writable")
    return path


def _db(url: str | None) -> Engine:
    """The audit DB (a SQLAlchemy Engine), migrated, or a clear error (exit 1)."""
    import sqlalchemy as sa

    from guardian.core.db import make_engine

    resolved = _url(url)
    require_sqlite_file(resolved)  # only reads (or prunes): never creates an empty database
    db = make_engine(resolved)
    try:
        with db.connect() as conn:
            if not sa.inspect(conn).has_table("audit_requests"):
                typer.secho(f"no audit schema in {db.url.render_as_string(hide_password=True)}"
                            "; run `guardian db upgrade` first", fg="red", err=True)
                raise typer.Exit(1)
    except typer.Exit:
        raise
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        typer.secho(f"cannot open the audit database "
                    f"{db.url.render_as_string(hide_password=True)}: {first}", fg="red", err=True)
        raise typer.Exit(1) from None
    return db


def _print_report(rep: Any, label: str) -> None:
    for loss in rep.declared_losses:
        typer.secho(f"declared loss: {loss}", fg="yellow", err=True)
    if rep.ok:
        typer.secho(f"OK: {label}: {rep.records} records in {rep.chains} chains verified",
                    fg="green")
        return
    if all(e.startswith("unattested") for e in rep.errors):
        # No record is known bad: a writer died before its next head (its restart attests
        # the tail, guardian.audit.recovery), or someone without the key appended.
        typer.secho(f"UNATTESTED: {label}: {rep.first_error}; a killed writer's records are "
                    "attested when its replica restarts, else review and `guardian audit "
                    "adopt`", fg="red", err=True)
        for e in rep.errors[1:]:
            typer.echo(f"  also: {e}", err=True)
        raise typer.Exit(1)
    typer.secho(f"TAMPERED: {label}: first bad record: {rep.first_error}", fg="red", err=True)
    for e in rep.errors[1:]:
        typer.echo(f"  also: {e}", err=True)
    raise typer.Exit(1)


def _trust_path(path: Path | None) -> Path:
    from guardian.audit.signing import key_paths
    from guardian.settings import get_settings

    return path or key_paths(get_settings())[1]


def _trust(path: Path | None, *, missing_ok: bool = False) -> dict[str, Any]:
    """The trust file (`--trust`, else the home's), or exit 2 saying why it cannot be read.
    Only the default file may be missing, and only where `missing_ok` (no key pinned yet): a
    missing file is never an empty trust list behind a tamper verdict."""
    from guardian.audit.signing import SigningError, load_trust

    trust_path = _trust_path(path)
    try:  # load_trust reads regular files only, capped (guardian.core.fileio.read_small)
        doc = load_trust(trust_path, missing_ok=missing_ok and path is None)
    except SigningError as exc:
        hint = ("" if path is not None else
                "; pass --trust, or create a key with `guardian audit keys init`")
        _fail(f"{exc}{hint}")
    return doc


def _heads_dir(path: Path | None) -> Path:
    """`--heads-dir` (it must exist: a typo is not "no heads"), else the home's."""
    from guardian.settings import get_settings

    hdir = path or get_settings().resolved_heads_dir
    if path is not None and not hdir.exists():
        _fail(f"--heads-dir {hdir} does not exist")
    if hdir.exists() and not hdir.is_dir():
        _fail(f"heads directory {hdir} is not a directory")
    return hdir


def _tlog_proof(proof: dict[str, Any], hdir: Path, request_id: str) -> tuple[str, str]:
    """The tlog-proof receipt of a `prove_request` proof, or exit 1 saying why not."""
    from guardian.audit.checkpoints import CheckpointError, cosigned_checkpoint
    from guardian.audit.heads import chain_dirname
    from guardian.audit.notes import NoteError
    from guardian.audit.receipts import build_receipt

    head = proof["head"]
    try:
        note = cosigned_checkpoint(hdir / chain_dirname(head["chain_id"]), int(head["size"]),
                                   head["root"])
        receipt = build_receipt(proof, note)
    except (CheckpointError, NoteError) as exc:
        typer.secho(f"cannot write a tlog-proof: {exc} (heads published before C2SP "
                    "checkpoints have none: prove against a later head)", fg="red", err=True)
        raise typer.Exit(1) from None
    return receipt.text, (f"tlog-proof of {request_id!r} (index {receipt.index}) against the "
                          f"checkpoint of size {head['size']}")
