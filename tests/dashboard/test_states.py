"""Empty and broken databases, read-only sessions, the `guardian dashboard` command."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
import typer
from typer.testing import CliRunner

from guardian.devtools.benchmarks.dashboard_bench import PAGES

pytestmark = pytest.mark.slow


@pytest.fixture
def empty_db(sqlite_url: str) -> str:
    from guardian.audit import upgrade

    upgrade(sqlite_url)
    return sqlite_url


@pytest.mark.parametrize("page", sorted({*PAGES, "executive"}))
def test_empty_store_explains_what_would_appear(empty_db, open_page, page) -> None:  # type: ignore[no-untyped-def]
    at = open_page(empty_db, page)
    assert not at.error or page == "policy"  # nothing is wrong with an empty store
    if page != "policy":
        assert at.info, "an empty page must say what would appear there and why it is empty"
        assert any(w in " ".join(i.value for i in at.info)
                   for w in ("appear", "No request", "No speculative"))


def test_missing_schema_says_run_upgrade(sqlite_url, open_page) -> None:  # type: ignore[no-untyped-def]
    at = open_page(sqlite_url, "overview")
    assert "guardian db upgrade" in at.error[0].value
    assert not at.metric


def test_sessions_are_read_only(empty_db, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from dashboard import data

    monkeypatch.setenv("GUARDIAN_DATABASE_URL", empty_db)
    db = data.get_db()
    with pytest.raises(sa.exc.OperationalError, match="readonly"), db.begin() as conn:
        conn.execute(sa.text("DELETE FROM route_state"))


@pytest.mark.integration
def test_postgres_sessions_are_read_only(pg_url, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from dashboard import data
    from guardian.audit import upgrade

    upgrade(pg_url)
    monkeypatch.setenv("GUARDIAN_DATABASE_URL", pg_url)
    db = data.get_db()
    with pytest.raises(sa.exc.InternalError, match="read-only transaction"), db.begin() as conn:
        conn.execute(sa.text("DELETE FROM route_state"))
    with db.connect() as conn:  # and the setting survives the pool's rollback
        assert conn.execute(sa.text("SHOW transaction_read_only")).scalar() == "on"


def _cli() -> typer.Typer:
    from guardian.cli import dashboard

    app = typer.Typer()
    app.add_typer(dashboard.app, name="dashboard")
    return app


def test_cli_prints_a_read_only_role() -> None:
    res = CliRunner().invoke(_cli(), ["dashboard", "--url", "postgresql://u@h/audit",
                                      "--print-role-sql", "guardian_ro"])
    assert res.exit_code == 0
    assert 'GRANT SELECT ON ALL TABLES IN SCHEMA public TO guardian_ro;' in res.output
    assert "default_transaction_read_only = on" in res.output
    assert "INSERT" not in res.output and "UPDATE" not in res.output
    bad = CliRunner().invoke(_cli(), ["dashboard", "--url", "postgresql://u@h/a",
                                      "--print-role-sql", "x; drop table y"])
    assert bad.exit_code != 0


def test_cli_refuses_a_database_without_schema(sqlite_url) -> None:  # type: ignore[no-untyped-def]
    res = CliRunner().invoke(_cli(), ["dashboard", "--url", sqlite_url, "--dev"])
    assert res.exit_code == 1
    assert "guardian db upgrade" in res.output and "Traceback" not in res.output


def test_cli_starts_streamlit_read_only_on_the_url(empty_db, monkeypatch, dashboard_keys) -> None:  # type: ignore[no-untyped-def]
    import guardian.cli.dashboard as mod

    seen = {}

    def fake_call(cmd, env):  # type: ignore[no-untyped-def]
        seen.update(cmd=cmd, env=env)
        return 0

    monkeypatch.setattr(mod.subprocess, "call", fake_call)
    res = CliRunner().invoke(_cli(), ["dashboard", "--url", empty_db, "--port", "8999",
                                      "--keys-file", str(dashboard_keys.path)])
    assert res.exit_code == 0, res.output
    assert seen["cmd"][1:4] == ["-m", "streamlit", "run"] and seen["cmd"][4].endswith("app.py")
    assert "8999" in seen["cmd"] and seen["env"]["GUARDIAN_DATABASE_URL"] == empty_db
    assert seen["env"]["GUARDIAN_API_KEYS_FILE"] == str(dashboard_keys.path.resolve())
    assert "GUARDIAN_DASHBOARD_DEV" not in seen["env"]
