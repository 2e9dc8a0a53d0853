"""The official `openai` Python client works unchanged against a real uvicorn server."""

from __future__ import annotations

from collections.abc import Iterator

import openai
import pytest

from guardian.app import build_services, close_services, create_app
from tests.support.api import KEYS, keystore, policy
from tests.support.fakes import FakeBackend, ListSink
from tests.support.servers import serve


@pytest.fixture(scope="module")
def sdk() -> Iterator[openai.OpenAI]:
    services = build_services(FakeBackend(), ListSink(), policy=policy(mode="speculative"),
                              keys=keystore())
    with serve(create_app(services=services)) as url:
        yield openai.OpenAI(base_url=f"{url}/v1", api_key=KEYS["inference"], max_retries=0)
    close_services(services)


def test_completions(sdk: openai.OpenAI) -> None:
    out = sdk.completions.create(model="fake-target", prompt="hello", max_tokens=5, temperature=0)
    assert out.object == "text_completion"
    assert len(out.choices[0].text) == 5 and out.choices[0].finish_reason == "length"
    assert out.usage.completion_tokens == 5
    ext = out.model_extra["spec_guardian"]
    assert ext["request_id"] == out.id and ext["served_path"] == "speculative"


def test_chat(sdk: openai.OpenAI) -> None:
    out = sdk.chat.completions.create(model="fake-target", max_tokens=4, temperature=0,
                                      messages=[{"role": "user", "content": "hi"}])
    assert out.choices[0].message.role == "assistant"
    assert len(out.choices[0].message.content) == 4


def test_streaming_matches_non_streaming(sdk: openai.OpenAI) -> None:
    full = sdk.completions.create(model="fake-target", prompt="abc", max_tokens=7,
                                  temperature=0).choices[0].text
    parts = [c.choices[0].text for c in sdk.completions.create(
        model="fake-target", prompt="abc", max_tokens=7, temperature=0, stream=True)
        if c.choices]
    assert "".join(parts) == full and len(parts) > 1
    chat = sdk.chat.completions.create(model="fake-target", max_tokens=3, stream=True,
                                       messages=[{"role": "user", "content": "hi"}],
                                       stream_options={"include_usage": True})
    chunks = list(chat)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert len(text) == 3
    assert chunks[-1].usage.completion_tokens == 3


def test_models_and_errors(sdk: openai.OpenAI) -> None:
    assert [m.id for m in sdk.models.list()] == ["fake-target", "fake-canary"]
    with pytest.raises(openai.NotFoundError) as err:
        sdk.completions.create(model="gpt-9", prompt="x", max_tokens=1)
    assert err.value.code == "model_not_found"
    with pytest.raises(openai.BadRequestError):
        sdk.completions.create(model="fake-target", prompt="x", max_tokens=1, temperature=-1)
    bad = openai.OpenAI(base_url=str(sdk.base_url), api_key="sg-wrong", max_retries=0)
    with pytest.raises(openai.AuthenticationError):
        bad.models.list()
