"""Spool lock files left by killed writers are cleaned at start; live writers' locks stay."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from guardian.audit import upgrade
from guardian.audit.spool import Spool
from guardian.audit.verify import verify_db
from guardian.core.db import make_engine
from tests.support.audit import count

# A writer process that spools one sealed batch and is killed (no close(): its lock stays).
_KILLED_WRITER = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    from guardian.audit.rows import Sealer
    from guardian.audit.spool import Spool
    from guardian.audit.testing import request_event

    spool_dir, chain, with_batch = Path(sys.argv[1]), sys.argv[2], sys.argv[3] == "1"
    spool = Spool(spool_dir, chain, 1 << 30)
    if with_batch:
        batch = Sealer(chain, salt=b"", copy_lines=False).seal(
            [request_event(3, request_id="from-the-dead")])
        assert spool.append(batch)
    os._exit(0)
""")


def _killed_writer(spool_dir: Path, chain: str, *, with_batch: bool) -> None:
    subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(spool_dir), chain,
                    "1" if with_batch else "0"], check=True, timeout=120)


@pytest.fixture
def sqlite_db(sqlite_url: str) -> str:
    upgrade(sqlite_url)
    return sqlite_url


def test_stale_locks_are_removed_at_start_and_the_dead_writers_spool_replayed(
        sqlite_db: str, make_writer, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spool_dir = tmp_path / "spool"
    _killed_writer(spool_dir, "dead/aaa", with_batch=True)  # spooled, then killed
    _killed_writer(spool_dir, "gone/bbb", with_batch=False)  # killed with an empty spool
    assert {p.name for p in spool_dir.glob("*.lock")} == {"dead_aaa.lock", "gone_bbb.lock"}
    assert (spool_dir / "dead_aaa.lock").read_text().strip().isdigit()  # names its pid
    live = Spool(spool_dir, "live/ccc", 1 << 20)  # a writer that is still running
    try:
        w = make_writer(sqlite_db, spool_dir=spool_dir)
        assert not (spool_dir / "gone_bbb.lock").exists()  # swept when the writer started
        deadline = time.monotonic() + 30
        sql = "SELECT count(*) FROM audit_requests WHERE request_id = 'from-the-dead'"
        while count(sqlite_db, sql) == 0 and time.monotonic() < deadline:
            time.sleep(0.05)  # orphans are replayed by the writer's DB thread
        assert count(sqlite_db, sql) == 1
        w.close(timeout_s=30)
        assert {p.name for p in spool_dir.glob("*.lock")} == {"live_ccc.lock"}
        assert not list(spool_dir.glob("*.spool"))
    finally:
        live.close()
    assert not list(spool_dir.glob("*.lock"))
    engine = make_engine(sqlite_db)
    assert verify_db(engine).ok
    engine.dispose()
