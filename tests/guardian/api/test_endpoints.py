"""Completions, chat, streaming, models, routing, fallback and load shedding through the API."""

from __future__ import annotations

import json
import threading
import time

import pytest

from guardian.audit.events import GovernanceEvent, RequestEvent
from tests.support.api import KEYS, auth, policy

BODY = {"model": "fake-target", "prompt": "hello", "max_tokens": 6, "temperature": 0}


def _sse(text: str) -> list[dict | str]:
    out: list[dict | str] = []
    for line in text.splitlines():
        if line.startswith("data: "):
            data = line[6:]
            out.append(data if data == "[DONE]" else json.loads(data))
    return out


def test_completion_carries_request_id_stats_and_one_audit_event(client, sink, backend) -> None:
    r = client.post("/v1/completions", json=BODY, headers=auth())
    assert r.status_code == 200
    body = r.json()
    assert body["object"] == "text_completion"
    assert r.headers["x-request-id"] == body["id"] == body["spec_guardian"]["request_id"]
    assert len(body["choices"][0]["text"]) == 6
    assert body["usage"] == {"prompt_tokens": 5, "completion_tokens": 6, "total_tokens": 11}
    assert body["spec_guardian"]["stats"]["completion_tokens"] == 6
    events = sink.of(RequestEvent, body["id"])
    assert len(events) == 1 and events[0].completion_text == body["choices"][0]["text"]
    assert events[0].served_path == "target_only" and len(events[0].trace) == 6


def test_speculative_route_serves_speculative_with_acceptance_stats(make_client) -> None:
    client = make_client(policy(mode="speculative"))
    ext = client.post("/v1/completions", json=BODY, headers=auth()).json()["spec_guardian"]
    assert ext["served_path"] == "speculative"
    assert ext["stats"]["mean_acceptance_length"] > 1.0
    assert ext["stats"]["proposed_tokens"] >= ext["stats"]["judged_tokens"] > 0


def test_route_selected_by_header_and_by_model_alias(client) -> None:
    # Choosing a route by header needs a key that lists it (tests/guardian/security/test_auth.py has
    # the whole route matrix).
    client.app.state.keys.add("sg-test-proxy", "proxy", "inference", routes=["default", "canary"])
    proxy = {"Authorization": "Bearer sg-test-proxy"}
    by_header = client.post("/v1/completions", json=BODY,
                            headers={**proxy, "X-Guardian-Route": "canary"}).json()
    assert by_header["spec_guardian"]["route"] == "canary"
    by_model = client.post("/v1/completions", json={**BODY, "model": "fake-canary"},
                           headers=auth()).json()
    assert by_model["spec_guardian"]["route"] == "canary"
    assert by_model["spec_guardian"]["served_path"] == "speculative"
    unknown = client.post("/v1/completions", json=BODY,
                          headers={**proxy, "X-Guardian-Route": "nope"})
    # Not a 404: a key must not tell unknown route names from known ones it may not use.
    assert unknown.status_code == 403 and unknown.json()["error"]["code"] == "route_not_allowed"
    assert "canary" not in unknown.json()["error"]["message"]  # routes are not enumerated
    unknown = client.post("/v1/completions", json=BODY,
                          headers={**auth("admin"), "X-Guardian-Route": "nope"})
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "route_not_found"
    # A header does not let an unknown model through (it is echoed, audited and a metrics
    # label: any name would grow the label set without bound).
    bogus = client.post("/v1/completions", json={**BODY, "model": "evil-model-123"},
                        headers={**proxy, "X-Guardian-Route": "canary"})
    assert bogus.status_code == 404 and bogus.json()["error"]["code"] == "model_not_found"
    assert "evil-model-123" not in client.get("/metrics", headers=auth("oncall")).text


def test_models_lists_target_and_route_aliases(client) -> None:
    data = client.get("/v1/models", headers=auth()).json()
    assert data["object"] == "list"
    assert [m["id"] for m in data["data"]] == ["fake-target", "fake-canary"]


