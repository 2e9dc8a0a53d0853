"""No default secrets: the audit salt and checkpoint key are given, generated (quickstart only,
0600, never overwritten) or — in dev mode only — the public development values."""

from __future__ import annotations

import logging
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.audit.config import AuditSettings
from guardian.security.secrets import DEV_DEFAULTS, SECRET_VARS, SecretsError, create_secrets_file
from guardian.settings import Settings

SALT, KEY = SECRET_VARS["salt"], SECRET_VARS["checkpoint_key"]
PG = "postgresql+psycopg://guardian@db.internal/guardian"


@pytest.fixture(autouse=True)
def production_env(monkeypatch, tmp_path) -> Path:
    """Outside dev mode, nothing configured, home in tmp_path (tests/conftest.py sets dev mode)."""
    for name in ("GUARDIAN_DEV_MODE", SALT, KEY, "GUARDIAN_DATABASE_URL", "GUARDIAN_HOST",
                 "GUARDIAN_SECRETS_FILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)  # no stray .env from the working directory
    return tmp_path


def quickstart(home: Path, **kw: object) -> Settings:
    return Settings(home=home, host="127.0.0.1", **kw)


@pytest.mark.parametrize("config", [{"database_url": PG}, {"host": "0.0.0.0"}],
                         ids=["database-url", "non-loopback"])
def test_refuses_without_secrets_outside_the_quickstart(tmp_path, config) -> None:
    settings = Settings(home=tmp_path, **{"host": "127.0.0.1", **config})
    with pytest.raises(SecretsError) as err:
        AuditSettings.for_server(settings)
    message = str(err.value)
    assert SALT in message and KEY in message and "token_urlsafe" in message
    assert "\n" not in message
    assert not (tmp_path / "secrets.env").exists()  # nothing generated outside the quickstart


def test_quickstart_generates_a_0600_file_once_and_reuses_it(tmp_path, caplog) -> None:
    with caplog.at_level(logging.INFO, logger="guardian.audit.config"):
        first = AuditSettings.for_server(quickstart(tmp_path))
    path = tmp_path / "secrets.env"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    generated = [r.getMessage() for r in caplog.records if "generated" in r.getMessage()]
    assert len(generated) == 1 and str(path) in generated[0]
    assert len(first.salt) >= 32 and first.salt != first.checkpoint_key
    assert first.secret_sources == {"salt": str(path), "checkpoint_key": str(path)}
    text = path.read_text()

    caplog.clear()
    with caplog.at_level(logging.INFO, logger="guardian.audit.config"):
        again = AuditSettings.for_server(quickstart(tmp_path))
    assert (again.salt, again.checkpoint_key) == (first.salt, first.checkpoint_key)
    assert path.read_text() == text
    assert not [r for r in caplog.records if "generated" in r.getMessage()]


def test_a_secrets_file_is_never_overwritten(tmp_path) -> None:
    path = tmp_path / "secrets.env"
    values, created = create_secrets_file(path)
    again, created_again = create_secrets_file(path)  # e.g. a second replica starting at once
    assert created and not created_again and again == values
    assert not list(tmp_path.glob(".secrets-*"))  # no temporary left behind


def test_every_reader_resolves_the_same_secrets(tmp_path) -> None:
    """`guardian audit verify/checkpoint` build a plain AuditSettings(): same file, same key."""
    server = AuditSettings.for_server(quickstart(tmp_path))
    cli = AuditSettings()
    assert (cli.salt, cli.checkpoint_key) == (server.salt, server.checkpoint_key)


def test_plain_readers_never_generate(tmp_path) -> None:
    with pytest.raises(SecretsError):
        AuditSettings()
    assert not (tmp_path / "secrets.env").exists()


def test_environment_wins_over_the_file(tmp_path, monkeypatch) -> None:
    AuditSettings.for_server(quickstart(tmp_path))  # writes the file
    monkeypatch.setenv(SALT, "salt-from-the-environment-0123456789")
    audit = AuditSettings.for_server(quickstart(tmp_path))
    assert audit.salt == "salt-from-the-environment-0123456789"
    assert audit.secret_sources["salt"] == "environment"
    assert audit.secret_sources["checkpoint_key"] == str(tmp_path / "secrets.env")


def test_secrets_from_the_environment_need_no_file(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(SALT, "s" * 40)
    monkeypatch.setenv(KEY, "k" * 40)
    audit = AuditSettings.for_server(Settings(home=tmp_path, database_url=PG, host="0.0.0.0"))
    assert (audit.salt, audit.checkpoint_key) == ("s" * 40, "k" * 40)
    assert not (tmp_path / "secrets.env").exists()


def test_an_explicit_secrets_file(tmp_path, monkeypatch) -> None:
    elsewhere = tmp_path / "mounted" / "guardian.env"
    values, _ = create_secrets_file(elsewhere)
    monkeypatch.setenv("GUARDIAN_SECRETS_FILE", str(elsewhere))
    audit = AuditSettings.for_server(Settings(home=tmp_path, database_url=PG))
    assert audit.salt == values[SALT]


@pytest.mark.parametrize("field", ["salt", "checkpoint_key"])
def test_the_development_value_is_refused_outside_dev_mode(tmp_path, monkeypatch, field) -> None:
    monkeypatch.setenv(SECRET_VARS[field], DEV_DEFAULTS[field])
    with pytest.raises(SecretsError, match="public development value"):
        AuditSettings.for_server(quickstart(tmp_path))


def test_a_short_secret_is_refused(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(SALT, "short")
    monkeypatch.setenv(KEY, "k" * 40)
    with pytest.raises(SecretsError, match="shorter than 16"):
        AuditSettings.for_server(quickstart(tmp_path))


def test_dev_mode_uses_the_development_values_and_says_so(tmp_path, monkeypatch, caplog) -> None:
    monkeypatch.setenv("GUARDIAN_DEV_MODE", "1")
    with caplog.at_level(logging.WARNING, logger="guardian.audit.config"):
        audit = AuditSettings.for_server(Settings(home=tmp_path, database_url=PG))
    assert audit.salt == DEV_DEFAULTS["salt"]
    assert audit.checkpoint_key == DEV_DEFAULTS["checkpoint_key"]
    assert any("dev mode" in r.getMessage() for r in caplog.records)
    assert not (tmp_path / "secrets.env").exists()


def test_dev_mode_still_prefers_configured_secrets(tmp_path, monkeypatch) -> None:
    values, _ = create_secrets_file(tmp_path / "secrets.env")
    monkeypatch.setenv("GUARDIAN_DEV_MODE", "1")
    assert AuditSettings.for_server(quickstart(tmp_path)).salt == values[SALT]


def test_the_app_refuses_to_build_without_secrets(tmp_path) -> None:
    from guardian.app import create_app

    with pytest.raises(SecretsError):
        create_app(Settings(home=tmp_path, database_url=PG))


def test_guardian_serve_exits_with_one_readable_line(tmp_path, monkeypatch) -> None:
    from guardian.cli import app

    monkeypatch.setenv("GUARDIAN_DATABASE_URL", PG)
    result = CliRunner().invoke(app, ["serve"])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: no audit secrets")
    assert SALT in lines[0] and "--dev" in lines[0]


def test_guardian_audit_checkpoint_signs_with_the_resolved_key(tmp_path, monkeypatch) -> None:
    """The CLI signs with the same key the server resolved, never a public default."""
    import json

    from guardian.audit import upgrade
    from guardian.audit.verify import check_against_checkpoint, verify_db
    from guardian.cli import app
    from guardian.core.db import make_engine

    url = f"sqlite:///{tmp_path / 'guardian.db'}"
    upgrade(url)
    server = AuditSettings.for_server(quickstart(tmp_path))
    out = tmp_path / "cp.json"
    result = CliRunner().invoke(app, ["audit", "checkpoint", "--out", str(out), "--url", url])
    assert result.exit_code == 0, result.output
    cp = json.loads(out.read_text())
    db = make_engine(url)
    try:
        rep = verify_db(db)
        check_against_checkpoint(rep, cp, server.checkpoint_key, None)  # signature verifies
        assert rep.ok
        rep = verify_db(db)
        check_against_checkpoint(rep, cp, DEV_DEFAULTS["checkpoint_key"], None)
        assert not rep.ok  # the public key does not verify it
    finally:
        db.dispose()


def test_plain_audit_verify_needs_no_secret(tmp_path) -> None:
    from guardian.audit import upgrade
    from guardian.cli import app

    url = f"sqlite:///{tmp_path / 'guardian.db'}"
    upgrade(url)
    result = CliRunner().invoke(app, ["audit", "verify", "--url", url])
    assert result.exit_code == 0, result.output


def test_any_cli_command_missing_secrets_prints_one_line(tmp_path) -> None:
    """`guardian` itself (main), not CliRunner: no traceback reaches the operator."""
    import os
    import subprocess
    import sys

    from guardian.audit import upgrade

    url = f"sqlite:///{tmp_path / 'guardian.db'}"
    upgrade(url)
    out = subprocess.run([sys.executable, "-c", "from guardian.cli import main; main()", "audit",
                          "checkpoint", "--out", str(tmp_path / "cp.json"), "--url", url],
                         capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert out.returncode == 2
    assert out.stderr.strip().startswith("error: no audit secrets") and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "cp.json").exists()
