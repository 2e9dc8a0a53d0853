"""What an attacker found against a running sidecar, each pinned by a test:

- open mode (no keys file: every caller is admin) served a client on another machine: the
  Host check stops DNS rebinding, not a remote client that writes `Host: localhost` itself,
  and `settings.host` is not the address uvicorn bound (`uvicorn guardian.app:create_app
  --factory --host 0.0.0.0` kept the loopback default). Now open mode admits loopback
  clients only;
- an inference key stalled every caller of the replica, health probes included: a 1 MiB
  prompt (or 30,000 chat messages) was rendered and tokenized on the event loop (about a
  second each; four such callers held /healthz for 2-5 s on a 2-core machine). Request
  preparation now runs on a small executor of its own;
- the compliance audit read queried the database on the event loop (an unreachable database
  froze the replica for the connect timeout) and answered a database error with a 500;
- an on-call key could store ANSI escapes / carriage returns in a governance `reason`, which
  `guardian route status`, `guardian audit show` and the dashboard show to other operators.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.settings import Settings
from tests.support.api import auth, keystore, policy
from tests.support.fakes import FakeBackend, ListSink
from tests.support.servers import serve

COMPLETION = {"model": "fake-target", "prompt": "hi", "max_tokens": 2, "temperature": 0}
CHAT = {"model": "fake-target", "max_tokens": 2, "messages": [{"role": "user", "content": "hi"}]}


@pytest.fixture
def built(monkeypatch) -> Iterator:
    monkeypatch.delenv("GUARDIAN_TRUSTED_HOSTS", raising=False)
    made = []

    def build(backend: Any = None, *, open_mode: bool = False, **kw: Any) -> Any:
        services = build_services(backend or FakeBackend(), ListSink(), policy=policy(),
                                  keys=None if open_mode else keystore(), **kw)
        made.append(services)
        return services, create_app(Settings(host="127.0.0.1"), services=services)

    yield build
    for services in made:
        close_services(services)


# --- open mode is for loopback clients only ------------------------------------------------
@pytest.mark.parametrize("client_host", ["192.0.2.7", "10.1.2.3", "2001:db8::1", "::ffff:192.0.2.7"])
def test_open_mode_refuses_a_remote_client_that_names_localhost(built, client_host) -> None:
    _, app = built(open_mode=True)
    remote = TestClient(app, base_url="http://localhost:8000", client=(client_host, 40000),
                        raise_server_exceptions=False)
    for method, path, body in (("POST", "/admin/routes/default/rollback", {"reason": "x"}),
                               ("POST", "/v1/completions", COMPLETION),
                               ("GET", "/admin/routes", None), ("GET", "/metrics", None)):
        r = remote.request(method, path, json=body)
        assert r.status_code == 403, (method, path, r.text)
        assert r.json()["error"]["code"] == "open_mode_loopback_only"
    assert remote.get("/healthz").status_code == 200  # probes stay public


@pytest.mark.parametrize("client_host", ["127.0.0.1", "127.9.9.9", "::1", "::ffff:127.0.0.1"])
def test_open_mode_still_serves_loopback_clients(built, client_host) -> None:
    _, app = built(open_mode=True)
    local = TestClient(app, base_url="http://localhost:8000", client=(client_host, 40000),
                       raise_server_exceptions=False)
    assert local.post("/admin/routes/default/rollback", json={"reason": "x"}).status_code == 200
    assert local.post("/v1/completions", json=COMPLETION).status_code == 200


def test_keys_work_from_any_address(built) -> None:
    _, app = built()
    remote = TestClient(app, base_url="http://localhost:8000", client=("192.0.2.7", 40000),
                        raise_server_exceptions=False)
    assert remote.post("/v1/completions", json=COMPLETION, headers=auth()).status_code == 200
    assert remote.post("/v1/completions", json=COMPLETION).status_code == 401


# --- a big prompt must not stall other callers ----------------------------------------------
class SlowTokenizer(FakeBackend):
    """Tokenizing and rendering take as long as a real 1 MiB prompt does (about a second)."""

    def encode(self, text: str, *, prompt: bool = True) -> list[int]:
        if "SLOW" in text:
            time.sleep(1.0)
        return super().encode(text, prompt=prompt)

    def chat_prompt(self, messages: list[dict[str, Any]],
                    tools: list[dict[str, Any]] | None = None) -> str:
        if any("SLOW" in m["content"] for m in messages):
            time.sleep(1.0)
        return super().chat_prompt(messages, tools)


@pytest.mark.parametrize("path,body", [
    ("/v1/completions", {**COMPLETION, "prompt": "SLOW"}),
    ("/v1/chat/completions", {**CHAT, "messages": [{"role": "user", "content": "SLOW"}]}),
    ("/v1/shadow", {"request": {**COMPLETION, "prompt": "SLOW"},
                    "response": {"choices": [{"text": "ab"}]}}),
])
def test_preparing_a_big_request_does_not_stall_other_callers(built, path, body) -> None:
    _, app = built(SlowTokenizer())
    role = "mirror" if path == "/v1/shadow" else "inference"
    with serve(app) as base:
        answers: list[int] = []
        slow = threading.Thread(target=lambda: answers.append(
            httpx.post(base + path, json=body, headers=auth(role), timeout=30).status_code))
        slow.start()
        time.sleep(0.3)  # the slow request is being prepared now
        t0 = time.monotonic()
        assert httpx.get(base + "/healthz", timeout=30).status_code == 200
        waited = time.monotonic() - t0
        slow.join()
    assert answers and answers[0] < 300, answers
    assert waited < 0.4, f"/healthz waited {waited:.2f}s behind another caller's tokenization"


def test_prepared_requests_keep_their_refusals(built) -> None:
    """Off the loop, a refusal is still the same 4xx (not a 500)."""
    _, app = built()
    client = TestClient(app, base_url="http://localhost:8000", raise_server_exceptions=False)
    too_long = {**COMPLETION, "prompt": "x" * 300}  # FakeBackend: 256-token context
    r = client.post("/v1/completions", json=too_long, headers=auth())
    assert r.status_code == 400 and r.json()["error"]["code"] == "context_length_exceeded"
    r = client.post("/v1/completions", json={**COMPLETION, "prompt": [500]}, headers=auth())
    assert r.status_code == 400, r.text
    r = client.post("/v1/chat/completions", json=CHAT, headers={
        **auth(), "X-Guardian-Route": "canary"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "route_not_allowed"
    r = client.post("/v1/completions", json={**COMPLETION, "stream": True}, headers=auth())
    assert r.status_code == 200 and r.text.endswith("data: [DONE]\n\n")


# --- the compliance audit read ----------------------------------------------------------------
def test_audit_read_with_the_database_down_is_a_503_not_a_500(built) -> None:
    services, app = built()

    def down(request_id: str) -> list[dict[str, Any]]:
        raise sa.exc.OperationalError("SELECT", {}, Exception("connection refused"))

    services.audit_reader = down
    r = TestClient(app, base_url="http://localhost:8000", raise_server_exceptions=False).get(
        "/admin/audit/cmpl-1", headers=auth("compliance"))
    assert r.status_code == 503, r.text
    assert r.json()["error"]["code"] == "audit_unavailable"
    assert "connection refused" not in r.text  # the driver's detail stays in the log


def test_audit_read_does_not_stall_other_callers(built) -> None:
    services, app = built()

    def slow(request_id: str) -> list[dict[str, Any]]:
        time.sleep(1.0)  # a slow query, or a connect timeout to an unreachable database
        return []

    services.audit_reader = slow
    with serve(app) as base:
        done: list[int] = []
        reader = threading.Thread(target=lambda: done.append(httpx.get(
            base + "/admin/audit/cmpl-1", headers=auth("compliance"), timeout=30).status_code))
        reader.start()
        time.sleep(0.3)
        t0 = time.monotonic()
        assert httpx.get(base + "/healthz", timeout=30).status_code == 200
        waited = time.monotonic() - t0
        reader.join()
    assert done == [404]
    assert waited < 0.4, f"/healthz waited {waited:.2f}s behind an audit query"


# --- a governance reason is shown on operators' terminals -----------------------------------
@pytest.mark.parametrize("reason", ["\x1b[2J\x1b[31mall clear", "ok\rFAKE", "bell\x07", "c1\x9b2J",
                                    # bidi controls: displayed in another order than read
                                    "rollback by \u202eecnarusni", "a\u2066b\u2069", "x\u200fy"])
def test_a_reason_with_terminal_controls_is_a_400(built, reason) -> None:
    services, app = built()
    client = TestClient(app, base_url="http://localhost:8000", raise_server_exceptions=False)
    before = len(services.sink.events)
    for act, role in (("rollback", "oncall"), ("reenable", "oncall"), ("promote", "release")):
        r = client.post(f"/admin/routes/default/{act}", json={"reason": reason},
                        headers=auth(role))
        assert r.status_code == 400 and r.json()["error"]["param"] == "reason", (act, r.text)
    assert len(services.sink.events) == before  # nothing was recorded
    ok = client.post("/admin/routes/default/rollback", json={"reason": "line 1\n\tline 2"},
                     headers=auth("oncall"))
    assert ok.status_code == 200, ok.text


# --- text that cannot fit the context is refused before it is tokenized ---------------------
class CountingTokenizer(FakeBackend):
    """A backend that says how much text its context can hold (`max_prompt_chars`, as the
    local engine backend does) and counts what it is asked to tokenize."""

    max_prompt_chars = 1000

    def __init__(self) -> None:
        super().__init__()
        self.encoded: list[int] = []

    def encode(self, text: str, *, prompt: bool = True) -> list[int]:
        self.encoded.append(len(text))
        return super().encode(text, prompt=prompt)


@pytest.mark.parametrize("path,body,role,param", [
    ("/v1/completions", {**COMPLETION, "prompt": "x" * 5000}, "inference", "prompt"),
    ("/v1/chat/completions", {**CHAT, "messages": [{"role": "user", "content": "x" * 5000}]},
     "inference", "prompt"),
    ("/v1/shadow", {"request": {**COMPLETION, "prompt": "x" * 5000},
                    "response": {"choices": [{"text": "ab"}]}}, "mirror", "prompt"),
    ("/v1/shadow", {"request": COMPLETION, "response": {"choices": [{"text": "y" * 5000}]}},
     "mirror", "response.choices"),
])
def test_text_longer_than_the_context_can_hold_is_refused_untokenized(built, path, body, role,
                                                                      param) -> None:
    backend = CountingTokenizer()
    _, app = built(backend)
    client = TestClient(app, base_url="http://localhost:8000", raise_server_exceptions=False)
    r = client.post(path, json=body, headers=auth(role))
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["code"] == "context_length_exceeded" and err["param"] == param
    assert all(n <= backend.max_prompt_chars for n in backend.encoded), backend.encoded


def test_access_log_lines_hide_query_string_values(built) -> None:
    """A key wrongly sent as `?api_key=` (the API reads headers only) is not written to the
    access log: uvicorn's line keeps the parameter names, every value becomes ***."""
    import logging

    built()  # create_app installs the filter on uvicorn's access logger
    access = logging.getLogger("uvicorn.access")
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 0,
                               '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5000", "GET", "/v1/models?api_key=sg-SECRET&debug",
                                "1.1", 401), None)
    assert all(f.filter(record) for f in access.filters)
    line = record.getMessage()
    assert "SECRET" not in line and "/v1/models?api_key=***&***" in line, line


