"""Signed heads as a user meets them: the publisher on its own, `guardian audit keys / verify /
prove / export` end to end, and the start-up rule for a missing signing key."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.audit.heads import HeadPublisher, read_heads
from guardian.audit.merkle import Frontier, record_leaf
from guardian.audit.rows import SealedBatch
from guardian.audit.signing import SigningError, generate, load_trust, signer_for
from guardian.audit.testing import request_event
from guardian.cli import app
from guardian.settings import Settings
from tests.support.audit import tamper

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[3]


def _batch(first: int, last: int, *, lost: list[list[int]] | None = None) -> SealedBatch:
    b = SealedBatch("c/1", first, last)
    for seq in range(first, last + 1):
        row = {"seq": seq, "hash": f"{seq:064x}"}
        if lost and seq == last:
            row |= {"kind": "audit_gap", "details": {"lost_seq": lost}}
            b.governance.append(row)
        else:
            b.requests.append(row)
    return b


def test_publisher_advances_in_seq_order_and_skips_declared_losses(tmp_path: Path) -> None:
    signer = generate(tmp_path / "k", tmp_path / "trust.json", "t")
    pub = HeadPublisher("c/1", "t", signer, tmp_path / "heads", every=1000, interval_s=3600)
    pub.observe(_batch(6, 8))  # written before 1-5 (a second DB thread, a replay)
    pub.observe(_batch(15, 16, lost=[[9, 14]]))  # 9-14 never reached the DB: declared lost
    assert pub.publish() is None  # nothing contiguous yet: no new head
    pub.observe(_batch(1, 5))
    pub.observe(_batch(1, 5))  # a duplicate replay changes nothing
    head = pub.publish()
    expect = Frontier()
    expect.extend(record_leaf(f"{s:064x}") for s in [*range(1, 9), 15, 16])
    assert head is not None and head["size"] == 10 and head["last_seq"] == 16
    assert head["root"] == expect.root().hex()
    pub.observe(SealedBatch("other/2", 17, 17))  # another chain's replayed spool: ignored
    pub.close()
    heads, problems = read_heads(tmp_path / "heads", load_trust(tmp_path / "trust.json"))
    assert not problems
    assert [h["size"] for h in heads["c/1"]] == [0, 10, 10]
    assert heads["c/1"][-1]["final"] and not heads["c/1"][-2]["final"]


def test_heads_are_published_on_time_and_by_count(tmp_path: Path) -> None:
    signer = generate(tmp_path / "k", tmp_path / "trust.json", "t")
    pub = HeadPublisher("c/1", "t", signer, tmp_path / "heads", every=3, interval_s=0.2)
    pub.observe(_batch(1, 1))
    deadline = time.monotonic() + 5
    while (pub.last_head or {}).get("size") != 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert pub.last_head is not None and pub.last_head["size"] == 1  # by time
    pub.interval_s = 3600
    pub.observe(_batch(2, 5))
    deadline = time.monotonic() + 5
    while pub.last_head["size"] != 5 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert pub.last_head["size"] == 5  # by count, long before the interval
    pub.close()


def test_key_files_are_private_and_a_missing_key_is_a_startup_error(tmp_path: Path) -> None:
    prod = Settings(home=tmp_path / "prod", database_url="postgresql+psycopg://db/x",
                    dev_mode=False)
    with pytest.raises(SigningError, match=r"no audit signing key at .*guardian audit keys init"):
        signer_for(prod, "r1")
    dev = Settings(home=tmp_path / "dev", dev_mode=True)
    signer = signer_for(dev, "r1")
    key = tmp_path / "dev" / "audit-signing.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert signer_for(dev, "r1").key_id == signer.key_id  # reused, not regenerated
    assert [k["key_id"] for k in load_trust(tmp_path / "dev" / "audit-trust.json")["keys"]] == [
        signer.key_id]


def test_open_sink_publishes_heads_under_home(tmp_path: Path) -> None:
    from guardian.audit import open_sink, upgrade

    settings = Settings(home=tmp_path / "home", database_url=None, dev_mode=True)
    upgrade(settings.resolved_database_url)
    sink = open_sink(settings)
    sink.submit(request_event(3, request_id="x1"))
    sink.close()
    heads, problems = read_heads(settings.resolved_heads_dir,
                                 load_trust(tmp_path / "home" / "audit-trust.json"))
    assert not problems and heads[sink.chain_id][-1]["size"] == 4
    assert heads[sink.chain_id][-1]["final"]


def _run(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, list(args))
    return res.exit_code, res.output


def test_cli_verify_prove_and_proofcheck(home: tuple[Path, str], tmp_path: Path) -> None:
    home_dir, url = home
    code, out = _run("audit", "verify", "--url", url)
    assert code == 0 and "1 chains match their signed heads" in out, out
    code, out = _run("audit", "prove", "q1", "--url", url, "-o", str(tmp_path / "p.json"))
    assert code == 0, out
    assert stat.S_IMODE((tmp_path / "p.json").stat().st_mode) == 0o600  # holds the prompt
    res = subprocess.run([sys.executable, "-m", "guardian.audit.proofcheck",
                          str(tmp_path / "p.json"), "--trust", str(home_dir / "audit-trust.json")],
                         capture_output=True, text=True, cwd=tmp_path, timeout=60,
                         env={"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "")})
    assert res.returncode == 0 and "OK: audit_requests seq" in res.stdout, res.stderr
    code, out = _run("audit", "prove", "nope", "--url", url)
    assert code == 1 and "no request with id 'nope'" in out
    tamper(url, "DELETE FROM audit_tokens WHERE seq = (SELECT max(seq) FROM audit_tokens)")
    code, out = _run("audit", "verify", "--url", url)
    assert code == 1 and "TAMPERED" in out and "deleted: chain" in out
    code, out = _run("audit", "verify", "--url", url, "--no-heads")
    assert code == 0 and "Undetectable without a head" in out


def test_cli_keys_rotate_and_show(home: tuple[Path, str]) -> None:
    _home_dir, url = home
    code, out = _run("audit", "keys", "init")
    assert code == 1 and "keys rotate" in out
    code, out = _run("audit", "keys", "rotate")
    assert code == 0 and "retired:" in out
    code, out = _run("audit", "keys", "show")
    lines = [x for x in out.splitlines() if x.strip()]
    assert code == 0 and len(lines) == 2 and "until now" in lines[1] and "until now" not in lines[0]
    code, out = _run("audit", "verify", "--url", url)  # old heads, old key: still valid
    assert code == 0, out
    for cmd in (["audit", "prove", "--help"], ["audit", "keys", "rotate", "--help"]):
        assert _run(*cmd)[0] == 0


def test_cli_export_carries_a_signed_manifest(home: tuple[Path, str], tmp_path: Path) -> None:
    _home_dir, url = home
    out_file = tmp_path / "all.csv"
    code, out = _run("audit", "export", "--url", url, "-o", str(out_file), "-f", "csv")
    assert code == 0 and "signed manifest" in out, out
    manifest = json.loads((tmp_path / "all.csv.manifest.json").read_text())
    assert manifest["count"] == 3 * (1 + 4 + 1 + 4) and manifest["heads"]
    assert _run("audit", "verify", "--export", str(out_file))[0] == 0
    lines = out_file.read_text().splitlines(keepends=True)
    out_file.write_text("".join(lines[:3] + lines[4:]))
    code, out = _run("audit", "verify", "--export", str(out_file))
    assert code == 1 and "lines removed" in out
    (tmp_path / "all.csv.manifest.json").unlink()
    code, out = _run("audit", "verify", "--export", str(out_file))
    assert code == 1 and "no readable signed manifest" in out


def _check(tmp_path: Path, proof: Path, trust: Path, head: Path | None = None
           ) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "guardian.audit.proofcheck", str(proof), "--trust", str(trust)]
    if head is not None:
        args += ["--head", str(head)]
    return subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          env={"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "")})


def test_consistency_proof_from_a_kept_head(home: tuple[Path, str], tmp_path: Path) -> None:
    """An auditor keeps an early head; later the log proves it only grew since."""
    home_dir, url = home
    trust = home_dir / "audit-trust.json"
    heads_file = next((home_dir / "audit-heads").glob("*/heads.jsonl"))
    kept = json.loads(heads_file.read_text().splitlines()[1])  # a non-empty, non-final head
    assert kept["size"] > 0
    (tmp_path / "kept.json").write_text(json.dumps(kept))
    code, out = _run("audit", "prove", str(tmp_path / "kept.json"), "--consistency", "--url", url,
                     "-o", str(tmp_path / "c.json"))
    assert code == 0, out
    res = _check(tmp_path, tmp_path / "c.json", trust, tmp_path / "kept.json")
    assert res.returncode == 0 and "extends the head of size" in res.stdout, res.stderr
    # A different "kept" head (same size, other root) is not extended by this log.
    forged = {**kept, "root": "22" * 32}
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    res = _check(tmp_path, tmp_path / "c.json", trust, tmp_path / "forged.json")
    assert res.returncode == 1 and "INVALID" in res.stderr
    # A database whose tree changed since gets no proof.
    tamper(url, "DELETE FROM audit_tokens WHERE seq = (SELECT max(seq) FROM audit_tokens)")
    code, out = _run("audit", "prove", str(tmp_path / "kept.json"), "--consistency", "--url", url)
    assert code == 1 and "no longer matches" in out


def test_heads_are_posted_to_the_webhook(tmp_path: Path) -> None:
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    got: list[dict] = []

    class Witness(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            got.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Witness)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        signer = generate(tmp_path / "k", tmp_path / "trust.json", "t")
        pub = HeadPublisher("c/1", "t", signer, tmp_path / "heads", every=1000, interval_s=3600,
                            webhook=f"http://127.0.0.1:{server.server_port}/heads")
        pub.observe(_batch(1, 3))
        pub.close()
    finally:
        server.shutdown()
    assert [h["size"] for h in got] == [0, 3] and got[-1]["final"]
    assert got[-1]["signature"] == pub.last_head["signature"]  # type: ignore[index]


def test_serve_without_a_signing_key_stops_with_one_line(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from guardian.settings import get_settings

    monkeypatch.delenv("GUARDIAN_DEV_MODE", raising=False)
    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GUARDIAN_DATABASE_URL", "postgresql+psycopg://127.0.0.1/none")
    monkeypatch.setenv("GUARDIAN_AUDIT_SALT", "a-production-salt-of-some-length")
    monkeypatch.setenv("GUARDIAN_AUDIT_CHECKPOINT_KEY", "a-production-key-of-some-length")
    get_settings.cache_clear()
    try:
        code, out = _run("serve")
    finally:
        get_settings.cache_clear()
    assert code == 2 and "no audit signing key at" in out and "Traceback" not in out
    assert not (tmp_path / "home" / "audit-signing.key").exists()


def test_the_publisher_survives_an_interval_no_wait_can_take(tmp_path: Path) -> None:
    """Settings bound the interval now; the thread must not depend on it: `Event.wait(inf)`
    raised OverflowError and ended the publisher's thread - no more signed heads, silently."""
    signer = generate(tmp_path / "k", tmp_path / "trust.json", "t")
    pub = HeadPublisher("c/1", "t", signer, tmp_path / "heads", every=3, interval_s=float("inf"))
    try:
        time.sleep(0.2)
        pub.observe(_batch(1, 5))  # past `every`: published by count
        deadline = time.monotonic() + 5
        while (pub.last_head or {}).get("size") != 5:
            assert time.monotonic() < deadline, "the publisher's thread is gone"
            time.sleep(0.02)
    finally:
        pub.close()
