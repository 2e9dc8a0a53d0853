"""Admission control through the real app: bounded queue per route (429 + Retry-After),
deadlines (504) and cancellation of a generation whose client hung up (streaming or not),
each audited as `cancelled` and stopped within a step."""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import socket
import time
from urllib.parse import urlparse

import httpx
import pytest

from guardian.audit.events import RequestEvent
from guardian.policy import Policy, RoutePolicy, ShadowPolicy
from guardian.serving.admission import Admission, CancelToken, QueueFull
from tests.support.api import auth
from tests.support.fakes import FakeBackend, ListSink
from tests.support.servers import serve

STEP_S = 0.02


def bounded_policy(max_queue: int) -> Policy:
    return Policy(routes={"default": RoutePolicy(mode="target_only", max_queue=max_queue,
                                                 shadow=ShadowPolicy(sample_rate=0.0))})


def body(max_tokens: int = 100, **kw: object) -> dict[str, object]:
    return {"model": "fake-target", "prompt": "hello", "max_tokens": max_tokens, **kw}


def wait_for(pred, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not pred():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.01)


@pytest.fixture
def slow(backend: FakeBackend) -> FakeBackend:
    backend.step_s = STEP_S
    return backend


def cancelled_events(sink: ListSink) -> list[RequestEvent]:
    return [e for e in sink.of(RequestEvent) if e.finish_reason == "cancelled"]


# --- the admission object -----------------------------------------------------------------
def test_admission_bounds_each_route_and_estimates_retry_after() -> None:
    adm = Admission(initial_service_s=0.4)
    adm.admit("a", 2)
    adm.admit("a", 2)
    adm.admit("b", 1)  # another route has its own bound
    with pytest.raises(QueueFull) as err:
        adm.admit("a", 2)
    assert err.value.retry_after_s == 2  # 3 in flight x 0.4 s, rounded up
    adm.release("a", service_s=0.4)
    adm.admit("a", 2)
    assert adm.in_flight("a") == 2 and adm.in_flight() == 3


def test_admission_bounds_each_callers_share_of_a_route() -> None:
    adm = Admission(initial_service_s=0.4)
    assert adm.admit("a", 4, "api-key:alice", 2) is True
    adm.admit("a", 4, "api-key:alice", 2)
    with pytest.raises(QueueFull) as err:
        adm.admit("a", 4, "api-key:alice", 2)  # alice holds her share...
    assert err.value.per_key and err.value.limit == 2
    assert adm.admit("a", 4, "api-key:bob", 2)  # ...bob is still admitted
    assert adm.admit("b", 4, "api-key:alice", 2)  # per route
    assert adm.admit("a", 4, "api-key:carol") is False  # no per-key bound: not counted
    with pytest.raises(QueueFull) as err:
        adm.admit("a", 4, "api-key:dave", 2)  # the route's own bound still holds first
    assert not err.value.per_key
    adm.release("a", principal="api-key:alice", keyed=True)
    assert adm.in_flight_for("a", "api-key:alice") == 1
    adm.release("a", principal="api-key:carol")
    adm.admit("a", 4, "api-key:alice", 2)
    assert adm.in_flight_for("a", "api-key:alice") == 2 and adm.in_flight("a") == 3


def test_cancel_token_deadline_and_first_reason_wins() -> None:
    tok = CancelToken(deadline=time.monotonic() - 1)
    assert tok.reason == "deadline_exceeded"
    tok.cancel("client_disconnected")
    assert tok.reason == "deadline_exceeded"
    assert CancelToken().reason is None


# --- through the API ------------------------------------------------------------------------
def test_full_route_queue_answers_429_with_retry_after(make_client, slow: FakeBackend) -> None:
    client = make_client(bounded_policy(max_queue=1))
    with serve(client.app) as url, concurrent.futures.ThreadPoolExecutor(4) as pool:
        first = pool.submit(httpx.post, f"{url}/v1/completions", json=body(50),
                            headers=auth(), timeout=30)
        wait_for(lambda: slow.calls)  # the first is on the engine
        rest = [httpx.post(f"{url}/v1/completions", json=body(5), headers=auth(), timeout=30)
                for _ in range(3)]
        assert first.result().status_code == 200
    for r in rest:
        assert r.status_code == 429, r.text
        err = r.json()["error"]
        assert err["code"] == "queue_full" and err["type"] == "rate_limit_error"
        assert int(r.headers["retry-after"]) >= 1
        assert "limit of 1 requests in flight" in err["message"]
    assert len(slow.calls) == 1  # refused requests never reached the engine


def test_one_key_cannot_hold_a_whole_route(make_client, slow: FakeBackend) -> None:
    """`max_queue_per_key`: one API key at its share gets 429 `key_queue_full` (streamed or
    not) while another key is still served; its slot comes back when its request ends."""
    client = make_client(Policy(routes={"default": RoutePolicy(
        mode="target_only", max_queue=4, max_queue_per_key=1,
        shadow=ShadowPolicy(sample_rate=0.0))}))
    with serve(client.app) as url, concurrent.futures.ThreadPoolExecutor(2) as pool:
        first = pool.submit(httpx.post, f"{url}/v1/completions", json=body(50),
                            headers=auth(), timeout=30)
        wait_for(lambda: slow.calls)
        same = httpx.post(f"{url}/v1/completions", json=body(5), headers=auth(), timeout=30)
        streamed = httpx.post(f"{url}/v1/completions", json=body(5, stream=True),
                              headers=auth(), timeout=30)
        other = httpx.post(f"{url}/v1/completions", json=body(5), headers=auth("admin"),
                           timeout=30)
        assert first.result().status_code == 200
        after = httpx.post(f"{url}/v1/completions", json=body(5), headers=auth(), timeout=30)
    for r in (same, streamed):
        assert r.status_code == 429, r.text
        err = r.json()["error"]
        assert err["code"] == "key_queue_full" and err["type"] == "rate_limit_error"
        assert int(r.headers["retry-after"]) >= 1 and "limit per key" in err["message"]
    assert other.status_code == 200 and after.status_code == 200
    assert client.app.state.services.core.admission.in_flight() == 0


