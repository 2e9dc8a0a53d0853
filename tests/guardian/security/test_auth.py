"""API keys and least privilege: a role × route × endpoint × act matrix.

- role × endpoint: every endpoint of the app, every role (a new endpoint without an entry
  fails `test_every_endpoint_is_in_the_matrix`);
- principal × route choice × endpoint: unrestricted keys (policy routing only), keys with a
  `routes:` list, admin; routes picked by model, by default and by header; the redaction
  floor; unknown routes (no route names in the error); attribution in the audit event;
- acts: mirror-driven rollback (`/v1/shadow`) with and without `triggers.mirror_evidence`;
  CLI acts through `authenticate_cli`;
- the keys file: digests only, atomic 0600 writes, live reload (revoke / add / rotate
  without a restart), `guardian keys` commands.
"""

from __future__ import annotations

import logging
import os
import stat
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from guardian.app import build_services, close_services, create_app
from guardian.audit.events import GovernanceEvent, RequestEvent, ShadowEvent
from guardian.audit.rows import Sealer
from guardian.cli import app as cli_app
from guardian.core.enums import REDACTIONS
from guardian.policy import REDACTION_PROTECTION, Policy, RoutePolicy, ShadowPolicy, load_policy
from guardian.security.auth import (
    ROLES,
    AuthConfigError,
    AuthenticationError,
    KeyStore,
    Principal,
    add_key_to_file,
    authenticate_cli,
    hash_key,
    read_keys_file,
    revoke_key_in_file,
    rotate_key_in_file,
)
from tests.support.api import KEYS, auth, keystore
from tests.support.fakes import FakeBackend, ListSink

# Who may call what (admin may call everything). Public endpoints are listed apart.
MATRIX: dict[tuple[str, str], set[str]] = {
    ("POST", "/v1/completions"): {"inference"},
    ("POST", "/v1/chat/completions"): {"inference"},
    ("GET", "/v1/models"): {"inference"},
    ("POST", "/v1/shadow"): {"mirror"},
    ("GET", "/metrics"): {"metrics", "oncall"},
    ("GET", "/admin/routes"): {"oncall", "release"},
    ("GET", "/admin/speculation"): {"oncall", "release"},
    ("POST", "/admin/routes/{route}/rollback"): {"oncall"},
    ("POST", "/admin/routes/{route}/reenable"): {"oncall"},
    ("POST", "/admin/routes/{route}/promote"): {"release"},
    ("POST", "/admin/policy/reload"): {"oncall"},
    ("GET", "/admin/audit/{request_id}"): {"compliance"},
    ("GET", "/v1/analysis/{route}"): {"analysis", "oncall", "release"},
    ("GET", "/v1/analysis/{route}/webhook"): {"analysis", "oncall", "release"},
    ("POST", "/v1/analysis/{route}/webhook"): {"analysis", "oncall", "release"},
}
# Allowed, but answering something else than 2xx in this app: the analysis endpoints need
# governance (a database), which this app has not (tests/guardian/api/test_analysis.py).
ALLOWED_STATUS: dict[tuple[str, str], int] = {
    k: 404 for k in MATRIX if k[1].startswith("/v1/analysis/")}
PUBLIC = {("GET", "/healthz"), ("GET", "/readyz"), ("GET", "/openapi.json")}

COMPLETION = {"model": "fake-target", "prompt": "hi", "max_tokens": 2, "temperature": 0}
BODIES = {
    "/v1/completions": COMPLETION,
    "/v1/chat/completions": {"model": "fake-target", "max_tokens": 2,
                             "messages": [{"role": "user", "content": "hi"}]},
    "/v1/shadow": {"request": COMPLETION, "response": {"choices": [{"text": "ab"}]}},
}


def _url(path: str, request_id: str) -> str:
    return path.replace("{route}", "default").replace("{request_id}", request_id)


def test_every_endpoint_is_in_the_matrix(make_client) -> None:
    schema = make_client().app.openapi()
    served = {(m.upper(), path) for path, ops in schema["paths"].items() for m in ops}
    assert served - PUBLIC == set(MATRIX), "a new endpoint needs an entry in the role matrix"


def test_role_endpoint_matrix(make_client) -> None:
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
                assert (r.status_code < 400
                        or r.status_code == ALLOWED_STATUS.get((method, path))), (
                    method, path, role, r.text)
            else:
                assert r.status_code == 403, (method, path, role, r.text)
                assert r.json()["error"]["type"] == "permission_error"
    for method, path in PUBLIC:
        assert client.request(method, path).status_code == 200, path
    # No Swagger UI / ReDoc pages: their CDN scripts would run on the sidecar's origin.
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        assert client.get(path).status_code == 404, path


