"""The background writer: batching by count and time, flush, close, overload decisions."""

from __future__ import annotations

import time

import pytest

from guardian.audit import MemorySink, upgrade
from guardian.audit.testing import governance_event, request_event, shadow_event
from guardian.audit.verify import verify_db
from guardian.core.db import make_engine
from tests.support.audit import count

pytestmark = pytest.mark.integration


@pytest.fixture
def url(fresh_db_url: str) -> str:
    upgrade(fresh_db_url)
    return fresh_db_url


def test_batches_by_count_and_flush_makes_everything_durable(url: str, make_writer) -> None:  # type: ignore[no-untyped-def]
    w = make_writer(url, batch_events=10, flush_interval_s=5.0)
    for i in range(35):
        ev = request_event(8, request_id=f"r{i}")
        w.submit(ev)
        w.submit(shadow_event(ev.request_id))
    w.submit(governance_event())
    w.flush(timeout_s=30)
    assert count(url, "SELECT count(*) FROM audit_requests") == 35
    assert count(url, "SELECT count(*) FROM audit_tokens") == 35 * (8 + 4)
    assert count(url, "SELECT count(*) FROM audit_governance") == 1
    assert w.stats()["written_batches"] >= 71 // 10
    assert verify_db(make_engine(url)).ok


def test_batches_by_time_without_flush(url: str, make_writer) -> None:  # type: ignore[no-untyped-def]
    w = make_writer(url, batch_events=1000, flush_interval_s=0.1)
    for i in range(3):
        w.submit(request_event(4, request_id=f"t{i}"))
    deadline = time.monotonic() + 10
    while count(url, "SELECT count(*) FROM audit_requests") < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert count(url, "SELECT count(*) FROM audit_requests") == 3


def test_an_async_submit_does_not_wake_the_sealer_but_sync_and_flush_do_at_once(
        url: str, make_writer, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The serving thread's submit must not wake the sealer per event (a thread blocked in
    Queue.get is: a futex wake and a GIL hand-off per request): it takes what came in every
    _SEAL_EVERY_S. What must not wait still goes at once: a flush, a synchronous event,
    closing. (The pace is stretched to 2 s here, so a lost wake-up shows as seconds.)"""
    from guardian.audit.writer import sealer

    monkeypatch.setattr(sealer, "_SEAL_EVERY_S", 2.0)
    w = make_writer(url, batch_events=10_000, flush_interval_s=10.0)
    time.sleep(0.1)  # the sealer is collecting a batch, waiting for events
    for i in range(20):
        assert not w._queue.not_empty._waiters  # nobody to wake: the put stays cheap
        w.submit(request_event(2, request_id=f"a{i}"))
        time.sleep(0.002)
    t0 = time.monotonic()
    w.flush(timeout_s=10)
    flush_s = time.monotonic() - t0
    assert count(url, "SELECT count(*) FROM audit_requests") == 20
    t0 = time.monotonic()
    w.submit_durable(request_event(2, request_id="s0")).result(timeout=10)  # group commit
    sync_s = time.monotonic() - t0
    t0 = time.monotonic()
    w.close()
    close_s = time.monotonic() - t0
    assert count(url, "SELECT count(*) FROM audit_requests") == 21
    assert max(flush_s, sync_s, close_s) < 1.0, (flush_s, sync_s, close_s)


def test_a_small_queue_wakes_the_sealer_before_it_fills(url: str, make_writer,
                                                         monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A queue smaller than a seal chunk wakes the sealer at half its capacity: waiting out
    the sealer's pace, it would fill and drop events a blocking sealer would have taken."""
    from guardian.audit.writer import sealer

    monkeypatch.setattr(sealer, "_SEAL_EVERY_S", 2.0)
    w = make_writer(url, batch_events=10_000, flush_interval_s=10.0, queue_size=10)
    time.sleep(0.1)
    for i in range(5):
        w.submit(request_event(2, request_id=f"q{i}"))
    deadline = time.monotonic() + 1.0
    while w._queue.qsize() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert w._queue.qsize() == 0  # taken within a second, not at the 2 s pace
    w.flush(timeout_s=10)
    assert w.stats()["dropped_events"] == 0
    assert count(url, "SELECT count(*) FROM audit_requests") == 5


def test_close_flushes_everything(url: str, make_writer) -> None:  # type: ignore[no-untyped-def]
    w = make_writer(url, flush_interval_s=10.0, batch_events=10_000)
    for i in range(50):
        w.submit(request_event(4, request_id=f"c{i}"))
    w.close()
    assert count(url, "SELECT count(*) FROM audit_requests") == 50
    with pytest.raises(RuntimeError, match="closed"):
        w.submit(request_event(1))