def test_chat_uses_the_pair_template(client, sink) -> None:
    r = client.post("/v1/chat/completions", headers=auth(), json={
        "model": "fake-target", "max_tokens": 4,
        "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}]})
    body = r.json()
    assert r.status_code == 200 and body["object"] == "chat.completion"
    assert body["choices"][0]["message"]["role"] == "assistant"
    event = sink.of(RequestEvent, body["id"])[0]
    assert event.prompt_text == "<system>be brief<user>hi<assistant>"
    assert event.endpoint == "chat.completions"


def test_streaming_completion_concatenates_to_the_full_text(client) -> None:
    full = client.post("/v1/completions", json=BODY, headers=auth()).json()["choices"][0]["text"]
    r = client.post("/v1/completions", json={**BODY, "stream": True,
                                             "stream_options": {"include_usage": True}},
                    headers=auth())
    assert r.headers["content-type"].startswith("text/event-stream")
    events = _sse(r.text)
    assert events[-1] == "[DONE]"
    chunks = [e for e in events[:-1] if isinstance(e, dict) and e["choices"]]
    assert "".join(c["choices"][0]["text"] for c in chunks) == full
    assert chunks[-1]["choices"][0]["finish_reason"] == "length"
    assert chunks[-1]["spec_guardian"]["request_id"] == r.headers["x-request-id"]
    assert events[-2]["usage"]["completion_tokens"] == 6


def test_streaming_chat_starts_with_role_and_ends_with_done(client) -> None:
    r = client.post("/v1/chat/completions", headers=auth(), json={
        "model": "fake-target", "max_tokens": 3, "stream": True,
        "messages": [{"role": "user", "content": "hi"}]})
    events = _sse(r.text)
    assert events[0]["choices"][0]["delta"]["role"] == "assistant"
    assert events[-1] == "[DONE]"
    text = "".join(e["choices"][0]["delta"].get("content", "") for e in events[:-1])
    assert len(text) == 3


def test_speculative_error_falls_back_to_target_only_and_is_recorded(make_client, backend,
                                                                     sink) -> None:
    client = make_client(policy(mode="speculative"))
    expected = client.post("/v1/completions", json=BODY, headers=auth()).json()
    backend.spec_error = RuntimeError("kv cache rollback bug")
    r = client.post("/v1/completions", json=BODY, headers=auth())
    assert r.status_code == 200
    body = r.json()
    assert body["choices"][0]["text"] == expected["choices"][0]["text"]
    assert body["spec_guardian"]["served_path"] == "target_only"
    event = sink.of(RequestEvent, body["id"])[0]
    assert event.fallback_reason.startswith("speculative_error: RuntimeError: kv cache")
    assert event.mode == "speculative" and event.served_path == "target_only"
    metrics = client.get("/metrics", headers=auth("oncall")).text
    assert 'guardian_serving_fallbacks_total{' in metrics and 'reason="speculative_error"' in metrics


def test_fallback_mid_stream_does_not_repeat_text(make_client, backend) -> None:
    client = make_client(policy(mode="speculative"))
    full = client.post("/v1/completions", json=BODY, headers=auth()).json()["choices"][0]["text"]
    original = backend.generate

    def fail_after_first_step(request, on_text=None):
        if request.speculative:
            on_text("".join(full[:4]), [])  # one step streamed, then the engine dies
            raise RuntimeError("boom")
        return original(request, on_text)

    backend.generate = fail_after_first_step
    r = client.post("/v1/completions", json={**BODY, "stream": True}, headers=auth())
    chunks = [e for e in _sse(r.text) if isinstance(e, dict)]
    assert "".join(c["choices"][0]["text"] for c in chunks) == full
    assert chunks[-1]["spec_guardian"]["fallback_reason"].startswith("speculative_error")


@pytest.mark.parametrize("stream", [True, False])
def test_a_fallback_that_would_splice_two_answers_ends_the_stream_instead(
        make_client, backend, stream) -> None:
    """The engine streamed text the target-only retry does not continue (a sampled request,
    a near tie): a stream ends with an in-band error after exactly what was sent; an answer
    that was not streamed is the retry's, whole (guardian.serving.fallback)."""
    client = make_client(policy(mode="speculative"))
    full = client.post("/v1/completions", json=BODY, headers=auth()).json()["choices"][0]["text"]
    original = backend.generate

    def fail_after_other_text(request, on_text=None):
        if request.speculative:
            on_text("\u00a7not the target's text", [])
            raise RuntimeError("boom")
        return original(request, on_text)

    backend.generate = fail_after_other_text
    r = client.post("/v1/completions", json={**BODY, "stream": stream}, headers=auth())
    assert r.status_code == 200
    if not stream:
        assert r.json()["choices"][0]["text"] == full
        return
    events = [e for e in _sse(r.text) if isinstance(e, dict)]
    text = "".join(e["choices"][0]["text"] for e in events if "choices" in e)
    assert text == "\u00a7not the target's text"  # nothing of the retry spliced on
    assert events[-1]["error"]["type"] == "server_error"
    assert "did not continue the text already sent" in events[-1]["error"]["message"]


def test_queue_depth_over_threshold_sheds_speculation(make_client, backend, sink) -> None:
    backend.step_s = 0.05
    client = make_client(policy(mode="speculative", load_shed_queue_depth=1))
    results: list[dict] = []

    def call() -> None:
        results.append(client.post("/v1/completions", json={**BODY, "max_tokens": 8},
                                   headers=auth()).json())

    threads = [threading.Thread(target=call) for _ in range(3)]
    for t in threads:
        t.start()
        time.sleep(0.01)
    for t in threads:
        t.join()
    paths = sorted(r["spec_guardian"]["served_path"] for r in results)
    assert "speculative" in paths and "target_only" in paths
    shed = [e for e in sink.of(RequestEvent) if e.fallback_reason == "load_shed"]
    assert shed and all(e.served_path == "target_only" for e in shed)


def test_off_mode_serves_target_only_without_shadow(make_client, backend, sink) -> None:
    client = make_client(policy(mode="off", sample_rate=1.0))
    body = client.post("/v1/completions", json=BODY, headers=auth()).json()
    assert body["spec_guardian"]["served_path"] == "target_only"
    assert body["spec_guardian"]["shadow_sampled"] is False
    assert all(not c["speculative"] for c in backend.calls)


def test_rollback_and_promotion_change_mode_and_are_audited(client, sink) -> None:
    r = client.post("/admin/routes/canary/rollback", json={"reason": "divergence spike"},
                    headers=auth("oncall"))
    modes = {s["route"]: s["mode"] for s in r.json()["routes"]}
    assert modes["canary"] == "target_only"
    ext = client.post("/v1/completions", json={**BODY, "model": "fake-canary"},
                      headers=auth()).json()["spec_guardian"]
    assert ext["mode"] == "target_only" and ext["served_path"] == "target_only"
    client.post("/admin/routes/default/promote", json={}, headers=auth("release"))
    kinds = [(e.kind, e.route, e.actor) for e in sink.of(GovernanceEvent)]
    assert kinds == [("rollback", "canary", "api-key:oncall-key"),
                     ("promotion", "default", "api-key:release-key")]
    assert client.post("/admin/routes/nope/rollback", json={},
                       headers=auth("oncall")).status_code == 404


def test_compliance_reads_the_audit_events_of_a_request(client) -> None:
    rid = client.post("/v1/completions", json=BODY, headers=auth()).json()["id"]
    r = client.get(f"/admin/audit/{rid}", headers=auth("compliance"))
    assert r.status_code == 200
    assert [e["kind"] for e in r.json()["events"]] == ["request"]
    assert client.get("/admin/audit/unknown", headers=auth("compliance")).status_code == 404


def test_health_and_readiness(client) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz", headers=auth("oncall")).json()
    assert ready["status"] == "ready" and ready["pair_hash"] == "f" * 64
    assert {"policy_hash", "queue_depth", "shadow_queue_depth"} <= set(ready)


@pytest.mark.parametrize("headers", [{}, auth("inference"), auth("mirror"), auth("release"),
                                     {"Authorization": "Bearer not-a-key"},
                                     [("authorization", f"Bearer {KEYS['oncall']}")] * 2],
                         ids=["no-key", "inference", "mirror", "release", "unknown", "repeated"])
def test_readiness_details_are_for_keys_that_may_read_metrics(client, headers) -> None:
    """A probe gets the status whoever it is (never a 401: load balancers carry no key); the
    queue depths (how loaded the replica is) and the pair and policy hashes only a key that
    /metrics admits."""
    r = client.get("/readyz", headers=headers)
    assert r.status_code == 200 and r.json() == {"status": "ready"}
    assert client.get("/metrics", headers=headers).status_code in (401, 403)
    assert "queue_depth" in client.get("/readyz", headers=auth("admin")).json()


def test_readiness_fails_when_the_engine_thread_died(client) -> None:
    """A local engine whose batch thread died answers every request 503 engine_unavailable
    (engine.batching): /readyz says so, so the load balancer takes the replica out."""
    from types import SimpleNamespace

    backend = client.app.state.services.core.backend
    backend.batcher = SimpleNamespace(alive=True)
    assert client.get("/readyz").status_code == 200
    backend.batcher = SimpleNamespace(alive=False)
    r = client.get("/readyz")
    assert r.status_code == 503 and r.json()["status"] == "failed"
    assert "engine thread" in r.json()["error"]
