"""`guardian audit bundle --route R --since ... --until ...`: one archive with the route's
records of the window (as the writer redacted them), a receipt per request record, the
checkpoints, policy versions and gate reports, a manifest and a README; the standard-library
checker (`python -m guardian.audit.proofcheck --bundle`) accepts it and refuses it once a
record is edited or removed or the checkpoint swapped. On SQLite and Postgres."""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.audit.proofcheck import ProofError, check_bundle, main
from guardian.cli import app

runner = CliRunner()
SECRET = {"hashed": "hashed secret words", "redacted": "mail alice@example.com please"}
NOW = datetime.now(UTC)


def _store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    from guardian.audit import open_sink, upgrade
    from guardian.audit.testing import request_event, shadow_event
    from guardian.settings import get_settings

    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GUARDIAN_DATABASE_URL", url)
    monkeypatch.chdir(tmp_path)
    get_settings.cache_clear()
    upgrade(url)
    sink = open_sink(get_settings())
    events = [("in-1", "chat", "full", NOW - timedelta(hours=2)),
              ("in-hashed", "chat", "hashed", NOW - timedelta(hours=1)),
              ("in-masked", "chat", "redacted", NOW - timedelta(minutes=30)),
              ("other-route", "batch", "full", NOW - timedelta(hours=1)),
              ("too-old", "chat", "full", NOW - timedelta(days=10))]
    for rid, route, redaction, at in events:
        text = SECRET.get(redaction)
        ev = request_event(4, request_id=rid, route=route, redaction=redaction,  # type: ignore[arg-type]
                           prompt=text or "Summarise the quarterly report.",
                           completion=text and " " + text, created_at=at)
        sink.submit(ev)
        sink.submit(shadow_event(rid, created_at=at))
    sink.close()


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
          ) -> Iterator[str]:
    from guardian.settings import get_settings

    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "fresh_pg_url")
    _store(tmp_path, monkeypatch, url)
    yield url
    get_settings.cache_clear()


def _bundle(url: str, out: Path, *extra: str) -> tuple[int, str]:
    res = runner.invoke(app, ["audit", "bundle", "--route", "chat", "--since",
                              (NOW - timedelta(days=1)).isoformat(), "--until",
                              (NOW + timedelta(hours=1)).isoformat(), "--url", url,
                              "-o", str(out), *extra])
    return res.exit_code, res.output


def _members(path: Path) -> dict[str, bytes]:
    with tarfile.open(path) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers()}  # type: ignore[union-attr]


def _rewrite(path: Path, files: dict[str, bytes], *, fix_manifest: bool = False,
             resign: bool = False) -> None:
    """Write `files` as a bundle; `fix_manifest`: recompute manifest.json over them (what
    anyone can do); `resign`: also sign it again with the replica's own key (what only its
    holder can: the deeper checks must hold on their own)."""
    if fix_manifest:
        m = json.loads(files["manifest.json"])
        m["files"] = {k: hashlib.sha256(v).hexdigest() for k, v in files.items()
                      if k not in ("manifest.json", "manifest.json.sig")}
        files["manifest.json"] = json.dumps(m).encode()
    if resign:
        from guardian.audit.bundle import manifest_note
        from guardian.audit.checkpoints import log_name
        from guardian.audit.signing import signer_for
        from guardian.audit.writer import default_replica_id
        from guardian.settings import get_settings

        settings = get_settings()
        signer = signer_for(settings, settings.replica_id or default_replica_id())
        files["manifest.json.sig"] = manifest_note(files["manifest.json"], signer,
                                                   log_name()).encode()
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def test_the_bundle_holds_the_route_window_and_checks_offline(store: str, tmp_path: Path
                                                              ) -> None:
    out = tmp_path / "chat.tar.gz"
    code, output = _bundle(store, out)
    assert code == 0, output
    files = _members(out)
    records = [json.loads(line) for line in files["records.jsonl"].decode().splitlines()]
    requests = {r["request_id"] for r in records if r["table"] == "audit_requests"}
    assert requests == {"in-1", "in-hashed", "in-masked"}
    assert sum(n.startswith("receipts/") for n in files) == 3
    assert any(n.startswith("checkpoints/") for n in files)
    assert {"README.md", "manifest.json", "vkeys.txt", "policies.json",
            "gate-reports.json"} <= set(files)
    readme = files["README.md"].decode()
    for control in ("Art. 12", "Art. 19", "A.6.2.8", "MEASURE 2.4", "does not by itself"):
        assert control in readme
    for name, data in files.items():  # redaction respected in every member
        # hashed: no text at all; redacted: the e-mail address masked
        assert b"hashed secret" not in data and b"alice@example.com" not in data, name
    assert b"[EMAIL]" in files["records.jsonl"]
    assert check_bundle(str(out))[1].startswith("3 request records of route 'chat'")
    assert main(["--bundle", str(out)]) == 0


