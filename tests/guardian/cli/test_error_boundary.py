"""The CLI's error boundary (`guardian.cli.main`): one line and a non-zero status for what no
command handled itself, never a traceback; and the destructive or printing commands that
were hardened with it (db downgrade, dashboard --print-role-sql)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from guardian.cli.dashboard import readonly_role_sql


def _guardian(*args: str, env: dict[str, str] | None = None,
              home: Path | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("GUARDIAN_")}
    if home is not None:
        base["GUARDIAN_HOME"] = str(home)
    return subprocess.run([sys.executable, "-c", "from guardian.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=120, env={**base, **(env or {})})


@pytest.mark.parametrize(("env", "args", "needle"), [
    ({"GUARDIAN_MAX_CONNECTIONS": "-5"}, ["db", "current"], "GUARDIAN_MAX_CONNECTIONS"),
    ({"GUARDIAN_PORT": "abc"}, ["db", "current"], "GUARDIAN_PORT"),
    ({"GUARDIAN_GAMMA_BY_BATCH": "{bad"}, ["db", "current"], "gamma_by_batch"),
    ({}, ["db", "current", "--url", "notaurl"], "invalid database URL"),
    ({"GUARDIAN_DATABASE_URL": "garbage"}, ["audit", "verify"], "invalid database URL"),
])
def test_bad_input_is_one_line_not_a_traceback(tmp_path: Path, env: dict[str, str],
                                               args: list[str], needle: str) -> None:
    out = _guardian(*args, env=env, home=tmp_path)
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and needle in out.stderr
    assert "setup plugin" not in out.stderr  # alembic's plugin chatter stays out


def test_debug_shows_the_traceback(tmp_path: Path) -> None:
    out = _guardian("db", "current", env={"GUARDIAN_PORT": "abc", "GUARDIAN_DEBUG": "1"},
                    home=tmp_path)
    assert out.returncode != 0 and "Traceback" in out.stderr


def test_downgrade_needs_yes(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    assert _guardian("db", "upgrade", "--url", url, home=tmp_path).returncode == 0
    out = _guardian("db", "downgrade", "base", "--url", url, home=tmp_path)
    assert out.returncode == 2 and "--yes" in out.stderr
    assert "current: base" not in _guardian("db", "current", "--url", url, home=tmp_path).stdout
    out = _guardian("db", "downgrade", "base", "--yes", "--url", url, home=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "base" in _guardian("db", "current", "--url", url, home=tmp_path).stdout


def test_role_sql_quotes_the_database_and_refuses_odd_roles() -> None:
    sql = readonly_role_sql("ro", 'db"; DROP DATABASE x; --')
    assert 'GRANT CONNECT ON DATABASE "db""; DROP DATABASE x; --" TO ro;' in sql
    for bad in ("123", "ro; DROP ROLE x", "r o", "", "x" * 64):
        with pytest.raises(typer.BadParameter):
            readonly_role_sql(bad, "db")
