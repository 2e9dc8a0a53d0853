"""The sidecar (the real app) over UpstreamBackend and the fake upstream: the OpenAI wire
format both ways, logprobs stripped unless asked, token rows audited, faults as 502/504."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.audit.events import RequestEvent
from guardian.backends.upstream.backend import UpstreamBackend
from guardian.policy import Policy, RoutePolicy, ShadowPolicy
from tests.support.api import KEYS, keystore
from tests.support.fakes import ListSink
from tests.support.upstream import pools

AUTH = {"authorization": f"Bearer {KEYS['inference']}"}
CHAT = {"model": "fake-target", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 4}


@pytest.fixture
def make(upstream_url):
    made = []

    def build(mode: str = "speculative", sample_rate: float = 0.0, target_kw: dict | None = None,
              **kw: object) -> tuple[TestClient, ListSink]:
        sink = ListSink()
        p = pools(upstream_url, **kw)
        if target_kw:
            p = p.model_copy(update={"target_only": p.target_only.model_copy(update=target_kw)})
        route = RoutePolicy(mode=mode, shadow=ShadowPolicy(sample_rate=sample_rate),  # type: ignore[arg-type]
                            upstream=p)
        services = build_services(UpstreamBackend("fake-target", ["fake-spec"]), sink,
                                  policy=Policy(routes={"default": route}), keys=keystore())
        made.append(services)
        # Entered: one event loop for the client's life (the backend's aiohttp sessions
        # are per loop), and the lifespan closes them.
        client = TestClient(create_app(services=services), raise_server_exceptions=False)
        client.__enter__()
        clients.append(client)
        client.services = services  # type: ignore[attr-defined]
        return client, sink

    clients: list[TestClient] = []
    yield build
    for c in clients:
        c.__exit__(None, None, None)
    for s in made:
        close_services(s)
        s.core.backend.close()


def events(sink: ListSink) -> list[RequestEvent]:
    sink.flush() if hasattr(sink, "flush") else None
    return sink.of(RequestEvent)


@pytest.mark.parametrize("mode,pool", [("speculative", "fake-spec"),
                                       ("target_only", "fake-target")])
def test_completion_through_the_sidecar(make, mode, pool) -> None:
    client, sink = make(mode)
    r = client.post("/v1/completions", headers=AUTH,
                    json={"model": "fake-target", "prompt": "hello", "max_tokens": 3})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["choices"][0]["text"] == " w0 w1 w2"
    assert body["choices"][0]["logprobs"] is None  # asked upstream for the audit, stripped
    assert body["usage"] == {"prompt_tokens": 3, "completion_tokens": 3, "total_tokens": 6}
    assert body["spec_guardian"]["served_path"] == mode
    ev = events(sink)[0]
    assert ev.stats["upstream_model"] == pool and ev.stats["upstream_url"]
    # the pool's address is kept in the audit trail, never shown to an inference key
    assert "upstream_url" not in body["spec_guardian"]["stats"]
    assert body["spec_guardian"]["stats"]["upstream_model"] == pool
    assert [t.origin for t in ev.trace] == ["upstream"] * 3
    assert all(abs(t.target_margin - 2.4) < 1e-9 for t in ev.trace)
    if mode == "speculative":  # the pool's per-request speculative counters are kept
        assert ev.stats["accepted"] == 2 and body["spec_guardian"]["stats"]["accepted"] == 2


def test_chat_stream_with_client_logprobs(make) -> None:
    client, _ = make()
    with client.stream("POST", "/v1/chat/completions", headers=AUTH,
                       json={**CHAT, "stream": True, "logprobs": True, "top_logprobs": 1}) as r:
        assert r.status_code == 200
        chunks = [json.loads(line[6:]) for line in r.iter_lines()
                  if line.startswith("data: ") and line != "data: [DONE]"]
    deltas = [c["choices"][0] for c in chunks if c["choices"] and
              c["choices"][0]["delta"].get("content")]
    assert "".join(d["delta"]["content"] for d in deltas) == " w0 w1 w2 w3"
    for d in deltas:
        (item,) = d["logprobs"]["content"]
        assert item["token"] == d["delta"]["content"] and len(item["top_logprobs"]) == 1


def test_a_fault_is_a_502_with_the_request_id_and_audited(make) -> None:
    client, sink = make(spec="fault-500")
    r = client.post("/v1/chat/completions", headers=AUTH, json=CHAT)
    assert r.status_code == 502, r.text
    err = r.json()["error"]
    assert err["code"] == "upstream_status" and err["type"] == "upstream_error"
    ev = events(sink)[0]
    assert ev.request_id in err["message"] and ev.finish_reason == "error"
    assert "127.0.0.1" not in err["message"]  # no internal address in a client's error
    assert ev.fallback_reason.startswith("upstream_error:")


def test_a_request_the_pool_refuses_is_a_400_and_audited_but_no_evidence(make) -> None:
    """The prompt reached the pool, so the refusal is in the audit trail (request id in the
    client's 400); as a failed request it is no evidence for the rollback triggers: a caller
    sending requests the pool refuses must not fill a trigger's sample with empty ones."""
    from guardian.governance.windows import RouteWindow

    client, sink = make(spec="fault-422")
    r = client.post("/v1/chat/completions", headers=AUTH, json=CHAT)
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    [ev] = events(sink)
    assert ev.request_id in err["message"] and ev.finish_reason == "error"
    assert ev.stats["upstream_fault"] == "rejected" and "422" in ev.fallback_reason
    window = RouteWindow("default")
    before = window.version
    window.observe_request(ev)
    assert len(window.spec) == 0 and window.version == before


def test_timeout_is_a_504(make) -> None:
    client, sink = make(spec="fault-slow")
    r = client.post("/v1/completions", headers=AUTH,
                    json={"model": "fake-target", "prompt": "x", "max_tokens": 2})
    assert r.status_code == 504 and r.json()["error"]["code"] == "upstream_timeout"
    assert events(sink)[0].stats["upstream_fault"] == "timeout"


def test_failover_to_the_target_only_pool_is_audited(make) -> None:
    client, sink = make(spec="fault-500", failover=True)
    r = client.post("/v1/chat/completions", headers=AUTH, json=CHAT)
    assert r.status_code == 200, r.text
    ext = r.json()["spec_guardian"]
    assert ext["served_path"] == "target_only"
    assert ext["fallback_reason"].startswith("speculative_error: UpstreamError")
    ev = events(sink)[0]
    assert ev.stats["upstream_model"] == "fake-target" and ev.fallback_reason


def test_truncated_stream_ends_with_an_in_band_error(make) -> None:
    client, sink = make(spec="fault-truncated")
    with client.stream("POST", "/v1/completions", headers=AUTH, json={
            "model": "fake-target", "prompt": "x", "max_tokens": 6, "stream": True}) as r:
        lines = [line for line in r.iter_lines() if line.startswith("data: ")]
    assert lines[-1] == "data: [DONE]"
    assert "upstream_error" in lines[-2] or "truncated" in lines[-2]
    assert events(sink)[0].finish_reason == "error"


# --- a client that leaves, or a deadline, stops the upstream call and is audited ---------------
def _cancelled(sink: ListSink) -> list[RequestEvent]:
    return [e for e in events(sink) if e.finish_reason == "cancelled"]


def _wait(pred, timeout_s: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    import time

    deadline = time.monotonic() + timeout_s
    while not pred():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.02)


def _slow(make):  # type: ignore[no-untyped-def]
    # The fake's `fault-slow` answers after 30 s; the pools wait up to 60 s for it.
    return make(mode="target_only", target="fault-slow", target_kw={"read_timeout_s": 60.0})


def _in_flight(client: TestClient) -> int:
    return client.services.core.admission.in_flight("default")  # type: ignore[attr-defined]


@pytest.mark.parametrize("stream", [False, True])
def test_a_client_that_leaves_stops_the_upstream_call_and_is_audited(make, stream) -> None:
    import time

    from tests.guardian.api.test_admission import _hang_up_after
    from tests.support.servers import serve

    client, sink = _slow(make)
    body = {"model": "fake-target", "prompt": "x", "max_tokens": 4, "stream": stream}
    with serve(client.app) as url:
        t0 = time.monotonic()
        if stream:  # the stream's headers come at once; the client leaves while it waits
            import httpx

            with httpx.stream("POST", f"{url}/v1/completions", json=body, headers=AUTH,
                              timeout=10) as r:
                assert r.status_code == 200
                time.sleep(0.5)
        else:
            _hang_up_after(url, json.dumps(body).encode(), after_s=0.5)
        _wait(lambda: _cancelled(sink))
        assert time.monotonic() - t0 < 10  # not the 30 s the upstream would take
        (event,) = _cancelled(sink)
        assert event.stats == {"cancelled": "client_disconnected"}
        _wait(lambda: _in_flight(client) == 0)  # the route slot is free again


def test_a_deadline_stops_the_upstream_call_and_is_audited(make) -> None:
    import time

    client, sink = _slow(make)
    t0 = time.monotonic()
    r = client.post("/v1/completions", headers={**AUTH, "X-Guardian-Deadline-Ms": "300"},
                    json={"model": "fake-target", "prompt": "x", "max_tokens": 4})
    assert r.status_code == 504 and r.json()["error"]["code"] == "deadline_exceeded"
    assert time.monotonic() - t0 < 5
    _wait(lambda: _cancelled(sink))
    (event,) = _cancelled(sink)
    assert event.stats == {"cancelled": "deadline_exceeded"}
    assert r.headers["x-request-id"] == event.request_id  # the id `audit show` takes
    _wait(lambda: _in_flight(client) == 0)


def test_a_refused_pool_does_not_name_its_address_to_the_client(make) -> None:
    # Pools on a closed port: the client learns the pool's label and the request id; the
    # connection error (host and port) is in the audit record only.
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]
    client, sink = make(mode="target_only", target_kw={"url": f"http://127.0.0.1:{dead}/v1"})
    r = client.post("/v1/completions", headers=AUTH,
                    json={"model": "fake-target", "prompt": "x", "max_tokens": 2})
    assert r.status_code == 502
    msg = r.json()["error"]["message"]
    assert "refused" in msg and str(dead) not in msg and "127.0.0.1" not in msg
    (event,) = events(sink)
    assert str(dead) in (event.fallback_reason or "")
    assert r.headers["x-request-id"] == event.request_id


