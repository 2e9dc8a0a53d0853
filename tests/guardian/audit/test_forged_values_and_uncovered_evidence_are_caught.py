"""Forgeries the tamper matrix (`test_signed_heads.py`) does not try: stored values that read
differently than they hash, and evidence taken from records no signed head covers yet.

The attacker runs any SQL (triggers off, columns retyped) but holds no signing key and cannot
write the heads directory or the trust file. Each case is one a reader of the database (the
dashboard's SQL, `guardian audit show`) would see differently from what `verify` hashed, or
a proof/anchor accepted on the word of an unattested record.
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
from guardian.audit.chain import CANON_COLUMNS, canonical_json, canonical_line, link
from guardian.audit.config import AuditSettings
from guardian.audit.export import export, make_manifest, verify_export
from guardian.audit.heads import HeadsConfig, read_heads
from guardian.audit.models import CHAINED_TABLES
from guardian.audit.proofs import prove_request
from guardian.audit.queries import get_request, iter_chained
from guardian.audit.retention import prune
from guardian.audit.signing import Signer, generate, load_trust
from guardian.audit.testing import governance_event, request_event, shadow_event
from guardian.audit.verify import verify_db
from guardian.audit.writer import AuditWriter
from guardian.core.db import make_engine
from tests.support.audit import count, guards_off, tamper

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[3]


class Keys:
    def __init__(self, base: Path) -> None:
        self.base, self.trust, self.heads = base, base / "trust.json", base / "heads"

    def signer(self, name: str = "replica-a") -> Signer:
        return generate(self.base / f"{name}.key", self.trust, name)

    def read(self) -> Any:
        return read_heads(self.heads, load_trust(self.trust))


def _writer(url: str, keys: Keys, spool: Path, *, every: int = 7) -> AuditWriter:
    cfg = AuditSettings(flush_interval_s=0.05, retry_interval_s=0.2, connect_timeout_s=1)
    return AuditWriter(url, spool_dir=spool, replica_id="ra", config=cfg,
                       heads=HeadsConfig(keys.signer(), keys.heads, every, 3600))


def _populate(w: AuditWriter, n: int = 4, at: datetime | None = None, prefix: str = "r") -> None:
    for i in range(n):
        ev = request_event(5, request_id=f"{prefix}{i}", seed=i, created_at=at)
        w.submit(ev)
        w.submit(shadow_event(ev.request_id, n_tokens=2, created_at=at))
        w.flush()
    w.submit(governance_event(created_at=at))
    w.flush()


@pytest.fixture
def keys(tmp_path: Path) -> Keys:
    return Keys(tmp_path / "keys")


@pytest.fixture
def signed(fresh_db_url: str, keys: Keys, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(url, chain id): one closed writer's chain, covered by a final signed head."""
    upgrade(fresh_db_url)
    w = _writer(fresh_db_url, keys, tmp_path / "spool")
    _populate(w)
    w.close()
    yield fresh_db_url, w.chain_id


def _verify(url: str, keys: Keys, **kw: Any) -> Any:
    engine = make_engine(url)
    try:
        return verify_db(engine, heads=keys.read(), **kw)
    finally:
        engine.dispose()


def _pg(url: str) -> bool:
    return url.startswith("postgresql")


def _stats_of(url: str, request_id: str) -> dict[str, Any]:
    engine = make_engine(url)
    try:
        rec = get_request(engine, request_id)
        assert rec is not None
        return rec.request["stats"]
    finally:
        engine.dispose()


# -- 1. a JSON column holding the canonical text of its value as a JSON *string* ------------
def test_json_object_replaced_by_a_string_of_its_canonical_text(signed: tuple[str, str],
                                                                 keys: Keys) -> None:
    """fmt(dict) == fmt(canonical_json(dict) as str): the line, hence the hash, is unchanged,
    but SQL readers (the dashboard's `stats['accepted'].as_float()`) now read NULL."""
    url, _chain = signed
    assert _verify(url, keys).ok
    text = canonical_json(_stats_of(url, "r1"))
    value = ("to_jsonb(CAST(:s AS text))" if _pg(url) else ":s")
    tamper(url, f"UPDATE audit_requests SET stats = {value} WHERE request_id = 'r1'",
           params={"s": text if _pg(url) else json.dumps(text)})
    assert isinstance(_stats_of(url, "r1"), str)
    op = "stats->>'accepted'" if _pg(url) else "json_extract(stats, '$.accepted')"
    assert count(url, f"SELECT {op} FROM audit_requests WHERE request_id = 'r1'") is None
    rep = _verify(url, keys)
    assert not rep.ok and rep.first_error.startswith("edited: audit_requests"), rep.errors
    assert "[r1]" in rep.first_error


