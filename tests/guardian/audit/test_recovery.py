"""Database killed mid-write: nothing lost, nothing duplicated, chain intact (Postgres).

"Killing the database" here means cutting every connection through a TCP proxy and refusing
new ones (the shared server keeps running for other users), and `pg_terminate_backend` of the
writer's own sessions.
"""

from __future__ import annotations

import threading
import time

import pytest
import sqlalchemy as sa

from guardian.audit.rows import Sealer
from guardian.audit.spool import Spool, read_segment
from guardian.audit.store import BatchStore
from guardian.audit.testing import request_event, shadow_event
from guardian.audit.verify import verify_db
from guardian.core.db import make_engine
from tests.support.audit import count

pytestmark = pytest.mark.integration

TOKENS = 16


def _assert_complete(url: str, n_requests: int, *, shadows: bool = False) -> None:
    assert count(url, "SELECT count(DISTINCT request_id) FROM audit_requests") == n_requests
    assert count(url, "SELECT count(*) FROM audit_requests") == n_requests  # no duplicates
    per_request = TOKENS + (4 if shadows else 0)
    assert count(url, "SELECT count(*) FROM audit_tokens") == n_requests * per_request
    assert count(url, "SELECT count(*) FROM (SELECT chain_id, seq FROM audit_tokens "
                      "GROUP BY chain_id, seq HAVING count(*) > 1) d") == 0
    rep = verify_db(make_engine(url))
    assert rep.ok, rep.errors
    assert not rep.declared_losses


def test_db_down_mid_write_then_back_loses_nothing(pg_proxy, make_writer) -> None:  # type: ignore[no-untyped-def]
    proxy, url = pg_proxy
    w = make_writer(url, batch_events=20)
    n = 300
    for i in range(n):
        ev = request_event(TOKENS, request_id=f"d{i}")
        w.submit(ev)
        w.submit(shadow_event(ev.request_id))
        if i == 100:
            proxy.down()  # every connection cut mid-stream
        if i == 200:
            w.flush(timeout_s=30)  # durable while down = in the spool
            assert w.stats()["spooled_batches"] > 0 and w.spool.pending()
            proxy.up()
        time.sleep(0.002)
    assert w.wait_delivered(60)
    assert w.stats()["replayed_batches"] > 0
    _assert_complete(url.replace(f"127.0.0.1:{proxy.port}", "127.0.0.1:5432"), n, shadows=True)


def test_terminated_backends_mid_write_lose_nothing(fresh_pg_url: str, make_writer) -> None:  # type: ignore[no-untyped-def]
    from guardian.audit import upgrade

    upgrade(fresh_pg_url)
    dbname = sa.engine.make_url(fresh_pg_url).database
    killer = make_engine(fresh_pg_url)
    stop = threading.Event()
    killed = []

    def kill_loop() -> None:
        while not stop.is_set():
            with killer.connect() as conn:
                killed.extend(conn.execute(sa.text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :d "
                    "AND pid <> pg_backend_pid()"), {"d": dbname}).scalars())
                conn.commit()
            time.sleep(0.05)

    w = make_writer(fresh_pg_url, batch_events=10)
    t = threading.Thread(target=kill_loop)
    t.start()
    try:
        for i in range(200):
            w.submit(request_event(TOKENS, request_id=f"k{i}"))
            time.sleep(0.003)
        w.flush(timeout_s=30)
    finally:
        stop.set()
        t.join()
    assert w.wait_delivered(60)
    assert any(killed)
    _assert_complete(fresh_pg_url, 200)


