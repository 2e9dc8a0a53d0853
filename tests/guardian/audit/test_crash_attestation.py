"""A SIGKILL'd writer's unattested tail is attested when its replica restarts, and reported as
"recovered after a crash at T" - never as tampering; a tail that was tampered with is not."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.audit import upgrade
from guardian.audit.config import AuditSettings
from guardian.audit.heads import HeadsConfig, read_heads
from guardian.audit.signing import Signer, generate, load_trust
from guardian.audit.verify import verify_db
from guardian.audit.writer import AuditWriter
from guardian.cli import app
from guardian.core.db import make_engine
from tests.support.audit import tamper

pytestmark = pytest.mark.integration  # processes of its own (a killed writer)

ROOT = Path(__file__).resolve().parents[3]
KILLED_WRITER = """
import sys, time
from pathlib import Path
from guardian.audit.config import AuditSettings
from guardian.audit.heads import HeadsConfig
from guardian.audit.signing import load_signer
from guardian.audit.testing import request_event
from guardian.audit.writer import AuditWriter
url, key, heads, spool = sys.argv[1:5]
w = AuditWriter(url, spool_dir=Path(spool), replica_id="victim",
                config=AuditSettings(flush_interval_s=0.05),
                heads=HeadsConfig(load_signer(Path(key)), Path(heads), 10**6, 3600))
for i in range(4):
    w.submit(request_event(3, request_id=f"k{i}"))
w.flush()
print("durable", flush=True)
time.sleep(60)
"""


@pytest.fixture
def killed(sqlite_url: str, tmp_path: Path) -> Iterator[tuple[str, Signer, Path]]:
    """(url, the replica's signer, its home dir): a writer SIGKILL'd after 16 durable records
    and before any head but its first (size 0)."""
    upgrade(sqlite_url)
    signer = generate(tmp_path / "k.key", tmp_path / "trust.json", "victim")
    proc = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, sqlite_url,
                             str(tmp_path / "k.key"), str(tmp_path / "heads"),
                             str(tmp_path / "spool")],
                            stdout=subprocess.PIPE, text=True,
                            env={"PYTHONPATH": str(ROOT), "GUARDIAN_DEV_MODE": "1"})
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "durable"
    finally:
        proc.kill()
        proc.wait(10)
    yield sqlite_url, signer, tmp_path


def _restart(url: str, signer: Signer, home: Path) -> None:
    w = AuditWriter(url, spool_dir=home / "spool", replica_id="victim",
                    config=AuditSettings(flush_interval_s=0.05),
                    heads=HeadsConfig(signer, home / "heads", 10**6, 3600))
    w.close()


def _verify(url: str, home: Path) -> object:
    return verify_db(make_engine(url), grace_s=0,
                     heads=read_heads(home / "heads", load_trust(home / "trust.json")))


def test_the_restart_attests_the_killed_writers_tail(killed: tuple[str, Signer, Path],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    url, signer, home = killed
    rep = verify_db(make_engine(url), heads=read_heads(home / "heads",
                                                       load_trust(home / "trust.json")))
    assert rep.ok and len(rep.pending) == 1
    assert "next head will cover" not in rep.pending[0]  # a killed writer signs no next head
    assert "a killed one's restart does" in rep.pending[0]
    _restart(url, signer, home)
    rep = _verify(url, home)
    assert rep.ok, rep.errors  # type: ignore[attr-defined]
    (line,) = rep.recovered  # type: ignore[attr-defined]
    assert "16 records after its head of" in line and "recovered after a crash at" in line
    res = CliRunner().invoke(app, ["audit", "verify", "--url", url, "--heads-dir",
                                   str(home / "heads"), "--trust", str(home / "trust.json"),
                                   "--grace-s", "0"])
    assert res.exit_code == 0 and "recovered: chain victim/" in res.output, res.output
    assert "TAMPERED" not in res.output and "OK: audit database" in res.output


def test_a_tampered_dead_chain_is_not_attested_at_restart(
        killed: tuple[str, Signer, Path]) -> None:
    url, signer, home = killed
    tamper(url, "DELETE FROM audit_requests WHERE request_id = 'k1'")
    _restart(url, signer, home)
    rep = _verify(url, home)
    assert not rep.ok and not rep.recovered  # type: ignore[attr-defined]
    res = CliRunner().invoke(app, ["audit", "verify", "--url", url, "--heads-dir",
                                   str(home / "heads"), "--trust", str(home / "trust.json"),
                                   "--grace-s", "0"])
    assert res.exit_code == 1 and "TAMPERED" in res.output, res.output


def test_before_the_restart_an_unattested_tail_is_not_called_tampering(
        killed: tuple[str, Signer, Path]) -> None:
    url, _, home = killed
    res = CliRunner().invoke(app, ["audit", "verify", "--url", url, "--heads-dir",
                                   str(home / "heads"), "--trust", str(home / "trust.json"),
                                   "--grace-s", "0"])
    assert res.exit_code == 1 and res.output.startswith("UNATTESTED: "), res.output
    assert "TAMPERED" not in res.output and "attested when its replica restarts" in res.output