def test_retyped_columns_are_edits(fresh_pg_url: str, keys: Keys, tmp_path: Path) -> None:
    """Postgres: ALTER COLUMN ... TYPE text keeps every printed value (so the line) but the
    stored value is no longer the typed one that was hashed."""
    upgrade(fresh_pg_url)
    w = _writer(fresh_pg_url, keys, tmp_path / "spool")
    _populate(w, n=2)
    w.close()
    assert _verify(fresh_pg_url, keys).ok
    tamper(fresh_pg_url, "ALTER TABLE audit_requests ALTER COLUMN prompt_tokens TYPE text")
    rep = _verify(fresh_pg_url, keys)
    assert not rep.ok and rep.first_error.startswith("edited: audit_requests"), rep.errors
    assert "prompt_tokens" in rep.first_error


def test_json_string_in_an_export_is_an_edit(signed: tuple[str, str], keys: Keys,
                                             tmp_path: Path) -> None:
    url, _chain = signed
    path = tmp_path / "export.jsonl"
    hashes: list[str] = []
    engine = make_engine(url)
    export(iter_chained(engine), path, "jsonl", hashes)
    engine.dispose()
    m = make_manifest(path, hashes, generate(keys.base / "x.key", keys.trust, "exporter"), [])
    trust = load_trust(keys.trust)
    assert verify_export(path, manifest=m, trust=trust).ok
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    req = next(r for r in lines if r["table"] == "audit_requests")
    req["stats"] = canonical_json(req["stats"])
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    rep = verify_export(path, manifest=m, trust=trust)
    assert not rep.ok and rep.first_error.startswith("edited: audit_requests"), rep.errors


# -- 2. SQLite: duplicate JSON keys (json_extract reads the first, Python the last) ---------
def test_sqlite_duplicate_json_keys(sqlite_url: str, keys: Keys, tmp_path: Path) -> None:
    upgrade(sqlite_url)
    w = _writer(sqlite_url, keys, tmp_path / "spool")
    _populate(w, n=2)
    w.close()
    raw = count(sqlite_url, "SELECT stats FROM audit_requests WHERE request_id = 'r1'")
    assert json.loads(raw)["accepted"] == 12
    tamper(sqlite_url, "UPDATE audit_requests SET stats = :s WHERE request_id = 'r1'",
           params={"s": '{"accepted": 999, ' + raw.lstrip()[1:]})
    assert _stats_of(sqlite_url, "r1")["accepted"] == 12  # what verify hashes
    assert count(sqlite_url, "SELECT json_extract(stats, '$.accepted') FROM audit_requests "
                               "WHERE request_id = 'r1'") == 999  # what the dashboard sums
    rep = _verify(sqlite_url, keys)
    assert not rep.ok and rep.first_error.startswith("edited: audit_requests"), rep.errors
    assert "[r1]" in rep.first_error


# -- 3. SQLite: the same instant written in another zone ------------------------------------
def test_sqlite_timestamp_in_another_zone(sqlite_url: str, keys: Keys, tmp_path: Path) -> None:
    """'12:00:00' and '17:00:00+05:00' parse to one instant (same hash), but SQLite compares
    the text: time windows, buckets and the request -> tokens join read another time."""
    upgrade(sqlite_url)
    w = _writer(sqlite_url, keys, tmp_path / "spool")
    _populate(w, n=2)
    w.close()
    raw = count(sqlite_url, "SELECT created_at FROM audit_requests WHERE request_id = 'r1'")
    ts = datetime.fromisoformat(raw).replace(tzinfo=UTC)
    shifted = ts.astimezone(UTC).replace(tzinfo=None) + timedelta(hours=5)
    forged = shifted.strftime("%Y-%m-%d %H:%M:%S.%f") + "+05:00"
    tamper(sqlite_url, "UPDATE audit_requests SET created_at = :f WHERE request_id = 'r1'",
           params={"f": forged})
    engine = make_engine(sqlite_url)
    rec = get_request(engine, "r1")
    engine.dispose()
    assert rec is not None and rec.tokens == []  # `audit show` lost the served tokens
    rep = _verify(sqlite_url, keys)
    assert not rep.ok and rep.first_error.startswith("edited: audit_requests"), rep.errors
    assert "created_at" in rep.first_error


# -- 4. per-token floats: the stored value must be the hashed (9-digit) one -----------------
def test_token_float_changed_below_the_hashed_precision(signed: tuple[str, str],
                                                        keys: Keys) -> None:
    url, _chain = signed
    margin = count(url, "SELECT target_margin FROM audit_tokens WHERE request_id = 'r2' "
                          "AND position = 1 AND source = 'served'")
    nudged = margin * (1 - 3e-10)
    assert f"{nudged:.9g}" == f"{margin:.9g}" and nudged != margin
    tamper(url, "UPDATE audit_tokens SET target_margin = :m WHERE request_id = 'r2' AND "
                "position = 1 AND source = 'served'", params={"m": nudged})
    rep = _verify(url, keys)
    assert not rep.ok and rep.first_error.startswith("edited: audit_tokens"), rep.errors


