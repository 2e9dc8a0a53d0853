"""What an attacker holding a `mirror` (or an `inference`) key found against `POST /v1/shadow`,
each pinned by a test:

- every faithful mirror of a completion that *stopped* was judged a divergence (sampled: a
  distribution mismatch): an OpenAI-compatible answer's text is cut before the stop string
  that ended it and never holds the EOS, so the stopping check saw `finish_reason: stop`
  without a cause (`stop_without_cause`). Where a route trusts mirror evidence, ordinary
  traffic would have rolled it back. The ending is now confirmed against the target's own
  greedy completion (same stop strings); sampled endings that cannot be re-drawn are
  `unchecked`;
- the mirrored request's `max_tokens` was dropped (the job was judged with `max_tokens=None`),
  so a primary that ran past its limit, or answered `length` long before it, was a `match`;
  an empty `stop` completion was a `match` whatever the target would say first;
- a NaN probability counted as support (`p <= 0` is false for NaN);
- mirror verdicts were indistinguishable from the sidecar's own in the verdict counter (now a
  `source` label).

Probes that held stay as cheap regressions: mirror verdicts never count toward rollback
without `triggers.mirror_evidence`, every accepted mirror is audited and every refusal names
its field, hostile bodies are 4xx (never a 500), and an inference key cannot reach the mirror.
"""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import pytest

from guardian.audit.events import RequestEvent, ShadowEvent
from guardian.backends import TokenScores
from guardian.equivalence.verdicts import sampled_trace_verdict, support_verdict, trace_verdict
from guardian.governance.rollback import RollbackController
from guardian.governance.windows import is_mirrored
from guardian.policy import Policy, RoutePolicy, ShadowPolicy, TriggerPolicy
from tests.support.api import auth
from tests.support.fakes import FakeBackend

BODY = {"model": "fake-target", "prompt": "hello", "max_tokens": 8, "temperature": 0}
STOP_BODY = {**BODY, "max_tokens": 40, "stop": ["q"]}  # the target says "nswuioygce" + "q"


def _mirror(client, request: dict, choice: dict, **extra: object):  # type: ignore[no-untyped-def]
    return client.post("/v1/shadow", headers=auth("mirror"), json={
        "request": request, "response": {"choices": [choice]}, "wait": True, **extra})


def _served(client, body: dict) -> dict:  # type: ignore[no-untyped-def]
    r = client.post("/v1/completions", json=body, headers=auth())
    assert r.status_code == 200, r.text
    choice = r.json()["choices"][0]
    return {"text": choice["text"], "finish_reason": choice["finish_reason"]}


def _event(sink, r) -> ShadowEvent:  # type: ignore[no-untyped-def]
    assert r.status_code == 200 and r.json()["status"] == "evaluated", r.text
    return sink.of(ShadowEvent, r.json()["id"])[0]


# --- (b) crying wolf: a faithful mirror of a stopped completion -----------------------------
def test_a_faithful_mirror_of_a_stop_string_completion_is_a_match(client, sink) -> None:
    served = _served(client, STOP_BODY)
    assert served["finish_reason"] == "stop" and "q" not in served["text"]
    r = _mirror(client, STOP_BODY, served)
    assert r.json()["verdict"] == "match", (r.text, _event(sink, r).stats)


def test_a_sampled_mirror_of_a_stopped_completion_is_not_a_mismatch(client, sink) -> None:
    body = {**STOP_BODY, "temperature": 1.0, "seed": 1}
    served = _served(client, body)
    assert served["finish_reason"] == "stop"
    ev = _event(sink, _mirror(client, body, served))
    assert ev.verdict == "distribution_ok", ev.stats
    assert "stopping_cause" in ev.stats["unchecked"]


# --- (a) hiding a stopping bug ------------------------------------------------------------------
def test_a_stop_the_target_would_not_make_is_still_a_divergence(client, sink) -> None:
    served = _served(client, STOP_BODY)
    early = {"text": served["text"][:4], "finish_reason": "stop"}  # stopped with no cause
    ev = _event(sink, _mirror(client, STOP_BODY, early))
    assert ev.verdict == "divergence" and ev.stats["failed_check"] == "stop_without_cause"
    empty = _event(sink, _mirror(client, BODY, {"text": "", "finish_reason": "stop"}))
    assert empty.verdict == "divergence", empty.stats  # the target's first token is no EOS


