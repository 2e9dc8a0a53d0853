"""Fixtures for audit-store tests: writers with a private spool, a killable TCP proxy in front
of Postgres (to take "the database" down and up without touching the shared server), and a
helper that tampers with rows the way an attacker with DB access would (triggers bypassed)."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import make_url

from guardian.audit.config import AuditSettings
from guardian.audit.writer import AuditWriter
from tests.support.audit import (  # noqa: F401  (helpers, importable from here too)
    DbProxy,
    count,
    guards_off,
    tamper,
)


@pytest.fixture
def pg_proxy(fresh_pg_url: str) -> Iterator[tuple[DbProxy, str]]:
    """(proxy, url through the proxy) for a fresh, migrated Postgres database."""
    from guardian.audit import upgrade

    upgrade(fresh_pg_url)
    u = make_url(fresh_pg_url)
    proxy = DbProxy((u.host or "127.0.0.1", u.port or 5432))
    try:
        yield proxy, u.set(host="127.0.0.1", port=proxy.port).render_as_string(
            hide_password=False)
    finally:
        proxy.close()


@pytest.fixture
def make_writer(tmp_path: Path) -> Iterator[Callable[..., AuditWriter]]:
    """Build writers with fast test settings; every writer is closed at teardown."""
    writers: list[AuditWriter] = []

    def build(url: str, *, spool_dir: Path | None = None, start: bool = True,
              **overrides: Any) -> AuditWriter:
        cfg = AuditSettings(**{"flush_interval_s": 0.05, "retry_interval_s": 0.2,
                               "connect_timeout_s": 1, **overrides})
        w = AuditWriter(url, spool_dir=spool_dir or tmp_path / "spool", replica_id="test",
                        config=cfg, start=start)
        writers.append(w)
        return w

    yield build
    for w in writers:
        w.close(timeout_s=10)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sqlite_url: str
         ) -> Iterator[tuple[Path, str]]:
    """A sidecar home (GUARDIAN_HOME, SQLite audit database) whose writer published signed
    heads over 3 requests and their shadow rows; run from tmp_path, so no `.env` of the
    working directory reaches the settings. Yields (home, database URL)."""
    from guardian.audit import open_sink, upgrade
    from guardian.audit.testing import request_event, shadow_event
    from guardian.settings import get_settings

    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GUARDIAN_DATABASE_URL", sqlite_url)
    monkeypatch.chdir(tmp_path)
    get_settings.cache_clear()
    upgrade(sqlite_url)
    sink = open_sink(get_settings())
    for i in range(3):
        ev = request_event(4, request_id=f"q{i}", seed=i)
        sink.submit(ev)
        sink.submit(shadow_event(ev.request_id))
    sink.close()
    yield tmp_path / "home", sqlite_url
    get_settings.cache_clear()


@pytest.fixture
def multi_head_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sqlite_url: str
                    ) -> Iterator[tuple[Path, str]]:
    """A sidecar home (like `home`) whose writer published several heads, hence C2SP
    checkpoints, while six requests came in a batch at a time (42 records: each request has
    3 tokens and a shadow row of 2). Yields (home, database URL)."""
    from guardian.audit import open_sink, upgrade
    from guardian.audit.testing import request_event, shadow_event
    from guardian.settings import get_settings

    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GUARDIAN_DATABASE_URL", sqlite_url)
    monkeypatch.setenv("GUARDIAN_AUDIT_HEADS_EVERY", "3")
    monkeypatch.chdir(tmp_path)
    get_settings.cache_clear()
    upgrade(sqlite_url)
    sink = open_sink(get_settings())
    for i in range(6):
        ev = request_event(3, request_id=f"r{i}", seed=i)
        sink.submit(ev)
        sink.submit(shadow_event(ev.request_id, n_tokens=2))
        time.sleep(0.35)  # past the writer's flush interval: one batch, one head each
    sink.close()
    yield tmp_path / "home", sqlite_url
    get_settings.cache_clear()