def test_a_stream_to_a_full_route_is_a_real_429_not_an_in_band_error(
        make_client, slow: FakeBackend) -> None:
    client = make_client(bounded_policy(max_queue=1))
    with serve(client.app) as url, concurrent.futures.ThreadPoolExecutor(2) as pool:
        first = pool.submit(httpx.post, f"{url}/v1/completions", json=body(50),
                            headers=auth(), timeout=30)
        wait_for(lambda: slow.calls)
        r = httpx.post(f"{url}/v1/completions", json=body(5, stream=True), headers=auth(),
                       timeout=30)
        assert first.result().status_code == 200
    assert r.status_code == 429, r.text
    assert r.json()["error"]["code"] == "queue_full" and int(r.headers["retry-after"]) >= 1
    assert len(slow.calls) == 1


def test_deadline_cancels_the_generation_and_answers_504(client, slow: FakeBackend,
                                                         sink: ListSink) -> None:
    t0 = time.monotonic()
    r = client.post("/v1/completions", json=body(200), headers={
        **auth(), "X-Guardian-Deadline-Ms": "150"})
    elapsed = time.monotonic() - t0
    assert r.status_code == 504, r.text
    assert r.json()["error"]["code"] == "deadline_exceeded"
    assert elapsed < 200 * STEP_S / 2  # answered at the deadline, not after 200 steps
    wait_for(lambda: cancelled_events(sink))
    (event,) = cancelled_events(sink)
    assert event.stats == {"cancelled": "deadline_exceeded"}
    assert 0 < len(event.completion_token_ids) < 200  # stopped early, partial tokens kept
    assert len(event.trace) == len(event.completion_token_ids)


@pytest.mark.parametrize("value", ["0", "-5", "soon", "99999999999"])
def test_bad_deadline_header_is_a_400(client, value: str) -> None:
    r = client.post("/v1/completions", json=body(5), headers={
        **auth(), "X-Guardian-Deadline-Ms": value})
    assert r.status_code == 400
    assert r.json()["error"]["param"] == "X-Guardian-Deadline-Ms"


def _hang_up_after(url: str, payload: bytes, after_s: float) -> None:
    """Send a whole request on a raw socket, then close it before the answer comes."""
    u = urlparse(url)
    with socket.create_connection((u.hostname, u.port)) as s:
        head = (f"POST /v1/completions HTTP/1.1\r\nHost: testserver\r\n"
                f"Authorization: {auth()['Authorization']}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(payload)}\r\n\r\n").encode()
        s.sendall(head + payload)
        time.sleep(after_s)
        s.setblocking(False)
        with contextlib.suppress(BlockingIOError):  # nothing may have come back yet
            assert not s.recv(4000), "the server answered before the client hung up"


def test_client_hanging_up_cancels_a_non_streaming_generation(make_client, slow: FakeBackend,
                                                              sink: ListSink) -> None:
    client = make_client()
    with serve(client.app) as url:
        _hang_up_after(url, json.dumps(body(240)).encode(), after_s=0.3)
        wait_for(lambda: cancelled_events(sink))
        (event,) = cancelled_events(sink)
        assert event.stats == {"cancelled": "client_disconnected"}
        # Stopped within a few steps of the hang-up, not after 500 tokens.
        assert len(event.completion_token_ids) < 0.6 / STEP_S
        t0 = time.monotonic()  # the engine is free again
        r = httpx.post(f"{url}/v1/completions", json=body(3), headers=auth(), timeout=10)
        assert r.status_code == 200 and time.monotonic() - t0 < 2


def test_client_hanging_up_cancels_a_stream(make_client, slow: FakeBackend,
                                            sink: ListSink) -> None:
    client = make_client()
    with serve(client.app) as url:
        with httpx.stream("POST", f"{url}/v1/completions", json=body(240, stream=True),
                          headers=auth(), timeout=10) as r:
            lines = r.iter_lines()
            got = [next(lines) for _ in range(3)]
            assert any(line.startswith("data: ") for line in got)
        wait_for(lambda: cancelled_events(sink))
        (event,) = cancelled_events(sink)
        assert event.stats == {"cancelled": "client_disconnected"}
        assert len(event.completion_token_ids) < 100


def test_a_queued_request_whose_client_left_never_runs(make_client, slow: FakeBackend,
                                                       sink: ListSink) -> None:
    client = make_client()
    with serve(client.app) as url, concurrent.futures.ThreadPoolExecutor(2) as pool:
        first = pool.submit(httpx.post, f"{url}/v1/completions", json=body(40),
                            headers=auth(), timeout=30)
        wait_for(lambda: slow.calls)
        _hang_up_after(url, json.dumps(body(240)).encode(), after_s=0.2)  # queued, then gone
        assert first.result().status_code == 200
        wait_for(lambda: cancelled_events(sink))
    (event,) = cancelled_events(sink)
    assert event.completion_token_ids == [] and event.stats == {"cancelled": "client_disconnected"}
    assert len(slow.calls) == 1  # the engine never ran the abandoned request
