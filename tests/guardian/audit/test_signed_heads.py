"""Tamper evidence against a database writer *without the signing key*: the tamper matrix.

{edit, delete, insert, reorder, truncate tail, forge at head, forge from genesis, rewrite
after a head, forged gap, forged anchor, drop/add export lines} x {SQLite, Postgres} x
{latest signed head available, none}. The attacker here may run any SQL, recompute SHA-256
chain hashes and write whole chains; only the Ed25519 key and the published heads are out of
reach. Each case asserts its outcome for both columns: caught (with the words naming the
first bad record) or, without a head, documented as undetectable (docs/guides/compliance.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from guardian.audit import upgrade
from guardian.audit.chain import CANON_COLUMNS, GENESIS, canonical_line, link
from guardian.audit.config import AuditSettings
from guardian.audit.events import GovernanceEvent
from guardian.audit.export import export, make_manifest, manifest_path, verify_export
from guardian.audit.heads import HeadsConfig, make_head, read_heads
from guardian.audit.merkle import Frontier
from guardian.audit.models import CHAINED_TABLES
from guardian.audit.proofs import prove_request
from guardian.audit.queries import iter_chained
from guardian.audit.retention import prune
from guardian.audit.signing import Signer, generate, load_trust, rotate
from guardian.audit.testing import governance_event, request_event, shadow_event
from guardian.audit.verify import _normalise, _stream, verify_db
from guardian.audit.writer import AuditWriter
from guardian.core.db import make_engine
from tests.support.audit import guards_off, tamper

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[3]


# -- fixtures: a writer that publishes heads, and an attacker's tools -------------------------
class Keys:
    def __init__(self, base: Path) -> None:
        self.base, self.trust = base, base / "trust.json"
        self.heads = base / "heads"

    def signer(self, name: str = "replica-a") -> Signer:
        return generate(self.base / f"{name}.key", self.trust, name)

    def read(self) -> Any:
        return read_heads(self.heads, load_trust(self.trust))


@pytest.fixture
def keys(tmp_path: Path) -> Keys:
    return Keys(tmp_path / "keys")


def writer(url: str, keys: Keys, signer: Signer, spool: Path, *, replica: str = "ra",
           every: int = 7, interval_s: float = 3600) -> AuditWriter:
    cfg = AuditSettings(flush_interval_s=0.05, retry_interval_s=0.2, connect_timeout_s=1)
    return AuditWriter(url, spool_dir=spool, replica_id=replica, config=cfg,
                       heads=HeadsConfig(signer, keys.heads, every, interval_s))


def populate(w: AuditWriter, prefix: str = "r", n: int = 6, at: datetime | None = None) -> None:
    for i in range(n):
        ev = request_event(5, request_id=f"{prefix}{i}", seed=i, created_at=at)
        w.submit(ev)
        w.submit(shadow_event(ev.request_id, n_tokens=2, created_at=at))
        w.flush()  # several batches: several heads
    w.submit(governance_event(created_at=at))


@pytest.fixture
def db(fresh_db_url: str, keys: Keys, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(url, chain id) of a database holding one closed writer's chain, heads published."""
    upgrade(fresh_db_url)
    w = writer(fresh_db_url, keys, keys.signer(), tmp_path / "spool")
    populate(w)
    w.close()
    yield fresh_db_url, w.chain_id


def records(url: str, chain_id: str) -> list[tuple[str, dict[str, Any]]]:
    import heapq

    engine = make_engine(url)
    try:
        streams = [list(map(_normalise, _stream(engine, t, [chain_id]))) for t in CANON_COLUMNS]
        return list(heapq.merge(*streams, key=lambda r: r[1]["seq"]))
    finally:
        engine.dispose()


