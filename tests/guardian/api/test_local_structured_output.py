"""`response_format` json_schema / json_object on the local engine (a tiny real pair), with
speculation on: the answer validates against the schema, equals target-only's under the
same grammar, the shadow judges it with the same grammar (a match), the audit record keeps
the response_format, and a schema the grammar engine refuses is a 400 naming the field —
through the official `openai` client too."""

from __future__ import annotations

import json

import jsonschema
import pytest

from guardian.audit.events import RequestEvent, ShadowEvent
from tests.support.api import auth
from tests.support.fakes import ListSink

SCHEMA = {"type": "object", "additionalProperties": False, "required": ["colour", "count"],
          "properties": {"colour": {"enum": ["red", "green", "blue"]},
                         "count": {"type": "integer", "minimum": 0, "maximum": 9},
                         "ok": {"type": "boolean"}}}
FORMAT = {"type": "json_schema", "json_schema": {"name": "answer", "schema": SCHEMA}}


def _chat(local_backend, **kw: object) -> dict:
    return {"model": local_backend.model_name, "max_tokens": 96, "temperature": 0,
            "messages": [{"role": "user", "content": "the quick brown fox"}], **kw}


def _shadow(sink: ListSink, request_id: str) -> ShadowEvent:
    return sink.first(ShadowEvent, request_id)


def test_json_schema_answers_validate_and_equal_target_only(make_local, local_backend) -> None:
    spec, sink = make_local("speculative", sample_rate=1.0)
    ref, _ = make_local("target_only")
    got = spec.post("/v1/chat/completions", headers=auth(),
                    json=_chat(local_backend, response_format=FORMAT))
    assert got.status_code == 200, got.text
    want = ref.post("/v1/chat/completions", headers=auth(),
                    json=_chat(local_backend, response_format=FORMAT)).json()
    plain = ref.post("/v1/chat/completions", headers=auth(), json=_chat(local_backend)).json()
    body = got.json()
    text = body["choices"][0]["message"]["content"]
    assert body["choices"][0]["finish_reason"] == "stop", text
    jsonschema.validate(json.loads(text), SCHEMA)
    assert text == want["choices"][0]["message"]["content"]
    assert text != plain["choices"][0]["message"]["content"]  # the grammar bites
    sp = body["spec_guardian"]["speculation"]
    assert sp["ran"] and sp["method"] == "draft_model" and "response_format" in sp["controls"]
    assert body["spec_guardian"]["stats"]["proposed_tokens"] > 0
    assert _shadow(sink, body["id"]).verdict == "match"
    [ev] = sink.of(RequestEvent, body["id"])
    assert ev.params["response_format"] == FORMAT


def test_json_object_answers_are_json_objects(make_local, local_backend) -> None:
    client, _ = make_local("speculative")
    r = client.post("/v1/chat/completions", headers=auth(), json=_chat(
        local_backend, max_tokens=96, response_format={"type": "json_object"}))
    assert r.status_code == 200, r.text
    choice = r.json()["choices"][0]
    text = choice["message"]["content"]
    assert text.startswith("{")
    if choice["finish_reason"] == "stop":  # a tiny random model may run out of tokens
        assert isinstance(json.loads(text), dict)


@pytest.mark.parametrize("schema", [
    {"type": "object", "properties": {"a": {"$ref": "#/definitions/missing"}}},
    {"type": "string", "pattern": "(unclosed"},
])
def test_a_schema_the_grammar_engine_refuses_is_a_400_naming_it(make_local, local_backend, schema) -> None:
    client, _ = make_local()
    r = client.post("/v1/chat/completions", headers=auth(), json=_chat(
        local_backend, response_format={"type": "json_schema",
                                  "json_schema": {"name": "x", "schema": schema}}))
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["param"] == "response_format" and err["code"] == "invalid_value"


@pytest.mark.integration
def test_official_openai_client_gets_schema_valid_json(local_backend, local_sdk) -> None:
    """Done-when, local half: `response_format` json_schema through the unchanged client."""
    out = local_sdk.chat.completions.create(
        model=local_backend.model_name, max_tokens=96, temperature=0, response_format=FORMAT,
        messages=[{"role": "user", "content": "the quick brown fox"}])
    jsonschema.validate(json.loads(out.choices[0].message.content), SCHEMA)
    assert out.model_extra["spec_guardian"]["speculation"]["ran"]