def test_a_primary_that_ran_past_max_tokens_is_a_divergence(client, sink) -> None:
    full = _served(client, BODY)["text"]  # 8 tokens
    ev = _event(sink, _mirror(client, {**BODY, "max_tokens": 3},
                              {"text": full, "finish_reason": "length"}))
    assert ev.verdict == "divergence" and ev.stats["failed_check"] == "max_tokens", ev.stats


def test_a_length_answer_short_of_max_tokens_is_a_divergence(client, sink) -> None:
    full = _served(client, BODY)
    assert _mirror(client, BODY, full).json()["verdict"] == "match"
    ev = _event(sink, _mirror(client, BODY, {"text": full["text"][:3], "finish_reason": "length"}))
    assert ev.verdict == "divergence" and ev.stats["failed_check"] == "max_tokens", ev.stats
    # A prefix without a finish reason claims no ending: its tokens are all that is judged.
    assert _mirror(client, BODY, {"text": full["text"][:3]}).json()["verdict"] == "match"


def test_chat_max_completion_tokens_bounds_the_mirrored_primary(client, sink) -> None:
    chat = {"model": "fake-target", "temperature": 0, "max_completion_tokens": 4,
            "messages": [{"role": "user", "content": "hi"}]}
    r = client.post("/v1/chat/completions", json=chat, headers=auth())
    text = r.json()["choices"][0]["message"]["content"]
    honest = _mirror(client, chat, {"message": {"role": "assistant", "content": text},
                                    "finish_reason": "length"})
    assert honest.json()["verdict"] == "match", honest.text
    longer = client.post("/v1/chat/completions", json={**chat, "max_completion_tokens": 8},
                         headers=auth()).json()["choices"][0]["message"]["content"]
    ev = _event(sink, _mirror(client, chat, {"message": {"role": "assistant", "content": longer},
                                             "finish_reason": "length"}))
    assert ev.verdict == "divergence" and ev.stats["failed_check"] == "max_tokens"


# --- NaN is no support ----------------------------------------------------------------------------
def test_nan_probabilities_are_not_support() -> None:
    assert support_verdict([0.5, math.nan]).first_divergence_position == 1

    class T:
        position, origin, draft_prob, proposed_token, token_id = 0, "bonus", None, None, 5
        target_prob = math.nan

    assert trace_verdict([T()]).verdict == "distribution_mismatch"
    assert sampled_trace_verdict([T()]).verdict == "distribution_mismatch"


def test_a_nan_score_of_a_sampled_mirror_is_a_mismatch(client, backend, sink) -> None:
    def nan_scores(prompt_ids, completion_ids, sampling):  # type: ignore[no-untyped-def]
        n = len(completion_ids)
        return TokenScores([0] * n, [5.0] * n, [math.nan] * n)

    backend.score_target = nan_scores  # type: ignore[method-assign]
    ev = _event(sink, _mirror(client, {**BODY, "temperature": 1.0}, {"text": "abc"}))
    assert ev.verdict == "distribution_mismatch" and ev.first_divergence_position == 0


# --- (b) mirror verdicts and rollback ----------------------------------------------------------
def _mirror_events(client, sink) -> list[ShadowEvent]:  # type: ignore[no-untyped-def]
    served = _served(client, STOP_BODY)
    good = _served(client, BODY)
    choices = [(BODY, good), (BODY, {"text": "zzz"}), (STOP_BODY, served),
               (STOP_BODY, {"text": "n", "finish_reason": "stop"}),
               ({**BODY, "max_tokens": 2}, {"text": good["text"], "finish_reason": "length"}),
               ({**BODY, "temperature": 1.0}, good), ({**BODY, "temperature": 1.0}, {"text": "\x01"}),
               ({**STOP_BODY, "temperature": 1.0}, served)]
    return [_event(sink, _mirror(client, req, choice)) for req, choice in choices]


