"""`guardian audit adopt`: sign a final head over reviewed unattested chains."""

from __future__ import annotations

from pathlib import Path

import typer

from guardian.cli.audit.common import (
    HEADS_HELP,
    TRUST_HELP,
    _db,
    _fail,
    _heads_dir,
    _require_text,
    _trust,
)
from guardian.cli.db import URL_HELP


def adopt(chains: list[str] | None = typer.Argument(None, help="Chain ids (default: every "
                                                    "unattested chain)."),
          url: str | None = typer.Option(None, "--url", help=URL_HELP),
          heads_dir: Path | None = typer.Option(None, "--heads-dir", help=HEADS_HELP),
          trust: Path | None = typer.Option(None, "--trust", help=TRUST_HELP),
          yes: bool = typer.Option(False, "--yes", help="Confirm: I reviewed these records."),
          ) -> None:
    """Sign a final head over unattested chains: chains written before signed heads existed
    (after an upgrade), or a crashed writer's unattested tail once reviewed. Refused for a
    chain with any other problem (it must verify, and match every existing head)."""
    from guardian.audit.adopt import adoptable, sign_final_heads
    from guardian.audit.signing import SigningError, signer_for
    from guardian.audit.writer import default_replica_id
    from guardian.settings import get_settings

    if not yes:
        typer.secho("adopting attests records nobody signed so far: review them, then pass "
                    "--yes", fg="red", err=True)
        raise typer.Exit(1)
    _require_text({"CHAINS": chains, "--url": url, "--heads-dir": heads_dir, "--trust": trust})
    hdir, trust_doc = _heads_dir(heads_dir), _trust(trust, missing_ok=True)
    db = _db(url)
    wanted, refused = adoptable(db, hdir, trust_doc, chains or None)
    done: list[str] = []
    if wanted:  # a signing key only once there is something to sign
        settings = get_settings()
        replica = settings.replica_id or default_replica_id()
        try:
            signer = signer_for(settings, replica)
        except SigningError as exc:
            _fail(str(exc), 1)
        done = sign_final_heads(db, hdir, wanted, signer, replica)
    elif not refused:
        typer.echo("nothing to adopt: no unattested chain in the database")
    for line in done:
        typer.echo(f"adopted {line}")
    for line in refused:
        typer.secho(f"refused {line}", fg="red", err=True)
    if refused:
        raise typer.Exit(1)
