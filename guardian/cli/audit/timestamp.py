"""`guardian audit timestamp`: RFC 3161 timestamps of each chain's latest checkpoint."""

from __future__ import annotations

from pathlib import Path

import typer

from guardian.cli.audit.common import HEADS_HELP, _fail, _heads_dir, _require_text


def timestamp_cmd(tsa: str = typer.Option(..., "--tsa", help="URL of an RFC 3161 "
                                          "Time-Stamp Authority (HTTP POST)."),
                  heads_dir: Path | None = typer.Option(None, "--heads-dir", help=HEADS_HELP),
                  ) -> None:
    """Get each chain's latest C2SP checkpoint timestamped by an RFC 3161 TSA; the token is
    kept as <heads dir>/<chain>/timestamps/<size>.tsr beside the exact bytes stamped
    (check: `openssl ts -verify -data <size>.checkpoint -in <size>.tsr -CAfile tsa.pem`)."""
    from guardian.audit.timestamps import TimestampError, stamp_checkpoint

    _require_text({"--tsa": tsa, "--heads-dir": heads_dir})
    if not tsa.startswith(("http://", "https://")):
        _fail(f"--tsa {tsa!r}: an http:// or https:// URL")
    hdir = _heads_dir(heads_dir)
    failed = False
    for chain_dir in sorted(p.parent for p in hdir.glob("*/checkpoints.jsonl")):
        try:
            typer.echo(f"{chain_dir.name}: {stamp_checkpoint(chain_dir, tsa)}")
        except TimestampError as exc:
            typer.secho(f"{chain_dir.name}: no timestamp: {exc}", fg="red", err=True)
            failed = True
    raise typer.Exit(1 if failed else 0)