@pytest.mark.parametrize("trusted", [False, True])
def test_mirror_verdicts_count_toward_rollback_only_where_trusted(make_client, sink,
                                                                  trusted) -> None:
    client = make_client()
    events = _mirror_events(client, sink)
    assert {e.verdict for e in events} >= {"match", "divergence", "distribution_ok",
                                           "distribution_mismatch"}
    assert all(is_mirrored(e.stats) and e.stats["principal"] == "api-key:mirror-key"
               for e in events)  # what the controller and the window loader filter on
    pol = Policy(routes={"default": RoutePolicy(
        shadow=ShadowPolicy(sample_rate=0.0), triggers=TriggerPolicy(mirror_evidence=trusted))})
    # `observe` (what the audit sink feeds) reads no database: a store without one will do.
    ctl = RollbackController(SimpleNamespace(db=None), sink, lambda: pol,  # type: ignore[arg-type]
                             pair_hash=FakeBackend.pair_hash)
    for e in events:
        ctl.observe(e)
    mirrored = [e for e in sink.of(RequestEvent) if e.served_path == "external"]
    assert len(mirrored) == len(events)
    for e in mirrored:
        ctl.observe(e)  # the mirrored requests' own records: no latency, no speculative evidence
    window = ctl.window("default")
    assert len(window.verdicts) == (len(events) if trusted else 0)
    assert not window.spec and not window.served_latency and not window.baseline_latency


def test_mirror_verdicts_carry_their_source_in_the_verdict_counter(client, sink) -> None:
    _event(sink, _mirror(client, BODY, {"text": "zzz"}))
    lines = [x for x in client.get("/metrics", headers=auth("admin")).text.splitlines()
             if x.startswith("guardian_shadow_verdicts_total{")]
    assert any('source="mirror"' in x and 'verdict="divergence"' in x for x in lines), lines


# --- (d) the audit trail --------------------------------------------------------------------------
def test_every_accepted_mirror_is_audited_and_attributed(make_client, sink) -> None:
    client = make_client(shadow_capacity=1, start_shadow=False)  # the queue fills at once
    answers = [client.post("/v1/shadow", headers=auth("mirror"), json={
        "request": BODY, "response": {"choices": [{"text": "ab"}]}}) for _ in range(3)]
    assert [a.json()["status"] for a in answers] == ["queued", "dropped", "dropped"]
    for a in answers:
        rec = sink.of(RequestEvent, a.json()["id"])
        assert len(rec) == 1 and rec[0].served_path == "external" and rec[0].endpoint == "shadow"
        assert rec[0].params["principal"] == "api-key:mirror-key"
        assert a.headers["x-request-id"] == a.json()["id"]


@pytest.mark.parametrize("body,param", [
    ({"request": BODY}, "response"),
    ({"request": BODY, "response": {"choices": []}}, "response.choices"),
    ({"request": BODY, "response": {"choices": ["ab"]}}, "response.choices.0"),
    ({"request": BODY, "response": {"choices": [{"text": 5}]}}, "response.choices"),
    ({"request": BODY, "response": {"choices": [{"text": "a", "finish_reason": "STOP"}]}},
     "response.choices"),
    ({"request": BODY, "response": {"choices": [{"message": {"content": [
        {"type": "text", "text": "a"}]}}]}}, "response.choices"),
    ({"request": {**BODY, "prompt": [5000]}, "response": {"choices": [{"text": "a"}]}}, "prompt"),
    ({"request": {**BODY, "prompt": [1] * 5000}, "response": {"choices": [{"text": "a"}]}},
     "prompt"),
    ({"request": BODY, "response": {"choices": [{"text": "y" * 300}]}}, "response.choices"),
    ({"request": BODY, "response": {"choices": [{"text": "a"}]}, "wait": "true"}, "wait"),
])
def test_a_refused_mirror_names_its_field_and_records_nothing(client, sink, body, param) -> None:
    r = client.post("/v1/shadow", headers=auth("mirror"), json=body)
    assert r.status_code == 400 and r.json()["error"]["param"] == param, r.text
    assert not sink.events


