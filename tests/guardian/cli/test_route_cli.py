"""`guardian route disable / enable / status` on an embedded SQLite audit DB: acts
authenticated by API key (the role comes from the key), audited changes, and refusals (incl.
a concurrent change) as one clean line, never a traceback."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.cli import route as route_cli
from guardian.settings import get_settings
from tests.support.governance import write_keys

POLICY = Path(__file__).resolve().parents[3] / "policies" / "default.yaml"


@pytest.fixture
def args(tmp_path, monkeypatch) -> list[str]:
    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "home"))
    for name in ("GUARDIAN_API_KEY", "GUARDIAN_API_KEYS_FILE", "GUARDIAN_DEV_MODE"):
        monkeypatch.delenv(name, raising=False)
    # Out of dev mode the audit writer needs real secrets, as in production.
    monkeypatch.setenv("GUARDIAN_AUDIT_SALT", "route-cli-test-salt-0123456789")
    monkeypatch.setenv("GUARDIAN_AUDIT_CHECKPOINT_KEY", "route-cli-test-key-0123456789")
    get_settings.cache_clear()
    yield ["--url", f"sqlite:///{tmp_path / 'audit.db'}", "--policy", str(POLICY)]
    get_settings.cache_clear()


@pytest.fixture
def keys(tmp_path) -> Callable[[str], list[str]]:
    """role -> the CLI arguments that act with that role's key (tmp_path/keys.yaml)."""
    path = tmp_path / "keys.yaml"
    plain = write_keys(path)
    return lambda role: ["--key", plain[role], "--keys-file", str(path)]


