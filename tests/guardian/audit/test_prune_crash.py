"""`guardian audit prune` killed mid-prune must not leave a deletion that no record names.

The prune used to commit its deletion first and write its own `audit_prune` record after: a
SIGKILL in between left anchors no record named, and `guardian audit verify` then reported a
genuine prune as "forged anchor" for ever (crash-safety review). The record (with the
route-state floors) is now written, and read back, before anything is deleted. Real
processes: the prune runs in a child killed by SIGKILL right after its deletion commits.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.audit import upgrade
from guardian.audit.testing import request_event
from guardian.cli import app

pytestmark = pytest.mark.integration

CHILD = """
import os, signal, sys
import guardian.audit.retention as retention
from guardian.cli import main

def killed(*args, **kwargs):  # logged once the deletion has committed
    os.kill(os.getpid(), signal.SIGKILL)

retention.log.info = killed
sys.argv = ["guardian", "audit", "prune", "--url", sys.argv[1], "--older-than", "2d", "--dev"]
main()
"""


def test_a_prune_killed_after_its_deletion_still_verifies(fresh_db_url: str, tmp_path: Path,
                                                          monkeypatch) -> None:  # type: ignore[no-untyped-def]
    env = {**os.environ, "GUARDIAN_HOME": str(tmp_path / "home"), "GUARDIAN_DEV_MODE": "1"}
    _verified_home(fresh_db_url, tmp_path, monkeypatch)  # signed heads over 4 old, 2 new
    runner = CliRunner()

    child = subprocess.run([sys.executable, "-c", CHILD, fresh_db_url], env=env,
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == -signal.SIGKILL, child.stdout + child.stderr
    assert runner.invoke(app, ["audit", "show", "old0", "--url", fresh_db_url]).exit_code == 1
    out = runner.invoke(app, ["audit", "verify", "--url", fresh_db_url])
    assert out.exit_code == 0 and "forged" not in out.output, out.output


def _prune_stops(url: str) -> None:
    """`guardian audit prune --older-than 2d` stops with its "nothing was pruned" error."""
    out = CliRunner().invoke(app, ["audit", "prune", "--url", url, "--older-than", "2d",
                                   "--dev"])
    assert out.exit_code == 1 and "nothing was pruned" in out.output, out.output


def test_a_prune_that_stops_records_that_it_deleted_nothing(fresh_db_url: str, tmp_path: Path,
                                                            monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # The database takes the plan's reads but not the prune's writes: its record goes to the
    # writer's spool, the prune stops, and a later start replays the spool. The replayed
    # prune record must not stand alone: a record in the same chain says nothing was deleted.

    import sqlalchemy as sa

    import guardian.cli.audit.prune as cli_prune
    from guardian.audit.verify import verify_db
    from guardian.audit.writer import AuditWriter
    from guardian.core.db import make_engine
    from guardian.settings import get_settings

    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "home"))
    get_settings.cache_clear()
    upgrade(fresh_db_url)
    spool = get_settings().spool_dir
    w = AuditWriter(fresh_db_url, spool_dir=spool, replica_id="ra")
    old = datetime.now(UTC) - timedelta(days=5)
    for i in range(3):
        w.submit(request_event(3, request_id=f"old{i}", created_at=old))
    w.close()

    real_writer = cli_prune.open_writer

    def writes_fail(url: str):  # type: ignore[no-untyped-def]
        sink = real_writer(url)

        def down(batch, **kw):  # type: ignore[no-untyped-def]
            raise ConnectionError("database went away")
        sink.store.write = down
        return sink

    monkeypatch.setattr(cli_prune, "open_writer", writes_fail)
    _prune_stops(fresh_db_url)
    monkeypatch.setattr(cli_prune, "open_writer", real_writer)

    AuditWriter(fresh_db_url, spool_dir=spool, replica_id="rb").close()  # replays the spool
    engine = make_engine(fresh_db_url)
    with engine.connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT kind, chain_id, seq, details, event_id FROM audit_governance "
            "WHERE kind IN ('audit_prune', 'audit_prune_aborted') ORDER BY seq")).all()
        kept = conn.execute(sa.text("SELECT count(*) FROM audit_requests")).scalar_one()
    import json
    kinds = [r[0] for r in rows]
    assert kinds == ["audit_prune", "audit_prune_aborted"], rows
    prune, aborted = rows
    assert prune[1] == aborted[1] and aborted[2] > prune[2]  # same chain, after it
    details = aborted[3] if isinstance(aborted[3], dict) else json.loads(aborted[3])
    prune_details = prune[3] if isinstance(prune[3], dict) else json.loads(prune[3])
    assert details["deleted"] == 0 and details["cutoff"] == prune_details["cutoff"]
    assert details["prune_event_id"] == prune[4]
    assert kept == 3  # nothing deleted
    assert verify_db(engine).ok
    engine.dispose()


# An aborted prune (its record and an `audit_prune_aborted` naming it, both in the database,
# covered by a signed head) must not vouch for a deletion someone with database rights makes
# afterwards exactly as its plan said (review of the abort record, P1).
def _verified_home(url: str, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from guardian.audit.heads import heads_config
    from guardian.audit.writer import AuditWriter
    from guardian.settings import get_settings

    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GUARDIAN_DEV_MODE", "1")
    get_settings.cache_clear()
    upgrade(url)
    w = AuditWriter(url, spool_dir=tmp_path / "spool", replica_id="ra",
                    heads=heads_config(get_settings(), "ra"))
    old = datetime.now(UTC) - timedelta(days=5)
    for i in range(4):
        w.submit(request_event(3, request_id=f"old{i}", created_at=old))
    for i in range(2):
        w.submit(request_event(3, request_id=f"new{i}"))
    w.close()
    out = CliRunner().invoke(app, ["audit", "verify", "--url", url])
    assert out.exit_code == 0, out.output


def _attacker_deletes(url: str) -> None:
    """What the aborted prune's plan said, done without any record (DB rights)."""
    from guardian.audit.retention import prune, prune_cutoff
    from guardian.core.db import make_engine

    engine = make_engine(url)
    res = prune(engine, prune_cutoff("2d"), actor="attacker")
    assert sum(res.deleted.values()) > 0
    engine.dispose()


