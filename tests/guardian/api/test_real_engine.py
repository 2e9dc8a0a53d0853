"""The sidecar over the real engine: a tiny random pair (built in seconds, as in the engine's
tests) instead of the fake, and — marked integration — the real SQLite audit store."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.audit.events import RequestEvent, ShadowEvent
from guardian.backends import BackendRequest
from guardian.backends.local import LocalEngineBackend
from tests.support.api import auth, keystore, policy
from tests.support.fakes import ListSink
from tests.support.tiny_models import save_tiny_pair


@pytest.fixture(scope="module")
def pair_dirs(tmp_path_factory) -> tuple[Path, Path]:
    return save_tiny_pair(tmp_path_factory.mktemp("pair"))


@pytest.fixture(scope="module")
def backend(pair_dirs) -> LocalEngineBackend:
    return LocalEngineBackend.load(*pair_dirs, device="cpu")


@pytest.fixture
def real(backend) -> Iterator[tuple[TestClient, ListSink]]:
    sink = ListSink()
    services = build_services(backend, sink, policy=policy(sample_rate=1.0), keys=keystore())
    yield TestClient(create_app(services=services)), sink
    close_services(services)


def _shadow(sink: ListSink, rid: str) -> ShadowEvent:
    deadline = time.monotonic() + 30
    while not sink.of(ShadowEvent, rid):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return sink.of(ShadowEvent, rid)[0]


def test_greedy_speculative_shadow_matches_target_only(real, backend) -> None:
    client, sink = real
    body = {"model": backend.model_name, "prompt": "def add(a, b):", "max_tokens": 12,
            "temperature": 0}
    out = client.post("/v1/completions", json=body, headers=auth()).json()
    event = _shadow(sink, out["id"])
    assert event.shadow_path == "speculative"
    assert event.verdict == "match", event.stats
    served = sink.of(RequestEvent, out["id"])[0]
    assert served.completion_text == out["choices"][0]["text"]
    assert len(served.trace) == len(served.completion_token_ids)


def test_a_route_with_the_ngram_proposer_speculates_by_prompt_lookup(backend) -> None:
    """`proposer: ngram` in the route's policy reaches the engine: the route is served
    speculatively with no draft-model forward, and greedy output is target-only's."""
    sink = ListSink()
    services = build_services(backend, sink, policy=policy(mode="speculative", proposer="ngram"),
                              keys=keystore())
    try:
        client = TestClient(create_app(services=services))
        # A prompt that repeats itself, so prompt lookup has something to propose.
        body = {"model": backend.model_name, "prompt": "a b c d a b c d a b c d a b", "max_tokens": 12,
                "temperature": 0}
        out = client.post("/v1/completions", json=body, headers=auth()).json()
        ext = out["spec_guardian"]
        assert ext["served_path"] == "speculative", ext
        assert ext["stats"]["draft_forwards"] == 0 and ext["stats"]["proposed_tokens"] > 0, ext
        # admin: picking a route by header needs a key that lists it (or admin)
        plain = client.post("/v1/completions", headers={**auth("admin"), "X-Guardian-Route": "canary"},
                            json={**body, "model": backend.model_name}).json()
    finally:
        close_services(services)
    reference = backend.generate(BackendRequest(prompt_ids=backend.encode(body["prompt"]),
                                                max_new_tokens=12, speculative=False))
    assert out["choices"][0]["text"] == reference.text
    assert plain["choices"][0]["text"] == reference.text


def test_sampled_shadow_compares_real_distributions(real, backend) -> None:
    client, sink = real
    body = {"model": backend.model_name, "prompt": "the quick", "max_tokens": 10,
            "temperature": 0.9, "seed": 3}
    rid = client.post("/v1/completions", json=body, headers=auth()).json()["id"]
    event = _shadow(sink, rid)
    assert event.verdict == "distribution_ok", event.stats
    assert event.stats["max_tv"] < 0.02
    assert event.stats["acceptance_test"] in ("window_too_small", "decisive")
    assert event.stats["window_tokens"] > 0  # draft distributions were scored


