"""Outsiders can verify the trail: Go's golang.org/x/mod/sumdb/note and sumdb/tlog (code this
project did not write, driven by tests/support/c2sp_verify/main.go) accept the sidecar's
C2SP checkpoints, tlog-proof receipts and consistency proofs from a real audit store, and
reject a forged root, a wrong signature, a wrong index and a tampered proof hash.

Needs `go` and Debian's golang-golang-x-mod-dev (`.ci/install-c2sp-tools`); skipped, with the
reason, where either is missing."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from typer.testing import CliRunner

from guardian.audit.checkpoints import read_checkpoints
from guardian.audit.notes import b64, sign_line, split_note
from guardian.cli import app
from tests.support.c2sp import build_go_verifier, run

pytestmark = pytest.mark.integration  # Go builds, processes of its own

LOG = "spec-guardian.local/audit"
SIZE = 6 * (1 + 3 + 1 + 2)  # six requests of 3 tokens, each with a shadow row of 2
runner = CliRunner()


@pytest.fixture(scope="module")
def go_verify(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_go_verifier(tmp_path_factory.mktemp("go"))


def vkey(home: Path, name: str = LOG) -> str:
    res = runner.invoke(app, ["audit", "keys", "vkey", "--trust", str(home / "audit-trust.json"),
                              "--name", name])
    assert res.exit_code == 0, res.output
    return res.output.strip()


def chain_dir(home: Path) -> Path:
    (d,) = (home / "audit-heads").iterdir()
    return d


def _forge_root(note: str) -> str:
    lines = note.split("\n")
    lines[2] = b64(bytes(32))
    return "\n".join(lines)


def _flip_signature(note: str) -> str:
    """The same key ID, one bit of the Ed25519 signature changed."""
    text, sigs = split_note(note)
    raw = bytearray(sigs[0].key_id + sigs[0].sig)
    raw[10] ^= 0x01
    return text + "\n" + f"\u2014 {sigs[0].name} {b64(bytes(raw))}\n"


def test_go_sumdb_verifies_checkpoints_and_rejects_forgeries(
        go_verify: Path, multi_head_home: tuple[Path, str], tmp_path: Path) -> None:
    home, _ = multi_head_home
    key = vkey(home)
    cp = (chain_dir(home) / "checkpoint").read_text()
    code, out = run(go_verify, "checkpoint", "-vkey", key, "-origin-prefix", LOG,
                    chain_dir(home) / "checkpoint")
    assert code == 0 and out.startswith(f"OK checkpoint origin={LOG}/") and f"size={SIZE}" in out, out

    forged = tmp_path / "forged-root"
    forged.write_text(_forge_root(cp))
    code, out = run(go_verify, "checkpoint", "-vkey", key, forged)
    assert code == 1 and out.startswith("REJECT: checkpoint signature"), out

    bad_sig = tmp_path / "bad-sig"
    bad_sig.write_text(_flip_signature(cp))
    code, out = run(go_verify, "checkpoint", "-vkey", key, bad_sig)
    assert code == 1 and "invalid signature" in out, out

    impostor = tmp_path / "impostor"  # signed under the log's name with a key not pinned
    text = cp.split("\n\n")[0] + "\n"
    impostor.write_text(text + "\n" + sign_line(text, LOG, Ed25519PrivateKey.generate()))
    code, out = run(go_verify, "checkpoint", "-vkey", key, impostor)
    assert code == 1 and out.startswith("REJECT: checkpoint signature"), out

    code, out = run(go_verify, "checkpoint", "-vkey", key, "-origin-prefix", "other.org/log",
                    chain_dir(home) / "checkpoint")
    assert code == 1 and "is not a log under" in out, out


def _prove(url: str, request_id: str, out: Path) -> str:
    res = runner.invoke(app, ["audit", "prove", request_id, "--url", url, "--format",
                              "tlog-proof", "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out.read_text()


def test_go_sumdb_verifies_receipts_and_rejects_forgeries(
        go_verify: Path, multi_head_home: tuple[Path, str], tmp_path: Path) -> None:
    home, url = multi_head_home
    key = vkey(home)
    for i in range(6):  # every request of the chain, at every position in the tree
        path = tmp_path / f"r{i}.tlog-proof"
        _prove(url, f"r{i}", path)
        code, out = run(go_verify, "proof", "-vkey", key, "-origin-prefix", LOG, path)
        assert code == 0 and f"size={SIZE}" in out and "table=audit_requests" in out, out

    good = (tmp_path / "r2.tlog-proof").read_text()
    head, checkpoint = good.split("\n\n", 1)
    lines = head.split("\n")
    index = int(lines[2].split()[1])
    cases = {
        "wrong index": "\n".join([*lines[:2], f"index {index + 1}", *lines[3:]]),
        "tampered proof hash": "\n".join(
            [*lines[:3], b64(bytes([base64.b64decode(lines[3])[0] ^ 1])
                             + base64.b64decode(lines[3])[1:]), *lines[4:]]),
        "dropped proof hash": "\n".join(lines[:-1]),
        "another record": "\n".join([lines[0], "extra " + b64(base64.b64decode(
            lines[1][6:]).replace(b"\tr2\t", b"\tr7\t")), *lines[2:]]),
    }
    for what, forged_head in cases.items():
        p = tmp_path / what.replace(" ", "-")
        p.write_text(forged_head + "\n\n" + checkpoint)
        code, out = run(go_verify, "proof", "-vkey", key, p)
        assert code == 1 and "REJECT: inclusion proof" in out, (what, out)
    for what, note in {"forged root": _forge_root(checkpoint),
                       "wrong signature": _flip_signature(checkpoint)}.items():
        p = tmp_path / what.replace(" ", "-")
        p.write_text(head + "\n\n" + note)
        code, out = run(go_verify, "proof", "-vkey", key, p)
        assert code == 1 and "REJECT: checkpoint signature" in out, (what, out)
    code, out = run(go_verify, "proof", "-vkey", vkey(home, "someone.else/log"),
                    tmp_path / "r2.tlog-proof")
    assert code == 1 and "REJECT: checkpoint signature" in out, out


def test_go_sumdb_checks_consistency_between_checkpoints(
        go_verify: Path, multi_head_home: tuple[Path, str], tmp_path: Path) -> None:
    """The consistency proofs the sidecar hands witnesses are RFC 6962's, as Go reads them."""
    from guardian.audit.heads import read_heads
    from guardian.audit.proofs import prove_consistency
    from guardian.audit.signing import load_trust
    from guardian.core.db import make_engine

    home, url = multi_head_home
    key = vkey(home)
    cps = read_checkpoints(chain_dir(home))
    sizes = sorted({c.size for c in cps})
    assert len(sizes) >= 3, sizes  # 0, some sizes in between, SIZE
    heads, _ = read_heads(home / "audit-heads", load_trust(home / "audit-trust.json"))
    (chain_heads,) = heads.values()
    by_size = {h["size"]: h for h in chain_heads}
    db = make_engine(url)
    for old_size in sizes[1:-1]:
        proof = prove_consistency(db, by_size[old_size], home / "audit-heads", by_size[SIZE])
        old, new = tmp_path / "old", tmp_path / "new"
        old.write_text(next(c.note for c in cps if c.size == old_size))
        new.write_text(next(c.note for c in cps if c.size == SIZE))
        lines = [b64(bytes.fromhex(h)) for h in proof["proof"]]
        (tmp_path / "proof").write_text("".join(f"{x}\n" for x in lines))
        code, out = run(go_verify, "consistency", "-vkey", key, old, new, tmp_path / "proof")
        assert code == 0 and f"{old_size} -> {SIZE}" in out, out
        bad = bytearray(bytes.fromhex(proof["proof"][0]))
        bad[5] ^= 0x80
        (tmp_path / "proof").write_text("".join(f"{x}\n" for x in [b64(bytes(bad)), *lines[1:]]))
        code, out = run(go_verify, "consistency", "-vkey", key, old, new, tmp_path / "proof")
        assert code == 1 and "REJECT: consistency" in out, out


