"""The sidecar over the local engine (a tiny real pair) serves penalties, min_p, logit_bias,
n > 1 and seed with speculation on: greedy answers equal target-only's, seeded ones are
reproducible, the shadow judges them with the same controls, and each response says
whether speculation ran (and why not)."""

from __future__ import annotations

import time

import pytest

from guardian.audit.events import RequestEvent, ShadowEvent
from tests.support.api import auth

CONTROLS = {"presence_penalty": 1.2, "frequency_penalty": 0.7, "repetition_penalty": 1.4,
            "min_p": 0.02, "logit_bias": {"5": 6.0, "40": -100.0}}


def _body(local_backend, **kw: object) -> dict:
    return {"model": local_backend.model_name, "prompt": "the quick", "max_tokens": 16,
            "temperature": 0, **CONTROLS, **kw}


def test_greedy_with_controls_speculates_and_equals_target_only(make_local, local_backend) -> None:
    spec, sink = make_local("speculative", sample_rate=1.0)
    ref, _ = make_local("target_only")
    plain = ref.post("/v1/completions", headers=auth(),
                     json={"model": local_backend.model_name, "prompt": "the quick",
                           "max_tokens": 16, "temperature": 0}).json()
    want = ref.post("/v1/completions", headers=auth(), json=_body(local_backend)).json()
    got = spec.post("/v1/completions", headers=auth(), json=_body(local_backend)).json()
    assert got["choices"][0]["text"] == want["choices"][0]["text"]
    assert want["choices"][0]["text"] != plain["choices"][0]["text"]  # the controls bite
    sp = got["spec_guardian"]["speculation"]
    assert sp["ran"] and sp["why_not"] is None and sp["method"] == "draft_model"
    assert sp["acceptance"] == "greedy" and sp["lossless"] is True
    assert set(sp["controls"]) == set(CONTROLS)
    assert got["spec_guardian"]["stats"]["proposed_tokens"] > 0
    ref_sp = want["spec_guardian"]["speculation"]
    assert not ref_sp["ran"] and ref_sp["why_not"] == "mode_target_only"
    # the shadow re-ran the other path with the same controls: token-identical
    deadline = time.monotonic() + 30
    while not sink.of(ShadowEvent, got["id"]):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert sink.of(ShadowEvent, got["id"])[0].verdict == "match"
    [ev] = sink.of(RequestEvent, got["id"])
    assert ev.params["logit_bias"] == {"5": 6.0, "40": -100.0}
    assert ev.stats["decoding_rule"]["ran"] is True


def test_seeded_sampled_choices_are_reproducible_and_distinct(make_local, local_backend) -> None:
    client, _ = make_local("speculative")
    body = _body(local_backend, temperature=0.9, n=3, seed=21)
    r = client.post("/v1/completions", headers=auth(), json=body)
    assert r.status_code == 200, r.text
    first = r.json()
    again = client.post("/v1/completions", headers=auth(), json=body).json()
    texts = [c["text"] for c in first["choices"]]
    # The same seed draws the same numbers on either core: a seeded sampled row's depth
    # never follows the continuous batch's load cap (engine.rows.SequenceRequest.pinned_depth).
    assert texts == [c["text"] for c in again["choices"]]
    assert len(set(texts)) > 1  # seed + index: three samples, not one thrice
    for choice in first["spec_guardian"]["choices"]:  # each says whether it speculated
        sp = choice["speculation"]
        assert sp["ran"] and sp["depth"]["pinned"] is True, sp


@pytest.mark.parametrize(("extra", "param"), [
    ({"min_tokens": 3}, "min_tokens"),
    ({"guided_regex": "a+"}, "guided_regex"),
    ({"logit_bias": {"99999": 1.0}}, "logit_bias"),
])
def test_what_the_local_engine_cannot_honour_is_a_400_naming_it(make_local, local_backend, extra,
                                                                param) -> None:
    client, _ = make_local()
    r = client.post("/v1/chat/completions", headers=auth(), json={
        "model": local_backend.model_name, "messages": [{"role": "user", "content": "hi"}], **extra})
    assert r.status_code == 400, r.text
    assert r.json()["error"]["param"] == param


@pytest.mark.integration
def test_official_openai_client_on_the_local_engine(local_backend, local_sdk) -> None:
    """Done-when, local half (penalties, logit_bias, n=3, seed; speculation on)."""
    out = local_sdk.chat.completions.create(
        model=local_backend.model_name, messages=[{"role": "user", "content": "the quick"}],
        max_tokens=8, n=3, seed=4, temperature=0.8, presence_penalty=0.5,
        frequency_penalty=0.5, logit_bias={"5": 3}, extra_body={"min_p": 0.05})
    assert [c.index for c in out.choices] == [0, 1, 2]
    assert out.usage.completion_tokens == sum(
        x["stats"]["completion_tokens"] for x in out.model_extra["spec_guardian"]["choices"])
    assert all(x["speculation"]["ran"]
               for x in out.model_extra["spec_guardian"]["choices"])
