"""API keys: hashing, the keys file, open mode, and the full role × endpoint matrix."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from guardian.auth import (
    ROLES,
    AuthConfigError,
    KeyStore,
    add_key_to_file,
    hash_key,
)
from tests.guardian.api.conftest import KEYS, auth, backend, make_client, sink  # noqa: F401

# Who may call what (admin may call everything). Public endpoints are listed apart.
MATRIX: dict[tuple[str, str], set[str]] = {
    ("POST", "/v1/completions"): {"inference"},
    ("POST", "/v1/chat/completions"): {"inference"},
    ("GET", "/v1/models"): {"inference"},
    ("POST", "/v1/shadow"): {"inference"},
    ("GET", "/metrics"): {"oncall"},
    ("GET", "/admin/routes"): {"oncall", "release"},
    ("POST", "/admin/routes/{route}/rollback"): {"oncall"},
    ("POST", "/admin/routes/{route}/reenable"): {"oncall"},
    ("POST", "/admin/routes/{route}/promote"): {"release"},
    ("POST", "/admin/policy/reload"): {"oncall"},
    ("GET", "/admin/audit/{request_id}"): {"compliance"},
}
PUBLIC = {("GET", "/healthz"), ("GET", "/readyz"), ("GET", "/openapi.json"), ("GET", "/docs"),
          ("GET", "/docs/oauth2-redirect"), ("GET", "/redoc")}

COMPLETION = {"model": "fake-target", "prompt": "hi", "max_tokens": 2, "temperature": 0}
BODIES = {
    "/v1/completions": COMPLETION,
    "/v1/chat/completions": {"model": "fake-target", "max_tokens": 2,
                             "messages": [{"role": "user", "content": "hi"}]},
    "/v1/shadow": {"request": COMPLETION, "response": {"choices": [{"text": "ab"}]}},
}


def _url(path: str, request_id: str) -> str:
    return path.replace("{route}", "default").replace("{request_id}", request_id)


def test_every_endpoint_is_in_the_matrix(make_client) -> None:  # noqa: F811
    schema = make_client().app.openapi()
    served = {(m.upper(), path) for path, ops in schema["paths"].items() for m in ops}
    assert served - PUBLIC == set(MATRIX), "a new endpoint needs an entry in the role matrix"


def test_role_endpoint_matrix(make_client) -> None:  # noqa: F811
    client = make_client()
    rid = client.post("/v1/completions", json=COMPLETION, headers=auth()).json()["id"]
    for (method, path), roles in MATRIX.items():
        url, body = _url(path, rid), BODIES.get(path, {"reason": "test"})
        for headers, expected in (({}, 401), ({"Authorization": "Bearer sg-nope"}, 401),
                                  ({"X-API-Key": "sg-nope"}, 401)):
            r = client.request(method, url, json=body, headers=headers)
            assert r.status_code == expected, (method, path, headers, r.text)
            assert r.json()["error"]["code"] == "invalid_api_key"
        for role in ROLES:
            r = client.request(method, url, json=body, headers=auth(role))
            if role in roles or role == "admin":
                assert r.status_code < 400, (method, path, role, r.text)
            else:
                assert r.status_code == 403, (method, path, role, r.text)
                assert r.json()["error"]["type"] == "permission_error"
    for method, path in PUBLIC - {("GET", "/docs/oauth2-redirect")}:
        assert client.request(method, path).status_code == 200, path


def test_keys_are_stored_only_as_digests(tmp_path: Path) -> None:
    path = tmp_path / "keys.yaml"
    key = add_key_to_file(path, "proxy-1", "inference")
    assert key not in path.read_text()
    assert hash_key(key) in path.read_text()
    store = KeyStore.from_file(path)
    principal = store.authenticate(key)
    assert principal is not None and principal.role == "inference"
    assert store.authenticate(key + "x") is None
    assert store.authenticate(None) is None


def test_bad_keys_file_says_what_is_wrong(tmp_path: Path) -> None:
    path = tmp_path / "keys.yaml"
    path.write_text("keys:\n  - {name: a, role: superuser, sha256: " + "0" * 64 + "}\n")
    with pytest.raises(AuthConfigError, match="role 'superuser'"):
        KeyStore.from_file(path)
    with pytest.raises(AuthConfigError, match="cannot read"):
        KeyStore.from_file(tmp_path / "missing.yaml")


def test_open_mode_only_on_loopback_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="guardian.auth"):
        store = KeyStore.for_server(None, "127.0.0.1")
    assert store.open_mode and store.authenticate(None) is not None
    assert "AUTH IS OFF" in caplog.text
    with pytest.raises(AuthConfigError, match="not loopback"):
        KeyStore.for_server(None, "0.0.0.0")
