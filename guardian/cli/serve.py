"""`guardian serve`: run the sidecar (FastAPI under uvicorn).

With nothing configured it serves the demo pair with the embedded SQLite audit store, open
(no API keys) on 127.0.0.1 — and says so in its log; on first start it generates the audit
secrets into <home>/secrets.env (0600) and names the file. Anywhere else (a database URL, a
non-loopback bind) it refuses to start without its secrets, unless `--dev`. Options override
the matching `GUARDIAN_*` environment variables; everything else comes from the environment /
`.env` via `guardian.settings`. Connection limits (header/body timeouts, connection cap) are
applied through guardian.api.connections.

The quickstart's first start also produces the gate evidence its `code` route needs to serve
speculatively (`guardian.cli.quickstart`): the real gate on the pair it will serve, with progress,
recorded in the audit store; later starts find the report and start at once.

`--pair smollm2` serves the real model instead of the demo pair: the recipe's pair (built on
first use under home, with a progress bar), `policies/examples/smollm2.yaml` unless a policy is
given, and its golden set for the first-run gate (`RECIPE_PAIRS`).
"""

from __future__ import annotations

import os
from pathlib import Path

import typer

# Pairs `--pair` names besides the demo pair: recipe name -> (example policy, golden set),
# both under policies/ (guardian.core.resources.data_path).
RECIPE_PAIRS = {"smollm2": (("examples", "smollm2.yaml"), ("golden", "smollm2-edit.jsonl"))}


def serve(
    host: str | None = typer.Option(None, help="Bind address (env GUARDIAN_HOST; default 127.0.0.1)."),
    port: int | None = typer.Option(None, min=1, max=65535,
                                    help="Port (env GUARDIAN_PORT; default 8000)."),
    policy: Path | None = typer.Option(None, exists=True, dir_okay=False,
                                       help="Policy YAML (env GUARDIAN_POLICY_FILE)."),
    keys_file: Path | None = typer.Option(None, exists=True, dir_okay=False,
                                          help="API keys file (env GUARDIAN_API_KEYS_FILE); "
                                               "without one the sidecar runs open on loopback only."),
    log_level: str = typer.Option("info", help="uvicorn log level: critical, error, warning, "
                                  "info, debug or trace."),
    dev: bool = typer.Option(False, "--dev", help="Development mode (env GUARDIAN_DEV_MODE=1): "
                             "public development audit secrets when none are configured."),
    first_run_gate: bool = typer.Option(
        True, "--first-run-gate/--no-first-run-gate",
        help="Quickstart only (embedded SQLite, loopback, no keys file): before serving, run "
             "the promotion gate on the pair when a route asks for `speculative` and no passing "
             "gate report exists for it under this policy, and record the report. Without it "
             "such a route serves target_only until `guardian gate` records a passing report."),
    pair: str = typer.Option(
        "demo", "--pair", help="Which pair the quickstart serves when GUARDIAN_DRAFT_DIR / "
        "GUARDIAN_TARGET_DIR are unset: 'demo' (built in ~6 min) or 'smollm2', the real "
        "SmolLM2-135M-Instruct and its draft (`guardian pair build --recipe smollm2`, built on "
        "first use in 6-15 min on 2 cores), served with policies/examples/smollm2.yaml unless "
        "--policy names another."),
) -> None:
    """Serve the OpenAI-compatible API with shadow equivalence checks."""
    import uvicorn

    from guardian.api.connections import uvicorn_limits
    from guardian.audit.config import AuditSettings
    from guardian.cli.envcheck import environment_notes
    from guardian.policy import PolicyError, load_policy
    from guardian.security.auth import AuthConfigError, KeyStore
    from guardian.security.secrets import SecretsError
    from guardian.settings import get_settings

    # Bad options fail before anything is written (secrets, signing key) or served.
    if log_level.lower() not in uvicorn.config.LOG_LEVELS:
        raise typer.BadParameter(f"{log_level!r} is not one of "
                                 f"{', '.join(uvicorn.config.LOG_LEVELS)}",
                                 param_hint="--log-level")
    if pair != "demo" and pair not in RECIPE_PAIRS:
        raise typer.BadParameter(f"{pair!r} is not one of demo, {', '.join(RECIPE_PAIRS)}",
                                 param_hint="--pair")
    # The app factory reads settings from the environment, so options travel that way.
    for name, value in (("HOST", host), ("PORT", port), ("POLICY_FILE", policy),
                        ("API_KEYS_FILE", keys_file)):
        if value is not None:
            os.environ[f"GUARDIAN_{name}"] = str(value)
    if dev:
        os.environ["GUARDIAN_DEV_MODE"] = "1"
    # Before torch loads: OpenMP's default spin-waiting collapses on a small shared CPU
    # (measured: a tiny pair's 12-token generation 2.2 s spinning vs 0.04 s passive).
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    get_settings.cache_clear()
    settings = get_settings()
    golden = None
    if pair != "demo":
        golden = _use_recipe_pair(pair, settings, policy_given=policy is not None
                                  or settings.policy_file is not None)
        get_settings.cache_clear()
        settings = get_settings()
    for note in environment_notes():
        typer.secho(f"warning: {note}", fg=typer.colors.YELLOW, err=True)
    # Fail here, with a readable message, rather than inside uvicorn's startup.
    try:
        load_policy(settings.policy_file)
        KeyStore.for_server(settings.api_keys_file, settings.host)
        # Generates the quickstart's secrets file on first start; the app reads it again.
        AuditSettings.for_server(settings, announce=False)
        # The signing key of the audit heads (generated only in dev mode / quickstart).
        from guardian.audit.heads import heads_config
        from guardian.audit.writer import default_replica_id

        heads_config(settings, settings.replica_id or default_replica_id())
    except (PolicyError, AuthConfigError, SecretsError) as exc:
        typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
        raise typer.Exit(2) from exc
    from guardian.cli import quickstart

    if first_run_gate and quickstart.applies(settings):
        _first_run_gate(settings, load_policy(settings.policy_file), golden)
    uvicorn.run("guardian.app:create_app", factory=True, host=settings.host, port=settings.port,
                log_level=log_level.lower(), timeout_graceful_shutdown=10, **uvicorn_limits(settings))


