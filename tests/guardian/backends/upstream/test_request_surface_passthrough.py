"""Upstream mode passes the OpenAI request surface through: every parameter the sidecar
validated reaches the pool unchanged (the fake upstream keeps each body it received),
tool calls come back as OpenAI tool_calls (whole and streamed), n choices are n seeded
generations, input limits are 400s naming the field, and the pool shadow lists what it
could not check."""

from __future__ import annotations

import json

import openai
import pytest

from guardian.audit.events import RequestEvent, ShadowEvent
from tests.guardian.backends.upstream.test_sidecar import AUTH, CHAT, make  # noqa: F401
from tests.support.api import KEYS
from tests.support.servers import serve


@pytest.fixture
def sidecar(make):  # noqa: F811  (test_sidecar's app-over-the-fake-upstream builder)
    return make

TOOLS = [{"type": "function", "function": {
    "name": "lookup", "description": "find a word",
    "parameters": {"type": "object", "properties": {"w": {"type": "integer"}},
                   "required": ["w"]}}}]
SCHEMA = {"type": "json_schema", "json_schema": {
    "name": "w", "strict": True,
    "schema": {"type": "object", "properties": {"w": {"type": "integer"}}, "required": ["w"],
               "additionalProperties": False}}}
SURFACE = {"presence_penalty": 0.5, "frequency_penalty": -0.25, "repetition_penalty": 1.3,
           "min_p": 0.05, "logit_bias": {"17": -100.0, "3": 2.5}, "seed": 11,
           "min_tokens": 2, "guided_decoding_backend": "xgrammar", "top_k": 40}


def _sent(received, path_model: str = "fake-spec") -> list[dict]:
    return [b for b in received if b.get("model") == path_model]


def test_every_sampling_control_reaches_the_pool_unchanged(sidecar, upstream_received) -> None:
    client, sink = sidecar()
    r = client.post("/v1/chat/completions", headers=AUTH, json={**CHAT, **SURFACE})
    assert r.status_code == 200, r.text
    [body] = _sent(upstream_received)
    for key, value in SURFACE.items():
        assert body[key] == value, key
    # recorded in the audit params, hash-covered, as sent
    [ev] = sink.of(RequestEvent)
    assert ev.params["logit_bias"] == {"3": 2.5, "17": -100.0}
    assert ev.params["presence_penalty"] == 0.5 and ev.params["min_tokens"] == 2


def test_completions_forward_best_of_and_guided_fields(sidecar, upstream_received) -> None:
    client, _ = sidecar()
    extra = {"best_of": 3, "guided_regex": "w[0-9]+", "guided_choice": ["a", "b"],
             "guided_json": {"type": "object"}, "guided_grammar": "root ::= \"w\""}
    r = client.post("/v1/completions", headers=AUTH,
                    json={"model": "fake-target", "prompt": "hi", "max_tokens": 2, **extra})
    assert r.status_code == 200, r.text
    [body] = _sent(upstream_received)
    assert {k: body[k] for k in extra} == extra
    assert body["prompt"] == "hi" and body["logprobs"] == 2  # the sidecar's own fields stay