# --- principal × route × endpoint ------------------------------------------------------------
ROUTED = {"inference": "sg-test-routed-inference", "mirror": "sg-test-routed-mirror"}


def route_policy() -> Policy:
    """default/canary keep prompts in full; `private` (model fake-private) keeps a keyed hash."""
    off = ShadowPolicy(sample_rate=0.0)
    return Policy(routes={
        "default": RoutePolicy(shadow=off),
        "canary": RoutePolicy(mode="speculative", models=["fake-canary"], shadow=off),
        "private": RoutePolicy(models=["fake-private"], redaction="hashed", shadow=off),
    })


def route_keystore() -> KeyStore:
    store = keystore()
    for role, key in ROUTED.items():
        store.add(key, f"routed-{role}", role, routes=["default", "canary"])  # type: ignore[arg-type]
    return store


# (model, X-Guardian-Route) -> what each kind of key gets: a route name (served there) or
# an error code. "plain": a key without `routes:`; "routed": routes [default, canary].
OK = "ok"
CASES: list[tuple[str, str | None, str, dict[str, str]]] = [
    # model,         header,    reason,    {plain, routed, admin}
    ("fake-target", None, "default", {"plain": "default", "routed": "default", "admin": "default"}),
    ("fake-canary", None, "model", {"plain": "canary", "routed": "canary", "admin": "canary"}),
    # a model of a route outside the key's list is unknown to it (404, as /v1/models hides
    # it): a 403 naming the route told the key which models and routes exist
    ("fake-private", None, "model", {"plain": "private", "routed": "model_not_found",
                                     "admin": "private"}),
    ("fake-target", "default", "header", {"plain": "default", "routed": "default",
                                          "admin": "default"}),
    ("fake-target", "canary", "header", {"plain": "route_not_allowed", "routed": "canary",
                                         "admin": "canary"}),
    # more protective than the model's route: the floor allows it, the key must list it
    ("fake-target", "private", "header", {"plain": "route_not_allowed",
                                          "routed": "route_not_allowed", "admin": "private"}),
    # the redaction floor: a header cannot move a hashed route's traffic to a full route
    ("fake-private", "default", "header", {"plain": "route_not_allowed",
                                           "routed": "model_not_found",
                                           "admin": "redaction_floor"}),
    ("fake-private", "private", "header", {"plain": "private", "routed": "route_not_allowed",
                                           "admin": "private"}),
    # an unknown route answers like a known one the key may not use: a key cannot tell which
    # route names exist (only admin, who may use any, learns that one does not)
    ("fake-target", "nope", "header", {"plain": "route_not_allowed",
                                       "routed": "route_not_allowed",
                                       "admin": "route_not_found"}),
]


def _body(endpoint: str, model: str) -> dict:
    completion = {**COMPLETION, "model": model}
    if endpoint == "/v1/chat/completions":
        return {"model": model, "max_tokens": 2, "messages": [{"role": "user", "content": "hi"}]}
    if endpoint == "/v1/shadow":
        return {"request": completion, "response": {"choices": [{"text": "ab"}]}}
    return completion


@pytest.fixture
def route_client(backend, sink) -> TestClient:
    services = build_services(backend, sink, policy=route_policy(), keys=route_keystore())
    yield TestClient(create_app(services=services), raise_server_exceptions=False)
    close_services(services)


def test_models_list_only_what_the_key_may_use(route_client) -> None:
    def models(key: str) -> set[str]:
        r = route_client.get("/v1/models", headers={"Authorization": f"Bearer {key}"})
        assert r.status_code == 200, r.text
        return {m["id"] for m in r.json()["data"]}

    everything = {"fake-target", "fake-canary", "fake-private"}
    assert models(KEYS["admin"]) == everything
    assert models(KEYS["inference"]) == everything  # no `routes:`: any model's own route
    # routes [default, canary]: the private route's model is not even named
    assert models(ROUTED["inference"]) == {"fake-target", "fake-canary"}


