"""Which connection makes way at the cap (`GuardedH11Protocol._evict_idlest`), decided on
connection states set directly: the real-socket tests in api/test_connection_limits.py cannot
hold a connection in "closed on our side, last bytes unread" on demand, so the order is pinned
here: closing ones first, then whichever has waited longest, idle or unread; busy ones
never."""

from __future__ import annotations

import h11
import pytest

from guardian.api.connections import GuardedH11Protocol


class FakeTransport:
    def __init__(self, closing: bool = False) -> None:
        self.closing, self.aborted, self.closed, self.written = closing, False, False, b""

    def is_closing(self) -> bool:
        return self.closing or self.closed or self.aborted

    def abort(self) -> None:
        self.aborted = True

    def close(self) -> None:
        self.closed = True

    def write(self, data: bytes) -> None:
        self.written += data


def connection(pool: set, *, idle_since: float = 0.0, closing: bool = False,
               stalled_since: float | None = None, busy: bool = False) -> GuardedH11Protocol:
    """A protocol object with only what eviction reads (no server, no loop)."""
    c = object.__new__(GuardedH11Protocol)
    c.connections = pool
    c.transport = FakeTransport(closing)
    c.conn = h11.Connection(h11.SERVER)
    if busy:  # a request head received, its response not yet sent
        c.conn.receive_data(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        c.conn.next_event()
    c.cycle = None
    c._idle_since = idle_since
    c._write_stalled_since = stalled_since
    c._write_deadline = None
    c._deadline, c._waiting_for = None, None
    c.client = ("127.0.0.1", 1)
    pool.add(c)
    return c


@pytest.fixture
def pool(monkeypatch) -> set:
    monkeypatch.setattr("guardian.api.connections.time.monotonic", lambda: 1000.0)
    return set()


def test_a_connection_closing_on_our_side_goes_first(pool) -> None:
    oldest_idle = connection(pool, idle_since=1.0)
    stalled = connection(pool, stalled_since=10.0)
    closing = connection(pool, idle_since=999.0, closing=True)
    new = connection(pool, idle_since=1000.0)
    assert new._evict_idlest()
    assert closing.transport.aborted  # aborted: a close would wait on the unread bytes
    assert not oldest_idle.transport.is_closing() and not stalled.transport.is_closing()


def test_then_whichever_waited_longest_idle_or_unread(pool) -> None:
    idle = connection(pool, idle_since=1.0)
    stalled_long = connection(pool, stalled_since=5.0)
    stalled_late = connection(pool, stalled_since=900.0)
    new = connection(pool, idle_since=1000.0)
    assert new._evict_idlest() and idle.transport.closed
    pool.discard(idle)
    assert new._evict_idlest() and stalled_long.transport.aborted
    pool.discard(stalled_long)
    assert new._evict_idlest() and stalled_late.transport.aborted
    # a stall under a second is a momentary full buffer, not an evictable reader
    assert connection(set(), stalled_since=999.5)._stalled_since(1000.0) is None


def test_an_idle_connection_is_closed_with_a_408_and_busy_ones_are_kept(pool) -> None:
    busy = connection(pool, idle_since=0.0, busy=True)
    idle = connection(pool, idle_since=500.0)
    new = connection(pool, idle_since=1000.0)
    assert new._evict_idlest()
    assert idle.transport.closed and b"408" in idle.transport.written
    assert not busy.transport.is_closing()
    pool.discard(idle)
    assert not new._evict_idlest()  # only a busy one left: nothing makes way
