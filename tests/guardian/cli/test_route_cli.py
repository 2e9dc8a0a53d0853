"""`guardian route disable / enable / status` on an embedded SQLite audit DB: role checks,
audited changes, and refusals (incl. a concurrent change) as one clean line, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.cli import route as route_cli
from guardian.settings import get_settings

POLICY = Path(__file__).resolve().parents[3] / "policies" / "default.yaml"


@pytest.fixture
def args(tmp_path, monkeypatch) -> list[str]:
    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "home"))
    get_settings.cache_clear()
    yield ["--url", f"sqlite:///{tmp_path / 'audit.db'}", "--policy", str(POLICY)]
    get_settings.cache_clear()


def run(*argv: str):
    return CliRunner().invoke(route_cli.app, list(argv))


def db_mode(args: list[str]) -> str | None:
    out = run("status", "--json", *args)
    assert out.exit_code == 0, out.output
    return {r["route"]: r["db_mode"] for r in json.loads(out.output)["routes"]}["default"]


def test_disable_then_enable_needs_the_oncall_role(args) -> None:
    refused = run("disable", "default", "--reason", "drill", "--role", "release", *args)
    assert refused.exit_code == 1 and "refused:" in refused.output and "oncall" in refused.output
    assert db_mode(args) is None
    ok = run("disable", "default", "--reason", "drill", "--role", "oncall", *args)
    assert ok.exit_code == 0, ok.output
    assert db_mode(args) == "target_only"
    refused = run("enable", "default", "--reason", "fixed", "--role", "release", *args)
    assert refused.exit_code == 1 and "oncall role" in refused.output
    ok = run("enable", "default", "--reason", "fixed", "--role", "oncall", *args)
    assert ok.exit_code == 0, ok.output
    assert db_mode(args) == "speculative"


@pytest.mark.parametrize("command", ["disable", "enable"])
def test_a_concurrent_change_is_refused_cleanly(args, monkeypatch, command) -> None:
    from guardian.governance.routestate import RouteStateStore, StateConflict

    def conflict(self, route, mode, **kwargs):
        raise StateConflict(f"route {route!r} changed concurrently; retry")

    monkeypatch.setattr(RouteStateStore, "set_mode", conflict)
    out = run(command, "default", "--reason", "drill", "--role", "oncall", *args)
    assert out.exit_code == 1
    assert "refused: route 'default' changed concurrently" in out.output
    assert out.exception is None or isinstance(out.exception, SystemExit)
