"""C2SP checkpoints: the signed-note encoding against sumdb/note's published vectors, every
head published as a checkpoint, and no checkpoint signed that contradicts an earlier one."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from typer.testing import CliRunner

from guardian.audit.checkpoints import (
    CheckpointError,
    origin_for,
    publish_checkpoint,
    read_checkpoints,
)
from guardian.audit.heads import HeadPublisher, make_head
from guardian.audit.merkle import Frontier, record_leaf
from guardian.audit.notes import (
    NoteError,
    open_note,
    parse_checkpoint,
    parse_vkey,
    sign_line,
    verifier,
)
from guardian.audit.rows import SealedBatch
from guardian.audit.signing import generate
from guardian.cli import app

# golang.org/x/mod/sumdb/note's example key and signature (example_test.go)
GO_SKEY_SEED = base64.b64decode("AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz")[1:]
GO_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
GO_TEXT = ("If you think cryptography is the answer to your problem,\n"
           "then you don't know what your problem is.\n")
GO_SIG = ("\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgK"
          "vqfqdngotpRZb6KE6RyyBwJnAM=\n")


def test_signed_note_matches_the_reference_implementation() -> None:
    key = Ed25519PrivateKey.from_private_bytes(GO_SKEY_SEED)
    v = verifier("PeterNeumann", key.public_key().public_bytes_raw())
    assert v.vkey == GO_VKEY and parse_vkey(GO_VKEY) == v
    assert sign_line(GO_TEXT, "PeterNeumann", key) == GO_SIG
    text, ok = open_note(GO_TEXT + "\n" + GO_SIG, [v])
    assert text == GO_TEXT and ok == [v]


def test_forged_notes_are_refused() -> None:
    key = Ed25519PrivateKey.from_private_bytes(GO_SKEY_SEED)
    v = parse_vkey(GO_VKEY)
    with pytest.raises(NoteError, match="invalid signature"):
        open_note(GO_TEXT.replace("answer", "Answer") + "\n" + GO_SIG, [v])
    other = sign_line(GO_TEXT, "Someone", Ed25519PrivateKey.generate())
    with pytest.raises(NoteError, match="no signature by a known key"):
        open_note(GO_TEXT + "\n" + other, [v])
    with pytest.raises(NoteError, match="does not match"):
        parse_vkey("PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW")
    with pytest.raises(NoteError):
        open_note(GO_TEXT + GO_SIG, [v])  # no blank line
    assert sign_line(GO_TEXT, "PeterNeumann", key) == GO_SIG


def _batch(first: int, last: int) -> SealedBatch:
    b = SealedBatch("replica a+b/1", first, last)
    b.requests += [{"seq": s, "hash": f"{s:064x}"} for s in range(first, last + 1)]
    return b


def test_every_head_is_published_as_a_checkpoint(tmp_path: Path) -> None:
    signer = generate(tmp_path / "k", tmp_path / "trust.json", "t")
    pub = HeadPublisher("replica a+b/1", "t", signer, tmp_path / "heads", every=1000,
                        interval_s=3600, log_name="example.com/audit")
    pub.observe(_batch(1, 5))
    head = pub.publish()
    pub.close()
    assert head is not None
    cps = read_checkpoints(pub.dir)
    assert [c.size for c in cps] == [0, 5]  # the close's final head has the same tree
    text, _ = open_note(cps[-1].note, [verifier("example.com/audit", signer.public_raw)])
    cp = parse_checkpoint(text)
    expect = Frontier()
    expect.extend(record_leaf(f"{s:064x}") for s in range(1, 6))
    assert cp.origin == "example.com/audit/replica%20a%2Bb/1" == origin_for(
        "example.com/audit", "replica a+b/1")
    assert (cp.size, cp.root) == (5, expect.root())
    assert (pub.dir / "checkpoint").read_text() == cps[-1].note


def test_an_inconsistent_checkpoint_is_never_signed(tmp_path: Path) -> None:
    signer = generate(tmp_path / "k", tmp_path / "trust.json", "t")
    grown, other = Frontier(), Frontier()
    grown.extend(record_leaf(f"{s:064x}") for s in range(1, 4))
    other.extend(record_leaf(f"{s + 100:064x}") for s in range(1, 4))
    d = tmp_path / "c"
    assert publish_checkpoint(d, signer, "x.example/a", make_head(signer, "c", "t", grown, 3))
    with pytest.raises(CheckpointError, match="not consistent"):
        publish_checkpoint(d, signer, "x.example/a", make_head(signer, "c", "t", other, 3))
    small = Frontier()
    small.append(record_leaf(f"{1:064x}"))
    with pytest.raises(CheckpointError, match="not consistent"):
        publish_checkpoint(d, signer, "x.example/a", make_head(signer, "c", "t", small, 1))
    bigger = other.copy()
    bigger.append(record_leaf(f"{9:064x}"))  # larger, but its tree does not extend size 3's
    with pytest.raises(CheckpointError, match="not consistent"):
        publish_checkpoint(d, signer, "x.example/a", make_head(signer, "c", "t", bigger, 4),
                           root_at=lambda n: other.root() if n == 3 else bigger.root())
    assert [c.size for c in read_checkpoints(d)] == [3]


def test_keys_vkey_prints_a_verifier_key_per_pinned_key(tmp_path: Path) -> None:
    signer = generate(tmp_path / "k", tmp_path / "trust.json", "t")
    res = CliRunner().invoke(app, ["audit", "keys", "vkey", "--trust",
                                   str(tmp_path / "trust.json"), "--name", "ex.org/log"])
    assert res.exit_code == 0, res.output
    v = parse_vkey(res.output.strip())
    assert v.name == "ex.org/log" and v.public_key == signer.public_raw
    bad = CliRunner().invoke(app, ["audit", "keys", "vkey", "--trust",
                                   str(tmp_path / "trust.json"), "--name", "has space"])
    assert bad.exit_code == 2 and "log name" in bad.output
