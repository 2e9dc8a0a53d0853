"""Least privilege and API keys, attacked from outside (tests/guardian/security/test_auth.py holds the
role × endpoint and route matrices; this file looks for the ways around them).

Attackers: a caller holding only an inference key; a caller with a revoked or rotated key; a
caller sending malformed or ambiguous credentials; someone who reads logs, metrics, error
bodies or the audit trail. Routes are enumerated from the app itself (not from the OpenAPI
schema, which a route with `include_in_schema=False` would leave out).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import socket
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.audit.events import GovernanceEvent
from guardian.security.auth import (
    ROLES,
    AuthConfigError,
    AuthenticationError,
    KeyStore,
    add_key_to_file,
    authenticate_cli,
    hash_key,
    read_keys_file,
    revoke_key_in_file,
    rotate_key_in_file,
)
from tests.support.api import KEYS, auth, keystore, policy
from tests.support.fakes import FakeBackend, ListSink
from tests.support.servers import serve

# Served without a key, on purpose: probes and the API's own description.
PUBLIC = {("GET", "/healthz"), ("GET", "/readyz"), ("GET", "/openapi.json"),
          ("HEAD", "/openapi.json")}
COMPLETION = {"model": "fake-target", "prompt": "hi", "max_tokens": 2, "temperature": 0}
BODIES: dict[str, Any] = {
    "/v1/completions": COMPLETION,
    "/v1/chat/completions": {"model": "fake-target", "max_tokens": 2,
                             "messages": [{"role": "user", "content": "hi"}]},
    "/v1/shadow": {"request": COMPLETION, "response": {"choices": [{"text": "ab"}]}},
}


# --- the app's routes, read off the app ----------------------------------------------------------
def _contexts(app: FastAPI) -> list[Any]:
    try:  # FastAPI with lazily included routers: the effective route of each inclusion
        from fastapi.routing import iter_route_contexts
    except ImportError:  # pragma: no cover - older FastAPI: included routes are copied in
        return list(app.routes)
    return list(iter_route_contexts(app.routes))


def _role_checks(dependant: Any) -> list[tuple[str, ...]]:
    """Every `require(...)` in a route's dependency tree (router- and parameter-level)."""
    found = []
    if getattr(dependant.call, "roles", None) is not None:
        found.append(tuple(dependant.call.roles))
    for sub in dependant.dependencies:
        found.extend(_role_checks(sub))
    return found


def guarded_routes(app: FastAPI) -> dict[tuple[str, str], tuple[str, ...]]:
    """(method, path) -> the roles its single role check admits. Fails on a route that is
    neither public nor guarded by exactly one `require`, or that is not an HTTP route we
    know how to check (a mount, a websocket)."""
    table: dict[tuple[str, str], tuple[str, ...]] = {}
    problems = []
    for route in _contexts(app):
        methods, path = route.methods, route.path
        if not methods:
            problems.append(f"{path}: not a plain HTTP route ({type(route).__name__})")
            continue
        dependant = getattr(route, "dependant", None)
        checks = _role_checks(dependant) if dependant is not None else []
        for method in methods:
            if (method, path) in PUBLIC:
                if checks:
                    problems.append(f"{method} {path}: public, yet has a role check")
                continue
            if len(checks) != 1 or not checks[0]:
                problems.append(f"{method} {path}: role checks {checks} (need exactly one)")
                continue
            table[(method, path)] = checks[0]
    assert not problems, problems
    return table


def _url(path: str, request_id: str) -> str:
    return path.replace("{route}", "default").replace("{request_id}", request_id)


@pytest.fixture
def built() -> Iterator[tuple[TestClient, ListSink]]:
    sink = ListSink()
    services = build_services(FakeBackend(), sink, policy=policy(), keys=keystore())
    try:
        yield TestClient(create_app(services=services), raise_server_exceptions=False), sink
    finally:
        close_services(services)


def test_the_route_enumeration_sees_an_unguarded_route(built) -> None:
    """The checker itself: an admin route added without `require` is reported."""
    client, _ = built
    assert guarded_routes(client.app)  # today's app passes

    @client.app.post("/admin/leak", include_in_schema=False)
    async def leak() -> dict[str, str]:
        return {}

    with pytest.raises(AssertionError, match="/admin/leak"):
        guarded_routes(client.app)


