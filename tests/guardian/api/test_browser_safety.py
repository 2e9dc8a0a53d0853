"""Browser safety: a DNS-rebinding page (foreign Host) gets 400 everywhere; cross-site
state-changing requests get 403 and form posts to /admin get 415 — in open mode too; clients
without Origin (curl, SDKs, proxies) are unaffected."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.settings import Settings
from tests.support.api import KEYS, keystore, policy
from tests.support.fakes import FakeBackend, ListSink
from tests.support.servers import serve

BASE = "http://127.0.0.1:8000"
RELOAD = "/admin/policy/reload"
EVIL = "https://evil.example"


@pytest.fixture
def make(monkeypatch) -> Iterator:
    # The production defaults, not the suite's (tests/conftest.py trusts "testserver").
    monkeypatch.delenv("GUARDIAN_TRUSTED_HOSTS", raising=False)
    monkeypatch.delenv("GUARDIAN_ALLOWED_ORIGINS", raising=False)
    made = []

    def build(*, open_mode: bool = True, **settings: object) -> TestClient:
        services = build_services(FakeBackend(), ListSink(), policy=policy(),
                                  keys=None if open_mode else keystore())
        made.append(services)
        app = create_app(Settings(**{"host": "127.0.0.1", **settings}), services=services)
        return TestClient(app, base_url=BASE, raise_server_exceptions=False)

    yield build
    for services in made:
        close_services(services)


def endpoints(client: TestClient) -> list[tuple[str, str]]:
    """Every (method, path) the app serves, from its OpenAPI schema."""
    paths = client.app.openapi()["paths"]  # type: ignore[attr-defined]
    return [(method.upper(), re.sub(r"\{[^}]+\}", "x", path))
            for path, ops in paths.items() for method in ops]


def test_a_foreign_host_gets_400_on_every_endpoint(make) -> None:
    client = make()
    seen = endpoints(client)
    assert ("POST", RELOAD) in seen and ("POST", "/v1/completions") in seen
    for method, path in seen:
        r = client.request(method, path, headers={"Host": "evil.example"}, json={})
        assert r.status_code == 400, (method, path, r.status_code)
        # Answered like every other refusal: an OpenAI-style error with a request id.
        assert r.json()["error"]["code"] == "invalid_host", (method, path, r.text)
        assert r.headers["x-request-id"]


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000", "127.0.0.1"])
def test_loopback_names_are_trusted_by_default(make, host) -> None:
    assert make().get("/healthz", headers={"Host": host}).status_code == 200


def test_the_bound_host_is_trusted_and_the_setting_replaces_the_defaults(make) -> None:
    bound = make(host="10.1.2.3")
    assert bound.get("/healthz", headers={"Host": "10.1.2.3:8000"}).status_code == 200
    assert bound.get("/healthz", headers={"Host": "10.9.9.9"}).status_code == 400
    named = make(trusted_hosts="guardian.internal")  # as GUARDIAN_TRUSTED_HOSTS
    assert named.get("/healthz", headers={"Host": "guardian.internal"}).status_code == 200
    assert named.get("/healthz", headers={"Host": "localhost"}).status_code == 400


@pytest.mark.parametrize("open_mode", [True, False], ids=["open-mode", "with-keys"])
@pytest.mark.parametrize("path", [RELOAD, "/v1/completions", "/admin/routes/default/rollback"])
def test_a_foreign_origin_cannot_change_state(make, open_mode, path) -> None:
    client = make(open_mode=open_mode)
    auth = {} if open_mode else {"Authorization": f"Bearer {KEYS['admin']}"}
    for origin in (EVIL, "null", "http://localhost:3000"):  # another local web app too
        r = client.post(path, headers={**auth, "Origin": origin}, json={})
        assert r.status_code == 403, (origin, r.status_code)
        assert r.json()["error"]["code"] == "origin_not_allowed"
    r = client.post(path, headers={**auth, "Sec-Fetch-Site": "cross-site"}, json={})
    assert r.status_code == 403


def test_requests_without_origin_and_same_origin_pages_are_unaffected(make) -> None:
    client = make()
    body = {"model": "fake-target", "prompt": "hi", "max_tokens": 2}
    assert client.post("/v1/completions", json=body).status_code == 200  # curl, SDKs
    r = client.post("/v1/completions", json=body, headers={"Origin": BASE,
                                                          "Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 200  # a page served from the sidecar's own origin
    assert client.get("/healthz", headers={"Origin": EVIL}).status_code == 200  # reads: CORS


def test_allowed_origins_may_change_state(make) -> None:
    client = make(allowed_origins="https://ops.example.com, https://other.example.com")
    body = {"model": "fake-target", "prompt": "hi", "max_tokens": 2}
    ok = client.post("/v1/completions", json=body, headers={"Origin": "https://ops.example.com"})
    assert ok.status_code == 200
    r = client.post("/v1/completions", json=body, headers={"Origin": EVIL})
    assert r.status_code == 403


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x",
                                          "text/plain;charset=UTF-8"])
def test_form_posts_to_admin_are_refused(make, content_type) -> None:
    client = make()
    r = client.post(RELOAD, content=b"a=b", headers={"Content-Type": content_type})
    assert r.status_code == 415
    assert "application/json" in r.json()["error"]["message"]
    assert make().post(RELOAD).status_code not in (403, 415)  # no body: a plain admin call


def test_a_real_server_refuses_rebinding_and_cross_site_posts(monkeypatch) -> None:
    monkeypatch.delenv("GUARDIAN_TRUSTED_HOSTS", raising=False)
    services = build_services(FakeBackend(), ListSink(), policy=policy())  # open mode
    try:
        with serve(create_app(Settings(host="127.0.0.1"), services=services)) as url, \
                httpx.Client(base_url=url, timeout=10) as client:
            port = url.rsplit(":", 1)[1]
            rebinding = client.post(RELOAD, headers={"Host": f"evil.example:{port}",
                                                     "Origin": f"http://evil.example:{port}"})
            assert rebinding.status_code == 400
            form = client.post(RELOAD, content=b"x=1", headers={
                "Origin": EVIL, "Content-Type": "application/x-www-form-urlencoded"})
            assert form.status_code == 403
            assert client.get("/healthz").status_code == 200
    finally:
        close_services(services)