@pytest.mark.parametrize("override", ["yes", 1, "on", "true"])
def test_an_override_must_be_json_true(built, override) -> None:
    """An admin's gate override is a deliberate act: "yes", 1 or "on" were taken for true."""
    services, app = built()
    client = TestClient(app, base_url="http://localhost:8000", raise_server_exceptions=False)
    before = len(services.sink.events)
    r = client.post("/admin/routes/default/reenable",
                    json={"reason": "override test", "override": override}, headers=auth("admin"))
    assert r.status_code == 400 and r.json()["error"]["param"] == "override", r.text
    assert len(services.sink.events) == before


# --- a body with a key twice: a gateway in front may read the other copy ---------------------
@pytest.mark.parametrize("path,raw,role,key", [
    ("/v1/completions", b'{"model": "secret-model", "model": "fake-target", "prompt": "hi"}',
     "inference", "model"),
    ("/v1/chat/completions", b'{"model": "fake-target", "max_tokens": 2, "messages": '
     b'[{"role": "user", "content": "a", "content": "b"}]}', "inference", "content"),
    ("/admin/routes/default/rollback", b'{"reason": "a", "reason": "b"}', "oncall", "reason"),
])
def test_a_json_body_with_a_key_twice_is_a_400_naming_it(built, path, raw, role, key) -> None:
    services, app = built()
    client = TestClient(app, base_url="http://localhost:8000", raise_server_exceptions=False)
    before = len(services.sink.events)
    r = client.post(path, content=raw,
                    headers={**auth(role), "content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert f"duplicate key '{key}'" in r.json()["error"]["message"]
    assert len(services.sink.events) == before  # nothing served or recorded
    ok = client.post(path, content=raw.replace(b'"model": "secret-model", ', b"").replace(
        b'"content": "a", ', b"").replace(b'"reason": "a", ', b""),
        headers={**auth(role), "content-type": "application/json"})
    assert ok.status_code == 200, ok.text


def test_a_chat_message_name_is_refused_not_dropped(built) -> None:
    """`name` reached neither the chat template nor the upstream nor the audit record: a
    template that uses it answers differently, so it is a 400 like every such field."""
    _, app = built()
    client = TestClient(app, base_url="http://localhost:8000", raise_server_exceptions=False)
    body = {**CHAT, "messages": [{"role": "user", "content": "hi", "name": "alice"}]}
    r = client.post("/v1/chat/completions", json=body, headers=auth())
    assert r.status_code == 400 and "'name' is not supported" in r.json()["error"]["message"]
    assert r.json()["error"]["param"] == "messages.0.name", r.text
    body["messages"][0]["name"] = None
    assert client.post("/v1/chat/completions", json=body, headers=auth()).status_code == 200