def test_every_route_admits_exactly_its_roles_and_nothing_else(built) -> None:
    client, sink = built
    table = guarded_routes(client.app)
    assert ("POST", "/admin/routes/{route}/rollback") in table  # the enumeration reached admin
    rid = client.post("/v1/completions", json=COMPLETION, headers=auth()).json()["id"]
    modes = {name: r.mode for name, r in client.app.state.services.policy.routes.items()}
    for (method, path), roles in table.items():
        url, body = _url(path, rid), BODIES.get(path, {"reason": "sweep"})
        for role in ROLES:
            if role == "admin" or role in roles:
                continue
            r = client.request(method, url, json=body, headers=auth(role))
            assert r.status_code == 403, (method, path, role, r.status_code, r.text)
            assert r.json()["error"]["code"] == "insufficient_role"
    # Nothing the refused callers sent changed state or reached the governance log.
    assert not [e for e in sink.events if isinstance(e, GovernanceEvent)]
    assert {name: r.mode for name, r in client.app.state.services.policy.routes.items()} == modes


def test_an_inference_key_can_act_on_nothing_but_inference(built) -> None:
    """Every guarded route outside completions/chat/models refuses an inference key, on any
    method, with or without a trailing slash or an override flag in the body."""
    client, sink = built
    table = guarded_routes(client.app)
    inference = {path for (_, path), roles in table.items() if "inference" in roles}
    assert inference == {"/v1/completions", "/v1/chat/completions", "/v1/models"}
    rid = client.post("/v1/completions", json=COMPLETION, headers=auth()).json()["id"]
    for path in {p for _, p in table} - inference:
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"):
            for url in (_url(path, rid), _url(path, rid) + "/"):
                r = client.request(method, url, json={"reason": "x", "override": True},
                                   headers={**auth(), "X-Guardian-Route": "canary"},
                                   follow_redirects=True)
                assert r.status_code in (403, 404, 405), (method, url, r.status_code, r.text)
    assert not [e for e in sink.events if isinstance(e, GovernanceEvent)]


@pytest.mark.parametrize(("role", "path"), [("oncall", "/admin/routes/default/reenable"),
                                            ("release", "/admin/routes/default/promote")])
def test_only_admin_may_override_the_gate(built, role: str, path: str) -> None:
    client, sink = built
    r = client.post(path, json={"override": True, "reason": "skip it"}, headers=auth(role))
    assert r.status_code == 403 and r.json()["error"]["param"] == "override", r.text
    assert not [e for e in sink.events if isinstance(e, GovernanceEvent)]


