"""`guardian pair ...`: build the demo pair, inspect a pair, generate with it.

Commands import the engine inside their bodies so `guardian --help` stays instant.
"""

from __future__ import annotations

from pathlib import Path

import typer

app = typer.Typer(help="Model pairs: build the demo pair, show identity, generate.", no_args_is_help=True)


@app.command("build-demo")
def build_demo(
    home: Path | None = typer.Option(
        None, "--home", help="Data directory (default: $GUARDIAN_HOME or ~/.cache/spec-guardian)."),
    force: bool = typer.Option(False, "--force", help="Rebuild even if the demo pair is already built."),
) -> None:
    """Build the offline demo draft/target pair (trained on the stdlib's source; ~4 min on 2 CPUs)."""
    import os

    # Before torch starts OpenMP: sleeping (not spinning) idle threads keep a build on a
    # busy, shared CPU from running ~4x slower (see engine/demo_pair/__main__.py).
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from rich.console import Console

    from engine.demo_pair import ensure_demo_pair
    from guardian.settings import get_settings

    console = Console()
    try:
        # Settings, not only the env var: GUARDIAN_HOME may come from the .env file.
        paths = ensure_demo_pair(home or get_settings().home, progress=True, force=force)
    except OSError as exc:
        console.print(f"[red]Could not build the demo pair:[/red] {exc}. "
                      "Check that --home (or GUARDIAN_HOME) is a writable directory with ~50 MB free.")
        raise typer.Exit(code=1) from None
    manifest = paths.manifest
    console.print(f"draft:  {paths.draft_dir}  ({manifest['params']['draft']:,} params)")
    console.print(f"target: {paths.target_dir}  ({manifest['params']['target']:,} params, "
                  f"held-out loss {manifest['target']['heldout_loss']:.2f})")
