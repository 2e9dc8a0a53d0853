"""Bad input never becomes a 500: each case gets an OpenAI-style JSON error with a 4xx."""

from __future__ import annotations

import pytest

from tests.support.api import auth

OK = {"model": "fake-target", "prompt": "hello", "max_tokens": 4}
CHAT = {"model": "fake-target", "messages": [{"role": "user", "content": "hi"}]}

CASES = [
    ("malformed json", "/v1/completions", b'{"model": "fake-target", "prompt": ', 400, None),
    ("not an object", "/v1/completions", b"[1, 2, 3]", 400, None),
    ("wrong type", "/v1/completions", {**OK, "max_tokens": "ten"}, 400, "max_tokens"),
    ("missing prompt", "/v1/completions", {"model": "fake-target"}, 400, "prompt"),
    ("missing model", "/v1/chat/completions", {"messages": CHAT["messages"]}, 400, "model"),
    ("negative temperature", "/v1/completions", {**OK, "temperature": -0.5}, 400, "temperature"),
    ("top_p zero", "/v1/completions", {**OK, "top_p": 0}, 400, "top_p"),
    ("zero max_tokens", "/v1/completions", {**OK, "max_tokens": 0}, 400, "max_tokens"),
    ("max_tokens beyond context", "/v1/completions", {**OK, "max_tokens": 10_000}, 400,
     "max_tokens"),
    ("prompt longer than context", "/v1/completions", {**OK, "prompt": "x" * 300}, 400, "prompt"),
    ("unknown model", "/v1/completions", {**OK, "model": "gpt-9"}, 404, "model"),
    ("n beyond MAX_N", "/v1/completions", {**OK, "n": 9}, 400, "n"),
    ("n > 1 streamed", "/v1/completions", {**OK, "n": 2, "stream": True}, 400, "n"),
    ("batched prompts", "/v1/completions", {**OK, "prompt": ["a", "b"]}, 400, "prompt"),
    ("too many stops", "/v1/completions", {**OK, "stop": list("abcde")}, 400, "stop"),
    ("empty messages", "/v1/chat/completions", {**CHAT, "messages": []}, 400, "messages"),
    ("bad role", "/v1/chat/completions",
     {**CHAT, "messages": [{"role": "wizard", "content": "x"}]}, 400, None),
    ("chat max_tokens beyond context", "/v1/chat/completions", {**CHAT, "max_tokens": 9999},
     400, "max_tokens"),
    ("shadow without response", "/v1/shadow", {"request": OK}, 400, "response"),
    ("shadow response without text", "/v1/shadow",
     {"request": OK, "response": {"choices": [{"index": 0}]}}, 400, "response.choices"),
    # -- hostile input (issue: no 500 from any input the schema accepts) --------------------
    ("empty body", "/v1/completions", b"", 400, None),
    ("whitespace body", "/v1/completions", b"  ", 400, None),
    ("body not JSON", "/v1/completions", b"model=fake-target&prompt=hi", 400, None),
    ("body not UTF-8", "/v1/completions", b'{"model": "fake-target", "prompt": "\xff\xfe"}',
     400, None),
    ("max_tokens as a string", "/v1/completions", {**OK, "max_tokens": "4"}, 400, "max_tokens"),
    ("max_tokens as a float", "/v1/completions", {**OK, "max_tokens": 4.0}, 400, "max_tokens"),
    ("temperature as a string", "/v1/completions", {**OK, "temperature": "1"}, 400,
     "temperature"),
    ("stream as a string", "/v1/completions", {**OK, "stream": "true"}, 400, "stream"),
    ("stream as an int", "/v1/chat/completions", {**CHAT, "stream": 1}, 400, "stream"),
    ("seed as a string", "/v1/completions", {**OK, "seed": "7"}, 400, "seed"),
    ("tools", "/v1/chat/completions",
     {**CHAT, "tools": [{"type": "function", "function": {"name": "f"}}]}, 400, "tools"),
    ("tool_choice", "/v1/chat/completions", {**CHAT, "tool_choice": "auto"}, 400,
     "tool_choice"),
    ("functions", "/v1/chat/completions", {**CHAT, "functions": [{"name": "f"}]}, 400,
     "functions"),
    ("response_format", "/v1/chat/completions",
     {**CHAT, "response_format": {"type": "json_object"}}, 400, "response_format"),
    ("best_of", "/v1/completions", {**OK, "best_of": 3}, 400, "best_of"),
    # a backend that does not list a control in Capabilities.controls refuses it by name
    ("presence_penalty unhonoured", "/v1/completions", {**OK, "presence_penalty": 0.5}, 400,
     "presence_penalty"),
    ("logit_bias unhonoured", "/v1/chat/completions", {**CHAT, "logit_bias": {"3": 1.0}}, 400,
     "logit_bias"),
    ("echo with logprobs", "/v1/completions", {**OK, "echo": True, "logprobs": 1}, 400, "echo"),
    ("top_logprobs", "/v1/chat/completions", {**CHAT, "top_logprobs": 5}, 400, "top_logprobs"),
    ("chat top_logprobs > 20", "/v1/chat/completions",
     {**CHAT, "logprobs": True, "top_logprobs": 21}, 400, "top_logprobs"),
    ("completions logprobs > 20", "/v1/completions", {**OK, "logprobs": 21}, 400, "logprobs"),
    ("more alternatives than the backend has", "/v1/completions", {**OK, "logprobs": 6}, 400,
     "top_logprobs"),
    ("tool message", "/v1/chat/completions",
     {**CHAT, "messages": [{"role": "assistant", "tool_calls": [{"id": "x"}]}]}, 400,
     "messages.0.tool_calls"),
    ("lone surrogate in prompt", "/v1/completions",
     b'{"model": "fake-target", "prompt": "a\\ud800b", "max_tokens": 4}', 400, "prompt"),
    ("lone surrogate in stop", "/v1/completions",
     b'{"model": "fake-target", "prompt": "a", "stop": "x\\udfff", "max_tokens": 4}', 400,
     "stop"),
    ("lone surrogate in stop list", "/v1/completions",
     b'{"model": "fake-target", "prompt": "a", "stop": ["ok", "\\ud800"], "max_tokens": 4}',
     400, "stop.1"),
    ("lone surrogate in model", "/v1/completions",
     b'{"model": "fake\\ud800", "prompt": "a"}', 400, "model"),
    ("lone surrogate in chat content", "/v1/chat/completions",
     b'{"model": "fake-target", "messages": [{"role": "user", "content": "hi \\ud83d"}]}',
     400, "messages.0.content"),
    ("lone surrogate in a chat text part", "/v1/chat/completions",
     b'{"model": "fake-target", "messages": [{"role": "user", "content": '
     b'[{"type": "text", "text": "\\udc00"}]}]}', 400, "messages.0.content.0.text"),
    ("lone surrogate in mirrored completion", "/v1/shadow",
     b'{"request": {"model": "fake-target", "prompt": "hi"}, '
     b'"response": {"choices": [{"text": "x\\ud800"}]}}', 400, "response.choices"),
    ("lone surrogate in mirrored chat completion", "/v1/shadow",
     b'{"request": {"model": "fake-target", "prompt": "hi"}, '
     b'"response": {"choices": [{"message": {"content": "\\udfff"}}]}}', 400,
     "response.choices"),
    ("lone surrogate in mirrored request", "/v1/shadow",
     b'{"request": {"model": "fake-target", "prompt": "hi", "stop": "\\ud800"}, '
     b'"response": {"choices": [{"text": "x"}]}}', 400, "request.stop"),
]


