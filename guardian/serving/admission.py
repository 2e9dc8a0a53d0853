"""Admission control: a bounded queue per route, Retry-After, deadlines and cancellation.

Owns what decides whether a request may wait for the engine at all, and how a request that
was admitted stops early:
- **Bounded queue per route.** Each route admits at most `max_queue` requests at once
  (queued + running). One more is refused with 429 and a `Retry-After` estimated from the
  measured service time and the work already admitted, instead of waiting in an unbounded
  queue (a burst of 256 clients once reached a 30 s p99 and no refusal at all).
- **Cancellation.** A `CancelToken` rides with each request. The API sets it when the client
  hangs up (streaming or not) or its deadline passes; the engine thread checks it before the
  job starts and after every engine step (the streaming callback runs once per step), so a
  cancelled generation stops within one step. An async backend's call (an upstream pool)
  is stopped through the token's `on_cancel` hook instead. The serving core audits it as
  `cancelled`.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

logger = logging.getLogger(__name__)

CancelReason = Literal["client_disconnected", "deadline_exceeded"]


class Cancelled(Exception):
    """Raised on the engine thread when a request's token is cancelled."""

    def __init__(self, reason: CancelReason) -> None:
        super().__init__(reason)
        self.reason: CancelReason = reason


@dataclass(slots=True)
class CancelToken:
    """Set from the event loop, checked on the engine thread (a threading.Event inside)."""

    deadline: float | None = None  # time.monotonic() after which the request is abandoned
    _event: threading.Event = field(default_factory=threading.Event)
    _reason: CancelReason | None = None
    # Called once, at the first cancel: how work that never checks the token (an async
    # backend's pending call to an upstream) is stopped too. Any thread; must not raise.
    _on_cancel: list[Callable[[], None]] = field(default_factory=list)

    def cancel(self, reason: CancelReason) -> None:
        first = self._reason is None
        if first:
            self._reason = reason
        self._event.set()
        if first:
            for fn in list(self._on_cancel):  # a hook may be taken off meanwhile
                try:
                    fn()
                except Exception:  # a stop hook must never break the canceller
                    logger.exception("cancel hook failed")

    def on_cancel(self, fn: Callable[[], None]) -> None:
        """Run `fn` when the token is cancelled (now, if it already is)."""
        self._on_cancel.append(fn)
        if self._reason is not None:
            fn()

    def discard(self, fn: Callable[[], None]) -> None:
        """Take `fn` off again once the work it stops is over: a hook left on the token
        keeps what it closes over alive (a task, its frame, the request that holds this
        token: a reference cycle, left to the garbage collector)."""
        with contextlib.suppress(ValueError):
            self._on_cancel.remove(fn)

    @property
    def reason(self) -> CancelReason | None:
        if self._reason is None and self.deadline is not None and time.monotonic() >= self.deadline:
            self.cancel("deadline_exceeded")
        return self._reason

    def check(self) -> None:
        """Raise `Cancelled` if the client left or the deadline passed."""
        reason = self.reason
        if reason is not None:
            raise Cancelled(reason)


class QueueFull(Exception):
    """The route's queue (or, `per_key`, the caller's share of it) is at its bound;
    `retry_after_s` is the suggested wait."""

    def __init__(self, route: str, limit: int, retry_after_s: int, *,
                 per_key: bool = False) -> None:
        what = "max_queue_per_key, for this caller" if per_key else "max_queue"
        super().__init__(f"route {route!r} has {limit} requests in flight (its {what})")
        self.route, self.limit, self.retry_after_s = route, limit, retry_after_s
        self.per_key = per_key


class Admission:
    """Per-route in-flight counts against each route's bound, and a service-time estimate.

    Thread-safe: `admit` runs on the event loop, `release` on the engine thread.
    """

    def __init__(self, *, smoothing: float = 0.2, initial_service_s: float = 0.5) -> None:
        self._lock = threading.Lock()
        self._in_flight: dict[str, int] = {}
        self._by_key: dict[tuple[str, str | None], int] = {}  # (route, principal) -> in flight
        self._total = 0
        self._alpha = smoothing
        self._service_s = initial_service_s  # EWMA of one request's engine time
        # Requests the engine serves at once (a continuously batched engine: its batch rows),
        # so Retry-After does not assume they run one after another.
        self.parallel = 1

    def in_flight(self, route: str | None = None) -> int:
        with self._lock:
            return self._total if route is None else self._in_flight.get(route, 0)

    def in_flight_for(self, route: str, principal: str | None) -> int:
        """Requests of `principal` in flight on `route` (counted only under a per-key bound)."""
        with self._lock:
            return self._by_key.get((route, principal), 0)

    def admit(self, route: str, limit: int, principal: str | None = None,
              per_key: int | None = None) -> bool:
        """Count one more request on `route`, or raise QueueFull when it is at `limit` or,
        with `per_key`, when `principal` already has that many in flight there (so one API
        key cannot hold a whole route's queue). -> whether a per-key place was taken (pass
        it back to `release`)."""
        with self._lock:
            n = self._in_flight.get(route, 0)
            if n >= limit:
                raise QueueFull(route, limit, self._retry_after())
            if per_key is not None:
                k = self._by_key.get((route, principal), 0)
                if k >= per_key:
                    raise QueueFull(route, per_key, self._retry_after(), per_key=True)
                self._by_key[(route, principal)] = k + 1
            self._in_flight[route] = n + 1
            self._total += 1
            return per_key is not None

    def release(self, route: str, service_s: float | None = None, *,
                principal: str | None = None, keyed: bool = False) -> None:
        """One request of `route` is done; `keyed`: `admit` took a per-key place for
        `principal`."""
        with self._lock:
            self._in_flight[route] = max(0, self._in_flight.get(route, 0) - 1)
            self._total = max(0, self._total - 1)
            if keyed:
                k = self._by_key.get((route, principal), 0) - 1
                if k > 0:
                    self._by_key[(route, principal)] = k
                else:
                    self._by_key.pop((route, principal), None)
            if service_s is not None and service_s > 0:
                self._service_s += self._alpha * (service_s - self._service_s)

    def _retry_after(self) -> int:
        # One engine serves every route in turn: a newcomer waits for what is admitted now.
        return max(1, math.ceil(self._total * self._service_s / max(1, self.parallel)))

    @property
    def service_s(self) -> float:
        return self._service_s
