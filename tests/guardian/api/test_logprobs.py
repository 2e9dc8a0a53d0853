"""logprobs in the project's own API: OpenAI/vLLM shapes, values from the backend's trace."""

from __future__ import annotations

import json
import math

from fastapi.testclient import TestClient

from tests.support.api import KEYS

AUTH = {"authorization": f"Bearer {KEYS['inference']}"}
P_TOP = 0.7 + 0.3 / 26  # the fake's probability of its greedy token


def _sse(r) -> list[dict]:
    out = []
    for line in r.iter_lines():
        if line.startswith("data: ") and line != "data: [DONE]":
            out.append(json.loads(line[6:]))
    return out


def test_completions_logprobs_shape_and_values(client: TestClient) -> None:
    r = client.post("/v1/completions", headers=AUTH, json={
        "model": "fake-target", "prompt": "hello", "max_tokens": 6, "temperature": 0,
        "logprobs": 3})
    assert r.status_code == 200, r.text
    choice = r.json()["choices"][0]
    lp = choice["logprobs"]
    assert "".join(lp["tokens"]) == choice["text"]
    assert len(lp["token_logprobs"]) == 6
    assert all(math.isclose(v, math.log(P_TOP), rel_tol=1e-5) for v in lp["token_logprobs"])
    offsets = [0]
    for tok in lp["tokens"][:-1]:
        offsets.append(offsets[-1] + len(tok))
    assert lp["text_offset"] == offsets
    for tok, top in zip(lp["tokens"], lp["top_logprobs"], strict=True):
        assert len(top) == 3 and tok in top  # greedy token is the most likely
        assert max(top, key=top.get) == tok


def test_chat_logprobs_only_when_asked(client: TestClient) -> None:
    body = {"model": "fake-target", "messages": [{"role": "user", "content": "hi"}],
            "max_tokens": 4, "temperature": 0}
    plain = client.post("/v1/chat/completions", headers=AUTH, json=body).json()
    assert plain["choices"][0]["logprobs"] is None
    r = client.post("/v1/chat/completions", headers=AUTH,
                    json={**body, "logprobs": True, "top_logprobs": 2})
    assert r.status_code == 200, r.text
    content = r.json()["choices"][0]["logprobs"]["content"]
    assert "".join(c["token"] for c in content) == r.json()["choices"][0]["message"]["content"]
    for c in content:
        assert c["bytes"] == list(c["token"].encode())
        tops = [t["logprob"] for t in c["top_logprobs"]]
        assert len(tops) == 2 and tops == sorted(tops, reverse=True)
        assert c["top_logprobs"][0]["token"] == c["token"]
    no_top = client.post("/v1/chat/completions", headers=AUTH, json={**body, "logprobs": True})
    assert all(c["top_logprobs"] == [] for c in no_top.json()["choices"][0]["logprobs"]["content"])


def test_streamed_chunks_carry_their_tokens_logprobs(client: TestClient) -> None:
    with client.stream("POST", "/v1/completions", headers=AUTH, json={
            "model": "fake-target", "prompt": "abc", "max_tokens": 5, "temperature": 0,
            "stream": True, "logprobs": 1}) as r:
        chunks = _sse(r)
    text_chunks = [c["choices"][0] for c in chunks if c["choices"] and c["choices"][0]["text"]]
    assert text_chunks
    offset = 0
    for ch in text_chunks:
        assert "".join(ch["logprobs"]["tokens"]) == ch["text"]
        assert ch["logprobs"]["text_offset"][0] == offset
        offset += len(ch["text"])
    with client.stream("POST", "/v1/chat/completions", headers=AUTH, json={
            "model": "fake-target", "messages": [{"role": "user", "content": "x"}],
            "max_tokens": 3, "stream": True, "logprobs": True, "top_logprobs": 2}) as r:
        chat = _sse(r)
    deltas = [c["choices"][0] for c in chat if c["choices"] and c["choices"][0]["delta"].get(
        "content")]
    assert deltas and all(len(d["logprobs"]["content"][0]["top_logprobs"]) == 2 for d in deltas)


def test_streams_without_logprobs_have_none(client: TestClient) -> None:
    with client.stream("POST", "/v1/completions", headers=AUTH, json={
            "model": "fake-target", "prompt": "abc", "max_tokens": 3, "stream": True}) as r:
        chunks = _sse(r)
    assert all(c["choices"][0]["logprobs"] is None for c in chunks if c["choices"])


def test_only_a_streamed_request_asks_the_backend_for_per_step_work(client: TestClient,
                                                                    monkeypatch) -> None:
    """The serving core hands every generation its cancellation watcher, but marks it as
    streaming nothing unless the client streams (guardian.backends.base.watch_only): the
    local engine then scores a non-streamed request's logprobs once, not once per step."""
    from guardian.backends.base import streams

    backend = client.app.state.services.core.backend
    seen: list[bool] = []
    run = backend._run
    monkeypatch.setattr(backend, "_run", lambda req, on_text, **k: (
        seen.append(streams(on_text)), run(req, on_text, **k))[1])
    body = {"model": "fake-target", "prompt": "x", "max_tokens": 3, "logprobs": 2}
    assert client.post("/v1/completions", headers=AUTH, json=body).status_code == 200
    with client.stream("POST", "/v1/completions", headers=AUTH,
                       json={**body, "stream": True}) as r:
        assert _sse(r)
    assert seen == [False, True]