# -- 5. an anchor justified by an audit_prune record no signed head covers ------------------
def test_forged_prune_record_after_a_fresh_head_does_not_justify_an_anchor(
        fresh_db_url: str, keys: Keys, tmp_path: Path) -> None:
    """Delete the oldest records with the real prune code, then justify the anchor with an
    `audit_prune` record appended after a live writer's fresh (non-final) head: that record is
    only *pending*, so it cannot vouch for deleting signed records."""
    upgrade(fresh_db_url)
    now = datetime.now(UTC)
    w = _writer(fresh_db_url, keys, tmp_path / "spool", every=10_000)
    _populate(w, n=2, at=now - timedelta(days=10), prefix="old")
    _populate(w, n=2, at=now, prefix="new")
    assert w.heads is not None and w.heads.publish() is not None  # fresh, not final
    engine = make_engine(fresh_db_url)
    try:
        assert verify_db(engine, heads=keys.read()).ok
        res = prune(engine, now - timedelta(days=3), actor="cli:attacker")
        assert res.anchors
        t = CHAINED_TABLES["governance"]
        seq, prev = _tail(engine, w.chain_id)
        row = {"chain_id": w.chain_id, "seq": seq + 1, "event_id": "forged-prune",
               "created_at": now, "kind": "audit_prune", "route": None, "pair_hash": None,
               "policy_hash": None, "actor": "cli:attacker",
               "details": {"anchors": {c: [s, h] for c, (s, h) in res.anchors.items()}},
               "prev_hash": prev}
        row["hash"] = link(prev, "audit_governance", canonical_line("audit_governance", row))
        with engine.begin() as conn:
            conn.execute(sa.insert(t).values(**row))
        rep = verify_db(engine, heads=keys.read())
        assert not rep.ok, rep.pending
        assert any(e.startswith(f"forged anchor: chain {w.chain_id}") for e in rep.errors), \
            rep.errors
    finally:
        engine.dispose()
        w.close()


def _tail(engine: sa.Engine, chain_id: str) -> tuple[int, str]:
    best = (0, "")
    with engine.connect() as conn:
        for t in CHAINED_TABLES.values():
            r = conn.execute(sa.select(t.c.seq, t.c.hash).where(t.c.chain_id == chain_id)
                             .order_by(t.c.seq.desc()).limit(1)).first()
            if r is not None and r[0] > best[0]:
                best = (int(r[0]), r[1])
    return best


# -- 6. the offline verifier prints only what the proof's line says -------------------------
def test_offline_verifier_binds_the_claimed_request_to_the_proven_line(
        signed: tuple[str, str], keys: Keys, tmp_path: Path) -> None:
    url, _chain = signed
    engine = make_engine(url)
    proof = prove_request(engine, "r3", keys.heads)
    engine.dispose()
    ok = _proofcheck(tmp_path, proof, keys.trust)
    assert ok.returncode == 0 and "r3" in ok.stdout, (ok.stdout, ok.stderr)
    for field, value in (("request_id", "r0"), ("seq", 1), ("chain_id", "ra/other")):
        bad = json.loads(json.dumps(proof))
        bad["records"][0][field] = value
        if field == "chain_id":
            bad["head"]["chain_id"] = value  # (the head's signature then fails first anyway)
        res = _proofcheck(tmp_path, bad, keys.trust)
        assert res.returncode == 1, (field, res.stdout)