# --- malformed and ambiguous credentials -------------------------------------------------------
async def _asgi(app: FastAPI, method: str, path: str, headers: list[tuple[bytes, bytes]],
                body: bytes = b"") -> tuple[int, bytes]:
    """One request straight into the ASGI app: header bytes no HTTP client library would send."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [(b"host", b"localhost"), (b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode()), *headers],
             "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000), "scheme": "http",
             "root_path": "", "state": {}}
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    status, chunks = 0, []

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, b"".join(chunks)


def _k(role: str) -> bytes:
    return KEYS[role].encode()


MALFORMED: dict[str, list[tuple[bytes, bytes]]] = {
    "bearer, no token": [(b"authorization", b"Bearer")],
    "bearer, blank token": [(b"authorization", b"Bearer    ")],
    "utf-8 token": [(b"authorization", "Bearer sg-\u00fc\u20ac\U0001f600".encode())],
    "latin-1 bytes": [(b"authorization", b"Bearer \xff\xfe\x80")],
    "control bytes": [(b"authorization", b"Bearer sg-\x01\x7f\x1b[31m")],
    "64 KiB token": [(b"authorization", b"Bearer " + b"A" * 65536)],
    "basic scheme": [(b"authorization", b"Basic dXNlcjpwYXNz")],
    "tab separator": [(b"authorization", b"Bearer\t" + _k("admin"))],
    "empty x-api-key": [(b"x-api-key", b"")],
    "x-api-key with padding": [(b"x-api-key", b" " + _k("admin") + b" ")],
    "a key's prefix": [(b"authorization", b"Bearer " + _k("admin")[:-1])],
    "the key's digest": [(b"authorization", b"Bearer " + hash_key(KEYS["admin"]).encode())],
    "200 unknown keys": [(b"authorization", b"Bearer sg-nope")] * 200,
    # ambiguous: which of two keys acts must not depend on which component one asks
    "admin then inference": [(b"authorization", b"Bearer " + _k("admin")),
                             (b"authorization", b"Bearer " + _k("inference"))],
    "inference then admin": [(b"authorization", b"Bearer " + _k("inference")),
                             (b"authorization", b"Bearer " + _k("admin"))],
    "two x-api-keys": [(b"x-api-key", _k("admin")), (b"x-api-key", _k("inference"))],
    "unknown then admin": [(b"authorization", b"Bearer sg-nope"),
                           (b"authorization", b"Bearer " + _k("admin"))],
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_or_ambiguous_credentials_are_a_clean_401(built, case: str) -> None:
    client, sink = built
    headers = MALFORMED[case]

    async def both() -> list[tuple[int, bytes]]:
        return [await _asgi(client.app, "GET", "/admin/routes", headers),
                await _asgi(client.app, "POST", "/admin/routes/default/rollback", headers,
                            b'{"reason": "x"}')]

    for status, body in asyncio.run(both()):
        assert status == 401, (case, status, body[:300])
        error = json.loads(body)["error"]
        assert error["code"] == "invalid_api_key"
        for _, value in headers:  # the presented value is never echoed
            token = value.removeprefix(b"Bearer").strip()
            assert len(token) < 6 or token not in body, case
    assert not [e for e in sink.events if isinstance(e, GovernanceEvent)]


def test_an_unrelated_second_header_does_not_block_a_good_key(built) -> None:
    """Bearer wins over X-API-Key (documented), and a single key in either is served."""
    client, _ = built
    r = client.get("/admin/routes", headers={"Authorization": f"Bearer {KEYS['oncall']}",
                                              "X-API-Key": KEYS["inference"]})
    assert r.status_code == 200, r.text
    assert client.get("/admin/routes", headers={"X-API-Key": KEYS["oncall"]}).status_code == 200
    assert client.get("/admin/routes", headers={
        "Authorization": f"bearer   {KEYS['oncall']}  "}).status_code == 200


def test_open_mode_ignores_credential_headers() -> None:
    """No keys file (loopback only): a proxy's duplicated header must not lock callers out."""
    services = build_services(FakeBackend(), ListSink(), policy=policy())
    try:
        status, body = asyncio.run(_asgi(create_app(services=services), "GET", "/admin/routes",
                                         [(b"authorization", b"Bearer a"),
                                          (b"authorization", b"Bearer b")]))
        assert status == 200, body
    finally:
        close_services(services)


def _raw(port: int, path: str, lines: list[bytes], body: bytes = b"") -> bytes:
    request = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
               f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n").encode()
    request += b"".join(line + b"\r\n" for line in lines) + b"\r\n" + body
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    return data


def test_a_real_server_answers_hostile_authorization_headers_without_a_500(
        caplog: pytest.LogCaptureFixture) -> None:
    services = build_services(FakeBackend(), ListSink(), policy=policy(), keys=keystore())
    lines = {
        "utf-8": ["Authorization: Bearer sg-\u00fc\u20ac".encode()],
        "latin-1": [b"Authorization: Bearer \xff\xfe"],
        "bearer only": [b"Authorization: Bearer"],
        "big": [b"Authorization: Bearer " + b"A" * 8000],
        "many": [b"Authorization: Bearer sg-nope"] * 100,
        "inference": [b"Authorization: Bearer " + _k("inference")],
        "two keys": [b"Authorization: Bearer " + _k("admin"),
                     b"Authorization: Bearer " + _k("inference")],
    }
    try:
        with caplog.at_level(logging.DEBUG), serve(create_app(services=services)) as url:
            port = int(url.rsplit(":", 1)[1])
            for case, header in lines.items():
                answer = _raw(port, "/admin/routes/default/rollback", header, b'{"reason":"x"}')
                status = int(answer.split(b" ", 2)[1])
                assert status in ((403,) if case == "inference" else (401,)), (case, answer)
        assert "Traceback" not in caplog.text
        assert not [k for k in KEYS.values() if k in caplog.text]
    finally:
        close_services(services)
    assert services.policy.routes["default"].mode == "target_only"


