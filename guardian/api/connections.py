"""Connection limits for `guardian serve`: what uvicorn has, and the header/body timeouts it lacks.

uvicorn (0.54, h11 protocol) bounds idle keep-alive connections (`timeout_keep_alive`), the
size of a request head (`h11_max_incomplete_event_size`) and answers 503 beyond
`limit_concurrency`, but a connection that never finishes its headers — or its body — is held
open forever, and over-limit connections are still accepted: 1,000 slow-loris connections
kept 1,000 file descriptors. `GuardedH11Protocol` adds, per connection:

* a header deadline (`timeout_header`): from connecting, or from the first byte of a next
  request on a kept-alive connection, until its head is parsed; then 408 and close;
* a body deadline (`timeout_body`): from the parsed head until the body is complete; then the
  connection is closed (the app sees a client disconnect);
* a write deadline (`timeout_write`): a response that cannot be sent because the client does
  not read it (the socket's send buffer full: uvicorn pauses writing, and its app waits)
  drops the connection (abort: a close would wait for the buffer to drain, for ever);
* a connection cap (`max_connections`): at the cap, a new connection evicts the connection
  idle the longest — one with no request in progress (a slow head, or an idle keep-alive),
  or one whose response has waited on a non-reading client for over a second — so a flood
  of slow heads or of pipelined requests whose answers are never read cannot lock real
  clients out (a review did that with 520 such sockets: every new connection, health
  probes included, was reset); if every connection is busy with a request, the new one is
  closed instead. Either way open file descriptors stay bounded.

The timers are asyncio `call_later` handles on the event loop (no task per connection);
every parse step re-derives which one should run from h11's view of the client's state.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from guardian.settings import Settings

logger = logging.getLogger(__name__)

# A response waiting this long on a client that does not read it makes its connection
# evictable at the cap (as an idle one is): not a momentary full buffer of a fast reader.
_STALL_EVICTABLE_S = 1.0

_TIMEOUT_408 = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
                b"connection: close\r\ncontent-length: 27\r\n\r\nRequest headers too slow.\r\n")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with header/body/write deadlines and a connection cap."""

    timeout_header: float = 10.0
    timeout_body: float = 30.0
    timeout_write: float = 30.0
    max_connections: int = 512
    _cap_warned_at = 0.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_for: str | None = None  # "headers" | "body" | None
        self._idle_since = time.monotonic()  # connected, or last response completed
        self._write_stalled_since: float | None = None  # uvicorn paused writing to it
        self._write_deadline: asyncio.TimerHandle | None = None
        # h11 bounds a request head only while it is incomplete: one that arrives whole in a
        # single read was parsed at any size (70 KB were served past a 16 KiB limit).
        self._max_head = int(self.conn._max_incomplete_event_size)
        self._next_event = self.conn.next_event
        self.conn.next_event = self._bounded_next_event  # type: ignore[method-assign]

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections and not self._evict_idlest():
            self._warn_cap("closing new connections: every connection has a request in progress")
            transport.close()
            return
        self._arm("headers")  # a client that connects and sends nothing

    def _bounded_next_event(self) -> Any:
        """h11's next event; a request whose line and headers exceed the head limit is a
        protocol error (uvicorn answers 400 and closes), however it arrived."""
        event = self._next_event()
        if isinstance(event, h11.Request):
            size = len(event.method) + len(event.target) + sum(
                len(name) + len(value) + 4 for name, value in event.headers.raw_items())
            if size > self._max_head:
                raise h11.RemoteProtocolError(f"request head of {size} bytes exceeds "
                                              f"{self._max_head}", error_status_hint=400)
        return event

    def _idle(self) -> bool:
        """No request in progress: waiting for a (next) request head."""
        return (not self.transport.is_closing() and self.conn.their_state is h11.IDLE
                and (self.cycle is None or self.cycle.response_complete))

    def _stalled_since(self, now: float) -> float | None:
        """Since when this connection's response has waited on a client that does not read
        it (over a second), else None."""
        since = self._write_stalled_since
        return since if since is not None and now - since > _STALL_EVICTABLE_S else None

    def _evict_idlest(self) -> bool:
        now = time.monotonic()
        evictable: list[tuple[float, GuardedH11Protocol]] = []
        for c in self.connections:
            if c is self or not isinstance(c, GuardedH11Protocol) or c.transport is None:
                continue
            if c.transport.is_closing():
                # Finished on our side; still here only while its last bytes wait on a
                # client that does not read them (a close waits for the buffer): first to go.
                evictable.append((float("-inf"), c))
            elif (stalled := c._stalled_since(now)) is not None:
                evictable.append((stalled, c))
            elif c._idle():
                evictable.append((c._idle_since, c))
        if not evictable:
            return False
        _, victim = min(evictable, key=lambda pair: pair[0])
        self._warn_cap("evicting the connections idle (or unread) the longest")
        if victim._write_stalled_since is not None or victim.transport.is_closing():
            victim._drop_unread()
        else:
            victim._disarm()
            victim._close_waiting("headers")
        return True

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._write_stalled_since is None:
            self._write_stalled_since = time.monotonic()
            self._write_deadline = self.loop.call_later(self.timeout_write, self._drop_unread)

    def resume_writing(self) -> None:
        self._write_stalled_since = None
        if self._write_deadline is not None:
            self._write_deadline.cancel()
            self._write_deadline = None
        super().resume_writing()

    def _drop_unread(self) -> None:
        """The client has not read its response for `timeout_write` (or is evicted at the
        cap): abort - a close would wait for the send buffer to drain."""
        self._write_deadline = None
        if self.transport is None:
            return
        # Also when closing: a close waits for the buffer to drain, which never happens.
        logger.debug("dropping connection from %s: its response was not read within %.0f s",
                     self.client, self.timeout_write)
        self.transport.abort()

    def _warn_cap(self, what: str) -> None:
        now = time.monotonic()  # shared: one warning a minute, not one per connection
        if now - GuardedH11Protocol._cap_warned_at > 60:
            GuardedH11Protocol._cap_warned_at = now
            logger.warning("connection limit (%d, GUARDIAN_MAX_CONNECTIONS) reached: %s",
                           self.max_connections, what)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._write_deadline is not None:
            self._write_deadline.cancel()
            self._write_deadline = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._update()

    def on_response_complete(self) -> None:
        self._idle_since = time.monotonic()
        super().on_response_complete()
        # The keep-alive timer (set by uvicorn) covers the idle wait for a next request;
        # a pipelined next request already parsed may be waiting for its body.
        self._update(idle_covered=True)

    def _update(self, *, idle_covered: bool = False) -> None:
        if self.transport is None or self.transport.is_closing():
            self._disarm()
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            # A partial head is buffered (or nothing yet): only time it when uvicorn's
            # keep-alive timer is not already running.
            if idle_covered or self.timeout_keep_alive_task is not None:
                self._disarm()
            elif self._waiting_for != "headers":
                self._arm("headers")
        elif state is h11.SEND_BODY:
            if self._waiting_for != "body":
                self._arm("body")
        else:
            self._disarm()

    def _arm(self, what: str) -> None:
        self._disarm()
        delay = self.timeout_header if what == "headers" else self.timeout_body
        self._waiting_for = what
        self._deadline = self.loop.call_later(delay, self._expired, what)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline, self._waiting_for = None, None

    def _expired(self, what: str) -> None:
        self._deadline, self._waiting_for = None, None
        logger.debug("closing connection from %s: request %s not received within %.0f s",
                     self.client, what,
                     self.timeout_header if what == "headers" else self.timeout_body)
        self._close_waiting(what)

    def _close_waiting(self, what: str) -> None:
        if self.transport.is_closing():
            return
        if what == "headers" and self.conn.our_state is h11.IDLE:
            self.transport.write(_TIMEOUT_408)  # no response is in progress on it
        self.transport.close()


def guarded_protocol(settings: Settings) -> type[GuardedH11Protocol]:
    """The protocol class with `settings`' limits (uvicorn builds one instance per connection)."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {
        "timeout_header": settings.timeout_header, "timeout_body": settings.timeout_body,
        "timeout_write": settings.timeout_write, "max_connections": settings.max_connections})


def uvicorn_limits(settings: Settings) -> dict[str, Any]:
    """Keyword arguments for `uvicorn.run` / `uvicorn.Config` that apply `settings`' limits."""
    trusted = settings.forwarded_allow_ips.strip()
    return {"http": guarded_protocol(settings), "limit_concurrency": settings.limit_concurrency,
            # Forwarded headers only from proxies named in GUARDIAN_FORWARDED_ALLOW_IPS.
            "proxy_headers": bool(trusted), "forwarded_allow_ips": trusted or None,
            "timeout_keep_alive": settings.timeout_keep_alive,
            "h11_max_incomplete_event_size": settings.h11_max_incomplete_event_size}