def test_the_checker_refuses_an_edited_or_shortened_bundle(store: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    out = tmp_path / "chat.tar.gz"
    assert _bundle(store, out)[0] == 0
    files = _members(out)
    edited = dict(files)
    data = bytearray(files["records.jsonl"])
    data[data.index(b"Summarise")] ^= 0x20
    edited["records.jsonl"] = bytes(data)
    _rewrite(tmp_path / "edited.tar.gz", edited)
    with pytest.raises(ProofError, match=r"records\.jsonl does not match its SHA-256"):
        check_bundle(str(tmp_path / "edited.tar.gz"))
    assert main(["--bundle", str(tmp_path / "edited.tar.gz")]) == 1
    assert "INVALID" in capsys.readouterr().err
    # the manifest recomputed over the edit: its signed note (the replica's key) names the
    # original manifest, and nobody without that key can sign another
    _rewrite(tmp_path / "edited2.tar.gz", dict(edited), fix_manifest=True)
    with pytest.raises(ProofError, match="SHA-256 its signed note names"):
        check_bundle(str(tmp_path / "edited2.tar.gz"))
    unsigned = {k: v for k, v in files.items() if k != "manifest.json.sig"}
    _rewrite(tmp_path / "unsigned.tar.gz", unsigned)
    with pytest.raises(ProofError, match=r"no manifest\.json\.sig"):
        check_bundle(str(tmp_path / "unsigned.tar.gz"))

    lines = files["records.jsonl"].decode().splitlines(keepends=True)
    kept = [x for x in lines if '"request_id": "in-1"' not in x
            or '"table": "audit_requests"' not in x]
    assert len(kept) == len(lines) - 1
    removed = dict(files, **{"records.jsonl": "".join(kept).encode()})
    _rewrite(tmp_path / "removed.tar.gz", removed)
    with pytest.raises(ProofError, match="does not match its SHA-256"):
        check_bundle(str(tmp_path / "removed.tar.gz"))
    _rewrite(tmp_path / "removed2.tar.gz", dict(removed), fix_manifest=True)
    with pytest.raises(ProofError, match="signed note names"):  # manifest rewritten too
        check_bundle(str(tmp_path / "removed2.tar.gz"))
    _rewrite(tmp_path / "removed3.tar.gz", dict(removed), fix_manifest=True, resign=True)
    with pytest.raises(ProofError, match="request records"):  # and signed again
        check_bundle(str(tmp_path / "removed3.tar.gz"))
    no_receipt = {k: v for k, v in files.items() if not k.startswith("receipts/") or
                  k != min(n for n in files if n.startswith("receipts/"))}
    _rewrite(tmp_path / "no-receipt.tar.gz", no_receipt)
    with pytest.raises(ProofError, match="listed in the manifest but missing"):
        check_bundle(str(tmp_path / "no-receipt.tar.gz"))


def test_the_checker_refuses_a_swapped_checkpoint(store: str, tmp_path: Path) -> None:
    out = tmp_path / "chat.tar.gz"
    assert _bundle(store, out)[0] == 0
    files = _members(out)
    (cp_name,) = [n for n in files if n.startswith("checkpoints/")]
    note = files[cp_name].decode()
    lines = note.split("\n")
    lines[1] = str(int(lines[1]) - 1)  # another tree, same key: the signature breaks
    swapped = dict(files, **{cp_name: "\n".join(lines).encode()})
    _rewrite(tmp_path / "swapped.tar.gz", swapped)
    with pytest.raises(ProofError, match="does not match its SHA-256"):
        check_bundle(str(tmp_path / "swapped.tar.gz"))
    _rewrite(tmp_path / "swapped1.tar.gz", dict(swapped), fix_manifest=True)
    with pytest.raises(ProofError, match="signed note names"):
        check_bundle(str(tmp_path / "swapped1.tar.gz"))
    _rewrite(tmp_path / "swapped2.tar.gz", dict(swapped), fix_manifest=True, resign=True)
    with pytest.raises(ProofError, match="checkpoint is not among checkpoints"):
        check_bundle(str(tmp_path / "swapped2.tar.gz"))
    forged = {k: (v.replace(note.encode(), "\n".join(lines).encode())
                  if k.startswith("receipts/") else v) for k, v in swapped.items()}
    _rewrite(tmp_path / "forged.tar.gz", forged, fix_manifest=True, resign=True)
    with pytest.raises(ProofError, match=r"invalid signature|does not lead"):
        check_bundle(str(tmp_path / "forged.tar.gz"))


@pytest.mark.parametrize(("args", "message"), [
    (["--since", "yesterday", "--until", "2030-01-01"], "not an ISO 8601"),
    (["--since", "2030-01-02", "--until", "2030-01-01"], "is not before --until"),
    (["--route", "nope"], "unknown route 'nope'"),
    (["--since", "2001-01-01", "--until", "2001-01-02"], "no request records of route"),
    (["-o", "/nonexistent-dir/x.tar.gz"], "does not exist"),
])
def test_bad_bundle_requests_fail_with_one_line(store: str, tmp_path: Path, args: list[str],
                                                message: str) -> None:
    base = {"--route": "chat", "--since": "2000-01-01", "--until": "2100-01-01",
            "-o": str(tmp_path / "b.tar.gz")}
    base.update(dict(zip(args[::2], args[1::2], strict=True)))
    res = runner.invoke(app, ["audit", "bundle", "--url", store,
                              *[x for kv in base.items() for x in kv]])
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output
