"""Hostile input through the real app: refused cleanly or served and audited, never a 500 that
drops the connection, never a record that poisons someone else's audit trail."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from guardian.app import build_services, close_services, create_app
from guardian.audit import upgrade
from guardian.audit.chain import decode_text
from guardian.audit.config import AuditSettings
from guardian.audit.verify import verify_db
from guardian.audit.writer import AuditWriter
from guardian.core.db import make_engine
from tests.support.api import auth, keystore, policy
from tests.support.fakes import FakeBackend, ListSink
from tests.support.servers import serve

OK = {"model": "fake-target", "prompt": "hello", "max_tokens": 4}
CHAT = {"model": "fake-target", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 4}


@pytest.mark.parametrize("extra", [
    {"tools": []}, {"tool_choice": "none"}, {"response_format": {"type": "text"}},
    {"best_of": 1}, {"top_logprobs": 0}, {"parallel_tool_calls": False}, {"tools": None},
    {"metadata": {"k": "v"}, "store": False},  # unknown but harmless: ignored
])
def test_unsupported_parameters_switched_off_are_accepted(client, extra) -> None:
    r = client.post("/v1/chat/completions", json={**CHAT, **extra}, headers=auth())
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("sampling", [
    {"temperature": 5e-324}, {"temperature": 1e-300, "top_p": 1e-300},
    {"temperature": 1.0, "top_p": 1e-300}, {"temperature": 2.0, "top_p": 5e-324},
])
def test_underflowing_sampling_values_are_served(client, sampling) -> None:
    r = client.post("/v1/completions", json={**OK, **sampling}, headers=auth())
    assert r.status_code == 200, r.text


def test_valid_but_awkward_text_is_served(client, sink) -> None:
    # NUL, the escape mark, controls and astral characters are valid Unicode: served, and the
    # audit store seals them (tests/guardian/audit/test_any_value_seals_without_poisoning_the_trail.py).
    text = "a\x00b\ufdd0\x1b\U0001F600\\"
    r = client.post("/v1/completions", json={**OK, "prompt": text, "stop": ["\x00", "\ufdd0"]},
                    headers=auth())
    assert r.status_code == 200, r.text
    (event,) = sink.requests
    assert event.prompt_text == text


# -- keep-alive ------------------------------------------------------------------------------
def test_errors_never_close_a_keep_alive_connection(backend: FakeBackend) -> None:
    real_generate = backend.generate

    def generate(request, on_text=None):  # type: ignore[no-untyped-def]
        if backend.decode(request.prompt_ids).startswith("boom"):
            raise RuntimeError("engine bug")  # both paths fail: a 500
        return real_generate(request, on_text)

    backend.generate = generate  # type: ignore[method-assign]
    services = build_services(backend, ListSink(), policy=policy(), keys=keystore())
    try:
        with serve(create_app(services=services)) as base, httpx.Client(
                base_url=base, headers=auth(), limits=httpx.Limits(max_connections=1)) as http:
            peers, statuses = [], []
            for body in [b"", b"{", b'{"model": "fake-target", "prompt": "a\\ud800"}',
                         json.dumps({**OK, "max_tokens": "4"}).encode(),
                         json.dumps({**OK, "tools": [{"type": "function"}]}).encode(),
                         json.dumps({**OK, "prompt": "boom"}).encode(),
                         json.dumps(OK).encode()]:
                r = http.post("/v1/completions", content=body,
                              headers={"content-type": "application/json"})
                assert r.status_code in (200, 400, 500), r.text
                assert r.headers.get("connection", "").lower() != "close", (body, r.headers)
                stream = r.extensions["network_stream"]
                peers.append(stream.get_extra_info("socket").getsockname())
                statuses.append(r.status_code)
            assert statuses == [400, 400, 400, 400, 400, 500, 200]
            assert len(set(peers)) == 1, peers  # one TCP connection served every request
    finally:
        close_services(services)


# -- /readyz while the audit database is unreachable -----------------------------------------
def _writer(url: str, spool: Path) -> AuditWriter:
    cfg = AuditSettings(flush_interval_s=0.05, retry_interval_s=0.2, connect_timeout_s=1)
    return AuditWriter(url, spool_dir=spool, replica_id="readyz", config=cfg)


def test_readyz_is_degraded_not_ready_while_the_audit_db_is_unreachable(
        backend: FakeBackend, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    writer = _writer("postgresql+psycopg://postgres@127.0.0.1:1/unreachable", tmp_path / "s")
    services = build_services(backend, writer, policy=policy(), keys=keystore())
    try:
        client = TestClient(create_app(services=services))
        r = client.get("/readyz")
        assert r.status_code == 200  # keep routing traffic: serving continues, spooling
        assert r.json()["status"] == "degraded" and "audit" not in r.json()  # status only
        r = client.get("/readyz", headers=auth("oncall"))
        body = r.json()
        assert body["status"] == "degraded" and body["audit"]["db_up"] is False
        assert "127.0.0.1:1" not in r.text  # no connection details, even for on-call
        assert client.post("/v1/completions", json=OK, headers=auth()).status_code == 200
        writer.flush(timeout_s=10)
        assert writer.stats()["spooled_batches"] >= 1  # the answered request is on disk
    finally:
        close_services(services)


def test_readyz_is_ready_with_a_reachable_audit_db(backend: FakeBackend, sqlite_url: str,
                                                   tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    upgrade(sqlite_url)
    services = build_services(backend, _writer(sqlite_url, tmp_path / "s"), policy=policy(),
                              keys=keystore())
    try:
        body = TestClient(create_app(services=services)).get("/readyz",
                                                              headers=auth("oncall")).json()
        assert body["status"] == "ready" and body["audit"]["db_up"] is True
    finally:
        close_services(services)


# -- the incident, end to end: API -> writer -> SQLite / Postgres -----------------------------
@pytest.fixture
def audited(backend: FakeBackend, fresh_db_url: str, tmp_path: Path) -> Iterator[tuple]:
    from fastapi.testclient import TestClient

    upgrade(fresh_db_url)
    writer = _writer(fresh_db_url, tmp_path / "spool")
    services = build_services(backend, writer, policy=policy(sample_rate=1.0, redaction="full"),
                              keys=keystore())
    try:
        yield TestClient(create_app(services=services)), writer, fresh_db_url
    finally:
        close_services(services)


def test_hostile_requests_among_forty_callers_leave_the_trail_whole(audited) -> None:
    client, writer, url = audited
    ids = []
    for i in range(40):
        if i % 10 == 3:  # refused: nothing to audit, and nobody else is affected
            r = client.post("/v1/completions", headers={**auth(), "content-type":
                            "application/json"},
                            content=b'{"model": "fake-target", "prompt": "x", "stop": "\\ud800"}')
            assert r.status_code == 400
            continue
        if i % 10 == 7:  # valid but awkward text, served and mirrored
            r = client.post("/v1/completions", headers=auth(),
                            json={**OK, "prompt": f"p{i}\x00\ufdd0", "stop": ["\x00"]})
            assert r.status_code == 200, r.text
            ids.append(r.headers["x-request-id"])
            r = client.post("/v1/shadow", headers=auth("mirror"), json={
                "request": {**OK, "prompt": f"m{i}"},
                "response": {"choices": [{"text": "z\x00\ufdd0", "finish_reason": "length"}]}})
            assert r.status_code == 202, r.text
            ids.append(r.headers["x-request-id"])
            continue
        r = client.post("/v1/completions", headers=auth(), json={**OK, "prompt": f"q{i}"})
        assert r.status_code == 200
        ids.append(r.headers["x-request-id"])
    time.sleep(0.5)  # let the sampled shadow evaluations submit their events
    writer.flush(timeout_s=30)
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            stored = {decode_text(x) for x in conn.execute(sa.text(
                "SELECT request_id FROM audit_requests")).scalars()}
            gaps = conn.execute(sa.text("SELECT count(*) FROM audit_governance "
                                        "WHERE kind = 'audit_gap'")).scalar()
        assert set(ids) <= stored and gaps == 0
        rep = verify_db(engine)
        assert rep.ok, rep.errors
    finally:
        engine.dispose()


def test_a_chat_template_that_rejects_the_messages_is_a_400(make_client, backend) -> None:
    from jinja2 import TemplateError

    def strict_template(_messages):  # type: ignore[no-untyped-def]
        raise TemplateError("Conversation roles must alternate user/assistant/user/assistant")

    backend.chat_prompt = strict_template  # what HF templates do via raise_exception()
    r = make_client().post("/v1/chat/completions", json=CHAT, headers=auth())
    assert r.status_code == 400, r.text
    assert r.json()["error"]["param"] == "messages"


def test_a_failing_shadow_evaluation_is_reported_not_a_500(backend) -> None:
    from fastapi.testclient import TestClient

    services = build_services(backend, ListSink(), policy=policy(), keys=keystore(),
                              start_shadow=False)

    def offer(job):  # type: ignore[no-untyped-def]
        # What the evaluator delivers for a job that raised (seen live: an empty mirrored
        # completion on the real engine -> AttributeError in the old PairBackend.score_target).
        job.done.set_exception(AttributeError("'TargetScore' object has no attribute 'argmax'"))
        return True

    services.shadow.offer = offer  # type: ignore[method-assign]
    try:
        r = TestClient(create_app(services=services)).post("/v1/shadow", headers=auth("mirror"), json={
            "request": OK, "response": {"choices": [{"text": ""}]}, "wait": True})
        assert r.status_code == 202, r.text
        assert r.json()["status"] == "failed" and r.headers["x-request-id"] == r.json()["id"]
    finally:
        close_services(services)


def test_a_failed_start_does_not_show_its_paths_to_callers(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import time

    from fastapi.testclient import TestClient

    from guardian.app import create_app
    from guardian.settings import Settings

    secret = tmp_path / "srv-secret-models"
    settings = Settings(home=tmp_path / "home", draft_dir=secret / "draft",
                        target_dir=secret / "target", dev_mode=True)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        deadline = time.monotonic() + 30
        while (r := client.get("/readyz")).json().get("status") == "loading":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert r.status_code == 503 and r.json()["status"] == "failed"
        for answer in (r, client.get("/v1/models")):
            assert "srv-secret-models" not in answer.text and "log" in answer.text


def test_mirror_finish_reason_and_stop_length_are_checked(client) -> None:  # type: ignore[no-untyped-def]
    from tests.support.api import auth as _auth

    req = {"model": "fake-target", "prompt": "hi", "max_tokens": 2}
    for reason in ("STOP", {"x": 1}, "nan"):
        r = client.post("/v1/shadow", headers=_auth("mirror"), json={
            "request": req, "response": {"choices": [{"text": "ab", "finish_reason": reason}]}})
        assert r.status_code == 400 and "finish_reason" in r.text, r.text
    r = client.post("/v1/completions", headers=_auth(), json={**req, "stop": ["x" * 2000]})
    assert r.status_code == 400 and "stop" in r.text