def test_tools_and_tool_calls_round_trip(sidecar, upstream_received) -> None:
    client, sink = sidecar()
    messages = [{"role": "user", "content": "look up w"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "call-9", "type": "function",
                     "function": {"name": "lookup", "arguments": "{\"w\": 1}"}}]},
                {"role": "tool", "tool_call_id": "call-9", "content": "w1"}]
    r = client.post("/v1/chat/completions", headers=AUTH, json={
        **CHAT, "messages": messages, "tools": TOOLS, "tool_choice": "auto",
        "parallel_tool_calls": False})
    assert r.status_code == 200, r.text
    [body] = _sent(upstream_received)
    assert body["tools"] == TOOLS and body["tool_choice"] == "auto"
    assert body["parallel_tool_calls"] is False
    assert body["messages"] == messages  # tool_calls and tool_call_id forwarded as sent
    assert body["logprobs"] is True and body["stream"] is False  # the audit's rows
    choice = r.json()["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] is None
    assert choice["message"]["tool_calls"] == [
        {"id": "call-0", "type": "function",
         "function": {"name": "lookup", "arguments": "{\"w\": 0}"}}]
    assert "tool_calls" not in r.json()["spec_guardian"]["stats"]  # answered once
    [ev] = sink.of(RequestEvent)
    assert ev.finish_reason == "tool_calls" and ev.stats["tool_calls"][0]["id"] == "call-0"
    assert "call-9" in ev.prompt_text  # the audited conversation keeps the tool turn


def test_streamed_tool_call_pieces_are_merged(sidecar, upstream_received) -> None:
    client, _ = sidecar()
    with client.stream("POST", "/v1/chat/completions", headers=AUTH, json={
            **CHAT, "stream": True, "tools": TOOLS,
            "tool_choice": {"type": "function", "function": {"name": "lookup"}}}) as r:
        assert r.status_code == 200
        chunks = [json.loads(line[6:]) for line in r.iter_lines()
                  if line.startswith("data: ") and line != "data: [DONE]"]
    calls = [c["choices"][0]["delta"]["tool_calls"] for c in chunks
             if c.get("choices") and c["choices"][0]["delta"].get("tool_calls")]
    assert calls == [[{"index": 0, "id": "call-0", "type": "function",
                       "function": {"name": "lookup", "arguments": "{\"w\": 0}"}}]]
    assert [c["choices"][0]["finish_reason"] for c in chunks if c.get("choices")][-1] == \
        "tool_calls"
    # llama.cpp refuses logprobs on a streamed request with tools (HTTP 400): the audit's own
    # are not asked for there (unstreamed, they are: test_tools_and_tool_calls_round_trip)
    [body] = _sent(upstream_received)
    assert body["stream"] is True and body["tools"] == TOOLS
    assert "logprobs" not in body and "top_logprobs" not in body


def test_n_choices_are_n_seeded_generations(sidecar, upstream_received) -> None:
    client, sink = sidecar()
    r = client.post("/v1/completions", headers=AUTH, json={
        "model": "fake-target", "prompt": "hi", "max_tokens": 2, "n": 3, "seed": 7,
        "temperature": 0.8})
    assert r.status_code == 200, r.text
    out = r.json()
    assert [c["index"] for c in out["choices"]] == [0, 1, 2]
    assert sorted(b["seed"] for b in _sent(upstream_received)) == [7, 8, 9]
    assert all("n" not in b for b in _sent(upstream_received))
    assert out["usage"] == {"prompt_tokens": 3, "completion_tokens": 6, "total_tokens": 9}
    ids = sorted(e.request_id for e in sink.of(RequestEvent))
    assert ids == [f"{out['id']}-{i}" for i in range(3)]
    assert [c["request_id"] for c in out["spec_guardian"]["choices"]] == ids


@pytest.mark.parametrize(("name", "extra", "param"), [
    ("n beyond the bound", {"n": 9}, "n"),
    ("too many tools", {"tools": TOOLS * 129}, "tools"),
    ("schema nested too deep", {"response_format": {"type": "json_schema", "json_schema": {
        "name": "x", "schema": json.loads('{"a":' * 40 + "1" + "}" * 40)}}}, "response_format"),
    ("schema too large", {"response_format": {"type": "json_schema", "json_schema": {
        "name": "x", "schema": {"description": "x" * 70_000}}}}, "response_format"),
    ("unknown response_format type", {"response_format": {"type": "yaml"}}, "response_format"),
    ("logit_bias key not a token id", {"logit_bias": {"hello": 1.0}}, "logit_bias"),
    ("logit_bias value out of range", {"logit_bias": {"5": 101.0}}, "logit_bias"),
    ("presence_penalty out of range", {"presence_penalty": 2.5}, "presence_penalty"),
    ("min_p out of range", {"min_p": 1.5}, "min_p"),
    ("beam search (no backend here)", {"use_beam_search": True}, "use_beam_search"),
])
def test_input_limits_are_400s_naming_the_field(sidecar, upstream_received, name, extra,
                                                param) -> None:
    client, _ = sidecar()
    r = client.post("/v1/chat/completions", headers=AUTH, json={**CHAT, **extra})
    assert r.status_code == 400, r.text
    assert r.json()["error"]["param"] == param
    assert not upstream_received  # nothing reached the pool


def test_pool_shadow_lists_the_controls_it_could_not_check(sidecar) -> None:
    client, sink = sidecar(sample_rate=1.0)
    r = client.post("/v1/completions", headers=AUTH, json={
        "model": "fake-target", "prompt": "hi", "max_tokens": 3, "temperature": 0,
        "presence_penalty": 0.5, "logit_bias": {"3": 1.0}, "response_format": {
            "type": "json_object"}})
    assert r.status_code == 200, r.text
    ev = _wait_shadow(sink)
    assert ev.verdict == "match"
    assert {"honoured:presence_penalty", "honoured:logit_bias",
            "honoured:response_format"} <= set(ev.stats["unchecked"])


def test_pool_shadow_finds_tool_calls_that_differ() -> None:
    from engine.metrics import SpecCounters
    from guardian.backends import BackendResult
    from guardian.backends.base import Timings
    from guardian.equivalence.pool_shadow import surface_checks
    from guardian.equivalence.verdicts import VerdictResult
    from guardian.serving.core import GenerationRequest

    def result(args: str) -> BackendResult:
        return BackendResult([], [], "", "tool_calls", [], False, SpecCounters(), Timings(),
                             stats={"tool_calls": [{"id": "c", "type": "function", "function": {
                                 "name": "lookup", "arguments": args}}]})

    req = GenerationRequest(endpoint="chat.completions", route="default", model="m",
                            prompt_text="", prompt_ids=[], max_tokens=4,
                            passthrough={"tools": TOOLS})
    same = surface_checks(VerdictResult("match"), req, result('{"w": 0}'),
                          result('{ "w" : 0 }'))  # the same structure, other spacing
    assert same.verdict == "match" and same.details["tool_calls_compared"]
    other = surface_checks(VerdictResult("match"), req, result('{"w": 0}'), result('{"w": 1}'))
    assert other.verdict == "divergence" and "tool_calls_differ" in other.details
    assert "honoured:tools" in other.details["unchecked"]
    # the usage a pool counted is shown to the client as it is, and said to be unchecked
    counted = result('{"w": 0}')
    counted.stats["upstream_usage"] = {"prompt_tokens": 3, "completion_tokens": 9}
    said = surface_checks(VerdictResult("match"), req, counted, result('{"w": 0}'))
    assert "usage" in said.details["unchecked"]


def _wait_shadow(sink) -> ShadowEvent:
    import time

    deadline = time.monotonic() + 10
    while not sink.of(ShadowEvent):
        assert time.monotonic() < deadline, "no shadow verdict"
        time.sleep(0.02)
    return sink.of(ShadowEvent)[0]


@pytest.mark.integration
def test_official_openai_client_gets_the_whole_surface_through_a_pool(sidecar) -> None:
    """Done-when, upstream half: the unchanged `openai` client, a real uvicorn server."""
    client, _ = sidecar()
    with serve(client.app) as url:
        sdk = openai.OpenAI(base_url=f"{url}/v1", api_key=KEYS["inference"], max_retries=0)
        tools = sdk.chat.completions.create(model="fake-target", messages=CHAT["messages"],
                                            tools=TOOLS, tool_choice="auto", max_tokens=4)
        call = tools.choices[0].message.tool_calls[0]
        assert tools.choices[0].finish_reason == "tool_calls"
        assert call.function.name == "lookup" and json.loads(call.function.arguments) == {"w": 0}
        structured = sdk.chat.completions.create(model="fake-target", messages=CHAT["messages"],
                                                 response_format=SCHEMA, max_tokens=4)
        assert json.loads(structured.choices[0].message.content) == {"w": 0}
        sampled = sdk.chat.completions.create(
            model="fake-target", messages=CHAT["messages"], max_tokens=3, n=3, seed=5,
            presence_penalty=0.4, frequency_penalty=0.2, logit_bias={"7": -5},
            temperature=0.9)
        assert [c.index for c in sampled.choices] == [0, 1, 2]
        assert sampled.usage.completion_tokens == 9


@pytest.mark.parametrize(("pool", "method", "lossless"), [
    ("fake-spec", "upstream_pool", None), ("fake-llamacpp", "upstream_pool", None),
    ("fake-lossy", "upstream_pool", False)])
def test_each_response_records_the_rule_that_made_its_tokens(sidecar, pool, method,
                                                             lossless) -> None:
    client, sink = sidecar(spec=pool)
    r = client.post("/v1/completions", headers=AUTH, json={
        "model": "fake-target", "prompt": "hi", "max_tokens": 6, "temperature": 0})
    assert r.status_code == 200, r.text
    rule = r.json()["spec_guardian"]["speculation"]
    assert rule["method"] == method and rule["lossless"] is lossless and rule["ran"]
    if pool == "fake-llamacpp":  # what the pool itself reported
        assert rule["pool_reported"]["draft_n"] == 8
        assert rule["pool_reported"]["draft_n_accepted"] == 4
    if pool == "fake-lossy":
        assert rule["acceptance"] == "typical_acceptance"
    [ev] = sink.of(RequestEvent)
    assert ev.stats["decoding_rule"] == rule  # audited, hash-covered, as answered
    target = client.post("/v1/completions", headers={**AUTH, "x-guardian-route": "default"},
                         json={"model": "fake-target", "prompt": "hi", "max_tokens": 2})
    assert target.status_code == 200


def test_a_declared_lossy_acceptance_cannot_pass_a_gate() -> None:
    from engine.metrics import SpecCounters
    from guardian.backends import BackendResult
    from guardian.backends.base import Timings
    from guardian.serving.provenance import declared_lossy

    def result(spec: dict | None) -> BackendResult:
        stats = {"upstream_pool": "speculative", **({"upstream_spec": spec} if spec else {})}
        return BackendResult([], [], "", "stop", [], True, SpecCounters(), Timings(),
                             stats=stats)

    assert declared_lossy(result({"acceptance": "typical_acceptance"})) == "typical_acceptance"
    assert declared_lossy(result({"lossless": False})) == "lossless: false"
    assert declared_lossy(result({"acceptance": "rejection_sampling"})) is None
    assert declared_lossy(result(None)) is None