def test_chat_template_and_mirror_on_the_real_pair(real, backend) -> None:
    client, sink = real
    chat = client.post("/v1/chat/completions", headers=auth(), json={
        "model": backend.model_name, "max_tokens": 6, "temperature": 0,
        "messages": [{"role": "user", "content": "hi"}]}).json()
    event = sink.of(RequestEvent, chat["id"])[0]
    assert event.prompt_text.startswith("<|im_start|>user\nhi<|im_end|>")
    prompt = {"model": backend.model_name, "prompt": "for i in", "max_tokens": 8,
              "temperature": 0}
    text = client.post("/v1/completions", json=prompt, headers=auth()).json()["choices"][0]["text"]
    r = client.post("/v1/shadow", headers=auth("mirror"), json={
        "request": prompt, "response": {"choices": [{"text": text}]}, "wait": True})
    # the target's own greedy text, re-tokenized, is judged a match (or a near tie on a
    # re-tokenization boundary) — never a divergence
    assert r.json()["verdict"] in ("match", "near_tie"), r.json()


def test_an_empty_mirrored_completion_gets_a_verdict(real, backend) -> None:
    """The primary returned nothing: the job is evaluated (it used to die in the worker with
    an AttributeError and never get a verdict). Judging *how* a mirrored completion stops
    (here: too early) is the verification issue's stopping check, not done yet, so the
    verdict itself is not pinned here."""
    client, _ = real
    prompt = {"model": backend.model_name, "prompt": "for i in", "max_tokens": 8,
              "temperature": 0}
    r = client.post("/v1/shadow", headers=auth("mirror"), json={
        "request": prompt, "response": {"choices": [{"text": ""}]}, "wait": True})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "evaluated", r.json()
    assert r.json()["verdict"] in ("match", "near_tie", "divergence"), r.json()


@pytest.mark.integration
def test_app_from_settings_writes_the_sqlite_audit_store(pair_dirs, tmp_path, monkeypatch) -> None:
    from guardian.settings import Settings

    settings = Settings(home=tmp_path, draft_dir=pair_dirs[0], target_dir=pair_dirs[1])
    monkeypatch.delenv("GUARDIAN_API_KEYS_FILE", raising=False)
    with TestClient(create_app(settings)) as client:
        deadline = time.monotonic() + 60
        while client.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline, client.get("/readyz").json()
            time.sleep(0.1)
        model = client.get("/v1/models").json()["data"][0]["id"]
        rid = client.post("/v1/completions", json={"model": model, "prompt": "x",
                                                   "max_tokens": 4, "temperature": 0}).json()["id"]
        client.app.state.services.sink.flush()
        events = client.get(f"/admin/audit/{rid}").json()["events"]
        assert events[0]["kind"] == "request" and events[0]["token_rows"] == 4


@pytest.mark.parametrize("temperature", [0.0, 0.9])
def test_the_local_engine_backend_serves_plain_values_and_keeps_evidence_apart(backend,
                                                                              temperature) -> None:
    from guardian.backends import BackendRequest, Sampling, ServingBackend
    from tests.guardian.backends.test_contract import assert_plain

    assert isinstance(backend, ServingBackend)
    req = BackendRequest(prompt_ids=backend.encode("def add(a, b):"), max_new_tokens=8,
                         speculative=True, sampling=Sampling(temperature=temperature), seed=1)
    streamed: list = []
    result = backend.generate(req, lambda _d, tokens: streamed.append(tokens))
    assert result.token_ids and len(result.trace) == len(result.token_ids)
    assert_plain(result)
    assert_plain(streamed, "streamed tokens")
    again, evidence = backend.generate_with_evidence(req)
    assert again.token_ids == result.token_ids  # same seed, same path: evidence changes nothing
    assert len(evidence) == len(result.token_ids)  # one (V,) row per emitted token