def test_replays_are_idempotent(fresh_pg_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A batch whose commit acknowledgement was lost is replayed: no duplicate rows."""
    from guardian.audit import upgrade

    upgrade(fresh_pg_url)
    engine = make_engine(fresh_pg_url)
    batch = Sealer("replica/x", salt=b"k", copy_lines=True).seal(
        [request_event(TOKENS, request_id=f"i{i}") for i in range(5)])
    spool = Spool(tmp_path, "replica/x", 10**9)
    assert spool.append(batch)
    store = BatchStore(engine)
    assert store.write(batch) is True  # committed, but pretend the ack never came back
    for path in spool.rotate():  # ... so the spool is replayed, twice for good measure
        for again in [*read_segment(path), *read_segment(path)]:
            assert store.write(again) is False
    _assert_complete(fresh_pg_url, 5)


def _spool_of_a_writer_gone_while_the_db_was_down(pg_proxy, make_writer, tmp_path):  # type: ignore[no-untyped-def]
    """(proxy, url, spool dir) after a writer closed with the DB down: its 40 requests are
    all in its spool, left for a next start. The DB is still down."""
    proxy, url = pg_proxy
    spool_dir = tmp_path / "shared-spool"
    proxy.down()
    first = make_writer(url, spool_dir=spool_dir)
    for i in range(40):
        first.submit(request_event(TOKENS, request_id=f"o{i}"))
    first.close(timeout_s=20)
    assert first.stats()["spooled_batches"] > 0
    return proxy, url, spool_dir


def test_spool_left_by_a_dead_writer_is_replayed_on_next_start(pg_proxy, make_writer, tmp_path) -> None:  # type: ignore[no-untyped-def]
    proxy, url, spool_dir = _spool_of_a_writer_gone_while_the_db_was_down(
        pg_proxy, make_writer, tmp_path)
    proxy.up()
    second = make_writer(url, spool_dir=spool_dir)
    second.flush(timeout_s=30)
    deadline = time.monotonic() + 30
    while list(spool_dir.glob("*.spool")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not list(spool_dir.glob("*.spool"))
    _assert_complete(url, 40)


def test_a_dead_writers_spool_is_replayed_once_the_db_is_back_without_a_restart(
        pg_proxy, make_writer, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The start that finds a dead writer's spool while the DB is down retries it while it
    runs (it used to wait for yet another start: crash-safety review)."""
    proxy, url, spool_dir = _spool_of_a_writer_gone_while_the_db_was_down(
        pg_proxy, make_writer, tmp_path)
    second = make_writer(url, spool_dir=spool_dir)  # starts while the DB is still down
    time.sleep(1.0)
    assert list(spool_dir.glob("*.spool"))
    proxy.up()
    deadline = time.monotonic() + 30
    while list(spool_dir.glob("*.spool")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not list(spool_dir.glob("*.spool"))
    _assert_complete(url, 40)
    second.close(timeout_s=10)


def test_an_orphan_that_cannot_be_parsed_is_not_retried_in_a_loop(
        sqlite_url: str, make_writer, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Only the database being away is retried while running: a record that will never
    parse (another version's format) is tried once and left for the next start - a retry
    every second re-sent every batch before it, for ever (second review)."""
    import zlib

    from guardian.audit import upgrade
    from guardian.audit import writer as wmod
    from guardian.audit.config import AuditSettings
    from guardian.audit.rows import Sealer

    upgrade(sqlite_url)
    spool = tmp_path / "spool"
    spool.mkdir()
    sealer = Sealer("deadreplica/aaaaaaaaaaaa", salt=AuditSettings().salt.encode(),
                    copy_lines=False)
    lines = []
    for i in range(5):
        payload = sealer.seal([wmod._storable(request_event(2, request_id=f"p{i}"),
                                              sqlite=True)]).to_json().encode()
        lines.append(b"%08x %s\n" % (zlib.crc32(payload), payload))
    bad = b'{"format": "from-another-version"}'
    lines.append(b"%08x %s\n" % (zlib.crc32(bad), bad))
    (spool / "deadreplica_aaaaaaaaaaaa-000001.spool").write_bytes(b"".join(lines))
    calls = []
    original = wmod.AuditWriter._replay_orphans
    monkeypatch.setattr(wmod.AuditWriter, "_replay_orphans",
                        lambda self: (calls.append(1), original(self))[1])
    w = make_writer(sqlite_url, spool_dir=spool)  # retry_interval_s 0.2 s
    time.sleep(1.5)
    assert len(calls) == 1
    assert w.counters["replayed_batches"] == 5
    assert list(spool.glob("deadreplica_*.spool"))  # kept for the next start


def test_full_spool_drops_batches_but_declares_them(pg_proxy, make_writer, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Documented decision: DB down *and* spool full -> batch dropped, counted, and declared
    in the chain (audit_gap); verify reports a declared loss, not tampering."""
    proxy, url = pg_proxy
    spool_dir = tmp_path / "tiny-spool"
    proxy.down()
    w = make_writer(url, spool_dir=spool_dir, spool_max_bytes=30_000, batch_events=5)
    for i in range(40):
        w.submit(request_event(TOKENS, request_id=f"f{i}"))
    w.close(timeout_s=20)
    lost = w.stats()["lost_rows"]
    assert lost > 0
    proxy.up()
    make_writer(url, spool_dir=spool_dir).close(timeout_s=30)  # replays the orphaned spool
    engine = make_engine(url)
    rep = verify_db(engine)
    assert rep.ok, rep.errors
    assert rep.declared_losses
    from guardian.audit.queries import governance_events

    gaps = governance_events(engine, kind="audit_gap")
    lost_ranges = [r for g in gaps for r in g["details"]["lost_seq"]]
    assert sum(hi - lo + 1 for lo, hi in lost_ranges) == lost
    stored = count(url, "SELECT count(*) FROM audit_requests")
    listed = {rid for g in gaps for rid in g["details"]["request_ids"]}
    assert stored + len(listed) == 40  # every request is either stored or named as lost


def test_sqlite_locked_mid_write_loses_nothing(sqlite_url: str, make_writer) -> None:  # type: ignore[no-untyped-def]
    """SQLite's "database down": another process holds an exclusive lock for a while."""
    import sqlite3

    from guardian.audit import upgrade

    upgrade(sqlite_url)
    w = make_writer(sqlite_url, batch_events=10)
    blocker = sqlite3.connect(sa.engine.make_url(sqlite_url).database, isolation_level=None)
    for i in range(120):
        w.submit(request_event(TOKENS, request_id=f"s{i}"))
        if i == 40:
            blocker.execute("BEGIN EXCLUSIVE")
        if i == 80:
            w.flush(timeout_s=30)
            assert w.stats()["spooled_batches"] > 0
            blocker.execute("COMMIT")
        time.sleep(0.002)
    blocker.close()
    assert w.wait_delivered(60)
    _assert_complete(sqlite_url, 120)


def test_sqlite_unavailable_at_start_then_created(tmp_path, make_writer) -> None:  # type: ignore[no-untyped-def]
    from guardian.audit import upgrade

    url = f"sqlite:///{tmp_path / 'not-yet' / 'guardian.db'}"
    first = make_writer(url, spool_dir=tmp_path / "spool")
    for i in range(30):
        first.submit(request_event(TOKENS, request_id=f"u{i}"))
    first.close(timeout_s=20)
    assert first.stats()["written_rows"] == 0 and first.stats()["spooled_batches"] > 0
    (tmp_path / "not-yet").mkdir()
    upgrade(url)
    make_writer(url, spool_dir=tmp_path / "spool").close(timeout_s=30)
    _assert_complete(url, 30)


def test_concurrent_writers_each_keep_a_valid_chain(fresh_db_url: str, make_writer) -> None:  # type: ignore[no-untyped-def]
    """Several sidecar replicas writing at once: one chain each, all verifiable."""
    from guardian.audit import upgrade

    upgrade(fresh_db_url)
    writers = [make_writer(fresh_db_url, batch_events=7) for _ in range(3)]

    def produce(k: int) -> None:
        for i in range(40):
            writers[k].submit(request_event(TOKENS, request_id=f"w{k}-{i}"))

    threads = [threading.Thread(target=produce, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for w in writers:
        w.close(timeout_s=30)
    rep = verify_db(make_engine(fresh_db_url))
    assert rep.ok, rep.errors
    assert rep.chains == 3
    _assert_complete(fresh_db_url, 120)


def test_rejected_data_is_quarantined_and_declared(fresh_pg_url: str, make_writer, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A batch Postgres refuses (here: an int out of range) must not wedge the writer: the
    other events of the batch are written, the bad one is kept aside and declared lost."""
    import dataclasses

    from guardian.audit import upgrade

    upgrade(fresh_pg_url)
    w = make_writer(fresh_pg_url, spool_dir=tmp_path / "spool", batch_events=50,
                    flush_interval_s=1.0)
    bad = request_event(TOKENS, request_id="poison")
    bad.trace[3] = dataclasses.replace(bad.trace[3], position=2**40)
    for i in range(10):
        w.submit(bad if i == 5 else request_event(TOKENS, request_id=f"g{i}"))
    w.flush(timeout_s=30)
    for i in range(10, 15):  # and the writer keeps going
        w.submit(request_event(TOKENS, request_id=f"g{i}"))
    w.close(timeout_s=30)
    ids = set(count_ids(fresh_pg_url))
    assert ids == {f"g{i}" for i in range(15) if i != 5}
    assert list((tmp_path / "spool" / "rejected").glob("*.json"))
    rep = verify_db(make_engine(fresh_pg_url))
    assert rep.ok, rep.errors
    assert rep.declared_losses


def count_ids(url: str) -> list[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(sa.text("SELECT request_id FROM audit_requests")).scalars())
    finally:
        engine.dispose()


def test_nul_characters_from_the_model_are_stored_and_verify(fresh_db_url: str, make_writer) -> None:  # type: ignore[no-untyped-def]
    from guardian.audit import upgrade
    from guardian.audit.chain import decode_text
    from guardian.audit.queries import get_request

    upgrade(fresh_db_url)
    w = make_writer(fresh_db_url)
    w.submit(request_event(TOKENS, request_id="nul", completion="abc\x00def",
                           prompt="p\x00"))
    w.close(timeout_s=30)
    engine = make_engine(fresh_db_url)
    rec = get_request(engine, "nul")
    # Stored in the documented escaped form (was U+FFFD, which lost the NUL), decoded exactly.
    assert rec is not None and decode_text(rec.request["completion_text"]) == "abc\x00def"
    assert decode_text(rec.request["prompt_text"]) == "p\x00"
    assert verify_db(engine).ok