def _use_recipe_pair(name: str, settings: object, *, policy_given: bool) -> Path:
    """Point the settings (through the environment the app reads) at recipe pair `name`,
    built first if absent, and at its example policy unless one is given -> its golden set."""
    from guardian.backends.local import demo_home, ensure_private_recipe_pair
    from guardian.core.resources import data_path

    if settings.draft_dir or settings.target_dir:  # type: ignore[attr-defined]
        raise typer.BadParameter("GUARDIAN_DRAFT_DIR / GUARDIAN_TARGET_DIR already name a pair; "
                                 "unset them to serve a recipe's", param_hint="--pair")
    from engine.recipes.fetch import FetchError

    try:
        paths = ensure_private_recipe_pair(name, demo_home(settings))  # type: ignore[arg-type]
    except FetchError as exc:  # no package index, or a file that fails its pin
        typer.secho(f"error: cannot build the {name} pair: {exc}", fg=typer.colors.RED, err=True)
        raise typer.Exit(2) from exc
    os.environ["GUARDIAN_DRAFT_DIR"] = str(paths.draft_dir)
    os.environ["GUARDIAN_TARGET_DIR"] = str(paths.target_dir)
    policy_file, golden = RECIPE_PAIRS[name]
    if not policy_given:
        os.environ["GUARDIAN_POLICY_FILE"] = str(data_path("policies", *policy_file))
    return data_path("policies", *golden)


def _first_run_gate(settings: object, policy: object, golden: Path | None = None) -> None:
    """Find or produce the gate report the quickstart's speculative routes need; say which
    routes will speculate and which serve target_only, and why."""
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import TaskID

    from guardian.cli import quickstart
    from guardian.cli.gatebar import advance, gate_bar

    console = Console(stderr=True, soft_wrap=True)  # whole lines in a log file, too
    if not quickstart.gated_routes(policy):  # type: ignore[arg-type]
        return
    progress = gate_bar(console)
    task: list[TaskID] = []

    def on_start(message: str, total: int) -> None:
        console.print(f"First run: no gate report yet for this pair under this policy, so the "
                      f"gate runs now ({message}). Later starts reuse the recorded report.")
        progress.start()
        task.append(progress.add_task("", total=total))

    try:
        out = quickstart.ensure_gate_report(settings, policy, on_start=on_start,  # type: ignore[arg-type]
                                            on_prompt=lambda r: advance(progress, task[0], r),
                                            golden=golden or quickstart.GOLDEN_FILE)
    finally:
        progress.stop()
    routes = ", ".join(r for r in out.routes if r not in out.held_back)
    if out.ran:
        for c in out.checks:
            style = {"pass": "green", "fail": "red"}.get(str(c.get("outcome")), "dim")
            console.print(f"  [{style}]{c.get('outcome'):>7}[/{style}]  {c.get('name')}: "
                          f"{c.get('detail', '')}")
    if out.refusal is None:
        serving = f"route(s) {routes} serve speculatively" if routes else "no route speculates"
        console.print(f"[green]gate passed[/] for pair {out.pair_hash[:12]} under policy "
                      f"{out.policy_hash[:12]} ({'recorded now' if out.ran else 'recorded earlier'}"
                      f"): {serving}.")
    elif routes:
        console.print(f"[yellow]route(s) {routes} serve target_only[/]: {out.refusal}")
    for route, why in sorted(out.held_back.items()):  # the database's state wins over the file
        console.print(f"[yellow]route {route} serves target_only[/]: the route state says "
                      f"{escape(why)} (`guardian route enable {route}` resumes it).")