def rehash(url: str, chain_id: str, from_seq: int, edit: dict[int, dict[str, Any]] | None = None
           ) -> None:
    """Rewrite a chain consistently from `from_seq` (what a DB writer can always do)."""
    recs = records(url, chain_id)
    prev = next((r["hash"] for _, r in recs if r["seq"] == from_seq - 1), GENESIS)
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            guards_off(conn)
            for table, row in recs:
                if row["seq"] < from_seq:
                    continue
                row.update((edit or {}).get(row["seq"], {}))
                row["prev_hash"] = prev
                row["hash"] = prev = link(prev, table, canonical_line(table, row))
                t = _table(table)
                values = {c: row[c] for c in (*CANON_COLUMNS[table], "prev_hash", "hash")
                          if c not in ("chain_id", "seq")}
                conn.execute(sa.update(t).where(t.c.chain_id == chain_id,
                                                t.c.seq == row["seq"]).values(**values))
    finally:
        engine.dispose()


def _table(name: str) -> sa.Table:
    return next(t for t in CHAINED_TABLES.values() if t.name == name)


def forge_governance(url: str, chain_id: str, seq: int, prev: str, **fields: Any) -> str:
    row = {"chain_id": chain_id, "seq": seq, "event_id": f"forged-{seq}",
           "created_at": datetime.now(UTC), "kind": "rollback", "route": None,
           "pair_hash": None, "policy_hash": None, "actor": "cli:attacker", "details": {},
           **fields}
    row["prev_hash"] = prev
    row["hash"] = link(prev, "audit_governance", canonical_line("audit_governance", row))
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.insert(_table("audit_governance")).values(**row))
    finally:
        engine.dispose()
    return row["hash"]


def check(url: str, keys: Keys, with_heads: bool) -> Any:
    engine = make_engine(url)
    try:
        return verify_db(engine, heads=keys.read() if with_heads else None)
    finally:
        engine.dispose()


# -- the attacks ------------------------------------------------------------------------------
def _seq_of(url: str, chain: str, request_id: str, table: str = "audit_requests") -> int:
    return next(r["seq"] for t, r in records(url, chain)
                if t == table and r["request_id"] == request_id)


def edit(url: str, chain: str) -> None:
    tamper(url, "UPDATE audit_requests SET route = 'forged' WHERE request_id = 'r2'")


def delete(url: str, chain: str) -> None:
    seq = _seq_of(url, chain, "r3") + 2
    tamper(url, f"DELETE FROM audit_tokens WHERE seq = {seq}")


def insert(url: str, chain: str) -> None:
    """A forged record slipped in under a seq another record already holds."""
    seq = _seq_of(url, chain, "r1") + 1  # a token's seq
    prev = next(r["prev_hash"] for _, r in records(url, chain) if r["seq"] == seq)
    forge_governance(url, chain, seq, prev)


def reorder(url: str, chain: str) -> None:
    """r1 and r4 swapped (ids, prompts, completions), then the chain re-hashed to match."""
    recs = {r["request_id"]: r for t, r in records(url, chain) if t == "audit_requests"}
    a, b = recs["r1"], recs["r4"]
    cols = ("request_id", "prompt_text", "completion_text", "prompt_token_ids",
            "completion_token_ids")
    rehash(url, chain, a["seq"], {a["seq"]: {c: b[c] for c in cols},
                                  b["seq"]: {c: a[c] for c in cols}})


def truncate_tail(url: str, chain: str) -> None:
    last = _seq_of(url, chain, "r5")
    tamper(url, *(f"DELETE FROM {t} WHERE seq >= {last}" for t in CANON_COLUMNS))


def forge_at_head(url: str, chain: str) -> None:
    last = records(url, chain)[-1][1]
    forge_governance(url, chain, last["seq"] + 1, last["hash"], kind="promotion")


def forge_from_genesis(url: str, chain: str) -> None:
    prev = GENESIS
    for seq in (1, 2, 3):
        prev = forge_governance(url, "ra/forged000000", seq, prev, kind="promotion")


def rewrite(url: str, chain: str) -> None:
    """Change a covered record and re-hash everything after it (chains stay valid)."""
    seq = _seq_of(url, chain, "r2")
    rehash(url, chain, seq, {seq: {"completion_text": "a different answer"}})


