"""`guardian audit tiles`: a static c2sp.org/tlog-tiles view of every chain."""

from __future__ import annotations

from pathlib import Path

import typer

from guardian.cli.audit.common import HEADS_HELP, _db, _fail, _heads_dir, _require_text
from guardian.cli.db import URL_HELP


def tiles_cmd(out: Path = typer.Option(..., "--out", "-o", help="Directory to write (one "
                                       "sub-directory per chain)."),
              url: str | None = typer.Option(None, "--url", help=URL_HELP),
              heads_dir: Path | None = typer.Option(None, "--heads-dir", help=HEADS_HELP),
              ) -> None:
    """Write a static c2sp.org/tlog-tiles view of every chain: checkpoint, hash tiles and
    entry bundles (record hashes only), for a web server or a mirror to serve."""
    import json as _json

    from guardian.audit.heads import chain_dirname
    from guardian.audit.proofs import ProveError
    from guardian.audit.tiles import write_tiles

    _require_text({"--out": out, "--url": url, "--heads-dir": heads_dir})
    if out.exists() and not out.is_dir():
        _fail(f"--out {out} is not a directory")
    hdir = _heads_dir(heads_dir)
    db = _db(url)
    failed = False
    for latest in sorted(hdir.glob("*/latest.json")):
        cid = _json.loads(latest.read_text(encoding="utf-8"))["chain_id"]
        try:
            size, files = write_tiles(db, latest.parent, cid, out / chain_dirname(cid))
        except ProveError as exc:
            typer.secho(f"{cid}: no tiles: {exc}", fg="red", err=True)
            failed = True
            continue
        typer.echo(f"{cid}: {files} files for the checkpoint of size {size} in "
                   f"{out / chain_dirname(cid)}")
    raise typer.Exit(1 if failed else 0)
