"""The login backoff's counts: per client address and per attempted key, across sessions,
forgotten after a quiet spell, bounded in memory."""

from __future__ import annotations

from dashboard.backoff import LoginBackoff


def test_counts_follow_the_address_and_the_key() -> None:
    b = LoginBackoff()
    assert [b.failed("10.0.0.1", f"sg-{i}") for i in range(3)] == [1, 2, 3]  # one address
    assert b.failed("10.0.0.2", "sg-x") == 1  # another address, another key: fresh
    assert [b.failed(f"10.1.0.{i}", "sg-stolen") for i in range(3)] == [1, 2, 3]  # one key
    b.succeeded("sg-stolen")
    assert b.failed("10.9.9.9", "sg-stolen") == 1
    b.succeeded("sg-0")  # a valid key clears its own count, not its address's
    assert b.failed("10.0.0.1", "sg-new") == 4


def test_counts_are_forgotten_and_bounded() -> None:
    now = [0.0]
    b = LoginBackoff(forget_after_s=60, max_entries=4, clock=lambda: now[0])
    assert b.failed("a", "k1") == 1 and b.failed("a", "k2") == 2
    now[0] = 61.0
    assert b.failed("a", "k3") == 1  # a quiet minute: forgotten
    for i in range(10):
        b.failed(f"addr-{i}", f"key-{i}")
    assert len(b._counts) <= 4