@pytest.mark.parametrize("field", [{"prompt": [10**30]}, {"prompt": [2**63]},
                                   {"max_tokens": 10**30}, {"max_tokens": (1 << 20) + 1}])
def test_absurd_ids_and_lengths_are_refused_before_the_upstream(make, field) -> None:
    client, sink = make(mode="target_only")
    r = client.post("/v1/completions", headers=AUTH,
                    json={"model": "fake-target", "prompt": "x", "max_tokens": 2, **field})
    assert r.status_code == 400, r.text
    assert not events(sink)


def test_the_mirror_endpoint_judges_against_the_target_only_pool(make) -> None:
    # /v1/shadow over pools: the target-only pool answers greedily and the primary's text is
    # walked along its tokens (no local tokenizer needed; it answered 501 before).
    from guardian.audit.events import ShadowEvent
    from tests.support.api import KEYS

    client, sink = make(mode="target_only")
    mirror = {"authorization": f"Bearer {KEYS['mirror']}"}

    def judge(text: str, **request: object) -> dict:
        r = client.post("/v1/shadow", headers=mirror, json={
            "request": {"model": "fake-target", "prompt": "hi", "max_tokens": 2,
                        "temperature": 0, **request},
            "response": {"choices": [{"text": text, "finish_reason": "length"}]}, "wait": True})
        assert r.status_code in (200, 400), r.text
        return r.json()

    assert judge(" w0 w1")["verdict"] == "match"
    out = judge(" w0 zz")
    assert out["verdict"] == "divergence" and out["first_divergence_position"] == 1
    assert judge(" w0")["verdict"] == "divergence"  # the primary stopped early
    refused = judge(" w0 w1", temperature=0.7)
    assert refused["error"]["param"] == "request.temperature"
    shadows = sink.of(ShadowEvent)
    assert [e.verdict for e in shadows] == ["match", "divergence", "divergence"]
    assert all(e.stats["external"] and e.stats["source"] == "mirror" for e in shadows)