@pytest.mark.parametrize(("name", "path", "body", "status", "param"), CASES,
                         ids=[c[0] for c in CASES])
def test_bad_input_gets_openai_error(client, name, path, body, status, param) -> None:
    kwargs = {"content": body} if isinstance(body, bytes) else {"json": body}
    role = "mirror" if path == "/v1/shadow" else "inference"  # the mirror needs its own role
    r = client.post(path, headers={**auth(role), "content-type": "application/json"}, **kwargs)
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["message"] and error["type"]
    if param:
        assert error["param"] == param, error
    assert "Traceback" not in r.text
    assert "'None'" not in error["message"]
    assert r.headers["x-request-id"]


def test_oversized_body_is_413(client) -> None:
    r = client.post("/v1/completions", headers=auth(),
                    json={**OK, "prompt": "x" * (2 << 20)})
    assert r.status_code == 413
    assert r.json()["error"]["code"] == "request_too_large"


def test_oversized_chunked_body_is_413(client) -> None:
    def chunks():
        yield b'{"model": "fake-target", "prompt": "'
        for _ in range(40):
            yield b"x" * 65536
        yield b'"}'

    r = client.post("/v1/completions", headers={**auth(), "content-type": "application/json"},
                    content=chunks())
    assert r.status_code == 413


def test_unknown_path_and_method_are_openai_errors(client) -> None:
    assert client.get("/v1/nope", headers=auth()).json()["error"]["code"] == "unknown_url"
    r = client.get("/v1/completions", headers=auth())
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"


def test_an_internal_error_is_a_json_500_with_an_id_to_report(make_client, backend) -> None:
    def broken(*_args, **_kw):
        raise RuntimeError("engine bug")

    backend.generate = broken  # both paths fail: a bug, not bad input
    r = make_client().post("/v1/completions", json=OK, headers=auth())
    assert r.status_code == 500
    rid = r.headers["x-request-id"]
    assert rid in r.json()["error"]["message"] and "engine bug" not in r.text


def test_an_early_413_closes_the_connection(client) -> None:  # type: ignore[no-untyped-def]
    # A declared Content-Length over the limit is refused before the body is read: the
    # connection must close, or the unread body would be parsed as the next request.
    import socket
    import time
    from urllib.parse import urlparse

    from tests.support.servers import serve

    with serve(client.app) as url:
        u = urlparse(url)
        with socket.create_connection((u.hostname, u.port), timeout=10) as s:
            s.sendall(b"POST /v1/completions HTTP/1.1\r\nHost: testserver\r\n"
                      b"Content-Type: application/json\r\nContent-Length: 50000000\r\n\r\n"
                      + b"x" * 1000)
            data, t0 = b"", time.monotonic()
            while chunk := s.recv(65536):  # b"" once the server closes
                data += chunk
                assert time.monotonic() - t0 < 8, "the connection stayed open"
        assert data.startswith(b"HTTP/1.1 413") and b"connection: close" in data.lower()
