"""A circuit breaker per upstream pool: closed -> open after N consecutive faults -> after
`reset_s` one probe (half-open) -> closed on success, open again on a fault.

Only faults count (refused, timed out, 5xx, malformed or truncated answers); an upstream 4xx
is the client's error, not the pool's. Thread-safe: requests to a pool run on many threads.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Literal

State = Literal["closed", "open", "half_open"]


class CircuitBreaker:
    def __init__(self, failures: int, reset_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.failures, self.reset_s, self._clock = failures, reset_s, clock
        self._lock = threading.Lock()
        self._consecutive = 0
        self._opened_at: float | None = None
        self._probing = False

    @property
    def state(self) -> State:
        with self._lock:
            return self._state()

    def _state(self) -> State:
        if self._opened_at is None:
            return "closed"
        return "half_open" if self._clock() - self._opened_at >= self.reset_s else "open"

    def allow(self) -> bool:
        """May a request go to the pool now? (half-open: only one probe at a time)"""
        with self._lock:
            state = self._state()
            if state == "closed":
                return True
            if state == "half_open" and not self._probing:
                self._probing = True
                return True
            return False

    def success(self) -> None:
        with self._lock:
            self._consecutive, self._opened_at, self._probing = 0, None, False

    def failure(self) -> None:
        with self._lock:
            self._consecutive += 1
            if self._probing or self._consecutive >= self.failures:
                self._opened_at = self._clock()
            self._probing = False

    def release(self) -> None:
        """A request that ended neither way (e.g. the client's 4xx): free the probe slot."""
        with self._lock:
            self._probing = False
