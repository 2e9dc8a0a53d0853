"""Tools on the local engine (a tiny real pair): the tools reach the prompt, a forced call
(`tool_choice` required or named) decodes under the call's grammar with speculation on and
comes back as OpenAI `tool_calls` whose arguments validate against the tool's parameters,
token-identical to target-only and judged a match by the shadow; a follow-up turn with the
call and its result renders; what cannot be honoured is a 400 naming the field — through
the official `openai` client too."""

from __future__ import annotations

import json

import jsonschema
import pytest

from guardian.audit.events import ShadowEvent
from guardian.backends.tools import parse_tool_calls, plain_messages
from tests.support.api import auth
from tests.support.tiny_models import save_tiny_pair

WEATHER = {"type": "object", "additionalProperties": False, "required": ["city", "unit"],
           "properties": {"city": {"enum": ["Paris", "Lyon", "Oslo"]},
                          "unit": {"enum": ["C", "F"]}}}
TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Weather now",
                                           "parameters": WEATHER}},
         {"type": "function", "function": {"name": "get_time", "parameters": {
             "type": "object", "additionalProperties": False, "required": ["zone"],
             "properties": {"zone": {"enum": ["UTC", "CET"]}}}}}]
ASK = [{"role": "user", "content": "the weather in paris"}]


@pytest.fixture(scope="module")
def local_pair_dirs(tmp_path_factory):
    """The conftest's tiny pair with a context a tools prompt fits in (~800 of its tokens)."""
    return save_tiny_pair(tmp_path_factory.mktemp("pair"), positions=2048)


def _chat(backend, **kw: object) -> dict:
    return {"model": backend.model_name, "max_tokens": 160, "temperature": 0, "messages": ASK,
            "tools": TOOLS, **kw}


@pytest.mark.parametrize("choice", ["required",
                                    {"type": "function", "function": {"name": "get_weather"}}])
def test_a_forced_call_is_parsed_into_tool_calls(make_local, local_backend, choice) -> None:
    spec, sink = make_local("speculative", sample_rate=1.0)
    ref, _ = make_local("target_only")
    r = spec.post("/v1/chat/completions", headers=auth(),
                  json=_chat(local_backend, tool_choice=choice, parallel_tool_calls=False))
    assert r.status_code == 200, r.text
    body = r.json()
    choice0 = body["choices"][0]
    assert choice0["finish_reason"] == "tool_calls"
    [call] = choice0["message"]["tool_calls"]
    assert call["type"] == "function" and call["id"].startswith("call_")
    fn = call["function"]
    if isinstance(choice, dict):
        assert fn["name"] == "get_weather"
    schema = {t["function"]["name"]: t["function"]["parameters"] for t in TOOLS}[fn["name"]]
    jsonschema.validate(json.loads(fn["arguments"]), schema)
    assert not choice0["message"]["content"]
    assert body["spec_guardian"]["speculation"]["ran"]
    assert "tool_calls" not in body["spec_guardian"]["stats"]
    want = ref.post("/v1/chat/completions", headers=auth(),
                    json=_chat(local_backend, tool_choice=choice,
                               parallel_tool_calls=False)).json()
    assert want["choices"][0]["message"]["tool_calls"] == choice0["message"]["tool_calls"]
    assert sink.first(ShadowEvent, body["id"]).verdict == "match"


def test_a_tool_call_the_answer_text_mangles_is_a_divergence(make_local, local_backend) -> None:
    """Same tokens on both paths, but the speculative answer's text loses a piece of a
    multi-token step (tests/faults block_text_drops_piece): the shadow's structural check
    sees the tool calls differ, which no token check can."""
    from tests.faults.faults import block_text_drops_piece

    spec, sink = make_local("speculative", sample_rate=1.0)
    with block_text_drops_piece():
        body = spec.post("/v1/chat/completions", headers=auth(), json=_chat(
            local_backend, tool_choice="required", parallel_tool_calls=False)).json()
        event = sink.first(ShadowEvent, body["id"])
    assert event.verdict == "divergence", event.stats
    assert event.stats["failed_check"] in ("tool_calls", "json_structure", "text")
    assert event.first_divergence_position is None  # every token matched


def test_the_tools_reach_the_prompt_and_a_follow_up_turn_renders(make_local,
                                                                 local_backend) -> None:
    prompt = local_backend.chat_prompt(ASK, tools=TOOLS)
    assert "<tools>" in prompt and "get_weather" in prompt and "the weather in paris" in prompt
    client, _ = make_local()
    call = {"id": "call_1", "type": "function",
            "function": {"name": "get_weather", "arguments": '{"city": "Paris", "unit": "C"}'}}
    r = client.post("/v1/chat/completions", headers=auth(), json=_chat(
        local_backend, tool_choice="auto", max_tokens=8, messages=[
            *ASK, {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": "18 degrees"}]))
    assert r.status_code == 200, r.text
    rendered = plain_messages([*ASK, {"role": "assistant", "content": "", "tool_calls": [call]},
                               {"role": "tool", "content": "18 degrees"}], None)
    assert '"name": "get_weather"' in rendered[1]["content"]
    assert rendered[2] == {"role": "user",
                           "content": "<tool_response>\n18 degrees\n</tool_response>"}


@pytest.mark.parametrize(("extra", "param"), [
    ({"tool_choice": {"type": "function", "function": {"name": "nope"}}}, "tool_choice"),
    ({"tool_choice": "required", "stream": True}, "stream"),
])
def test_what_cannot_be_honoured_is_a_400_naming_it(make_local, local_backend, extra,
                                                    param) -> None:
    client, _ = make_local()
    r = client.post("/v1/chat/completions", headers=auth(), json=_chat(local_backend, **extra))
    assert r.status_code == 400, r.text
    assert r.json()["error"]["param"] == param


def test_only_well_formed_blocks_naming_a_known_tool_become_calls() -> None:
    text = ('Sure.\n<tool_call>\n{"name": "get_time", "arguments": {"zone": "UTC"}}\n'
            '</tool_call>\n<tool_call>{"name": "rm_rf", "arguments": {}}</tool_call>'
            '<tool_call>{not json}</tool_call>')
    content, calls = parse_tool_calls(text, TOOLS, seed="s")
    assert [c["function"]["name"] for c in calls] == ["get_time"]
    assert json.loads(calls[0]["function"]["arguments"]) == {"zone": "UTC"}
    assert "rm_rf" in content and "{not json}" in content and "get_time" not in content
    assert parse_tool_calls(text, TOOLS, seed="s") == (content, calls)  # ids are stable
    assert parse_tool_calls("no calls here", TOOLS) == ("no calls here", [])


@pytest.mark.integration
def test_official_openai_client_gets_a_tool_call(local_backend, local_sdk) -> None:
    """Done-when, local half: chat with tools, a call parsed into `tool_calls`."""
    out = local_sdk.chat.completions.create(
        model=local_backend.model_name, messages=ASK, tools=TOOLS,
        tool_choice="required", max_tokens=160, temperature=0)
    [call] = out.choices[0].message.tool_calls[:1]
    assert out.choices[0].finish_reason == "tool_calls"
    assert call.function.name in {"get_weather", "get_time"}
    json.loads(call.function.arguments)
    assert out.model_extra["spec_guardian"]["speculation"]["ran"]