def forged_gap(url: str, chain: str) -> None:
    """Delete request r2 (and its tokens and shadow) and declare the range lost."""
    lo = _seq_of(url, chain, "r2")
    hi = _seq_of(url, chain, "r3") - 1
    tamper(url, *(f"DELETE FROM {t} WHERE seq BETWEEN {lo} AND {hi}" for t in CANON_COLUMNS))
    last = records(url, chain)[-1][1]
    forge_governance(url, chain, last["seq"] + 1, last["hash"], kind="audit_gap",
                     details={"dropped_events": 2, "request_ids": [], "lost_seq": [[lo, hi]]})


def forged_anchor(url: str, chain: str) -> None:
    """Delete the oldest records (r0, r1) and anchor the chain after them, like prune does."""
    upto = _seq_of(url, chain, "r2") - 1
    h = next(r["hash"] for _, r in records(url, chain) if r["seq"] == upto)
    tamper(url, *(f"DELETE FROM {t} WHERE seq <= {upto}" for t in CANON_COLUMNS),
           "INSERT INTO audit_anchors (chain_id, seq, hash, cutoff, pruned_at, actor) VALUES "
           f"('{chain}', {upto}, '{h}', '2026-01-01', '2026-01-01', 'cli:attacker')")


UNDETECTABLE = None  # without a signed head: stated in docs/guides/compliance.md
# case -> (attack, first error without heads, first error with heads)
MATRIX: dict[str, tuple[Any, str | None, str | tuple[str, ...]]] = {
    "edit": (edit, "edited: audit_requests", "edited: audit_requests"),
    "delete": (delete, "deleted: chain", "deleted: chain"),
    "insert": (insert, "inserted or reordered", "inserted or reordered"),
    "reorder": (reorder, UNDETECTABLE, "rewritten: chain"),
    "truncate_tail": (truncate_tail, UNDETECTABLE, "deleted: chain"),
    "forge_at_head": (forge_at_head, UNDETECTABLE, "appended:"),
    "forge_from_genesis": (forge_from_genesis, UNDETECTABLE, "unattested chain: chain "
                           "ra/forged000000"),
    "rewrite": (rewrite, UNDETECTABLE, "rewritten: chain"),
    # "rewritten" or "deleted", depending on which signed head comes first after the range
    "forged_gap": (forged_gap, UNDETECTABLE, ("rewritten: chain", "deleted: chain")),
    "forged_anchor": (forged_anchor, UNDETECTABLE, "forged anchor: chain"),
}


@pytest.mark.parametrize("case", list(MATRIX))
def test_tamper_matrix(case: str, db: tuple[str, str], keys: Keys) -> None:
    url, chain = db
    assert check(url, keys, True).ok and check(url, keys, True).attested
    attack, without, with_heads = MATRIX[case]
    attack(url, chain)

    plain = check(url, keys, False)
    if without is UNDETECTABLE:
        assert plain.ok, plain.errors  # the hash chain alone cannot see it (documented)
    else:
        assert not plain.ok and plain.first_error.startswith(without), plain.errors

    signed = check(url, keys, True)
    assert not signed.ok
    assert any(e.startswith(with_heads) for e in signed.errors), signed.errors
    assert signed.first_error.startswith(with_heads) or without is not UNDETECTABLE


def test_rewrite_names_the_range_and_a_forged_gap_is_called_forged(db: tuple[str, str],
                                                                   keys: Keys) -> None:
    url, chain = db
    forged_gap(url, chain)
    err = next(e for e in check(url, keys, True).errors
               if e.startswith(("rewritten", "deleted")))
    assert "audit_gap record that declares them is forged" in err
    assert f"chain {chain}" in err


def test_rewrite_after_the_latest_head_is_pending_then_caught_by_the_next(
        fresh_db_url: str, keys: Keys, tmp_path: Path) -> None:
    """Records newer than the latest head are not attested yet; the live writer's next head
    (from its own memory of the leaves) exposes the rewrite."""
    upgrade(fresh_db_url)
    w = writer(fresh_db_url, keys, keys.signer(), tmp_path / "spool", every=10_000)
    populate(w, n=2)
    w.flush()
    assert w.heads is not None and w.heads.publish() is not None
    populate(w, prefix="late", n=2)
    w.flush()
    seq = _seq_of(fresh_db_url, w.chain_id, "late1")
    rehash(fresh_db_url, w.chain_id, seq, {seq: {"route": "rewritten"}})
    rep = check(fresh_db_url, keys, True)
    assert rep.ok and rep.pending  # within the grace period: pending, not yet attested
    assert not verify_db(make_engine(fresh_db_url), heads=keys.read(), grace_s=0).ok
    w.close()
    rep = check(fresh_db_url, keys, True)
    assert rep.first_error.startswith(f"rewritten: chain {w.chain_id}"), rep.errors
    assert "late" in rep.first_error


