"""`guardian audit ...`: read, verify, export and prune the audit trail.

One module per subcommand (`keys` holds the `keys` family), the helpers they share in
`common`; this module builds the Typer `app` from them, in the order `--help` lists them.
"""

from __future__ import annotations

import typer

from guardian.cli.audit import (
    adopt,
    bundle,
    checkpoint,
    export,
    keys,
    prove,
    prune,
    show,
    tiles,
    timestamp,
    verify,
)
from guardian.cli.audit.common import _db, _heads_dir

__all__ = ["_db", "_heads_dir", "app"]

app = typer.Typer(help="Audit trail: show, verify, prove, checkpoint, export, prune, keys.",
                  no_args_is_help=True)
app.command()(show.show)
app.command()(verify.verify)
app.command()(prove.prove)
app.command()(adopt.adopt)
app.add_typer(keys.keys_app, name="keys")
app.command("tiles")(tiles.tiles_cmd)
app.command("bundle")(bundle.bundle_cmd)
app.command("timestamp")(timestamp.timestamp_cmd)
app.command("checkpoint")(checkpoint.checkpoint_cmd)
app.command()(export.export)
app.command()(prune.prune)
