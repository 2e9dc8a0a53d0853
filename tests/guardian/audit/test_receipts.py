"""tlog-proof receipts: `guardian audit prove --format tlog-proof` from a real audit store,
checked by the offline verifier, and refused once any part of them is changed."""

from __future__ import annotations

import base64
import json
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.audit.notes import NoteError, parse_vkey
from guardian.audit.receipts import HEADER, check_receipt, parse_receipt
from guardian.cli import app

runner = CliRunner()


def vkeys(home: Path, name: str = "spec-guardian.local/audit") -> list[str]:
    res = runner.invoke(app, ["audit", "keys", "vkey", "--trust", str(home / "audit-trust.json"),
                              "--name", name])
    assert res.exit_code == 0, res.output
    return res.output.split()


def make_receipt(url: str, request_id: str, out: Path) -> str:
    res = runner.invoke(app, ["audit", "prove", request_id, "--url", url, "--format",
                              "tlog-proof", "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out.read_text(encoding="utf-8")


def test_a_receipt_proves_the_request_record(home: tuple[Path, str], tmp_path: Path) -> None:
    home_dir, url = home
    text = make_receipt(url, "q1", tmp_path / "q1.tlog-proof")
    assert stat.S_IMODE((tmp_path / "q1.tlog-proof").stat().st_mode) == 0o600
    assert text.startswith(HEADER + "\nextra ")
    logs = [parse_vkey(v) for v in vkeys(home_dir)]
    res = check_receipt(text, logs, origin_prefix="spec-guardian.local/audit")
    # 3 requests and their shadow rows, each with 4 token records
    assert res.size == 30 and res.signed_by == ["spec-guardian.local/audit"]
    prev, rest = res.record.split(b"\n", 1)
    assert len(prev) == 64 and rest.startswith(b"audit_requests\t") and b"\tq1\t" in rest
    heads = home_dir / "audit-heads"
    (latest,) = heads.glob("*/latest.json")
    assert json.loads(latest.read_text())["size"] == res.size


def _replace_line(text: str, start: str, new: str) -> str:
    lines = text.split("\n")
    i = next(i for i, line in enumerate(lines) if line.startswith(start))
    lines[i] = new
    return "\n".join(lines)


def test_forged_receipts_are_refused(home: tuple[Path, str], tmp_path: Path) -> None:
    home_dir, url = home
    text = make_receipt(url, "q1", tmp_path / "r")
    logs = [parse_vkey(v) for v in vkeys(home_dir)]
    r = parse_receipt(text)
    check_receipt(text, logs)
    wrong_index = text.replace(f"\nindex {r.index}\n", f"\nindex {r.index + 1}\n")
    with pytest.raises(NoteError, match="does not lead to the checkpoint's root"):
        check_receipt(wrong_index, logs)
    flipped = bytearray(r.proof[0])
    flipped[0] ^= 1
    bad_path = text.replace(base64.b64encode(r.proof[0]).decode(),
                            base64.b64encode(bytes(flipped)).decode())
    with pytest.raises(NoteError, match="does not lead"):
        check_receipt(bad_path, logs)
    other_record = r.extra.replace(b"\tq1\t", b"\tq9\t") if r.extra else b""
    with pytest.raises(NoteError, match="does not lead"):
        check_receipt(_replace_line(text, "extra ", "extra "
                                    + base64.b64encode(other_record).decode()), logs)
    body_root = r.checkpoint.split("\n")[2]
    forged_root = base64.b64encode(bytes(32)).decode()
    with pytest.raises(NoteError, match="invalid signature"):
        check_receipt(text.replace(body_root, forged_root), logs)
    with pytest.raises(NoteError, match="no signature by a known key"):
        check_receipt(text, [parse_vkey(vkeys(home_dir, "other.example/log")[0])])
    with pytest.raises(NoteError, match="not a log under"):
        check_receipt(text, logs, origin_prefix="spec-guardian.local/else")


def test_prove_refuses_tlog_proof_without_a_checkpoint(home: tuple[Path, str]) -> None:
    home_dir, url = home
    for f in home_dir.glob("audit-heads/*/checkpoints.jsonl"):
        f.unlink()  # heads published before C2SP checkpoints existed
    res = runner.invoke(app, ["audit", "prove", "q1", "--url", url, "--format", "tlog-proof"])
    assert res.exit_code == 1 and "no checkpoint of size 30" in res.output
    res = runner.invoke(app, ["audit", "prove", "q1", "--url", url, "--format", "xml"])
    assert res.exit_code == 2 and "use json or tlog-proof" in res.output