def test_a_forged_or_untrusted_head_is_an_error(db: tuple[str, str], keys: Keys,
                                                tmp_path: Path) -> None:
    url, chain = db
    stranger = generate(tmp_path / "stranger.key", tmp_path / "other-trust.json", "x")
    bogus = make_head(stranger, chain, "ra", Frontier(), 0)
    target = next(keys.heads.glob("*/heads.jsonl"))
    with open(target, "a") as fh:
        fh.write(json.dumps(bogus) + "\n")
    rep = check(url, keys, True)
    assert rep.first_error.startswith("forged or untrusted head") and "not in the trust file" in \
        rep.first_error


# -- exports ----------------------------------------------------------------------------------
@pytest.mark.parametrize("change", ["drop_middle", "drop_last", "add_forged"])
def test_export_lines_dropped_or_added(change: str, db: tuple[str, str], keys: Keys,
                                       tmp_path: Path) -> None:
    url, _chain = db
    path = tmp_path / "export.jsonl"
    hashes: list[str] = []
    engine = make_engine(url)
    export(iter_chained(engine), path, "jsonl", hashes)
    signer = generate(keys.base / "exporter.key", keys.trust, "exporter")
    m = make_manifest(path, hashes, signer, [])
    manifest_path(path).write_text(json.dumps(m))
    trust = load_trust(keys.trust)
    assert verify_export(path, manifest=m, trust=trust).ok
    lines = path.read_text().splitlines()
    if change == "drop_middle":
        del lines[len(lines) // 2]
    elif change == "drop_last":
        del lines[-1]
    else:
        last = json.loads(lines[-1])
        row = {**last, "table": "audit_governance", "seq": last["seq"] + 1,
               "prev_hash": last["hash"], "event_id": "forged", "kind": "promotion",
               "actor": "cli:attacker", "details": {}, "route": None, "pair_hash": None,
               "policy_hash": None}
        row["hash"] = link(row["prev_hash"], "audit_governance", canonical_line(
            "audit_governance", {**row, "created_at": datetime.fromisoformat(row["created_at"])}))
        lines.append(json.dumps({k: row[k] for k in ("table", *CANON_COLUMNS["audit_governance"],
                                                     "prev_hash", "hash")}))
    path.write_text("\n".join(lines) + "\n")
    # Without the manifest: the remaining links all hold (documented as undetectable).
    assert verify_export(path).ok
    rep = verify_export(path, manifest=m, trust=trust)
    word = "lines added" if change == "add_forged" else "lines removed"
    assert rep.first_error.startswith(word), rep.errors
    # A manifest edited to match is caught by its signature.
    m2 = {**m, "count": m["count"] + (1 if change == "add_forged" else -1)}
    assert verify_export(path, manifest=m2, trust=trust).first_error.startswith(
        "manifest signature invalid")


# -- proofs, rotation, prune, replicas ---------------------------------------------------------
def _proofcheck(tmp_path: Path, proof: dict[str, Any], trust: Path,
                head: dict[str, Any] | None = None) -> subprocess.CompletedProcess[str]:
    """The offline verifier in a fresh interpreter, outside the repo, with no database."""
    (tmp_path / "proof.json").write_text(json.dumps(proof))
    args = [sys.executable, "-m", "guardian.audit.proofcheck", str(tmp_path / "proof.json"),
            "--trust", str(trust)]
    if head is not None:
        (tmp_path / "head.json").write_text(json.dumps(head))
        args += ["--head", str(tmp_path / "head.json")]
    return subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_proof_round_trip_through_the_offline_verifier(db: tuple[str, str], keys: Keys,
                                                        tmp_path: Path) -> None:
    url, _chain = db
    proof = prove_request(make_engine(url), "r3", keys.heads)
    assert [r["table"] for r in proof["records"]] == ["audit_requests", "audit_shadow"]
    res = _proofcheck(tmp_path, proof, keys.trust, proof["head"])
    assert res.returncode == 0, res.stderr
    assert res.stdout.count("OK: ") == 2
    # A changed record, a changed path or a doctored head: rejected, with the reason.
    bad = json.loads(json.dumps(proof))
    bad["records"][0]["line"] = bad["records"][0]["line"].replace("r3", "r9")
    assert "content does not match" in _proofcheck(tmp_path, bad, keys.trust).stderr
    bad = json.loads(json.dumps(proof))
    bad["records"][0]["path"][0] = "00" * 32
    assert "is not in the signed tree" in _proofcheck(tmp_path, bad, keys.trust).stderr
    bad = json.loads(json.dumps(proof))
    bad["head"]["root"] = "11" * 32
    res = _proofcheck(tmp_path, bad, keys.trust)
    assert res.returncode == 1 and "bad signature" in res.stderr
    # The verifier imports nothing of the project beyond its own file.
    src = (ROOT / "guardian/audit/proofcheck.py").read_text()
    assert "from guardian" not in src and "import guardian" not in src


def test_prove_refuses_when_the_database_no_longer_matches(db: tuple[str, str],
                                                           keys: Keys) -> None:
    from guardian.audit.proofs import ProveError

    url, chain = db
    rewrite(url, chain)
    with pytest.raises(ProveError, match="no longer matches its signed head"):
        prove_request(make_engine(url), "r4", keys.heads)


def test_prove_refuses_an_edited_record(db: tuple[str, str], keys: Keys) -> None:
    from guardian.audit.proofs import ProveError

    url, chain = db
    edit(url, chain)  # content changed, stored hash kept: the tree still matches the head
    with pytest.raises(ProveError, match="was edited"):
        prove_request(make_engine(url), "r2", keys.heads)


def test_key_rotation_keeps_old_heads_verifiable(fresh_db_url: str, keys: Keys,
                                                 tmp_path: Path) -> None:
    upgrade(fresh_db_url)
    old = keys.signer("replica-a")
    w1 = writer(fresh_db_url, keys, old, tmp_path / "s1")
    populate(w1, prefix="before", n=2)
    w1.close()
    old_id, new = rotate(keys.base / "replica-a.key", keys.trust, "replica-a")
    assert old_id == old.key_id and new.key_id != old.key_id
    w2 = writer(fresh_db_url, keys, new, tmp_path / "s2")
    populate(w2, prefix="after", n=2)
    w2.close()
    rep = check(fresh_db_url, keys, True)
    assert rep.ok, rep.errors
    assert len(rep.attested) == 2
    assert {h["key_id"] for hs in keys.read()[0].values() for h in hs} == {old.key_id,
                                                                          new.key_id}
    proof = prove_request(make_engine(fresh_db_url), "before1", keys.heads)
    assert _proofcheck(tmp_path, proof, keys.trust).returncode == 0
    # The retired key cannot sign anything new: a head dated after its retirement fails.
    late = make_head(old, w1.chain_id, "ra", Frontier(), 0,
                     when=datetime.now(UTC) + timedelta(hours=1))
    with open(next(keys.heads.glob("*/heads.jsonl")), "a") as fh:
        fh.write(json.dumps(late) + "\n")
    rep = check(fresh_db_url, keys, True)
    assert any("was retired at" in e for e in rep.errors), rep.errors


def test_prune_then_prove(fresh_db_url: str, keys: Keys, tmp_path: Path) -> None:
    upgrade(fresh_db_url)
    signer = keys.signer()
    now = datetime.now(UTC)
    w = writer(fresh_db_url, keys, signer, tmp_path / "s1")
    populate(w, prefix="old", n=3, at=now - timedelta(days=10))
    populate(w, prefix="new", n=3, at=now)
    w.close()
    engine = make_engine(fresh_db_url)
    old_proof = prove_request(engine, "new1", keys.heads)
    res = prune(engine, now - timedelta(days=3), actor="cli:test")
    assert res.anchors and res.prefixes[w.chain_id].size > 0
    # The prune's own record, as `guardian audit prune` writes it (a signed chain of its own).
    rec = writer(fresh_db_url, keys, signer, tmp_path / "s2", replica="cli")
    rec.submit(GovernanceEvent(
        event_id="prune-1", created_at=now, kind="audit_prune", route=None, pair_hash=None,
        policy_hash=None, actor="cli:test",
        details={"anchors": {c: [s, h] for c, (s, h) in res.anchors.items()}}))
    rec.close()
    rep = verify_db(engine, heads=keys.read())
    assert rep.ok, rep.errors
    proof = prove_request(engine, "new1", keys.heads)
    assert proof["records"][0]["leaf_index"] == old_proof["records"][0]["leaf_index"]
    assert proof["records"][0]["path"] == old_proof["records"][0]["path"]
    assert _proofcheck(tmp_path, proof, keys.trust).returncode == 0
    from guardian.audit.proofs import ProveError

    with pytest.raises(ProveError, match="no request"):
        prove_request(engine, "old0", keys.heads)
    # A second prune extends the stored compact range; still provable.
    res2 = prune(engine, now + timedelta(days=1), actor="cli:test")
    assert not res2.anchors or all(f.size >= res.prefixes.get(c, Frontier()).size
                                   for c, f in res2.prefixes.items())


def test_two_replicas_in_one_database(fresh_db_url: str, keys: Keys, tmp_path: Path) -> None:
    upgrade(fresh_db_url)
    a = writer(fresh_db_url, keys, keys.signer("replica-a"), tmp_path / "sa", replica="ra")
    b = writer(fresh_db_url, keys, keys.signer("replica-b"), tmp_path / "sb", replica="rb")
    for i in range(4):  # interleaved
        a.submit(request_event(4, request_id=f"a{i}", seed=i))
        b.submit(request_event(4, request_id=f"b{i}", seed=i))
        a.flush()
        b.flush()
    a.close()
    b.close()
    rep = check(fresh_db_url, keys, True)
    assert rep.ok and len(rep.attested) == 2, rep.errors
    heads = keys.read()[0]
    assert {hs[-1]["key_id"] for hs in heads.values()} == {a.heads.signer.key_id,  # type: ignore[union-attr]
                                                          b.heads.signer.key_id}  # type: ignore[union-attr]
    for rid in ("a2", "b3"):
        proof = prove_request(make_engine(fresh_db_url), rid, keys.heads)
        assert _proofcheck(tmp_path, proof, keys.trust).returncode == 0
    # Tampering with one replica's chain names that chain only.
    truncate = records(fresh_db_url, b.chain_id)[-1][1]["seq"]
    tamper(fresh_db_url, f"DELETE FROM audit_tokens WHERE chain_id = '{b.chain_id}' AND seq = "
                         f"{truncate}")
    errors = check(fresh_db_url, keys, True).errors
    assert errors and all(b.chain_id in e for e in errors), errors


def test_adopt_signs_legacy_chains_but_never_a_tampered_one(fresh_db_url: str, keys: Keys,
                                                            tmp_path: Path) -> None:
    """An upgraded database: chains written before signed heads existed."""
    from guardian.audit.adopt import adopt_chains

    upgrade(fresh_db_url)
    cfg = AuditSettings(flush_interval_s=0.05)
    legacy = [AuditWriter(fresh_db_url, spool_dir=tmp_path / f"l{i}", replica_id=f"old{i}",
                          config=cfg) for i in range(2)]
    for i, w in enumerate(legacy):
        w.submit(request_event(3, request_id=f"legacy{i}"))
        w.close()
    signer = keys.signer()
    w = writer(fresh_db_url, keys, signer, tmp_path / "new")
    populate(w, n=1)
    w.close()
    rep = check(fresh_db_url, keys, True)
    assert sum(e.startswith("unattested chain") for e in rep.errors) == 2
    tamper(fresh_db_url, f"DELETE FROM audit_tokens WHERE chain_id = '{legacy[1].chain_id}' "
                         "AND seq = 2")
    engine = make_engine(fresh_db_url)
    done, refused = adopt_chains(engine, keys.heads, load_trust(keys.trust), signer, "ops")
    assert [d.split(":")[0] for d in done] == [legacy[0].chain_id]
    assert refused and refused[0].startswith(f"{legacy[1].chain_id}: deleted")
    rep = check(fresh_db_url, keys, True)
    assert not any(legacy[0].chain_id in e for e in rep.errors), rep.errors
    forge_at_head(fresh_db_url, legacy[0].chain_id)  # adopted chains are protected from now on
    assert any(e.startswith("appended:") for e in check(fresh_db_url, keys, True).errors)


def test_a_prune_done_by_the_attacker_is_caught(db: tuple[str, str], keys: Keys) -> None:
    """The attacker runs the real prune code (correct anchors *and* Merkle prefixes) and even
    records it - in the database, without a key: the anchor is named by no attested
    audit_prune record, and the forged record itself comes after a final head."""
    url, chain = db
    engine = make_engine(url)
    res = prune(engine, datetime.now(UTC) + timedelta(days=1), actor="cli:attacker")
    assert res.anchors and res.prefixes
    rep = check(url, keys, True)
    assert any(e.startswith(f"forged anchor: chain {chain}") and "audit_prune" in e
               for e in rep.errors), rep.errors
    assert check(url, keys, False).ok  # the hash chains alone accept a prune (anchors)
    last = records(url, chain)[-1][1] if records(url, chain) else None
    seq, prev = (last["seq"] + 1, last["hash"]) if last else (res.anchors[chain][0] + 1,
                                                              res.anchors[chain][1])
    forge_governance(url, chain, seq, prev, kind="audit_prune", details={
        "anchors": {c: [s, h] for c, (s, h) in res.anchors.items()}})
    rep = check(url, keys, True)
    assert not rep.ok and any(e.startswith("appended:") for e in rep.errors), rep.errors


def test_an_edited_merkle_prefix_is_caught(fresh_db_url: str, keys: Keys,
                                           tmp_path: Path) -> None:
    upgrade(fresh_db_url)
    signer = keys.signer()
    now = datetime.now(UTC)
    w = writer(fresh_db_url, keys, signer, tmp_path / "s1")
    populate(w, prefix="old", n=2, at=now - timedelta(days=10))
    populate(w, prefix="new", n=2, at=now)
    w.close()
    engine = make_engine(fresh_db_url)
    res = prune(engine, now - timedelta(days=3), actor="cli:test")
    rec = writer(fresh_db_url, keys, signer, tmp_path / "s2", replica="cli")
    rec.submit(GovernanceEvent(
        event_id="prune-1", created_at=now, kind="audit_prune", route=None, pair_hash=None,
        policy_hash=None, actor="cli:test",
        details={"anchors": {c: [s, h] for c, (s, h) in res.anchors.items()}}))
    rec.close()
    assert check(fresh_db_url, keys, True).ok
    peaks = res.prefixes[w.chain_id].to_json()
    peaks[0] = "33" * 32
    tamper(fresh_db_url, "UPDATE audit_merkle_prefix SET peaks = :p WHERE chain_id = :c",
           params={"p": json.dumps(peaks), "c": w.chain_id})
    rep = check(fresh_db_url, keys, True)
    assert rep.first_error.startswith(f"rewritten: chain {w.chain_id}"), rep.errors


CRASHING_WRITER = """
import sys, time
from pathlib import Path
from guardian.audit.config import AuditSettings
from guardian.audit.heads import HeadsConfig
from guardian.audit.signing import load_signer
from guardian.audit.testing import request_event
from guardian.audit.writer import AuditWriter
url, key, heads = sys.argv[1:4]
w = AuditWriter(url, spool_dir=Path(heads).parent / "spool", replica_id="victim",
                config=AuditSettings(flush_interval_s=0.05),
                heads=HeadsConfig(load_signer(Path(key)), Path(heads), 10**6, 3600))
for i in range(4):
    w.submit(request_event(3, request_id=f"k{i}"))
w.flush()
print("durable", flush=True)
time.sleep(60)
"""


def test_a_writer_killed_before_its_next_head_leaves_an_unattested_tail(
        sqlite_url: str, keys: Keys) -> None:
    """Documented limit: what a SIGKILL'd writer wrote after its last head is attested by
    nothing; verify says so (pending, then `unattested`), and `adopt` signs it after review."""
    from guardian.audit.adopt import adopt_chains

    upgrade(sqlite_url)
    signer = keys.signer()
    proc = subprocess.Popen([sys.executable, "-c", CRASHING_WRITER, sqlite_url,
                             str(keys.base / "replica-a.key"), str(keys.heads)],
                            stdout=subprocess.PIPE, text=True, env={"PYTHONPATH": str(ROOT),
                                                                    "GUARDIAN_DEV_MODE": "1"})
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "durable"
    finally:
        proc.kill()
        proc.wait(10)
    engine = make_engine(sqlite_url)
    rep = verify_db(engine, heads=keys.read())
    assert rep.ok and rep.pending  # the head of size 0 is fresh
    rep = verify_db(engine, heads=keys.read(), grace_s=0)
    assert rep.first_error.startswith("unattested: 16 records from audit_requests chain victim/")
    done, refused = adopt_chains(engine, keys.heads, load_trust(keys.trust), signer, "ops")
    assert len(done) == 1 and not refused
    assert verify_db(engine, heads=keys.read(), grace_s=0).ok


def test_rotating_the_key_under_a_running_writer_keeps_the_trail_verifiable(
        fresh_db_url: str, keys: Keys, tmp_path: Path) -> None:
    """`guardian audit keys rotate` while the sidecar runs: its writer kept signing with the
    retired key, and every later head was "forged or untrusted" for ever (found by a newcomer
    following the README). The publisher follows the key file: heads after the rotation are
    signed with the new key, and the whole trail verifies."""
    upgrade(fresh_db_url)
    key_path = keys.base / "replica-a.key"
    signer = keys.signer()
    cfg = AuditSettings(flush_interval_s=0.05, retry_interval_s=0.2, connect_timeout_s=1)
    w = AuditWriter(fresh_db_url, spool_dir=tmp_path / "spool", replica_id="ra", config=cfg,
                    heads=HeadsConfig(signer, keys.heads, 3, 3600, key_path=key_path))
    populate(w, prefix="before", n=4)
    old_id, new = rotate(key_path, keys.trust, "replica-a")
    assert old_id == signer.key_id != new.key_id
    populate(w, prefix="after", n=4)
    w.close()
    rep = verify_db(make_engine(fresh_db_url), heads=keys.read())
    assert rep.ok, rep.errors
    signed_by = {json.loads(line)["key_id"] for line in
                 next(keys.heads.glob("*/heads.jsonl")).read_text().splitlines()}
    assert signed_by == {signer.key_id, new.key_id}


def test_the_first_records_after_a_quiet_spell_get_a_head_at_once(
        sqlite_url: str, keys: Keys, tmp_path: Path) -> None:
    """After an idle spell the first records waited for the publisher's next tick (up to
    `interval_s`) behind a head older than verify's grace: `guardian audit verify` called an
    untouched database TAMPERED ("unattested") for up to 10 s (an API probe found it). A
    batch arriving when the last head is older than `interval_s` is signed at once."""
    import time

    upgrade(sqlite_url)
    w = writer(sqlite_url, keys, keys.signer(), tmp_path / "spool", every=1000, interval_s=2.0)
    try:
        time.sleep(2.3)  # quiet: the loop's tick at 2 s found nothing new to sign
        w.submit(request_event(3, request_id="after-quiet"))
        assert w.wait_delivered(10)
        t0 = time.monotonic()
        while w.heads is not None and (w.heads.last_head or {}).get("size", 0) == 0:
            assert time.monotonic() - t0 < 1.0, "no head for the new records"
            time.sleep(0.01)
        rep = verify_db(make_engine(sqlite_url), heads=keys.read(), grace_s=1.0)
        assert rep.ok and not rep.pending, rep.errors or rep.pending
    finally:
        w.close()
