"""`BatchStore` on SQLite: paced token slices in one transaction, bounded, nothing lost."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa

from guardian.audit import store as store_mod
from guardian.audit import upgrade
from guardian.audit.rows import SealedBatch, Sealer
from guardian.audit.store import BatchStore
from guardian.audit.testing import request_event
from guardian.audit.verify import verify_db
from guardian.core.db import make_engine

TOKENS = 16


def _batch(chain: str, n_requests: int = 13) -> SealedBatch:
    """13 requests: 208 token rows (slices of 50: 50, 50, 50, 50, 8)."""
    return Sealer(chain, salt=b"k", copy_lines=False).seal(
        [request_event(TOKENS, request_id=f"r{i}") for i in range(n_requests)])


@pytest.fixture
def engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    upgrade(url)
    eng = make_engine(url)
    monkeypatch.setattr(store_mod, "_SQLITE_SLICE_ROWS", 50)
    yield eng
    eng.dispose()


def _rows(engine: sa.Engine, table: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar() or 0)


def _pauses(monkeypatch: pytest.MonkeyPatch, each_s: float = 0.0,
            hook: Callable[[int], None] | None = None) -> list[float]:
    """Record the store's pauses on a fake clock advanced `each_s` by each."""
    now, pauses = [0.0], []

    def pause(s: float) -> None:
        pauses.append(s)
        if hook is not None:
            hook(len(pauses))
        now[0] += each_s

    monkeypatch.setattr(store_mod, "_pause", pause)
    monkeypatch.setattr(store_mod, "_clock", lambda: now[0])
    return pauses


def test_a_paced_write_pauses_between_slices_of_one_transaction(engine, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    pauses = _pauses(monkeypatch)
    batch = _batch("replica/s")
    assert len(batch.token_rows) == 208

    assert BatchStore(engine).write(batch, paced=True) is True

    # Between the request rows and the token rows, and between token slices; not after.
    assert pauses == [store_mod._SQLITE_SLICE_PAUSE_S] * 5
    assert _rows(engine, "audit_tokens") == 208 and _rows(engine, "audit_requests") == 13
    rep = verify_db(engine)
    assert rep.ok, rep.errors


def test_request_rows_go_in_paced_slices_too(engine, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The request rows' insert (SQLAlchemy: its parameter processing holds the GIL) is
    sliced as well: 13 rows in slices of 5 -> 2 pauses, then 1 before the tokens, then 4."""
    monkeypatch.setattr(store_mod, "_SQLITE_REQUEST_SLICE_ROWS", 5)
    pauses = _pauses(monkeypatch)
    assert BatchStore(engine).write(_batch("replica/r"), paced=True) is True
    assert len(pauses) == 7
    assert _rows(engine, "audit_requests") == 13 and _rows(engine, "audit_tokens") == 208
    rep = verify_db(engine)
    assert rep.ok, rep.errors


def test_an_unpaced_write_never_pauses(engine, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A backlog, a spool replay, the CLI: no pause (they default to unpaced)."""
    pauses = _pauses(monkeypatch)
    assert BatchStore(engine).write(_batch("replica/u")) is True
    assert pauses == [] and _rows(engine, "audit_tokens") == 208


def test_pauses_are_bounded_per_batch(engine, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """At most `_SQLITE_MAX_PAUSES` a batch: the rest goes in at once (the write lock is
    held by the pauses, so a big batch must not hold it for 80 of them)."""
    monkeypatch.setattr(store_mod, "_SQLITE_MAX_PAUSES", 2)
    pauses = _pauses(monkeypatch)
    assert BatchStore(engine).write(_batch("replica/b"), paced=True) is True
    assert len(pauses) == 2 and _rows(engine, "audit_tokens") == 208
    assert verify_db(engine).ok


def test_a_pause_that_overslept_ends_the_pausing(engine, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A busy process (another thread holding the GIL) returns a 0.5 ms sleep ~5 ms late:
    more pauses would only hold the write lock longer."""
    pauses = _pauses(monkeypatch, each_s=store_mod._SQLITE_OVERSHOOT_S * 2)
    assert BatchStore(engine).write(_batch("replica/o"), paced=True) is True
    assert len(pauses) == 1 and _rows(engine, "audit_tokens") == 208
    assert verify_db(engine).ok


def test_a_failing_slice_rolls_the_whole_batch_back(engine, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The slices share the batch's transaction: a failure part way (here in the second
    pause) leaves nothing of the batch behind, and its replay is not a duplicate."""
    def fail_second(n: int) -> None:
        if n == 2:
            raise OSError("disk went away")

    _pauses(monkeypatch, hook=fail_second)
    batch, store = _batch("replica/f"), BatchStore(engine)
    with pytest.raises(OSError):
        store.write(batch, paced=True)
    for table in ("audit_tokens", "audit_requests", "audit_batches"):
        assert _rows(engine, table) == 0

    _pauses(monkeypatch)
    assert store.write(batch, paced=True) is True  # the replay
    assert store.write(batch, paced=True) is False  # and once more: already written
    assert _rows(engine, "audit_tokens") == 208
    assert verify_db(engine).ok


def test_the_writer_paces_only_with_nothing_waiting(make_writer, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The DB thread paces a batch when the hand-off holds nothing behind it, and goes flat
    out on a backlog."""
    url = f"sqlite:///{tmp_path / 'w.db'}"
    upgrade(url)
    w = make_writer(url)
    write = w.store.write
    seen: list[tuple[str, bool]] = []
    gate, entered = threading.Event(), threading.Event()

    def record(batch, *, paced=False):  # type: ignore[no-untyped-def]
        seen.append((batch.request_ids[0] if batch.request_ids else "", paced))
        if batch.request_ids[:1] == ["held"]:
            entered.set()
            gate.wait(10)  # the DB thread is busy: what comes in meanwhile queues up
        return write(batch, paced=paced)

    w.store.write = record
    w.submit(request_event(4, request_id="alone"))
    w.flush()
    assert seen == [("alone", True)]  # idle: paced

    w.submit(request_event(4, request_id="held"))
    assert entered.wait(10)
    for i in range(3):  # sealed apart (the sealer takes what came every 20 ms)
        w.submit(request_event(4, request_id=f"queued-{i}"))
        time.sleep(0.1)
    gate.set()
    w.flush()
    assert [rid for rid, _ in seen] == ["alone", "held", "queued-0", "queued-1", "queued-2"]
    # Behind the held write the backlog went flat out; the last, with nothing behind it, paced.
    assert [paced for _, paced in seen[2:]] == [False, False, True]
