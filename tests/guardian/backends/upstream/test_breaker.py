from __future__ import annotations

from guardian.backends.upstream.breaker import CircuitBreaker


def test_closed_open_half_open_closed() -> None:
    now = [0.0]
    b = CircuitBreaker(3, 10.0, clock=lambda: now[0])
    for _ in range(2):
        b.failure()
    assert b.allow() and b.state == "closed"
    b.success()  # a success resets the count
    for _ in range(3):
        b.failure()
    assert b.state == "open" and not b.allow()
    now[0] = 10.0
    assert b.state == "half_open"
    assert b.allow() and not b.allow()  # one probe at a time
    b.failure()  # the probe failed: open again for reset_s
    assert b.state == "open" and not b.allow()
    now[0] = 20.0
    assert b.allow()
    b.success()
    assert b.state == "closed" and b.allow() and b.allow()


def test_release_frees_the_probe() -> None:
    now = [0.0]
    b = CircuitBreaker(1, 1.0, clock=lambda: now[0])
    b.failure()
    now[0] = 1.0
    assert b.allow()
    b.release()
    assert b.allow()