@pytest.mark.parametrize("continues", [True, False])
def test_a_stream_that_fails_after_text_is_continued_only_by_a_retry_that_continues_it(
        continues: bool) -> None:
    """An async backend (upstream pools) whose speculative run breaks after sending text with
    an error that does not say `no_fallback`: the target-only retry is streamed from where the
    client is (guardian.serving.fallback) - the client reads each character once; a retry
    that departs from what was sent ends the request in-band (Diverged), never splices."""
    import asyncio
    import dataclasses

    from guardian.backends.base import BackendRequest
    from guardian.serving.core import GenerationRequest
    from guardian.serving.fallback import Diverged
    from tests.support.fakes import FakeBackend

    class Breaks(FakeBackend):
        def __init__(self) -> None:
            super().__init__()
            self.capabilities = dataclasses.replace(self.capabilities, asynchronous=True)

        async def agenerate(self, request: BackendRequest, on_text=None):  # type: ignore[no-untyped-def]
            if request.speculative:
                full = self.generate(dataclasses.replace(request, speculative=False)).text
                if on_text is not None:
                    on_text(full[:2] if continues else "Hello", [])
                raise RuntimeError("connection reset after the first chunk")
            return self.generate(request, on_text)

    services = build_services(Breaks(), ListSink(), policy=Policy(routes={
        "default": RoutePolicy(mode="speculative")}), keys=keystore())
    try:
        sent: list[str] = []
        req = GenerationRequest(endpoint="completions", route="default", model="fake-target",
                                prompt_text="hi", prompt_ids=[104, 105], max_tokens=4)

        async def run():  # type: ignore[no-untyped-def]
            return await services.core.serve(req, lambda delta, rows: sent.append(delta))

        if continues:
            served = asyncio.run(run())
            assert "".join(sent) == served.result.text and len(served.result.text) > 2
            assert served.served_path == "target_only"
            assert served.fallback_reason.startswith("speculative_error: RuntimeError")
        else:
            with pytest.raises(Diverged):
                asyncio.run(run())
            assert sent == ["Hello"], sent  # not "Hello" and then the target-only run's text
    finally:
        close_services(services)