# --- keys never leave as plaintext --------------------------------------------------------------
def test_keys_reach_no_log_metric_error_body_or_audit_record(
        built, caplog: pytest.LogCaptureFixture) -> None:
    client, sink = built
    seen: list[str] = []
    with caplog.at_level(logging.DEBUG):
        for role in ROLES:  # every role on every endpoint, allowed or refused
            for path, body in BODIES.items():
                r = client.post(path, json={**body, "wait": True} if "shadow" in path else body,
                                headers=auth(role))
                seen += [r.text, json.dumps(dict(r.headers))]
            for url in ("/admin/routes", "/metrics", "/v1/models", "/admin/speculation"):
                r = client.get(url, headers=auth(role))
                seen += [r.text, json.dumps(dict(r.headers))]
            r = client.post("/admin/routes/default/rollback", json={"reason": "r"},
                            headers=auth(role))
            seen.append(r.text)
        wrong = client.get("/admin/routes", headers={"Authorization": f"Bearer {KEYS['admin']}x"})
        seen.append(wrong.text)
        rid = client.post("/v1/completions", json=COMPLETION, headers=auth()).json()["id"]
        seen.append(client.get(f"/admin/audit/{rid}", headers=auth("compliance")).text)
        seen.append(client.get("/metrics", headers=auth("oncall")).text)
    trail = repr(sink.events)
    everything = "\n".join([*seen, caplog.text, trail])
    for role, key in KEYS.items():
        assert key not in everything, f"the {role} key's plaintext leaked"
        assert hash_key(key) not in everything, f"the {role} key's full digest leaked"
    # What the trail does say: the principal's name and a digest prefix.
    actors = {e.actor for e in sink.events if isinstance(e, GovernanceEvent)}
    assert actors and all(a.startswith("api-key:") for a in actors)
    assert f"'key_id': '{hash_key(KEYS['inference'])[:12]}'" in trail


def test_authentication_compares_every_digest_in_constant_time(monkeypatch) -> None:
    store = keystore()
    calls: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def counted(a: str, b: str) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr("guardian.security.auth.hmac.compare_digest", counted)
    for key in (KEYS["inference"], KEYS["admin"], "sg-unknown"):
        calls.clear()
        store.authenticate(key)
        # every entry, whether it matched first, last or never: no early exit
        assert len(calls) == len(ROLES), key
        assert all(len(a) == len(b) == 64 for a, b in calls)


# --- the keys file -------------------------------------------------------------------------------
def test_one_secret_listed_under_two_names_is_refused(tmp_path: Path) -> None:
    """A pasted entry must not let an inference key authenticate as the admin listed after it."""
    digest = hash_key("sg-shared")
    path = tmp_path / "keys.yaml"
    path.write_text(f"keys:\n  - {{name: proxy, role: inference, sha256: {digest}}}\n"
                    f"  - {{name: ops, role: admin, sha256: {digest.upper()}}}\n")
    with pytest.raises(AuthConfigError,
                       match=r"keys\[1\] \(ops\) has the same sha256 as key 'proxy'"):
        read_keys_file(path)
    with pytest.raises(AuthConfigError):
        KeyStore.from_file(path)


def test_an_edit_that_duplicates_a_secret_never_grants_its_second_role(tmp_path: Path) -> None:
    """A keys file listing one secret twice is invalid: the running store accepts no key
    until the file is valid again (fails closed, #43 F3), and never the duplicate's admin."""
    path = tmp_path / "keys.yaml"
    key = add_key_to_file(path, "proxy", "inference")
    good = path.read_text()
    store = KeyStore.from_file(path)
    assert store.authenticate(key).role == "inference"  # type: ignore[union-attr]
    path.write_text(good + f"- {{name: ops, role: admin, sha256: {hash_key(key)}}}\n")
    assert store.authenticate(key) is None
    path.write_text(good)
    principal = store.authenticate(key)
    assert principal is not None and principal.role == "inference"


