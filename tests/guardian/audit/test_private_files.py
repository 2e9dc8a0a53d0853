"""The embedded audit database and the home it lives in are private to their owner: they hold
prompts and completions (a local user could read them from a 0644 file in a 0755 home)."""

from __future__ import annotations

import json
import logging
import stat
from pathlib import Path

import pytest

from guardian.audit import upgrade
from guardian.audit.testing import request_event


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_embedded_database_and_its_home_are_private(tmp_path: Path, make_writer) -> None:  # type: ignore[no-untyped-def]
    home = tmp_path / "home" / "nested"
    db = home / "guardian.db"
    upgrade(f"sqlite:///{db}")
    assert mode(home) == 0o700 and mode(db) == 0o600
    w = make_writer(f"sqlite:///{db}")
    w.submit(request_event(4, request_id="r-private"))
    w.flush()
    sidecars = [p for p in home.iterdir() if p.name.startswith("guardian.db-")]
    assert sidecars, "expected SQLite's -wal/-shm files"
    for p in sidecars:  # SQLite gives its -wal and -shm files the database file's mode
        assert mode(p) == 0o600, p


def test_an_existing_database_keeps_its_mode_and_serve_warns(tmp_path: Path, monkeypatch,  # type: ignore[no-untyped-def]
                                                             caplog) -> None:
    from guardian.app import _load_from_settings, close_services
    from guardian.settings import get_settings
    from tests.support.api import keystore

    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    db = home / "guardian.db"
    upgrade(f"sqlite:///{db}")
    db.chmod(0o644)  # made before this release, or opened up by hand
    monkeypatch.setenv("GUARDIAN_HOME", str(home))
    monkeypatch.setenv("GUARDIAN_DEV_MODE", "1")
    monkeypatch.setenv("GUARDIAN_BACKEND", "upstream")  # no model to load
    policy = tmp_path / "policy.yaml"
    pool = {"url": "http://127.0.0.1:9/v1", "model": "m"}  # never called here
    policy.write_text(json.dumps({"routes": {"default": {
        "mode": "target_only", "upstream": {"speculative": pool, "target_only": pool}}}}))
    monkeypatch.setenv("GUARDIAN_POLICY_FILE", str(policy))
    get_settings.cache_clear()
    with caplog.at_level(logging.WARNING, logger="guardian.core.fileio"):
        close_services(_load_from_settings(get_settings(), keystore()))
    assert mode(db) == 0o644 and mode(home) == 0o755  # not changed behind the operator's back
    assert any("audit database" in r.getMessage() and "chmod 600" in r.getMessage()
               for r in caplog.records), caplog.text


@pytest.mark.parametrize("umask", [0o022, 0o002])
def test_create_private_ignores_the_umask_and_an_existing_file(tmp_path: Path, umask: int) -> None:
    import os

    from guardian.core.fileio import create_private

    old = os.umask(umask)
    try:
        create_private(tmp_path / "a.db")
    finally:
        os.umask(old)
    assert mode(tmp_path / "a.db") == 0o600
    (tmp_path / "b.db").write_text("x")
    (tmp_path / "b.db").chmod(0o640)
    create_private(tmp_path / "b.db")
    assert mode(tmp_path / "b.db") == 0o640 and (tmp_path / "b.db").read_text() == "x"


def test_keys_init_on_a_fresh_home_creates_it_private(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`guardian audit keys init` is what production runs first: the home it creates is 0700
    (it was 0755, and later starts keep an existing directory's mode)."""
    from typer.testing import CliRunner

    from guardian.cli import app
    from guardian.settings import get_settings

    home = tmp_path / "fresh-home"
    monkeypatch.setenv("GUARDIAN_HOME", str(home))
    get_settings.cache_clear()
    out = CliRunner().invoke(app, ["audit", "keys", "init"])
    assert out.exit_code == 0, out.output
    assert mode(home) == 0o700
    assert mode(home / "audit-signing.key") == 0o600
