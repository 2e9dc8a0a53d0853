"""Per-route durability: sync events are fsync'd (write-ahead log, group commit) before their
future completes; a killed writer's WAL is replayed and its async losses are declared by id.

The crash cases run the dying writer in a child process killed with SIGKILL, so its flocks,
open files and page cache behave as after a real crash.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from guardian.audit import upgrade
from guardian.audit.models import AuditGovernance
from guardian.audit.spool import read_segment
from guardian.audit.testing import request_event
from guardian.audit.verify import verify_db
from guardian.audit.writer import AuditUnavailable
from guardian.core.db import make_engine
from tests.support.audit import count

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def url(fresh_db_url: str) -> str:
    upgrade(fresh_db_url)
    return fresh_db_url


def _gaps(url: str) -> list[dict[str, Any]]:
    engine = make_engine(url)
    try:
        t = AuditGovernance.__table__
        with engine.connect() as conn:
            return [d for (d,) in conn.execute(sa.select(t.c.details)
                                               .where(t.c.kind == "audit_gap"))]
    finally:
        engine.dispose()


def test_concurrent_sync_events_share_fsyncs_and_are_all_written(url: str, make_writer,
                                                                tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    w = make_writer(url, sync_window_s=0.005, flush_interval_s=1.0)
    futures: list[Future[None]] = []
    lock = threading.Lock()

    def client(i: int) -> None:
        for j in range(5):
            f = w.submit_durable(request_event(4, request_id=f"s{i}-{j}"))
            f.result(timeout=20)
            with lock:
                futures.append(f)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(futures) == 80 and all(f.done() and f.exception() is None for f in futures)
    stats = w.stats()
    assert stats["sync_events"] == 80
    # Group commit: 80 waiting events, far fewer fsyncs (16 clients share a window).
    assert stats["wal_fsyncs"] < 80, stats
    assert w.wait_delivered(30)
    assert count(url, "SELECT count(*) FROM audit_requests") == 80
    w.close()
    assert not list((tmp_path / "spool").glob("*.wal")), "released WAL segments stay behind"
    assert not list((tmp_path / "spool").glob("*.intent"))
    assert verify_db(make_engine(url)).ok


def test_a_sync_future_completes_only_once_the_record_is_on_disk(url: str, make_writer,
                                                               tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # No DB thread running: the only way to durability is the write-ahead log.
    w = make_writer(url, start=False)
    for t in w._threads[:2]:  # the sealer and the WAL committer only
        t.start()
    f = w.submit_durable(request_event(4, request_id="wal-1"))
    f.result(timeout=10)
    wal = list((tmp_path / "spool").glob("*.wal"))
    assert len(wal) == 1
    assert [b.request_ids for b in read_segment(wal[0])] == [["wal-1"]]
    assert count(url, "SELECT count(*) FROM audit_requests") == 0
    async_only = w.counters["wal_fsyncs"]
    w.submit(request_event(4, request_id="async-1"))  # async events never touch the WAL
    assert w.counters["wal_fsyncs"] == async_only
    for t in w._threads[2:]:
        t.start()
    assert w.wait_delivered(20)
    assert count(url, "SELECT count(*) FROM audit_requests") == 2


def test_sync_events_while_the_database_is_down_are_fsyncd_in_the_spool(pg_proxy,
                                                                        make_writer) -> None:  # type: ignore[no-untyped-def]
    proxy, url = pg_proxy
    w = make_writer(url)
    proxy.down()
    w.submit(request_event(4, request_id="first"))  # lets the writer notice it is down
    w.flush(timeout_s=10)
    futures = [w.submit_durable(request_event(4, request_id=f"down-{i}")) for i in range(10)]
    for f in futures:
        f.result(timeout=20)
    assert w.spool.pending()
    proxy.up()
    assert w.wait_delivered(30)
    assert count(url, "SELECT count(*) FROM audit_requests") == 11


def test_a_sync_event_that_cannot_be_queued_fails_its_future(url: str, make_writer) -> None:  # type: ignore[no-untyped-def]
    w = make_writer(url, queue_size=1, start=False)
    w.submit(request_event(2))
    f = w.submit_durable(request_event(2, request_id="no-room"))
    with pytest.raises(AuditUnavailable, match="queue full"):
        f.result(timeout=1)
    assert w.counters["sync_failed"] == 1


_CHILD = textwrap.dedent("""
    import os, signal, sys, time
    from pathlib import Path
    from guardian.audit.config import AuditSettings
    from guardian.audit.testing import request_event
    from guardian.audit.writer import AuditWriter

    url, spool, scenario = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    cfg = AuditSettings(flush_interval_s=30.0, batch_events=10_000, sync_window_s=0.002)
    w = AuditWriter(url, spool_dir=spool, replica_id="child", config=cfg, start=False)
    if scenario == "sync-and-async":
        for t in w._threads[:2]:  # sealer + WAL only: nothing reaches the DB before the kill
            t.start()
        for i in range(20):
            w.submit_durable(request_event(4, request_id=f"sync-{i}")).result(timeout=10)
        for i in range(15):
            w.submit(request_event(4, request_id=f"async-{i}"))  # waits 30 s in the queue
    elif scenario == "hole":
        # Batches 1 and 3 committed, batch 2 in flight on another DB thread at the kill.
        events = [request_event(4, request_id=f"hole-{i}") for i in range(3)]
        for ev in events:
            w._intents.note("r:" + ev.request_id)
        batches = [w._seal([ev]) for ev in events]
        w.store.write(batches[0])
        w.store.write(batches[2])
    elif scenario == "merged":
        # Two sync batches fsync'd in one group, committed as ONE merged batch, then killed
        # before the WAL segment was released.
        from guardian.audit.writer import _merge
        events = [request_event(4, request_id=f"merged-{i}") for i in range(2)]
        for ev in events:
            w._intents.note("r:" + ev.request_id)
        parts = [w._seal([ev]) for ev in events]
        w._wal.append_many(parts)
        w.store.write(_merge(parts))
    elif scenario == "governance":
        # An on-call rollback through the writer, killed as soon as the act returns: nothing
        # reached the DB through the asynchronous path (no DB thread runs).
        from guardian.core.db import make_engine
        from guardian.governance.promotion import set_route_mode
        from guardian.governance.routestate import RouteStateStore
        from guardian.policy import Policy, RoutePolicy
        for t in w._threads[:2]:  # sealer + WAL only
            t.start()
        set_route_mode(RouteStateStore(make_engine(url)), w, route="default",
                       mode="target_only", policy=Policy(routes={"default": RoutePolicy()}),
                       actor="api-key:oncall-crash", role="oncall", reason="alpha fell")
    elif scenario in ("act-killed-before-its-record", "act-refused-then-killed"):
        # An on-call rollback killed after the route state changed, before its record was
        # submitted; or an act whose state change failed, the process killed later.
        import guardian.governance.promotion as promotion
        from guardian.core.db import make_engine
        from guardian.governance.routestate import RouteStateStore
        from guardian.policy import Policy, RoutePolicy
        for t in w._threads[:2]:
            t.start()
        if scenario == "act-killed-before-its-record":
            promotion.record_act = lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL)
        else:
            def refused(*a, **k):
                raise RuntimeError("version conflict")
            RouteStateStore.set_mode = refused
        print("ready", flush=True)
        try:
            promotion.set_route_mode(RouteStateStore(make_engine(url)), w, route="default",
                                     mode="target_only",
                                     policy=Policy(routes={"default": RoutePolicy()}),
                                     actor="api-key:oncall-crash", role="oncall",
                                     reason="alpha fell")
        except RuntimeError:
            pass
        os.kill(os.getpid(), signal.SIGKILL)
    elif scenario == "recovery-cut-short":
        # The next start, killed during its recovery: its declaration of the dead writer's
        # async losses never becomes durable (no sealer runs here), as when a kill lands
        # right after the declaration is queued.
        import guardian.audit.writer.recovery as writer_recovery
        writer_recovery._DECLARE_TIMEOUT_S = 1.0
        w._threads[2].start()  # DB thread 0 only: it runs the recovery
        assert w._recovered.wait(60)
    print("ready", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
""")


def _die(url: str, spool: Path, scenario: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", _CHILD, url, str(spool), scenario], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-2000:]
    assert proc.stdout.strip() == "ready"


def test_killed_writer_wal_is_replayed_and_async_losses_are_declared_by_id(
        url: str, make_writer, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spool = tmp_path / "spool"
    _die(url, spool, "sync-and-async")
    assert list(spool.glob("*.wal")) and list(spool.glob("*.intent"))
    assert count(url, "SELECT count(*) FROM audit_requests") == 0
    w = make_writer(url, spool_dir=spool)
    assert w.wait_delivered(30)
    w.flush(timeout_s=10)
    engine = make_engine(url)
    with engine.connect() as conn:
        stored = {r for (r,) in conn.execute(sa.text("SELECT request_id FROM audit_requests"))}
    assert stored == {f"sync-{i}" for i in range(20)}  # every acknowledged sync record
    crash = [g for g in _gaps(url) if g.get("crash_recovery")]
    assert len(crash) == 1
    assert sorted(crash[0]["request_ids"]) == sorted(f"async-{i}" for i in range(15))
    assert crash[0]["dropped_events"] == 15
    assert w.counters["recovered_lost_events"] == 15
    assert verify_db(engine).ok
    engine.dispose()
    w.close()
    leftovers = [p.name for p in spool.iterdir() if p.suffix in (".wal", ".intent", ".spool",
                                                                ".lock")]
    assert leftovers == [], leftovers


def test_a_start_killed_during_recovery_leaves_the_losses_for_the_next_start(
        url: str, make_writer, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The dead writer's intent files are its losses' only record: the recovering start
    removes them only once its declaration is durable. Killed before, the next start
    declares them (it used to remove them at once: 57 of 647 answered async requests lost
    without a word, found by the crash-safety review)."""
    spool = tmp_path / "spool"
    _die(url, spool, "sync-and-async")
    _die(url, spool, "recovery-cut-short")
    w = make_writer(url, spool_dir=spool)
    assert w.wait_delivered(30)
    w.flush(timeout_s=10)
    declared = {r for g in _gaps(url) if g.get("crash_recovery") for r in g["request_ids"]}
    assert {f"async-{i}" for i in range(15)} <= declared, declared
    w.close()


@pytest.mark.parametrize("scenario", ["act-killed-before-its-record", "act-refused-then-killed"])
def test_an_act_killed_before_its_record_is_declared_and_a_refused_one_is_not(
        url: str, make_writer, tmp_path: Path, scenario: str) -> None:  # type: ignore[no-untyped-def]
    """Killed after the route state changed but before the act's record existed: the act
    stood with nothing naming it (crash-safety review). Its event id was in the intent log
    first, so the next start declares it; an act whose state change failed declares
    nothing (no false alarm)."""
    spool = tmp_path / "spool"
    _die(url, spool, scenario)
    w = make_writer(url, spool_dir=spool)
    assert w.wait_delivered(30)
    w.flush(timeout_s=10)
    lost = [e for g in _gaps(url) if g.get("crash_recovery") for e in g.get("events", [])
            if e["kind"] == "governance"]
    with make_engine(url).connect() as conn:
        mode = conn.execute(sa.text("SELECT mode FROM route_state WHERE route = 'default'")
                            ).scalar()
    if scenario == "act-killed-before-its-record":
        assert mode == "target_only"  # the act stood
        assert len(lost) == 1 and lost[0]["id"].startswith("gov-"), _gaps(url)
    else:
        assert mode is None and lost == [], _gaps(url)
    w.close()


def test_a_governance_act_is_on_disk_when_it_returns(url: str, make_writer,  # type: ignore[no-untyped-def]
                                                     tmp_path: Path) -> None:
    """Killed the moment a rollback returned: the route state says target_only, and the
    record of who rolled it back, and why, is replayed from the write-ahead log on restart
    (before, it waited in the asynchronous queue and was lost - only declared by id)."""
    spool = tmp_path / "spool"
    _die(url, spool, "governance")
    w = make_writer(url, spool_dir=spool)
    assert w.wait_delivered(30)
    w.flush(timeout_s=10)
    engine = make_engine(url)
    t = AuditGovernance.__table__
    with engine.connect() as conn:
        acts = [(k, a, d.get("reason")) for k, a, d in conn.execute(
            sa.select(t.c.kind, t.c.actor, t.c.details).where(t.c.kind != "audit_gap"))]
        mode = conn.execute(sa.text("SELECT mode FROM route_state WHERE route = 'default'")
                            ).scalar_one()
    assert mode == "target_only"
    assert acts == [("rollback", "api-key:oncall-crash", "alpha fell")]
    assert not [g for g in _gaps(url) if g.get("crash_recovery")]  # nothing lost to declare
    assert verify_db(engine).ok
    engine.dispose()
    w.close()


def test_a_hole_left_by_a_killed_writer_is_declared_not_reported_as_deleted(
        url: str, make_writer, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spool = tmp_path / "spool"
    _die(url, spool, "hole")
    engine = make_engine(url)
    before = verify_db(engine)
    assert not before.ok and any("deleted" in e for e in before.errors)  # what it looked like
    w = make_writer(url, spool_dir=spool)
    w.flush(timeout_s=10)
    assert w.wait_delivered(30)
    crash = [g for g in _gaps(url) if g.get("crash_recovery")]
    assert len(crash) == 1 and crash[0]["request_ids"] == ["hole-1"]
    assert crash[0]["lost_seq"] == [[6, 10]]  # batch 2: its request row + 4 token rows
    rep = verify_db(engine)
    assert rep.ok, rep.errors
    assert any("declared lost" in d for d in rep.declared_losses)
    engine.dispose()


def test_intent_log_is_trimmed_while_running(url: str, make_writer, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    import guardian.audit.writer.sealer as writer_sealer

    monkeypatch.setattr(writer_sealer, "_INTENT_ROTATE_S", 0.05)
    w = make_writer(url)
    for rnd in range(5):
        for i in range(20):
            w.submit(request_event(2, request_id=f"t{rnd}-{i}"))
        w.flush(timeout_s=10)
    import time
    time.sleep(0.5)  # a few rotations with everything durable
    segments = list((tmp_path / "spool").glob("*.intent"))
    assert len(segments) <= 2, segments  # the open one (and one just rotated)

    def lines_of(p: Path) -> int:  # the writer keeps rotating (every 50 ms) and removing
        try:
            return len(p.read_text().splitlines())
        except FileNotFoundError:  # collected between the glob and the read: trimmed
            return 0

    assert sum(lines_of(p) for p in segments) < 100



def test_an_acknowledged_sync_record_survives_db_down_and_a_full_spool(pg_proxy, make_writer,
                                                                       tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # Acknowledged from the WAL; then the DB is down and the spool refuses the batch: the
    # loss is declared, but the WAL copy is kept, so the next start still writes the record.
    proxy, url = pg_proxy
    spool = tmp_path / "spool"
    w = make_writer(url, spool_dir=spool, spool_max_bytes=1)
    proxy.down()
    w.submit_durable(request_event(4, request_id="acked")).result(timeout=20)
    w.flush(timeout_s=15)
    assert w.counters["lost_rows"] > 0
    w.close(timeout_s=15)
    assert list(spool.glob("*.wal")), "the acknowledged record's WAL copy was dropped"
    proxy.up()
    w2 = make_writer(url, spool_dir=spool)
    assert w2.wait_delivered(30)
    assert count(url, "SELECT count(*) FROM audit_requests WHERE request_id = 'acked'") == 1
    assert verify_db(make_engine(url)).ok


def test_a_waiter_that_gave_up_does_not_break_the_writer(url: str, make_writer) -> None:  # type: ignore[no-untyped-def]
    w = make_writer(url, start=False)
    gone = w.submit_durable(request_event(2, request_id="gave-up"))
    assert gone.cancel()  # the request timed out on its side (asyncio.wait_for cancels it)
    w.start()
    w.submit_durable(request_event(2, request_id="next")).result(timeout=20)
    assert all(t.is_alive() for t in w._threads)
    assert w.wait_delivered(20)
    assert count(url, "SELECT count(*) FROM audit_requests") == 2  # recorded all the same


def test_wal_parts_of_a_batch_committed_merged_are_not_replayed_as_new(
        url: str, make_writer, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spool = tmp_path / "spool"
    _die(url, spool, "merged")
    w = make_writer(url, spool_dir=spool)
    w.flush(timeout_s=10)
    assert w.wait_delivered(30)
    assert w.counters["duplicate_batches"] == 2 and w.counters["lost_rows"] == 0
    rejected = spool / "rejected"
    assert not rejected.exists() or not any(rejected.iterdir())  # nothing quarantined
    assert not [g for g in _gaps(url) if g.get("crash_recovery")]  # nothing was lost
    assert count(url, "SELECT count(*) FROM audit_requests") == 2
    assert verify_db(make_engine(url)).ok


def _hold_batch(w: Any, holds: Callable[[Any], bool]) -> threading.Event:
    """Make `w`'s DB threads block on every batch `holds` says yes to until the returned
    event is set (a slow COPY on one connection while the others go on)."""
    release = threading.Event()
    write = w.store.write

    def slow_write(batch: Any, **kw: Any) -> bool:
        if holds(batch):
            release.wait(30)
        return write(batch, **kw)

    w.store.write = slow_write
    return release


def test_batches_finishing_out_of_order_keep_an_earlier_events_intent_and_flush(
        fresh_pg_url: str, make_writer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    # Two DB threads: a later batch commits while an earlier one is still in flight. The
    # count of finished events then equals what was submitted before the later one; only a
    # low-watermark says the earlier event is not durable yet.
    import guardian.audit.writer.sealer as writer_sealer

    monkeypatch.setattr(writer_sealer, "_INTENT_ROTATE_S", 0.05)
    upgrade(fresh_pg_url)
    w = make_writer(fresh_pg_url, db_writers=2, batch_events=1, handoff_wait_s=0.5)
    release = _hold_batch(w, lambda batch: "slow" in batch.request_ids)
    try:
        w.submit(request_event(2, request_id="slow"))
        import time
        time.sleep(0.3)  # rotations: the intent segment naming "slow" is closed
        waited: list[bool] = []
        flusher = threading.Thread(target=lambda: waited.append(w.wait_durable(1.5)))
        flusher.start()  # everything submitted so far: "slow"
        time.sleep(0.1)
        w.submit(request_event(2, request_id="fast"))
        deadline = time.monotonic() + 10
        while count(fresh_pg_url, "SELECT count(*) FROM audit_requests") < 1:
            assert time.monotonic() < deadline, "the later batch was not written"
            time.sleep(0.05)
        time.sleep(0.3)  # more rotations and collections after "fast" is durable
        intents = "".join(p.read_text() for p in (tmp_path / "spool").glob("*.intent"))
        assert "r:slow\n" in intents, "the intent of an event still in flight was removed"
        flusher.join()
        assert waited == [False], "flush returned while an earlier event was not durable"
    finally:
        release.set()
    assert w.wait_durable(10)
    assert count(fresh_pg_url, "SELECT count(*) FROM audit_requests") == 2


def test_a_sync_batch_keeps_its_waiters_when_the_spool_drains_meanwhile(
        url: str, make_writer) -> None:  # type: ignore[no-untyped-def]
    # The sealer looks at the spool, finds it in use, and the spool drains before a second
    # look: the batch must still release its waiters (spool fsync), not go to a DB thread
    # without them (the request would wait out its timeout: a 503 for a written record).
    w = make_writer(url, start=False)
    real_pending, first_look = w.spool.pending, threading.Event()

    def pending() -> bool:  # the sealer's first look finds the spool in use; then the truth
        if threading.current_thread().name == "audit-sealer" and not first_look.is_set():
            first_look.set()
            return True
        return real_pending()

    w.spool.pending = pending  # type: ignore[method-assign]
    for t in w._threads:
        t.start()
    w.submit_durable(request_event(2, request_id="raced")).result(timeout=10)
    assert w.wait_delivered(20)
    assert count(url, "SELECT count(*) FROM audit_requests WHERE request_id = 'raced'") == 1


def _intent_text(spool: Path) -> str:
    import contextlib

    out = []
    for p in spool.glob("*.intent"):
        with contextlib.suppress(FileNotFoundError):  # collected between glob and read
            out.append(p.read_text())
    return "".join(out)


def test_a_dropped_event_is_done_only_once_its_declaration_is_durable(
        fresh_pg_url: str, make_writer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    # Queue full: the event is dropped, and only the pending audit_gap record declares it.
    # Until that record is durable the drop is not "done": flush waits, and the intent line
    # naming it stays (a crash before the record lands must still find it). Before, the drop
    # counted as done at once (review of the watermark change, W1).
    import time

    import guardian.audit.writer.sealer as writer_sealer

    monkeypatch.setattr(writer_sealer, "_INTENT_ROTATE_S", 0.05)
    upgrade(fresh_pg_url)
    w = make_writer(fresh_pg_url, start=False, queue_size=1, db_writers=2)
    release = _hold_batch(w, lambda batch: any(
        getattr(g, "kind", None) == "audit_gap" or "audit_gap" in str(g)
        for g in batch.governance))
    try:
        w.submit(request_event(2, request_id="kept"))
        w.submit(request_event(2, request_id="dropped"))  # the queue holds one: dropped
        assert w.counters["dropped_events"] == 1
        w.start()
        assert not w.wait_durable(1.5), "flush returned before the drop was declared"
        time.sleep(0.3)  # rotations and collections meanwhile
        assert "r:dropped\n" in _intent_text(tmp_path / "spool")
    finally:
        release.set()
    assert w.wait_durable(10)
    gaps = _gaps(fresh_pg_url)
    assert any("dropped" in g.get("request_ids", []) for g in gaps), gaps


def test_an_intent_segment_is_closed_with_a_mark_read_after_the_swap(
        fresh_pg_url: str, make_writer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    # A ticket handed out between reading the mark and swapping the segment wrote its intent
    # line into the old segment above its mark: collected while the event was in flight
    # (review W2). The interleaving is forced by submitting from inside the rotation.
    import time

    import guardian.audit.writer.sealer as writer_sealer

    monkeypatch.setattr(writer_sealer, "_INTENT_ROTATE_S", 0.05)
    upgrade(fresh_pg_url)
    w = make_writer(fresh_pg_url, db_writers=2, batch_events=1)
    release = _hold_batch(w, lambda batch: "late" in batch.request_ids)
    armed = threading.Event()
    real_rotate = w._intents.rotate

    def rotate(submitted: Any) -> None:
        if armed.is_set():
            armed.clear()
            w.submit(request_event(2, request_id="late"))  # after any early read of the mark
        real_rotate(submitted)

    w._intents.rotate = rotate  # type: ignore[method-assign]
    try:
        w.submit(request_event(2, request_id="first"))
        assert w.wait_durable(5)
        armed.set()
        deadline = time.monotonic() + 5
        while armed.is_set():
            assert time.monotonic() < deadline
            time.sleep(0.01)
        time.sleep(0.4)  # more rotations and collections; "late" is held in a DB thread
        assert "r:late\n" in _intent_text(tmp_path / "spool")
    finally:
        release.set()
    assert w.wait_durable(10)