def _proofcheck(tmp_path: Path, proof: dict[str, Any], trust: Path
                ) -> subprocess.CompletedProcess[str]:
    (tmp_path / "proof.json").write_text(json.dumps(proof))
    return subprocess.run([sys.executable, "-m", "guardian.audit.proofcheck",
                           str(tmp_path / "proof.json"), "--trust", str(trust)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


# -- caught already: kept as regressions of the sweep ---------------------------------------
def test_a_whole_chain_deleted(signed: tuple[str, str], keys: Keys) -> None:
    url, chain = signed
    tamper(url, *(f"DELETE FROM {t} WHERE chain_id = '{chain}'" for t in CANON_COLUMNS))
    rep = _verify(url, keys)
    assert not rep.ok and rep.first_error.startswith(f"deleted: chain {chain} holds 0"), \
        rep.errors


# -- 7. an export of a database rewritten before the export ---------------------------------
def test_export_of_a_rewritten_database_is_caught_by_the_heads_in_its_manifest(
        signed: tuple[str, str], keys: Keys, tmp_path: Path) -> None:
    """`guardian audit export` signs whatever the database holds: rewrite r1's completion,
    re-hash the chain, export as the CLI does (manifest with the chains' latest heads). The
    manifest and every link check out; the signed head in the manifest does not."""
    from guardian.audit.heads import latest_head

    url, chain = signed
    engine = make_engine(url)
    try:
        recs = list(iter_chained(engine))
        start = next(r["seq"] for t, r in recs if t == "audit_requests" and
                     r["request_id"] == "r1")
        prev = next(r["hash"] for _t, r in recs if r["seq"] == start - 1)
        with engine.begin() as conn:
            guards_off(conn)
            for table, row in recs:
                if row["seq"] < start:
                    continue
                if row["seq"] == start:
                    row["completion_text"] = "a different answer"
                row["prev_hash"] = prev
                row["hash"] = prev = link(prev, table, canonical_line(table, row))
                t = next(x for x in CHAINED_TABLES.values() if x.name == table)
                conn.execute(sa.update(t).where(t.c.chain_id == chain, t.c.seq == row["seq"])
                             .values(completion_text=row.get("completion_text"),
                                     prev_hash=row["prev_hash"], hash=row["hash"])
                             if table == "audit_requests" else
                             sa.update(t).where(t.c.chain_id == chain, t.c.seq == row["seq"])
                             .values(prev_hash=row["prev_hash"], hash=row["hash"]))
        assert not verify_db(engine, heads=keys.read()).ok  # the database itself: caught
        path = tmp_path / "export.jsonl"
        hashes: list[str] = []
        export(iter_chained(engine), path, "jsonl", hashes)
    finally:
        engine.dispose()
    head = latest_head(keys.heads, chain)
    assert head is not None
    m = make_manifest(path, hashes, generate(keys.base / "x.key", keys.trust, "exporter"),
                      [head])
    rep = verify_export(path, manifest=m, trust=load_trust(keys.trust))
    assert not rep.ok and rep.first_error.startswith(f"rewritten: chain {chain} in the export"), \
        rep.errors



def test_a_prune_record_whose_details_are_not_an_object_is_named_not_a_crash(
        signed: tuple[str, str], keys: Keys) -> None:
    """An `audit_prune` record rewritten to hold a JSON list or number: verify names the edit
    (it does not crash reading the prune anchors)."""
    import dataclasses

    url, _chain = signed
    w = AuditWriter(url, spool_dir=keys.base / "spool-prune", replica_id="ra",
                    config=AuditSettings(flush_interval_s=0.05),
                    heads=HeadsConfig(keys.signer(), keys.heads, 7, 3600))
    w.submit(dataclasses.replace(governance_event("audit_prune"), details={"anchors": {}}))
    w.close()
    assert _verify(url, keys).ok
    cast = "CAST(:s AS jsonb)" if _pg(url) else ":s"
    for bad in ("[1, 2]", "7"):
        tamper(url, f"UPDATE audit_governance SET details = {cast} WHERE kind = 'audit_prune'",
               params={"s": bad})
        rep = _verify(url, keys)
        assert not rep.ok and rep.first_error.startswith("edited: audit_governance"), rep.errors


# -- what readers are shown must be what verify walked (Postgres storage) --------------------
@pytest.mark.parametrize("statements,expected", [
    (["ALTER TABLE audit_shadow ENABLE ROW LEVEL SECURITY",
      "CREATE POLICY hide ON audit_shadow USING (verdict = 'match')"],
     "storage: row-level security is on for audit_shadow (1 policies)"),
    (["ALTER TABLE audit_requests RENAME TO audit_requests_kept",
      "CREATE VIEW audit_requests AS SELECT * FROM audit_requests_kept "
      "WHERE current_user = 'postgres' OR request_id <> 'r1'"],
     "storage: audit_requests is a view, not a table"),
    (["CREATE RULE swallow AS ON INSERT TO audit_governance DO INSTEAD NOTHING"],
     "storage: audit_governance has 1 rewrite rule(s)"),
])
def test_views_rules_and_row_security_on_audit_tables_are_named(
        fresh_pg_url: str, keys: Keys, tmp_path: Path, statements: list[str],
        expected: str) -> None:
    """A view, rule or row-level policy changes what a reader's query returns (by role or
    query text) without touching a stored value or hash: verify passed, while the dashboard
    could be shown other rows. Now the first error names it."""
    upgrade(fresh_pg_url)
    w = _writer(fresh_pg_url, keys, tmp_path / "spool")
    _populate(w)
    w.close()
    assert _verify(fresh_pg_url, keys).ok
    tamper(fresh_pg_url, *statements)
    rep = _verify(fresh_pg_url, keys)
    assert not rep.ok and rep.first_error.startswith(expected), rep.errors
