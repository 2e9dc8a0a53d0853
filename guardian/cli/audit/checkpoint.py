"""`guardian audit checkpoint`: verify, then write every chain's head signed with HMAC."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from guardian.cli.audit.common import _db, _fail, _out_path, _print_report, _require_text
from guardian.cli.db import URL_HELP


def checkpoint_cmd(out: Path = typer.Option(..., "--out", "-o", help="Where to write the JSON."),
                   url: str | None = typer.Option(None, "--url", help=URL_HELP)) -> None:
    """Verify, then export every chain's head (seq, hash) signed with HMAC-SHA256.

    Keep the file outside the database (ticket, WORM bucket): verifying against it later
    detects deletion of the newest records and any rewrite of the history it covers.
    """
    from guardian.audit.config import AuditSettings
    from guardian.audit.verify import make_checkpoint, verify_db

    _require_text({"--out": out, "--url": url})
    _out_path(out, "--out")
    rep = verify_db(_db(url))
    if not rep.ok:
        _print_report(rep, "audit database (not checkpointing a broken chain)")
    cp = make_checkpoint(rep, AuditSettings().checkpoint_key)
    try:
        out.write_text(json.dumps(cp, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        _fail(f"cannot write {out}: {exc}", 1)
    typer.echo(f"checkpoint of {len(cp['chains'])} chains ({rep.records} records) written to {out}")