@pytest.mark.parametrize("endpoint", ["/v1/completions", "/v1/chat/completions", "/v1/shadow"])
def test_route_matrix(route_client, sink, endpoint: str) -> None:
    role = "mirror" if endpoint == "/v1/shadow" else "inference"
    principals = {"plain": (KEYS[role], f"{role}-key"), "routed": (ROUTED[role], f"routed-{role}"),
                  "admin": (KEYS["admin"], "admin-key")}
    for model, header, reason, expected in CASES:
        for kind, (key, name) in principals.items():
            headers = {"Authorization": f"Bearer {key}"}
            if header:
                headers["X-Guardian-Route"] = header
            r = route_client.post(endpoint, json=_body(endpoint, model), headers=headers)
            cell = (endpoint, kind, model, header, r.text)
            want = expected[kind]
            if want in ("route_not_allowed", "redaction_floor", "route_not_found",
                        "model_not_found"):
                assert r.status_code == (404 if want.endswith("not_found") else 403), cell
                error = r.json()["error"]
                assert error["code"] == want, cell
                # no route enumeration: only the route the caller named (or, without a
                # header, its own model's route) may appear
                own = ({header} if header else set() if want == "model_not_found"
                       else {route_policy().route_for_model(model) or "default"})
                for other in {"default", "canary", "private"} - own:
                    assert f"'{other}'" not in error["message"], cell
                continue
            assert r.status_code < 300, cell
            rid = r.headers["x-request-id"]
            event = sink.of(RequestEvent, rid)[-1]
            assert event.route == want, cell
            assert event.redaction == route_policy().routes[want].redaction, cell
            assert event.params["principal"] == f"api-key:{name}", cell
            assert event.params["key_id"] == hash_key(key)[:12], cell
            assert event.params["route_reason"] == reason, cell
            assert key not in repr(event), cell
    # the other role is refused whatever the route
    other = "inference" if role == "mirror" else "mirror"
    r = route_client.post(endpoint, json=_body(endpoint, "fake-target"), headers=auth(other))
    assert r.status_code == 403 and r.json()["error"]["code"] == "insufficient_role"