def test_an_aborted_prune_does_not_license_a_later_deletion(
        fresh_db_url: str, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import sys

    import sqlalchemy as sa

    import guardian.cli.audit.prune as cli_prune

    _verified_home(fresh_db_url, tmp_path, monkeypatch)
    real_db = cli_prune._db

    def flaky_db(url):  # type: ignore[no-untyped-def]
        db = real_db(url)
        connect = db.connect

        def connect_once_more():  # the prune record's read-back meets a DB blip
            if sys._getframe(1).f_code.co_name == "_record_prune":
                raise sa.exc.OperationalError("SELECT count(*)", {}, Exception("conn reset"))
            return connect()

        db.connect = connect_once_more
        return db

    monkeypatch.setattr(cli_prune, "_db", flaky_db)
    _prune_stops(fresh_db_url)
    monkeypatch.setattr(cli_prune, "_db", real_db)
    from guardian.core.db import make_engine
    engine = make_engine(fresh_db_url)
    with engine.connect() as conn:
        kinds = [k for (k,) in conn.execute(sa.text(
            "SELECT kind FROM audit_governance WHERE kind LIKE 'audit_prune%' ORDER BY seq"))]
        n = conn.execute(sa.text("SELECT count(*) FROM audit_requests")).scalar_one()
    engine.dispose()
    assert kinds == ["audit_prune", "audit_prune_aborted"] and n == 6  # nothing deleted

    _attacker_deletes(fresh_db_url)
    out = CliRunner().invoke(app, ["audit", "verify", "--url", fresh_db_url])
    # The only prune naming this anchor says it deleted nothing: verify must not accept it.
    assert out.exit_code != 0, ("deletion accepted on the strength of an aborted prune:\n"
                                + out.output)


def test_control_the_same_deletion_without_any_prune_record_is_reported(
        fresh_db_url: str, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    _verified_home(fresh_db_url, tmp_path, monkeypatch)
    _attacker_deletes(fresh_db_url)
    out = CliRunner().invoke(app, ["audit", "verify", "--url", fresh_db_url])
    assert out.exit_code != 0 and "forged anchor" in out.output, out.output