def test_submit_never_blocks_and_a_full_queue_is_declared_in_the_chain(url: str, make_writer) -> None:  # type: ignore[no-untyped-def]
    w = make_writer(url, queue_size=5, start=False)
    t0 = time.perf_counter()
    for i in range(12):
        w.submit(request_event(2, request_id=f"q{i}"))
    assert time.perf_counter() - t0 < 0.5
    assert w.stats()["dropped_events"] == 7
    w.start()
    # Every drop is done once the gap record declaring it is durable (not only the first:
    # a stalled watermark would hang flush and keep every intent segment for ever).
    assert w.wait_durable(10) and w._ledger.low == 12 and not w._ledger.done_runs
    assert w.wait_delivered(30)
    assert count(url, "SELECT count(*) FROM audit_requests") == 5
    engine = make_engine(url)
    from guardian.audit.queries import governance_events

    (gap,) = governance_events(engine, kind="audit_gap")
    assert gap["details"]["dropped_events"] == 7
    assert gap["details"]["request_ids"] == [f"q{i}" for i in range(5, 12)]
    assert verify_db(engine).ok


def test_memory_sink_keeps_events_for_producer_tests() -> None:
    sink = MemorySink()
    ev = request_event(2)
    sink.submit(ev)
    sink.submit(governance_event())
    sink.flush()
    assert sink.requests == [ev] and len(sink.governance) == 1
    sink.close()
    with pytest.raises(RuntimeError):
        sink.submit(ev)


def test_open_sink_uses_the_settings_url_and_spool(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from guardian.audit import open_sink
    from guardian.settings import Settings

    settings = Settings(home=tmp_path / "home", database_url=None)
    upgrade(settings.resolved_database_url)  # the SQLite default under GUARDIAN_HOME
    sink = open_sink(settings)
    try:
        sink.submit(request_event(3, request_id="via-open-sink"))
        sink.flush()
        assert sink.spool.dir == settings.spool_dir
    finally:
        sink.close()
    assert count(settings.resolved_database_url,
                 "SELECT count(*) FROM audit_requests WHERE request_id = 'via-open-sink'") == 1


def test_the_watermark_follows_tickets_done_in_any_order(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import random

    from guardian.audit.writer import AuditWriter

    w = AuditWriter(f"sqlite:///{tmp_path / 'w.db'}", spool_dir=tmp_path / "spool", start=False)
    try:
        tickets = list(range(1, 10_001))
        batches = [tickets[i:i + 97] for i in range(0, len(tickets), 97)]
        rng = random.Random(7)
        for b in batches:  # batches that split and interleave, as merged WAL runs do
            rng.shuffle(b)
        rng.shuffle(batches)
        stuck, rest = batches[0], batches[1:]
        ledger = w._ledger
        lows = []
        for b in rest:
            ledger.mark_done(b)
            lows.append(ledger.low)
        assert lows == sorted(lows) and ledger.low < min(stuck)  # never past a ticket not done
        assert ledger.done == len(tickets) - len(stuck)
        assert len(ledger.done_runs) <= len(rest)  # runs, not tickets
        ledger.mark_done(stuck)
        assert ledger.low == len(tickets) and not ledger.done_runs and ledger.done == len(tickets)
    finally:
        w._intents.close(True)
        w.spool.close()
        w.db.dispose()


def test_a_database_lost_part_way_through_a_split_batch_stays_marked_down(
        tmp_path, make_writer) -> None:  # type: ignore[no-untyped-def]
    # The database rejects a batch's data (split per event), then goes away before the
    # second part: the writer spools the rest and must stay "down" (later batches go to the
    # spool behind it) - it used to mark the database up again as the call returned.
    url = f"sqlite:///{tmp_path / 'g.db'}"
    upgrade(url)
    w = make_writer(url, start=False, batch_events=2, retry_interval_s=60.0)
    write = w.store.write
    calls = {"n": 0}

    def flaky(batch, **kw):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 1:
            raise ValueError("the whole batch is refused")  # permanent: split per event
        if calls["n"] == 2:
            raise ValueError("this event's data is refused")  # quarantined
        if calls["n"] == 3:
            raise ConnectionError("the database went away")  # the rest is spooled
        return write(batch, **kw)

    w.store.write = flaky
    w.submit(request_event(2, request_id="a"))
    w.submit(request_event(2, request_id="b"))
    w.submit(request_event(2, request_id="c"))
    w.start()
    deadline = time.monotonic() + 10
    while calls["n"] < 3:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    time.sleep(0.3)
    assert w.stats()["db_up"] is False
    assert w.spool.pending()