def run(*argv: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(route_cli.app, list(argv), env=env)


def db_mode(args: list[str]) -> str | None:
    out = run("status", "--json", *args)
    assert out.exit_code == 0, out.output
    return {r["route"]: r["db_mode"] for r in json.loads(out.output)["routes"]}["default"]


def register_gated_pair(args: list[str], tmp_path: Path, *, report: bool = True) -> str:
    """A registered pair (and, with `report`, a passing gate report for it under POLICY)."""
    from engine.identity import PairIdentity
    from guardian.core.db import make_engine
    from guardian.governance.registry import PairRegistry
    from guardian.policy import load_policy_file
    from tests.support.governance import record_report

    status_rows(args)  # migrates the embedded DB
    pair = "ab" * 32
    db = make_engine(args[1])
    PairRegistry(db).register(PairIdentity(pair, "d", "t", "tok", "tpl", "draft", "target"),
                              actor="test")
    if report:
        record_report(db, pair, load_policy_file(POLICY).content_hash, tmp_path / "spool")
    return pair


def test_disable_then_enable_need_the_oncall_role_from_the_key(args, keys, tmp_path) -> None:
    refused = run("disable", "default", "--reason", "drill", *keys("release"), *args)
    assert refused.exit_code == 1 and "refused:" in refused.output and "oncall" in refused.output
    assert db_mode(args) is None
    ok = run("disable", "default", "--reason", "drill", *keys("oncall"), *args)
    assert ok.exit_code == 0, ok.output
    assert "audited as api-key:oncall-cli" in ok.output
    assert db_mode(args) == "target_only"
    assert status_rows(args)["default"]["updated_by"] == "api-key:oncall-cli"
    refused = run("enable", "default", "--reason", "fixed", *keys("release"), *args)
    assert refused.exit_code == 1 and "oncall role" in refused.output
    # Turning speculation on needs a passing gate report for the pair (issue 13).
    refused = run("enable", "default", "--reason", "fixed", *keys("oncall"), *args)
    assert refused.exit_code == 1 and "no gate report for pair" in refused.output
    assert db_mode(args) == "target_only"
    pair = register_gated_pair(args, tmp_path)
    ok = run("enable", "default", "--reason", "fixed", "--pair", pair[:8], *keys("oncall"), *args)
    assert ok.exit_code == 0, ok.output
    row = status_rows(args)["default"]
    assert (row["db_mode"], row["pair"], row["updated_by"]) == ("speculative", pair,
                                                                "api-key:oncall-cli")


@pytest.mark.parametrize("command", ["disable", "enable"])
def test_a_concurrent_change_is_refused_cleanly(args, keys, monkeypatch, command) -> None:
    from guardian.governance.routestate import RouteStateStore, StateConflict

    def conflict(self, route, mode, **kwargs):
        raise StateConflict(f"route {route!r} changed concurrently; retry")

    monkeypatch.setattr(RouteStateStore, "set_mode", conflict)
    # (re-enabling checks the gate report first: let it pass)
    monkeypatch.setattr("guardian.governance.rollback.speculation_evidence", lambda *a, **k: {})
    out = run(command, "default", "--reason", "drill", *keys("oncall"), *args)
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
    assert set(rows) == {"default", "code", "retired-route"}  # policy routes + the DB-only one
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


# --- authentication of CLI acts (issue 13, item 7) ----------------------------------------
def _one_clean_line(out) -> str:
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
    assert "Traceback" not in out.output
    lines = [line for line in out.output.splitlines() if line.strip()]
    assert len(lines) == 1, out.output
    return lines[0]


@pytest.mark.parametrize("command", ["disable", "enable"])
def test_without_a_keys_file_acts_are_refused_unless_dev(args, command) -> None:
    out = run(command, "default", "--reason", "drill", *args)
    assert out.exit_code == 2
    line = _one_clean_line(out)
    assert "no API keys file" in line and "--dev" in line
    # A key alone is no identity either: there is nothing to check it against.
    out = run(command, "default", "--reason", "drill", "--key", "sg-whatever", *args)
    assert out.exit_code == 2 and "no API keys file" in _one_clean_line(out)
    assert db_mode(args) is None


def test_dev_mode_acts_as_admin_audited_as_the_os_user(args, monkeypatch) -> None:
    """The OS account is the uid's, not $LOGNAME's (which the caller sets), and the act's
    record says it came from the CLI, from which account, uid and host."""
    import os
    import pwd
    import socket

    import sqlalchemy as sa

    from guardian.audit.models import AuditGovernance
    from guardian.core.db import make_engine

    account = pwd.getpwuid(os.getuid()).pw_name
    monkeypatch.setenv("LOGNAME", "someone-else")
    monkeypatch.setenv("USER", "someone-else")
    out = run("disable", "default", "--reason", "drill", "--dev", *args)
    assert out.exit_code == 0, out.output
    who = f"cli-dev:{account}"
    assert "dev mode" in out.output and status_rows(args)["default"]["updated_by"] == who
    t = AuditGovernance.__table__
    with make_engine(args[1]).connect() as conn:
        actor, details = conn.execute(sa.select(t.c.actor, t.c.details).where(
            t.c.kind == "rollback")).one()
    assert actor == who
    assert details["origin"] == {"via": "cli", "os_user": account, "uid": os.getuid(),
                                 "host": socket.gethostname(), "key_id": None, "role": "admin"}
    out = run("disable", "default", "--reason", "again", *args, env={"GUARDIAN_DEV_MODE": "1"})
    assert out.exit_code == 0, out.output


def test_the_dev_flag_is_dev_mode_for_the_audit_too(args, monkeypatch) -> None:
    """`--dev` is GUARDIAN_DEV_MODE=1, as `guardian serve --dev` is: on a development
    database without audit secrets the act runs and is audited with the development secrets
    (it used to authenticate as dev, then fail for want of secrets)."""
    for name in ("GUARDIAN_AUDIT_SALT", "GUARDIAN_AUDIT_CHECKPOINT_KEY"):
        monkeypatch.delenv(name, raising=False)
    out = run("disable", "default", "--reason", "drill", "--dev", *args)
    assert out.exit_code == 0, out.output
    assert status_rows(args)["default"]["db_mode"] == "target_only"


def test_the_key_comes_from_the_environment_and_the_role_from_the_key(args, tmp_path) -> None:
    plain = write_keys(tmp_path / "keys.yaml")
    env = {"GUARDIAN_API_KEY": plain["oncall"], "GUARDIAN_API_KEYS_FILE": str(tmp_path / "keys.yaml")}
    get_settings.cache_clear()
    out = run("disable", "default", "--reason", "drill", *args, env=env)
    assert out.exit_code == 0, out.output
    assert status_rows(args)["default"]["updated_by"] == "api-key:oncall-cli"
    # There is no --role to claim a role with any more.
    out = run("disable", "default", "--reason", "drill", "--role", "admin", *args, env=env)
    assert out.exit_code == 2 and "No such option" in out.output


def test_bad_credentials_are_one_line_each(args, keys, tmp_path) -> None:
    path = keys("oncall")[3]
    out = run("disable", "default", "--reason", "x", "--keys-file", path, *args)
    assert out.exit_code == 2 and "an API key is needed" in _one_clean_line(out)
    out = run("disable", "default", "--reason", "x", "--key", "sg-forged", "--keys-file", path,
              *args)
    assert out.exit_code == 1 and "the API key is not in" in _one_clean_line(out)
    broken = tmp_path / "broken.yaml"
    broken.write_text("keys: [{name: x}]\n")
    out = run("disable", "default", "--reason", "x", "--key", "sg-a", "--keys-file", str(broken),
              *args)
    assert out.exit_code == 2 and "needs name, role and sha256" in _one_clean_line(out)
    out = run("disable", "default", "--reason", "x", "--key", "sg-a", "--keys-file",
              str(tmp_path / "missing.yaml"), *args)
    assert out.exit_code == 2 and "cannot read API keys file" in _one_clean_line(out)
    assert db_mode(args) is None


def _governance(args: list[str], kind: str) -> list[dict]:
    import sqlalchemy as sa

    from guardian.audit.models import AuditGovernance
    from guardian.core.db import make_engine

    t = AuditGovernance.__table__
    with make_engine(args[1]).connect() as conn:
        rows = conn.execute(sa.select(t.c.actor, t.c.details).where(t.c.kind == kind)).all()
    return [{"actor": a, **d} for a, d in rows]


def test_override_is_for_admin_keys_with_a_reason_and_audited(args, keys, tmp_path) -> None:
    pair = register_gated_pair(args, tmp_path, report=False)  # registered, never gated
    out = run("promote", "default", "--pair", pair[:8], *keys("release"), *args)
    assert out.exit_code == 1 and "no gate report for pair" in out.output
    out = run("promote", "default", "--pair", pair[:8], "--override", *keys("release"),
              "--reason", "trust me", *args)
    assert out.exit_code == 1 and "admin role" in _one_clean_line(out)
    out = run("promote", "default", "--pair", pair[:8], "--override", *keys("admin"), *args)
    assert out.exit_code == 2 and "--override needs --reason" in _one_clean_line(out)
    assert db_mode(args) is None
    out = run("promote", "default", "--pair", pair[:8], "--override", *keys("admin"),
              "--reason", "gate runner down; verified by hand (INC-7)", *args)
    assert out.exit_code == 0, out.output
    assert "gate OVERRIDDEN" in out.output and db_mode(args) == "speculative"
    [event] = _governance(args, "promotion")
    assert event["actor"] == event["override"]["by"] == "api-key:admin-cli"
    assert event["override"]["reason"] == "gate runner down; verified by hand (INC-7)"
    assert "no gate report" in event["override"]["refusal"]
    # and enable: an on-call key cannot override, an admin key can
    assert run("disable", "default", "--reason", "drill", *keys("oncall"), *args).exit_code == 0
    out = run("enable", "default", "--reason", "fine", "--pair", pair[:8], "--override",
              *keys("oncall"), *args)
    assert out.exit_code == 1 and "admin role" in out.output
    out = run("enable", "default", "--reason", "fine", "--pair", pair[:8], "--override",
              *keys("admin"), *args)
    assert out.exit_code == 0, out.output
    [event] = _governance(args, "reenable")
    assert event["override"]["by"] == "api-key:admin-cli" and event["override"]["reason"] == "fine"


def test_status_prints_stored_text_literally(args) -> None:
    """A reason or actor holding rich markup ("[/bold]" closes a tag never opened) is shown as
    typed - it crashed `route status` with a MarkupError for every operator before."""
    from guardian.governance.routestate import RouteStateStore

    status_rows(args)
    RouteStateStore.from_url(args[1]).set_mode("default", "target_only", actor="api-key:[/red]x",
                                               reason="[/bold] drift [red]confirmed[/red]")
    table = run("status", *args, env={"COLUMNS": "400"})  # room for the `why` column
    assert table.exit_code == 0, table.output
    assert "[/bold]" in table.output and "[red]confirmed[/red]" in table.output


def test_status_shows_a_forged_speculative_state_as_serving_does(args) -> None:
    """A speculative route-state row with no signed evidence behind it (someone who can write
    the database wrote it) serves target_only, and `route status` says so, with why — not
    the row's word (dashboard/data.py asks the same `route_modes`)."""
    from guardian.governance.routestate import RouteStateStore
    from guardian.policy import load_policy_file

    status_rows(args)  # migrates the embedded DB
    RouteStateStore.from_url(args[1]).set_mode(
        "default", "speculative", actor="api-key:release-1", reason="promotion",
        pair_hash="a" * 64, policy_hash=load_policy_file(POLICY).content_hash)
    row = status_rows(args)["default"]
    assert row["db_mode"] == "speculative" and row["effective_mode"] == "target_only"
    assert row["decided_by"] == "gate" and "route state says speculative" in row["why"]
