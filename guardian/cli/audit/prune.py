"""`guardian audit prune`: the command's arguments, key and output. What a prune deletes,
checks and records is `guardian.audit.retention` (`prune_recorded`)."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import typer

from guardian.cli.audit.common import _db, _require_text
from guardian.cli.db import URL_HELP
from guardian.cli.route import DEV_HELP, KEY_HELP, KEYS_FILE_HELP, open_writer


def prune(older_than: str = typer.Option(..., "--older-than",
                                         help="Age (90d, 36h, 2w) or ISO date of the cutoff: at "
                                         "least one day ago, never in the future."),
          url: str | None = typer.Option(None, "--url", help=URL_HELP),
          key: str | None = typer.Option(None, "--key", envvar="GUARDIAN_API_KEY", help=KEY_HELP),
          keys_file: Path | None = typer.Option(None, "--keys-file", help=KEYS_FILE_HELP),
          dev: bool = typer.Option(False, "--dev", envvar="GUARDIAN_DEV_MODE", help=DEV_HELP),
          ) -> None:
    """Delete records older than the cutoff, keeping the remaining chains verifiable.

    Deleting audit records is a retention act: it needs a compliance (or admin) API key, and
    the prune is recorded in the governance log under that key's name."""
    from guardian.audit.retention import PruneNotRecorded, prune_cutoff, prune_recorded
    from guardian.cli.route import authenticate
    from guardian.governance.statesig import floor_events, recorded_versions

    _require_text({"--older-than": older_than, "--url": url, "--keys-file": keys_file})
    try:
        cutoff = prune_cutoff(older_than)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--older-than") from None
    who = authenticate(key, keys_file, dev, roles=("compliance",)).actor
    db = _db(url)
    # The writer first, its start's recovery done, before the prune plans (`prune_recorded`).
    with closing(open_writer(db.url.render_as_string(hide_password=False))) as sink:
        try:
            res = prune_recorded(db, sink, cutoff, actor=who, floor_events=floor_events,
                                 recorded_versions=recorded_versions)
        except PruneNotRecorded as exc:
            typer.echo(f"error: {exc.what} could not be recorded before pruning{exc.db_error} "
                       "(is the audit database writable?); nothing was pruned", err=True)
            raise typer.Exit(1) from None
    typer.echo(f"pruned records before {res.cutoff.isoformat()}: "
               f"{sum(res.deleted.values())} rows deleted, "
               f"{len(res.dropped_partitions)} token partitions dropped, "
               f"{len(res.anchors)} chains anchored")
