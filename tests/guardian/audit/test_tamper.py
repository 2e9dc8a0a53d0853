"""Every kind of tampering is detected, on Postgres and SQLite; pruning keeps chains valid."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from guardian.audit import upgrade
from guardian.audit.chain import CANON_COLUMNS, canonical_line, link
from guardian.audit.retention import prune
from guardian.audit.testing import governance_event, request_event, shadow_event
from guardian.audit.verify import make_checkpoint, verify_db
from guardian.core.db import make_engine
from tests.support.audit import count, tamper

pytestmark = pytest.mark.integration
KEY = "test-checkpoint-key"


@pytest.fixture
def url(fresh_db_url: str, make_writer) -> str:  # type: ignore[no-untyped-def]
    upgrade(fresh_db_url)
    w = make_writer(fresh_db_url)
    for i in range(6):
        ev = request_event(6, request_id=f"r{i}", seed=i)
        w.submit(ev)
        w.submit(shadow_event(ev.request_id, n_tokens=2))
    w.submit(governance_event())
    w.close()
    assert verify_db(make_engine(fresh_db_url)).ok
    return fresh_db_url


def _verify(url: str, checkpoint: dict | None = None):  # type: ignore[no-untyped-def]
    return verify_db(make_engine(url), checkpoint=checkpoint, checkpoint_key=KEY)


def _seq(url: str, sql: str) -> int:
    return int(count(url, sql))


def test_edited_token_is_named(url: str) -> None:
    seq = _seq(url, "SELECT seq FROM audit_tokens WHERE request_id = 'r2' AND position = 3 "
                    "AND source = 'served'")
    tamper(url, f"UPDATE audit_tokens SET origin = 'target', draft_prob = NULL WHERE seq = {seq}")
    rep = _verify(url)
    assert rep.first_error.startswith("edited: audit_tokens chain ")
    assert f"seq {seq} [r2 position 3 (served)]" in rep.first_error


def test_edited_request_metadata_is_named(url: str) -> None:
    tamper(url, "UPDATE audit_requests SET pair_hash = 'pair-forged' WHERE request_id = 'r4'")
    assert "edited: audit_requests" in _verify(url).first_error
    assert "[r4]" in _verify(url).first_error


def test_edited_json_field_is_detected(url: str) -> None:
    tamper(url, "UPDATE audit_shadow SET verdict = 'match', first_divergence_position = NULL "
                "WHERE request_id = 'r1'")
    tamper(url, "UPDATE audit_governance SET actor = 'cli:someone-else'")
    rep = _verify(url)
    assert "audit_shadow" in rep.first_error or "audit_governance" in rep.first_error
    assert len(rep.errors) >= 1


def test_deleted_record_is_detected(url: str) -> None:
    seq = _seq(url, "SELECT seq FROM audit_tokens WHERE request_id = 'r3' AND position = 0 "
                    "AND source = 'served'")
    tamper(url, f"DELETE FROM audit_tokens WHERE seq = {seq}")
    assert _verify(url).first_error.startswith("deleted: chain ")
    assert f"seq {seq}-{seq} missing" in _verify(url).first_error


def test_inserted_record_is_detected(url: str) -> None:
    """A forged token slipped in beside a real one (appends are allowed, so no guard fires)."""
    from guardian.audit.models import AuditToken

    t = AuditToken.__table__
    engine = make_engine(url)
    with engine.begin() as conn:
        row = dict(conn.execute(sa.select(t).where(t.c.request_id == "r1", t.c.position == 2,
                                                   t.c.source == "served")).mappings().one())
        row.update(position=3, token_id=666, created_at=row["created_at"]
                   + timedelta(microseconds=1))
        conn.execute(sa.insert(t), row)
    rep = _verify(url)
    assert not rep.ok
    assert any(e.startswith("inserted or reordered") and "[r1 position 3 (served)]" in e
               for e in rep.errors)


def test_reordered_records_are_detected(url: str) -> None:
    a, b = (_seq(url, f"SELECT seq FROM audit_tokens WHERE request_id = 'r0' AND position = {p} "
                      "AND source = 'served'") for p in (1, 2))
    # Swap the two tokens' content, keeping each row's hash: the order of tokens changed.
    tamper(url, f"UPDATE audit_tokens SET position = CASE seq WHEN {a} THEN 2 ELSE 1 END, "
                f"token_id = CASE seq WHEN {a} THEN (SELECT token_id FROM audit_tokens WHERE "
                f"seq = {b}) ELSE (SELECT token_id FROM audit_tokens WHERE seq = {a}) END "
                f"WHERE seq IN ({a}, {b})")
    rep = _verify(url)
    assert not rep.ok and f"seq {a}" in rep.first_error


def test_truncated_tail_is_detected_with_a_checkpoint(url: str) -> None:
    cp = make_checkpoint(_verify(url), KEY)
    assert _verify(url, cp).ok
    last = _seq(url, "SELECT max(seq) FROM audit_governance")
    tamper(url, f"DELETE FROM audit_governance WHERE seq = {last}")
    assert _verify(url).ok  # a bare chain cannot see that its newest record is gone ...
    rep = _verify(url, cp)  # ... the signed checkpoint can
    assert not rep.ok and rep.first_error.startswith("truncated:")


def test_consistently_rewritten_history_is_detected_with_a_checkpoint(url: str) -> None:
    """An attacker who recomputes every hash after editing fools the bare chain only."""
    cp = make_checkpoint(_verify(url), KEY)
    tamper(url, "UPDATE audit_requests SET route = 'other' WHERE request_id = 'r0'")
    engine = make_engine(url)
    # Recompute the whole chain like an attacker would.
    recs = []
    with engine.connect() as conn:
        for t in CANON_COLUMNS:
            for r in conn.execute(sa.text(f"SELECT * FROM {t}")).mappings():
                recs.append((t, dict(r)))
    recs.sort(key=lambda r: r[1]["seq"])
    from guardian.audit.models import CHAINED_TABLES

    prev = "0" * 64
    updates = []
    for t, r in recs:
        typed = dict(r)
        with engine.connect() as conn:  # re-read typed values
            tbl = next(x for x in CHAINED_TABLES.values() if x.name == t)
            typed = dict(conn.execute(sa.select(tbl).where(tbl.c.seq == r["seq"])).mappings().one())
        if typed["created_at"].tzinfo is None:
            typed["created_at"] = typed["created_at"].replace(tzinfo=UTC)
        h = link(prev, t, canonical_line(t, typed))
        updates.append(f"UPDATE {t} SET prev_hash = '{prev}', hash = '{h}' WHERE seq = {r['seq']}")
        prev = h
    tamper(url, *updates)
    assert _verify(url).ok  # the rewrite is self-consistent ...
    rep = _verify(url, cp)
    assert not rep.ok and rep.first_error.startswith("rewritten:")


def test_altered_checkpoint_is_rejected(url: str) -> None:
    cp = make_checkpoint(_verify(url), KEY)
    cp["chains"][0]["seq"] -= 1  # to hide a truncation
    rep = _verify(url, json.loads(json.dumps(cp)))
    assert rep.first_error.startswith("checkpoint signature invalid")


def test_prune_keeps_the_remaining_chain_verifiable(fresh_db_url: str, make_writer) -> None:  # type: ignore[no-untyped-def]
    upgrade(fresh_db_url)
    now = datetime.now(UTC)
    w = make_writer(fresh_db_url)
    for i in range(4):  # old, then new
        w.submit(request_event(5, request_id=f"old{i}", created_at=now - timedelta(days=10 - i)))
    for i in range(3):
        w.submit(request_event(5, request_id=f"new{i}", created_at=now - timedelta(hours=i)))
    w.submit(governance_event(created_at=now))
    w.close()
    engine = make_engine(fresh_db_url)
    cp = make_checkpoint(verify_db(engine), KEY)

    res = prune(engine, now - timedelta(days=3), actor="cli:test")
    assert count(fresh_db_url, "SELECT count(*) FROM audit_requests") == 3
    assert count(fresh_db_url, "SELECT count(*) FROM audit_tokens") == 3 * 5
    assert res.anchors
    if engine.dialect.name == "postgresql":
        assert len(res.dropped_partitions) >= 4  # one per old day: retention is a drop
    rep = verify_db(engine, checkpoint=cp, checkpoint_key=KEY)
    assert rep.ok, rep.errors
    # Deleting the first remaining record is still caught after the prune.
    first = _seq(fresh_db_url, "SELECT min(seq) FROM audit_requests")
    tamper(fresh_db_url, f"DELETE FROM audit_requests WHERE seq = {first}")
    assert not verify_db(engine).ok