def test_an_in_place_edit_that_restores_the_mtime_is_still_picked_up(tmp_path: Path) -> None:
    """`cp -p`, `rsync -t --inplace`, `touch -r`: same inode, same size, the old mtime back.
    A key demoted that way must not keep its old role."""
    path = tmp_path / "keys.yaml"
    key = add_key_to_file(path, "ops", "oncall")
    store = KeyStore.from_file(path)
    assert store.authenticate(key).role == "oncall"  # type: ignore[union-attr]
    before = path.stat()
    time.sleep(0.02)  # past the file system's timestamp tick, so ctime moves
    demoted = path.read_text().replace("role: oncall", "role: mirror")
    assert len(demoted) == before.st_size
    with path.open("r+") as f:
        f.write(demoted)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    if after.st_ctime_ns == before.st_ctime_ns:
        pytest.skip("this file system's timestamps are too coarse to tell the edit apart")
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (
        before.st_ino, before.st_size, before.st_mtime_ns)
    assert store.authenticate(key).role == "mirror"  # type: ignore[union-attr]


@pytest.mark.parametrize("key", ["sg-\udcff\udcfe", "\ud800", "sg-ok"])
def test_an_undecodable_key_is_an_unknown_key_not_a_crash(tmp_path: Path, key: str) -> None:
    """`--key`/GUARDIAN_API_KEY from a non-UTF-8 terminal arrive with lone surrogates."""
    path = tmp_path / "keys.yaml"
    add_key_to_file(path, "ops", "oncall")
    assert KeyStore.from_file(path).authenticate(key) is None
    with pytest.raises(AuthenticationError, match="not in"):
        authenticate_cli(path, key, roles=("oncall",))


def test_keys_files_are_0600_whatever_the_umask_or_the_old_mode(tmp_path: Path) -> None:
    path = tmp_path / "keys.yaml"
    old = os.umask(0)
    try:
        add_key_to_file(path, "a", "inference")
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        path.chmod(0o644)  # an operator's copy opened the file up
        rotate_key_in_file(path, "a")
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        path.chmod(0o666)
        add_key_to_file(path, "b", "oncall")
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        path.chmod(0o644)
        revoke_key_in_file(path, "b")
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        os.umask(old)
    assert not [p for p in tmp_path.iterdir() if p.name != "keys.yaml"]  # no temp file left


def test_revoked_and_rotated_keys_stop_at_the_next_request_on_a_real_server(
        tmp_path: Path) -> None:
    import httpx

    path = tmp_path / "keys.yaml"
    ops = add_key_to_file(path, "ops", "oncall")
    proxy = add_key_to_file(path, "proxy", "inference")
    services = build_services(FakeBackend(), ListSink(), policy=policy(),
                              keys=KeyStore.from_file(path))
    try:
        with serve(create_app(services=services)) as url, \
                httpx.Client(base_url=url, timeout=10) as client:
            def status(key: str, path_: str = "/admin/routes") -> int:
                return client.get(path_, headers={"Authorization": f"Bearer {key}"}).status_code

            assert (status(ops), status(proxy, "/v1/models")) == (200, 200)
            assert status(proxy) == 403
            revoke_key_in_file(path, "ops")
            assert status(ops) == 401  # the very next request
            new = rotate_key_in_file(path, "proxy")
            assert (status(proxy, "/v1/models"), status(new, "/v1/models")) == (401, 200)
            # The rotated key keeps its role: still no admin act.
            r = client.post("/admin/routes/default/rollback", json={"reason": "x"},
                            headers={"Authorization": f"Bearer {new}"})
            assert r.status_code == 403
    finally:
        close_services(services)


def test_a_metrics_key_reads_metrics_and_nothing_else(built) -> None:
    """The scraper's role: /metrics and /readyz's details; every other guarded route (each
    method it is declared for) answers 403, and the dashboard does not open for it."""
    from dashboard.auth import access_for

    client, sink = built
    table = guarded_routes(client.app)
    readable = {path for (_, path), roles in table.items() if "metrics" in roles}
    assert readable == {"/metrics"}
    assert client.get("/metrics", headers=auth("metrics")).status_code == 200
    assert "queue_depth" in client.get("/readyz", headers=auth("metrics")).json()
    rid = client.post("/v1/completions", json=COMPLETION, headers=auth()).json()["id"]
    for (method, path), _roles in table.items():
        if path in readable:
            continue
        r = client.request(method, _url(path, rid), json=BODIES.get(path, {"reason": "x"}),
                           headers=auth("metrics"))
        assert r.status_code == 403, (method, path, r.status_code, r.text)
    assert not [e for e in sink.events if isinstance(e, GovernanceEvent)]
    keys = client.app.state.keys
    assert access_for(keys.authenticate(KEYS["metrics"])) is None
