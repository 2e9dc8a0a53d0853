"""Connection limits under a real uvicorn server (loopback only, bounded loops).

A slow-loris client — connections that start a request and never finish its headers, or
declare a body and never send it — is disconnected within the timeout, and the server keeps
answering normal requests meanwhile; connections beyond the cap are closed at once.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import httpx
import pytest
import uvicorn

from guardian.api.connections import uvicorn_limits
from guardian.app import build_services, close_services, create_app
from guardian.settings import Settings
from tests.support.api import keystore, policy
from tests.support.fakes import FakeBackend, ListSink
from tests.support.servers import free_port

PARTIAL_HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


@contextmanager
def running(**config: Any) -> Iterator[tuple[str, int]]:
    services = build_services(FakeBackend(), ListSink(), policy=policy(), keys=keystore())
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(services=services), host="127.0.0.1",
                                           port=port, log_level="warning", **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", port
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        close_services(services)


def guarded(**limits: Any) -> dict[str, Any]:
    return uvicorn_limits(Settings(**{"timeout_header": 1.0, "timeout_body": 1.0,
                                      "timeout_keep_alive": 1, **limits}))


def connect(port: int, first: bytes = b"") -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    if first:
        s.sendall(first)
    return s


def closed_within(s: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """Read until the server closes (True, what it sent) or `seconds` pass (False, ...)."""
    s.settimeout(0.1)
    got = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            chunk = s.recv(4096)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return True, got
        if not chunk:
            return True, got
        got += chunk
    return False, got


def healthy(url: str) -> bool:
    return httpx.get(f"{url}/healthz", timeout=5).status_code == 200


def test_plain_uvicorn_never_closes_a_connection_with_an_unfinished_head() -> None:
    """Why guardian.api.connections exists: uvicorn alone (even with a 1 s keep-alive) keeps a
    connection whose headers never finish open; the guarded protocol closes it."""
    with running(timeout_keep_alive=1) as (_, port), connect(port, PARTIAL_HEAD) as s:
        closed, _ = closed_within(s, 3.0)
    assert not closed, "uvicorn now closes slow heads itself: the header guard may be redundant"


def test_slow_loris_heads_are_closed_within_the_timeout_and_service_goes_on() -> None:
    with running(**guarded()) as (url, port), ExitStack() as stack:
        started = time.monotonic()
        sockets = [stack.enter_context(connect(port, PARTIAL_HEAD)) for _ in range(50)]
        assert healthy(url)  # answered while 50 slow heads are pending
        results = [closed_within(s, 4.0) for s in sockets]
        elapsed = time.monotonic() - started
        assert all(closed for closed, _ in results), "a slow head was kept open"
        assert elapsed < 6.0
        assert all(b"408" in got.split(b"\r\n")[0] for _, got in results)
        assert healthy(url)


def test_a_silent_connection_is_closed_too() -> None:
    with running(**guarded()) as (url, port), connect(port) as s:
        closed, got = closed_within(s, 3.0)
        assert closed and got.startswith(b"HTTP/1.1 408")
        assert healthy(url)


def test_a_slow_head_after_a_kept_alive_request_is_closed() -> None:
    with running(**guarded()) as (_, port), connect(port) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        s.settimeout(5)
        assert s.recv(4096).startswith(b"HTTP/1.1 200")
        s.sendall(PARTIAL_HEAD)  # next request on the same connection, never finished
        closed, got = closed_within(s, 3.0)
        assert closed and b"HTTP/1.1 408" in got  # after the rest of the 200's body


def test_a_body_shorter_than_its_content_length_is_cut_off() -> None:
    head = (b"POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"model\": ")
    with running(**guarded()) as (url, port), ExitStack() as stack:
        sockets = [stack.enter_context(connect(port, head)) for _ in range(20)]
        assert healthy(url)
        assert all(closed_within(s, 4.0)[0] for s in sockets), "a stalled body was kept open"
        assert healthy(url)


def test_at_the_cap_the_longest_idle_connections_make_way() -> None:
    """Slow heads beyond the cap evict the oldest slow heads, and a real client still gets
    through while the cap is full of them: descriptors stay bounded, service goes on."""
    with running(**guarded(max_connections=10, timeout_header=30.0)) as (url, port), \
            ExitStack() as stack:
        sockets = []
        for _ in range(15):
            sockets.append(stack.enter_context(connect(port, PARTIAL_HEAD)))
            time.sleep(0.02)  # a definite order of age
        time.sleep(0.3)
        closed = [closed_within(s, 0.2)[0] for s in sockets]
        assert closed == [True] * 5 + [False] * 10, closed  # the five oldest made way
        assert healthy(url)  # the cap is full of slow heads, yet a real request is answered
        assert closed_within(sockets[5], 0.5)[0]  # ... by evicting the oldest one left
        assert not any(closed_within(s, 0.1)[0] for s in sockets[7:])


def test_at_the_cap_with_every_connection_busy_a_new_one_is_closed() -> None:
    head = (b"POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
    with running(**guarded(max_connections=5, timeout_body=30.0)) as (_, port), \
            ExitStack() as stack:
        busy = [stack.enter_context(connect(port, head)) for _ in range(5)]  # bodies pending
        time.sleep(0.3)
        extra = stack.enter_context(connect(port))
        assert closed_within(extra, 1.0)[0]
        assert not any(closed_within(s, 0.1)[0] for s in busy)


@pytest.mark.parametrize("field,default", [("limit_concurrency", None),
                                           ("timeout_keep_alive", 5),
                                           ("h11_max_incomplete_event_size", 16 * 1024)])
def test_serve_applies_uvicorn_limits_from_settings(monkeypatch, field: str, default) -> None:
    for name in ("LIMIT_CONCURRENCY", "TIMEOUT_KEEP_ALIVE", "H11_MAX_INCOMPLETE_EVENT_SIZE"):
        monkeypatch.delenv(f"GUARDIAN_{name}", raising=False)
    assert uvicorn_limits(Settings())[field] == default
    monkeypatch.setenv(f"GUARDIAN_{field.upper()}", "4096")
    assert uvicorn_limits(Settings())[field] == 4096
    protocol = uvicorn_limits(Settings(timeout_header=2.5, max_connections=7))["http"]
    assert (protocol.timeout_header, protocol.max_connections) == (2.5, 7)


def test_a_flood_of_slow_heads_beyond_the_cap_does_not_lock_out_real_requests() -> None:
    """With the defaults' relation (no uvicorn concurrency limit), a full cap of slow heads
    still lets a real request through."""
    with running(**guarded(max_connections=40, timeout_header=30.0)) as (url, port), \
            ExitStack() as stack:
        for _ in range(60):
            stack.enter_context(connect(port, PARTIAL_HEAD))
        time.sleep(0.3)
        assert all(healthy(url) for _ in range(5))


def test_an_oversized_head_gets_400() -> None:
    with running(**guarded(h11_max_incomplete_event_size=2048)) as (url, port), \
            connect(port) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 4096 + b"\r\n")
        closed, got = closed_within(s, 3.0)
        assert closed and got.startswith(b"HTTP/1.1 400")
        assert healthy(url)


def unread_pipeline(port: int, n: int = 400) -> socket.socket:
    """A client that pipelines requests for a sizeable answer and never reads: its socket's
    buffers fill and the server's response waits on it."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.setblocking(False)
    with contextlib.suppress(BlockingIOError):
        s.send(b"GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * n)
    return s


def test_a_client_that_never_reads_its_answers_is_dropped_after_the_write_timeout() -> None:
    with running(**guarded(timeout_write=1.0)) as (url, port), ExitStack() as stack:
        s = stack.enter_context(unread_pipeline(port))
        time.sleep(0.3)
        s.setblocking(True)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        # The server aborts it (RST); reading what was buffered then ends in a reset or EOF.
        time.sleep(2.0)
        assert closed_within(s, 5.0)[0]
        assert healthy(url)


def test_at_the_cap_clients_that_never_read_make_way() -> None:
    """A review locked every new connection (health probes too) out with pipelined requests
    whose answers were never read: such connections were never idle, so never evicted."""
    with running(**guarded(max_connections=8, timeout_write=30.0)) as (url, port), \
            ExitStack() as stack:
        for _ in range(8):
            stack.enter_context(unread_pipeline(port))
        time.sleep(3.0)  # their responses have waited on them for over a second
        assert all(healthy(url) for _ in range(3))


@pytest.mark.parametrize("trusted,recorded", [("", "127.0.0.1"), ("127.0.0.1", "203.0.113.66")])
def test_forwarded_headers_are_believed_only_from_named_proxies(trusted, recorded) -> None:
    """uvicorn believes X-Forwarded-For from 127.0.0.1 by default: any local caller could
    write the client address an act's record keeps (an API probe did, with an on-call key).
    Only proxies named in GUARDIAN_FORWARDED_ALLOW_IPS are believed now."""
    from guardian.audit.events import GovernanceEvent
    from tests.support.api import auth

    sink = ListSink()
    services = build_services(FakeBackend(), sink, policy=policy(), keys=keystore())
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(
        create_app(services=services), host="127.0.0.1", port=port, log_level="warning",
        **guarded(forwarded_allow_ips=trusted)))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        r = httpx.post(f"http://127.0.0.1:{port}/admin/routes/default/rollback",
                       json={"reason": "forwarded"},
                       headers={**auth("oncall"), "X-Forwarded-For": "203.0.113.66"})
        assert r.status_code == 200, r.text
        acts = [e for e in sink.events if isinstance(e, GovernanceEvent)
                and e.details.get("origin")]
        assert acts and acts[-1].details["origin"]["client"] == recorded
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        close_services(services)


def test_a_whole_oversized_head_in_one_write_gets_400_too() -> None:
    """h11 bounds a head only while it is incomplete: a complete one in a single read was
    served at any size (an API probe: 70 KB past the 16 KiB limit)."""
    with running(**guarded(h11_max_incomplete_event_size=2048)) as (url, port), \
            connect(port) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 4096
                  + b"\r\n\r\n")
        closed, got = closed_within(s, 3.0)
        assert closed and got.startswith(b"HTTP/1.1 400"), got[:80]
        assert healthy(url)
        with connect(port) as ok:  # a head under the limit, in one write, is served
            ok.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Small: "
                       + b"a" * 1000 + b"\r\nConnection: close\r\n\r\n")
            assert closed_within(ok, 3.0)[1].startswith(b"HTTP/1.1 200")
