"""`guardian canary start / advance / abort / status` on an embedded SQLite audit DB: the
role from the API key, the gate report, audited steps, one-line refusals; `status` loads
no torch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa
from typer.testing import CliRunner

from guardian.cli import canary as canary_cli
from tests.guardian.cli.test_light_commands import PROBE
from tests.guardian.cli.test_route_cli import (  # noqa: F401  (fixtures)
    args,
    db_mode,
    keys,
    register_gated_pair,
)


def run(*argv: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(canary_cli.app, list(argv))


def canaries(args: list[str]) -> dict:  # noqa: F811
    out = run("status", "--json", args[0], args[1])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)["canaries"]


def test_canary_steps_from_the_cli(args, keys, tmp_path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    refused = run("start", "default", "--pair", "ab", "--reason", "v2", *keys("release"), *args)
    assert refused.exit_code == 1 and "refused:" in refused.output  # no such pair yet
    pair = register_gated_pair(args, tmp_path)
    refused = run("start", "default", "--pair", pair[:8], "--reason", "v2", *keys("oncall"), *args)
    assert refused.exit_code == 1 and "roles release" in refused.output
    assert "Traceback" not in refused.output
    ok = run("start", "default", "--pair", pair[:8], "--reason", "v2", *keys("release"), *args)
    assert ok.exit_code == 0, ok.output
    assert "canary started at 1%" in ok.output and "api-key:release-cli" in ok.output
    assert canaries(args)["default"]["weight_pct"] == 1.0
    assert db_mode(args) == "speculative"
    from guardian.cli import route as route_cli

    out = CliRunner().invoke(route_cli.app, ["status", "--json", *args])
    row = {r["route"]: r for r in json.loads(out.output)["routes"]}["default"]
    assert row["decided_by"] == "canary" and "1% of requests" in row["why"]
    ok = run("advance", "default", "--reason", "fine", *keys("release"), *args)
    assert ok.exit_code == 0 and "canary at 5%" in ok.output, ok.output
    refused = run("advance", "default", "--reason", "fine", *keys("inference"), *args)
    assert refused.exit_code == 1
    ok = run("abort", "default", "--reason", "p99 up", *keys("oncall"), *args)
    assert ok.exit_code == 0, ok.output
    row = canaries(args)["default"]
    assert (row["status"], row["weight_pct"], row["updated_by"]) == ("aborted", 0.0,
                                                                     "api-key:oncall-cli")
    assert db_mode(args) == "target_only"
    refused = run("abort", "default", "--reason", "again", *keys("oncall"), *args)
    assert refused.exit_code == 1 and "no canary runs" in refused.output
    # every step is a governance event in the audit store, with who and why
    db = sa.create_engine(args[1])
    with db.connect() as conn:
        rows = conn.execute(sa.text("SELECT actor, details FROM audit_governance "
                                    "WHERE kind = 'canary' ORDER BY created_at")).all()
    details = [(actor, json.loads(d)["action"], json.loads(d)["reason"]) for actor, d in rows]
    assert details == [("api-key:release-cli", "start", "v2"),
                       ("api-key:release-cli", "advance", "fine"),
                       ("api-key:oncall-cli", "abort", "p99 up")]


def test_canary_status_imports_no_torch(tmp_path: Path) -> None:
    env = {"GUARDIAN_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "GUARDIAN_DEV_MODE": "1"}
    for argv in (["db", "upgrade"], ["canary", "status"]):
        out = subprocess.run([sys.executable, "-c", PROBE, *argv], env=env, capture_output=True,
                             text=True, timeout=120)
        assert "EXIT=0" in out.stdout, out.stdout + out.stderr
    assert "no canary has run" in out.stdout
    assert out.stdout.strip().splitlines()[-1] == "HEAVY="