def test_tile_paths_follow_tlog_tiles() -> None:
    from guardian.audit.tiles import tile_path

    assert tile_path(0, 1234067) == "tile/0/x001/x234/067"
    assert tile_path(1, 5, 7) == "tile/1/005.p/7"
    assert tile_path("entries", 1000) == "tile/entries/x001/000"


def test_go_sumdb_reads_the_tiles(go_verify: Path, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch, sqlite_url: str) -> None:
    """A chain of 601 records (two full level-0 tiles, a partial one and a level-1 tile):
    sumdb/tlog's TileHashReader checks every tile it reads against the checkpoint's root and
    proves records from them; a changed tile or entry is refused."""
    from guardian.audit import open_sink, upgrade
    from guardian.audit.testing import request_event
    from guardian.settings import get_settings

    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GUARDIAN_DATABASE_URL", sqlite_url)
    monkeypatch.chdir(tmp_path)
    get_settings.cache_clear()
    upgrade(sqlite_url)
    sink = open_sink(get_settings())
    sink.submit(request_event(600, request_id="long"))
    sink.close()
    home = tmp_path / "home"
    res = runner.invoke(app, ["audit", "tiles", "--out", str(tmp_path / "tiles")])
    assert res.exit_code == 0 and "for the checkpoint of size 601" in res.output, res.output
    (log_dir,) = (tmp_path / "tiles").iterdir()
    assert (log_dir / "tile/0/000").stat().st_size == 256 * 32
    assert (log_dir / "tile/0/002.p/89").stat().st_size == 89 * 32
    assert (log_dir / "tile/1/000.p/2").exists()
    key = vkey(home)
    for index in (0, 255, 256, 600):
        code, out = run(go_verify, "tiles", "-vkey", key, log_dir, str(index))
        assert code == 0 and f"size=601 index={index}" in out, out
    tile = log_dir / "tile/0/001"
    data = bytearray(tile.read_bytes())
    data[40] ^= 1
    tile.write_bytes(bytes(data))
    code, out = run(go_verify, "tiles", "-vkey", key, log_dir, "300")
    assert code == 1 and out.startswith(("REJECT: tiles", "REJECT: entry 300")), out
    tile.write_bytes(bytes(data[:40]) + bytes([data[40] ^ 1]) + bytes(data[41:]))
    bundle = log_dir / "tile/entries/002.p/89"
    entries = bytearray(bundle.read_bytes())
    entries[5] ^= 1
    bundle.write_bytes(bytes(entries))
    code, out = run(go_verify, "tiles", "-vkey", key, log_dir, "512")
    assert code == 1 and out.startswith("REJECT: entry 512"), out
    get_settings.cache_clear()