def test_a_served_request_is_freed_without_the_garbage_collector(make) -> None:
    """No reference cycle keeps a proxied request alive after its answer (a cancel hook left
    on its token held its task, whose frame held the request): everything it made - its
    trace, result, span - goes when the answer does, not at the collector's next pass (a
    collector pass per few requests cost the proxy path ~10% of its added latency)."""
    import gc
    import warnings

    from guardian.serving.core import GenerationRequest

    client, _ = make("speculative")
    client.post("/v1/completions", headers=AUTH, json={"model": "fake-target", "prompt": "x"})
    gc.collect()
    # Requests other tests left behind (held by their own fixtures) are not this test's.
    before = {id(o) for o in gc.get_objects() if isinstance(o, GenerationRequest)}
    gc.disable()
    try:
        for stream in (False, True, False):
            r = client.post("/v1/completions", headers=AUTH, json={
                "model": "fake-target", "prompt": "hello", "max_tokens": 3, "stream": stream})
            assert r.status_code == 200, r.text
        with warnings.catch_warnings():  # isinstance() on some torch objects warns
            warnings.simplefilter("ignore")
            left = [o for o in gc.get_objects()
                    if isinstance(o, GenerationRequest) and id(o) not in before]
        assert left == []
    finally:
        gc.enable()
