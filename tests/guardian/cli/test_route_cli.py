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


def status_rows(args: list[str]) -> dict[str, dict]:
    out = run("status", "--json", *args)
    assert out.exit_code == 0, out.output
    return {r["route"]: r for r in json.loads(out.output)["routes"]}


def test_status_lists_routes_that_exist_only_in_the_database(args) -> None:
    from guardian.governance.routestate import RouteStateStore

    status_rows(args)  # migrates the embedded DB
    RouteStateStore.from_url(args[1]).set_mode("retired-route", "speculative", actor="test",
                                               reason="left over from an old policy")
    rows = status_rows(args)
    assert set(rows) == {"default", "retired-route"}
    old = rows["retired-route"]
    # No replica serves a route its policy does not name, whatever the database row says.
    assert old["policy_mode"] is None and old["db_mode"] == "speculative"
    assert old["effective_mode"] is None and "not in the policy file" in old["why"]
    table = run("status", *args)
    assert table.exit_code == 0 and "retired-route" in table.output


@pytest.mark.parametrize("require_report", [True, False])
def test_status_in_force_is_what_the_serving_resolver_answers(args, tmp_path, require_report) -> None:
    from guardian.governance.routestate import ModeResolver, RouteStateStore
    from guardian.policy import load_policy_file

    policy_file = tmp_path / "spec.yaml"
    policy_file.write_text("routes:\n  default:\n    mode: speculative\n    gate:\n"
                           f"      require_report: {str(require_report).lower()}\n")
    argv = [*args[:2], "--policy", str(policy_file)]
    row = status_rows(argv)["default"]
    policy = load_policy_file(policy_file)
    served = ModeResolver(RouteStateStore.from_url(args[1])).decide("default", "speculative", policy)
    assert (row["effective_mode"], row["why"]) == (served.mode, served.reason)
    if require_report:  # a file's `speculative` without a passing gate report serves target_only
        assert row["effective_mode"] == "target_only" and "no gate report" in row["why"]
    else:
        assert row["effective_mode"] == "speculative"
