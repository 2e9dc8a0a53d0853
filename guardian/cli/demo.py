"""`guardian demo`: drive true traffic through the real sidecar so the dashboard has data.

Register in guardian/cli/__init__.py:
    from guardian.cli import demo            (with the other sub-app imports)
    app.command("demo", help=demo.demo.__doc__)(demo.demo)
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import typer


def demo(
    requests: int = typer.Option(120, "--requests", "-n", min=3, max=2000,
                                 help="Requests to send, round-robin over the demo's three routes "
                                      "(the `drifting` route needs ~66 in all to roll back)."),
    time_limit: float = typer.Option(600.0, "--time-limit", min=1.0,
                                     help="Seconds of traffic at most (the sidecar's start-up "
                                          "and a first-run demo pair build are not counted)."),
    max_tokens: int = typer.Option(32, "--max-tokens", min=1, max=256,
                                   help="max_tokens per request."),
    home: Path | None = typer.Option(None, "--home", file_okay=False,
                                     help="GUARDIAN_HOME for the sidecar (its SQLite DB unless "
                                          "GUARDIAN_DATABASE_URL is set). Default: the settings' "
                                          "home (GUARDIAN_HOME, env or .env; else "
                                          "~/.cache/spec-guardian)."),
    keep_running: bool = typer.Option(False, "--keep-running/--no-keep-running",
                                      help="Keep the sidecar serving after the demo (Ctrl-C stops)."),
    seed: int = typer.Option(0, help="Seed for the prompt plan and sampled requests."),
    json_out: Path | None = typer.Option(None, "--json", dir_okay=False,
                                         help="Also write the summary here as JSON."),
    dev: bool = typer.Option(False, "--dev", help="Development mode for the sidecar "
                             "(GUARDIAN_DEV_MODE=1): public development audit secrets when "
                             "none are configured."),
) -> None:
    """Drive realistic traffic through the real sidecar (several routes, greedy and sampled, one
    route that drifts and gets rolled back) so that every dashboard page has true data."""
    import logging

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from guardian.devtools.demo import MIN_DRIFT_REQUESTS, run_demo
    from guardian.security.secrets import SecretsError

    if json_out is not None and not json_out.parent.is_dir():  # not after minutes of traffic
        raise typer.BadParameter(f"the directory {json_out.parent} does not exist",
                                 param_hint="--json")
    if json_out is not None and not os.access(json_out.parent, os.W_OK):
        raise typer.BadParameter(f"the directory {json_out.parent} is not writable",
                                 param_hint="--json")
    if dev:
        os.environ["GUARDIAN_DEV_MODE"] = "1"  # the sidecar child inherits it
    console = Console()
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request otherwise
    if requests < 3 * MIN_DRIFT_REQUESTS:
        console.print(f"[yellow]note:[/] with {requests} requests the `drifting` route gets "
                      f"{len(range(2, requests, 3))}; it needs ~{MIN_DRIFT_REQUESTS} to drift far "
                      "enough to roll back.")
    console.print("Starting the sidecar (policies/examples/demo.yaml; builds the demo pair on the "
                  "first run)...")
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), TextColumn("{task.fields[status]}"), console=console)
    task: dict[str, Any] = {}

    def on_start(total: int) -> None:
        task["id"] = progress.add_task("demo traffic", total=total, status="")

    def on_done(req: Any, ext: dict[str, Any] | None) -> None:
        status = (f"{req.route}: {ext['served_path']}" if ext is not None
                  else f"{req.route}: error")
        progress.update(task["id"], advance=1, status=status)

    def on_summary(summary: Any) -> None:
        progress.stop()
        _print(console, summary)
        if json_out is not None:
            json_out.write_text(json.dumps(summary.__dict__, default=str, indent=2))
        if keep_running:
            console.print(f"Sidecar still serving at {summary.url} (open, loopback). Ctrl-C stops it.")

    try:
        with progress:
            summary = run_demo(requests=requests, max_tokens=max_tokens,
                               time_limit_s=time_limit, home=home, seed=seed,
                               keep_running=keep_running, on_start=on_start, on_done=on_done,
                               on_summary=on_summary)
    except SecretsError as exc:
        typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
        raise typer.Exit(2) from exc
    if summary.errors:
        raise typer.Exit(1)


def _print(console: Any, s: Any) -> None:
    from rich.table import Table

    console.print(f"\n[bold]guardian demo[/]: {s.sent} requests in {s.wall_s:.1f} s, "
                  f"{s.errors} errors -> {s.database_url}")
    for e in s.error_samples:
        console.print(f"  [red]error[/] {e}")
    t = Table(title="requests per route (from the audit DB)")
    for col in ("route", "served speculative", "served target_only", "shadow verdicts",
                "route mode now"):
        t.add_column(col)
    for route in sorted(set(s.requests_per_route) | set(s.verdicts)):
        paths = s.requests_per_route.get(route, {})
        verdicts = ", ".join(f"{k} {v}" for k, v in sorted(s.verdicts.get(route, {}).items()))
        t.add_row(route, str(paths.get("speculative", 0)), str(paths.get("target_only", 0)),
                  verdicts or "-", s.route_modes.get(route, "?"))
    console.print(t)
    console.print("decoding: " + ", ".join(f"{k} {v}" for k, v in sorted(s.sampling.items())))
    if s.rollbacks:
        for rb in s.rollbacks:
            console.print(f"[bold red]rollback[/] route {rb['route']} by {rb['actor']} at "
                          f"{rb['at']}: fired {', '.join(rb['fired'])} ({rb['reason']})")
    else:
        console.print("no rollback fired (send more requests: `--requests 120`)")
    # --dev: this local demo's dashboard, loopback only and no login; without it the
    # dashboard asks for --keys-file (it refuses to start with neither).
    if os.environ.get("GUARDIAN_DATABASE_URL"):
        command = "guardian dashboard --dev   # reads GUARDIAN_DATABASE_URL, as the demo did"
    else:
        command = f"guardian dashboard --dev --url {s.database_url}"
    console.print(f"\nLook at it:  [bold]{command}[/]")
