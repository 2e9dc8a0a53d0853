"""`guardian serve`: run the sidecar (FastAPI under uvicorn).

With nothing configured it serves the demo pair with the embedded SQLite audit store, open
(no API keys) on 127.0.0.1 — and says so in its log; on first start it generates the audit
secrets into <home>/secrets.env (0600) and names the file. Anywhere else (a database URL, a
non-loopback bind) it refuses to start without its secrets, unless `--dev`. Options override
the matching `GUARDIAN_*` environment variables; everything else comes from the environment /
`.env` via `guardian.settings`. Connection limits (header/body timeouts, connection cap) are
applied through guardian.connections.
"""

from __future__ import annotations

import os
from pathlib import Path

import typer


def serve(
    host: str | None = typer.Option(None, help="Bind address (env GUARDIAN_HOST; default 127.0.0.1)."),
    port: int | None = typer.Option(None, help="Port (env GUARDIAN_PORT; default 8000)."),
    policy: Path | None = typer.Option(None, exists=True, dir_okay=False,
                                       help="Policy YAML (env GUARDIAN_POLICY_FILE)."),
    keys_file: Path | None = typer.Option(None, exists=True, dir_okay=False,
                                          help="API keys file (env GUARDIAN_API_KEYS_FILE); "
                                               "without one the sidecar runs open on loopback only."),
    log_level: str = typer.Option("info", help="uvicorn log level."),
    dev: bool = typer.Option(False, "--dev", help="Development mode (env GUARDIAN_DEV_MODE=1): "
                             "public development audit secrets when none are configured."),
) -> None:
    """Serve the OpenAI-compatible API with shadow equivalence checks."""
    import uvicorn

    from guardian.audit.config import AuditSettings
    from guardian.auth import AuthConfigError, KeyStore
    from guardian.connections import uvicorn_limits
    from guardian.policy import PolicyError, load_policy
    from guardian.secrets import SecretsError
    from guardian.settings import get_settings

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
    uvicorn.run("guardian.app:create_app", factory=True, host=settings.host, port=settings.port,
                log_level=log_level, timeout_graceful_shutdown=10, **uvicorn_limits(settings))