def test_a_header_cannot_store_a_hashed_routes_prompt_in_clear(route_client, sink) -> None:
    """The issue's case: `X-Guardian-Route: default` on a model of a `hashed` route."""
    secret = "my card is 4111 1111 1111 1111"
    body = {**COMPLETION, "model": "fake-private", "prompt": secret, "stop": ["4111"]}
    r = route_client.post("/v1/completions", json=body,
                          headers={**auth("admin"), "X-Guardian-Route": "default"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "redaction_floor"
    assert not [e for e in sink.events if isinstance(e, RequestEvent) and e.prompt_text == secret]
    # Through the model's own route the sealed row keeps a hash, never the text, and still
    # names who sent it (attribution params survive every redaction; `params` is hash-covered).
    r = route_client.post("/v1/completions", json=body, headers=auth())
    assert r.status_code == 200
    event = sink.of(RequestEvent, r.headers["x-request-id"])[-1]
    row = Sealer("replica/test", salt=b"k", copy_lines=False).seal([event]).requests[0]
    assert row["prompt_text"] is None and row["prompt_hash"]
    assert row["params"]["principal"] == "api-key:inference-key"
    assert row["params"]["route_reason"] == "model"
    assert "stop" not in row["params"]  # string params could carry prompt text


@pytest.mark.parametrize("model_route", ["full", "redacted", "hashed", "none"])
def test_redaction_floor_order(backend, sink, model_route: str) -> None:
    """The documented order, least protective first: full < redacted < hashed < none. A
    header may move a request only to a route at least as protective as its model's."""
    order = ["full", "redacted", "hashed", "none"]
    assert set(order) == set(REDACTIONS) == set(REDACTION_PROTECTION)
    off = ShadowPolicy(sample_rate=0.0)
    pol = Policy(routes={"default": RoutePolicy(shadow=off), **{
        r: RoutePolicy(models=[f"m-{r}"], redaction=r, shadow=off) for r in order}})
    services = build_services(backend, sink, policy=pol, keys=keystore())
    try:
        client = TestClient(create_app(services=services))
        for picked in order:
            r = client.post("/v1/completions", json={**COMPLETION, "model": f"m-{model_route}"},
                            headers={**auth("admin"), "X-Guardian-Route": picked})
            if order.index(picked) >= order.index(model_route):
                assert r.status_code == 200, (model_route, picked, r.text)
                assert r.json()["spec_guardian"]["route"] == picked
            else:
                assert r.status_code == 403, (model_route, picked, r.text)
                assert r.json()["error"]["code"] == "redaction_floor"
    finally:
        close_services(services)


# --- trusted evidence: mirror-driven rollback ----------------------------------------------------
MIRROR_POLICY = """version: 1
default_route: default
routes:
  default:
    mode: speculative
    shadow: {{sample_rate: 0.0}}
    triggers:
      evaluation_interval_s: 0.05
      mirror_evidence: {trusted}
    gate: {{require_report: false}}
"""
BODY = {"model": "fake-target", "prompt": "hello", "max_tokens": 8, "temperature": 0}


@pytest.fixture(params=[False, True], ids=["untrusted", "trusted"])
def governed(request, tmp_path):
    from guardian.audit import upgrade
    from guardian.governance.runtime import attach

    url = f"sqlite:///{tmp_path / 'g.db'}"
    upgrade(url)
    path = tmp_path / "policy.yaml"
    path.write_text(MIRROR_POLICY.format(trusted=str(request.param).lower()))
    events = ListSink()
    services = build_services(FakeBackend(), events, keys=keystore(), policy=load_policy(path))
    gov = attach(services, url=url, policy_file=path, resolver_ttl_s=0.05)
    yield TestClient(create_app(services=services)), events, gov, request.param
    close_services(services)


def _wait(pred, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_mirror_evidence_rolls_back_only_where_trusted(governed) -> None:
    client, events, gov, trusted = governed
    good = client.post("/v1/completions", json=BODY, headers=auth()).json()
    assert good["spec_guardian"]["served_path"] == "speculative"
    text = good["choices"][0]["text"]
    fabricated = {"request": BODY, "wait": True,
                  "response": {"choices": [{"text": text[:2] + ("a" if text[2] != "a" else "b")
                                            + text[3:]}]}}
    # An inference key cannot reach the mirror at all.
    r = client.post("/v1/shadow", json=fabricated, headers=auth())
    assert r.status_code == 403 and r.json()["error"]["code"] == "insufficient_role"
    # A mirror key's fabricated primary response is judged and audited either way...
    r = client.post("/v1/shadow", json=fabricated, headers=auth("mirror"))
    assert r.status_code == 200 and r.json()["verdict"] == "divergence", r.text
    verdict = events.of(ShadowEvent, r.json()["id"])[0]
    assert verdict.stats["principal"] == "api-key:mirror-key"
    # ...but rolls the route back only when the policy trusts mirror evidence.
    rolled_back = _wait(lambda: gov.store.get("default") is not None, timeout=3.0 if trusted else 1.0)
    assert rolled_back is trusted
    after = client.post("/v1/completions", json=BODY, headers=auth()).json()["spec_guardian"]
    assert after["served_path"] == ("target_only" if trusted else "speculative")
    if trusted:
        def rollbacks() -> list[GovernanceEvent]:
            return [e for e in events.events
                    if isinstance(e, GovernanceEvent) and e.kind == "rollback"]

        # The controller records the route state first and then submits the event (on its
        # own thread): wait for the event, not only for the state (CI caught the gap once).
        assert _wait(lambda: bool(rollbacks()), timeout=3.0)
        rollback = rollbacks()
        assert rollback[0].actor == "trigger:divergence"
        assert {"request_id": r.json()["id"], "verdict": "divergence",
                "principal": "api-key:mirror-key"} in rollback[0].details["verdicts"]
        assert rollback[0].details["evidence_principals"] == {"api-key:mirror-key": 1}


# --- CLI acts ----------------------------------------------------------------------------------
def test_cli_acts_authenticate_against_the_keys_file(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "keys.yaml"
    keys = {role: add_key_to_file(path, f"{role}-1", role) for role in ROLES}  # type: ignore[arg-type]
    for role, key in keys.items():
        if role in ("oncall", "admin"):
            principal = authenticate_cli(path, key, roles=("oncall",))
            assert principal.actor == f"api-key:{role}-1" and principal.role == role
        else:
            with pytest.raises(AuthenticationError, match=f"has role '{role}'.*oncall"):
                authenticate_cli(path, key, roles=("oncall",))
    with pytest.raises(AuthenticationError, match="not in"):
        authenticate_cli(path, "sg-guess", roles=("oncall",))
    monkeypatch.delenv("GUARDIAN_API_KEY", raising=False)
    monkeypatch.delenv("GUARDIAN_API_KEYS_FILE", raising=False)
    with pytest.raises(AuthenticationError, match="--key"):
        authenticate_cli(path, None)
    with pytest.raises(AuthenticationError, match="GUARDIAN_API_KEYS_FILE"):
        authenticate_cli(None, keys["oncall"])
    monkeypatch.setenv("GUARDIAN_API_KEY", keys["oncall"])
    monkeypatch.setenv("GUARDIAN_API_KEYS_FILE", str(path))
    assert authenticate_cli(None, None, roles=("oncall",)).name == "oncall-1"
    revoke_key_in_file(path, "oncall-1")
    with pytest.raises(AuthenticationError, match="revoked"):
        authenticate_cli(None, None, roles=("oncall",))


# --- the keys file -------------------------------------------------------------------------------
def test_keys_are_stored_only_as_digests(tmp_path: Path) -> None:
    path = tmp_path / "keys.yaml"
    key = add_key_to_file(path, "proxy-1", "inference", routes=["default"])
    assert key not in path.read_text()
    assert hash_key(key) in path.read_text()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    store = KeyStore.from_file(path)
    principal = store.authenticate(key)
    assert principal == Principal("proxy-1", "inference", frozenset({"default"}), hash_key(key)[:12])
    assert store.authenticate(key + "x") is None
    assert store.authenticate(None) is None


def test_bad_keys_file_says_what_is_wrong(tmp_path: Path) -> None:
    path = tmp_path / "keys.yaml"
    path.write_text("keys:\n  - {name: a, role: superuser, sha256: " + "0" * 64 + "}\n")
    with pytest.raises(AuthConfigError, match="role 'superuser'"):
        KeyStore.from_file(path)
    with pytest.raises(AuthConfigError, match="cannot read"):
        KeyStore.from_file(tmp_path / "missing.yaml")
    path.write_text("keys:\n  - {name: a, role: inference, sha256: " + "a" * 64 + "}\n"
                    "  - {name: a, role: mirror, sha256: " + "b" * 64 + "}\n")
    with pytest.raises(AuthConfigError, match="used twice"):
        KeyStore.from_file(path)
    path.write_text("keys:\n  - {name: a, role: admin, routes: [x], sha256: " + "a" * 64 + "}\n")
    with pytest.raises(AuthConfigError, match="admin keys may use every route"):
        KeyStore.from_file(path)
    path.write_text("keys:\n  - {name: a, role: inference, routes: x, sha256: " + "a" * 64 + "}\n")
    with pytest.raises(AuthConfigError, match="must be a list"):
        KeyStore.from_file(path)


def test_open_mode_only_on_loopback_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="guardian.security.auth"):
        store = KeyStore.for_server(None, "127.0.0.1")
    assert store.open_mode and store.authenticate(None) is not None
    assert "AUTH IS OFF" in caplog.text
    with pytest.raises(AuthConfigError, match="not loopback"):
        KeyStore.for_server(None, "0.0.0.0")


def test_the_running_sidecar_follows_the_keys_file(tmp_path: Path, backend, sink,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "keys.yaml"
    old = add_key_to_file(path, "proxy-1", "inference")
    services = build_services(backend, sink, policy=route_policy(), keys=KeyStore.from_file(path))
    try:
        client = TestClient(create_app(services=services))

        def status(key: str) -> int:
            return client.post("/v1/completions", json=COMPLETION,
                               headers={"Authorization": f"Bearer {key}"}).status_code

        assert status(old) == 200
        revoke_key_in_file(path, "proxy-1")
        assert status(old) == 401  # the very next request
        new = add_key_to_file(path, "proxy-2", "inference")
        assert status(new) == 200
        rotated = rotate_key_in_file(path, "proxy-2")
        assert (status(new), status(rotated)) == (401, 200)
        # the same through the CLI an operator would use
        cli = CliRunner()
        added = cli.invoke(cli_app, ["keys", "add", "proxy-3", "--role", "inference", "-f", str(path)])
        assert added.exit_code == 0 and status(added.stdout.strip().splitlines()[-1]) == 200
        assert cli.invoke(cli_app, ["keys", "revoke", "proxy-2", "-f", str(path)]).exit_code == 0
        assert status(rotated) == 401
        rotated = add_key_to_file(path, "proxy-4", "inference")
        assert status(rotated) == 200
        # A broken edit fails closed (a key it removed must not stay valid) and says so.
        with caplog.at_level(logging.ERROR, logger="guardian.security.auth"):
            good = path.read_text()
            path.write_text("keys: [oops")
            assert status(rotated) == 401 and status(new) == 401
            path.write_text(good)
            assert status(rotated) == 200
        assert "REFUSING EVERY API KEY" in caplog.text
    finally:
        close_services(services)


def test_a_broken_or_deleted_keys_file_fails_closed(tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    """A hand edit that removes a key and breaks the YAML, or the file's deletion, left every
    key loaded before valid - the removed one too. Now no key is accepted until a valid file
    is back, and the change is logged as critical."""
    path = tmp_path / "keys.yaml"
    keep = add_key_to_file(path, "keep", "inference")
    drop = add_key_to_file(path, "drop", "inference")
    store = KeyStore.from_file(path)
    assert store.authenticate(keep) and store.authenticate(drop)
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if "drop" in line)
    hand_edited = "".join(lines[:start - 1]) + "  - name: [unclosed\n"  # "drop" cut, YAML broken
    with caplog.at_level(logging.CRITICAL, logger="guardian.security.auth"):
        path.write_text(hand_edited)
        assert store.authenticate(drop) is None and store.authenticate(keep) is None
    assert "REFUSING EVERY API KEY" in caplog.text
    path.write_text(text)
    assert store.authenticate(keep) and store.authenticate(drop)
    path.unlink()
    assert store.authenticate(keep) is None and store.authenticate(drop) is None
    add_key_to_file(path, "other", "inference")  # a valid file is back: it alone counts
    assert store.authenticate(keep) is None
    path.write_text(text)
    assert store.authenticate(keep) is not None


def test_keys_commands(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "keys.yaml"
    runner = CliRunner()
    monkeypatch.setenv("GUARDIAN_API_KEYS_FILE", str(path))

    def run(*args: str):  # type: ignore[no-untyped-def]
        return runner.invoke(cli_app, ["keys", *args])

    for command in ("add", "list", "revoke", "rotate"):
        assert run(command, "--help").exit_code == 0
    added = run("add", "proxy-1", "--role", "inference", "--route", "default,canary")
    assert added.exit_code == 0, added.output
    key = added.stdout.strip().splitlines()[-1]
    assert key.startswith("sg-") and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert run("add", "ops", "--role", "oncall").exit_code == 0
    listed = run("list")
    assert listed.exit_code == 0
    assert "proxy-1" in listed.stdout and "default, canary" in listed.stdout
    assert hash_key(key)[:12] in listed.stdout and hash_key(key) not in listed.stdout
    assert key not in listed.stdout
    duplicate = run("add", "ops", "--role", "admin")
    assert duplicate.exit_code == 1 and "already exists" in duplicate.output
    assert run("add", "x", "--role", "superuser").exit_code == 2
    assert run("add", "y", "--role", "admin", "--route", "a").exit_code == 1
    rotated = run("rotate", "proxy-1")
    assert rotated.exit_code == 0
    new = rotated.stdout.strip().splitlines()[-1]
    entry = read_keys_file(path)[0]
    assert entry.sha256 == hash_key(new) and entry.routes == ("default", "canary")
    assert run("revoke", "nope").exit_code == 1
    assert run("revoke", "proxy-1").exit_code == 0
    assert [e.name for e in read_keys_file(path)] == ["ops"]
    monkeypatch.delenv("GUARDIAN_API_KEYS_FILE")
    assert run("list").exit_code == 2  # no keys file named anywhere: a usage error


def test_a_route_scoped_key_cannot_tell_a_foreign_model_from_an_unknown_one(route_client) -> None:
    """Same status, code and message (but for the name it sent) for a model of a route
    outside the key's list and for a model that does not exist."""
    for header in (None, "default", "canary"):  # with a route of its own, too (second review)
        answers = {}
        for model in ("fake-private", "no-such-model"):
            headers = {"Authorization": f"Bearer {ROUTED['inference']}"}
            if header:
                headers["X-Guardian-Route"] = header
            r = route_client.post("/v1/completions", json=_body("/v1/completions", model),
                                  headers=headers)
            answers[model] = (r.status_code, r.json()["error"]["code"],
                              r.json()["error"]["message"].replace(model, "M"))
        assert answers["fake-private"] == answers["no-such-model"], (header, answers)
        assert answers["fake-private"][:2] == (404, "model_not_found")


def test_the_route_header_sent_twice_is_refused(route_client) -> None:
    """A gateway reading the other copy would disagree with the sidecar on the route."""
    for key in (KEYS["inference"], KEYS["admin"]):
        r = route_client.post("/v1/completions", json=_body("/v1/completions", "fake-target"),
                              headers=[("Authorization", f"Bearer {key}"),
                                       ("X-Guardian-Route", "default"),
                                       ("X-Guardian-Route", "canary")])
        assert r.status_code == 400, r.text
        assert r.json()["error"]["param"].lower() == "x-guardian-route"