# --- (c) hostile bodies -----------------------------------------------------------------------------
@pytest.mark.parametrize("raw", [
    json.dumps({"request": BODY, "response": {"choices": [{"text": "a", "x": "DEEP"}]}}).replace(
        '"DEEP"', "[" * 20000 + "]" * 20000),  # nesting past the JSON parser's stack
    json.dumps({"request": BODY, "response": {"choices": [{"text": "a"}]}}).replace(
        '"temperature": 0', '"temperature": NaN'),
    json.dumps({"request": BODY, "response": {"choices": [{"text": "a"}]}}).replace(
        '"temperature": 0', '"temperature": 0, "top_p": Infinity'),
    json.dumps({"request": BODY, "response": {"choices": [{"text": "a"}]}}).replace(
        '"text": "a"', '"text": "a\\udc00"'),
])
def test_hostile_json_is_a_400_not_a_500(client, sink, raw) -> None:
    r = client.post("/v1/shadow", content=raw, headers={
        **auth("mirror"), "content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert "Traceback" not in r.text and not sink.events


def test_bulky_ignored_fields_are_judged_not_choked_on(client, sink) -> None:
    """Logprob arrays and extra choices are ignored (only choices[0]'s text is judged); the
    1 MiB body limit bounds them."""
    r = _mirror(client, {**BODY, "temperature": -0.0}, {
        "text": "zz", "logprobs": {"token_logprobs": [math.pi] * 40000}}, extra=[0] * 1000)
    assert _event(sink, r).verdict == "divergence"  # -0.0 is greedy
    big = client.post("/v1/shadow", headers=auth("mirror"), json={
        "request": BODY, "response": {"choices": [{"text": "a" * (1 << 20)}]}})
    assert big.status_code == 413, big.text


# --- (e) roles and routes ------------------------------------------------------------------------
def test_only_a_mirror_key_reaches_the_mirror_and_only_its_routes(client, sink) -> None:
    body = {"request": BODY, "response": {"choices": [{"text": "ab"}]}}
    assert client.post("/v1/shadow", json=body).status_code == 401
    r = client.post("/v1/shadow", json=body, headers=auth("inference"))
    assert r.status_code == 403 and r.json()["error"]["code"] == "insufficient_role"
    r = client.post("/v1/shadow", json=body, headers={**auth("mirror"),
                                                      "X-Guardian-Route": "canary"})
    assert r.status_code == 403 and r.json()["error"]["param"] == "X-Guardian-Route"
    r = client.post("/v1/shadow", json=body, headers={**auth("mirror"),
                                                      "X-Guardian-Route": "no-such-route"})
    assert r.status_code == 403  # a header never tells a key which route names exist
    assert not sink.events


def test_the_targets_own_completion_for_a_mirror_yields_to_serving(client, backend) -> None:
    """Confirming a mirrored ending runs a target generation (here up to the request's 64
    max_tokens): like every shadow run it is aborted at its next step when serving work
    arrives, so serving never waits for it (it was not preemptible at first)."""
    import time

    backend.step_s = 0.05
    body = {**BODY, "max_tokens": 64}
    r = _mirror(client, body, {"text": "ns", "finish_reason": "length"}, wait=False)
    assert r.status_code in (200, 202), r.text
    shadow = client.app.state.services.shadow
    deadline = time.monotonic() + 5
    while not any(c["thread"].startswith("shadow") for c in backend.calls):
        assert time.monotonic() < deadline, "the mirror's target generation never started"
        time.sleep(0.01)
    time.sleep(0.06)  # mid-flight
    assert shadow.preempted == 0
    served = client.post("/v1/completions", json={**BODY, "max_tokens": 1}, headers=auth())
    assert served.status_code == 200
    deadline = time.monotonic() + 0.5
    while shadow.preempted < 1:
        assert time.monotonic() < deadline, "the mirror's generation ran on past serving work"
        time.sleep(0.01)
