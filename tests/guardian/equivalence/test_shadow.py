"""Shadow evaluator: verdicts on the fake engine, saturation drops, priority below serving."""

from __future__ import annotations

import time

import pytest

from guardian.audit.events import RequestEvent, ShadowEvent
from guardian.policy.tolerance import DEFAULT_NEAR_TIE_TOLERANCE
from tests.support.api import auth, policy

BODY = {"model": "fake-target", "prompt": "hello", "max_tokens": 8, "temperature": 0}


def _wait_for(pred, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def _verdict(client, sink, body=BODY, route_headers=None) -> ShadowEvent:
    rid = client.post("/v1/completions", json=body, headers={**auth(), **(route_headers or {})}
                      ).json()["id"]
    _wait_for(lambda: sink.of(ShadowEvent, rid))
    return sink.of(ShadowEvent, rid)[0]


def test_target_only_route_checks_speculative_in_shadow(make_client, sink) -> None:
    client = make_client(policy(sample_rate=1.0))
    event = _verdict(client, sink)
    assert event.verdict == "match" and event.shadow_path == "speculative"
    assert event.shadow_trace and event.shadow_trace[0].origin in ("accepted", "bonus")
    assert event.stats["mean_acceptance_length"] > 1


def test_speculative_route_keeps_checking_target_only(make_client, sink) -> None:
    client = make_client(policy(mode="speculative", sample_rate=1.0))
    event = _verdict(client, sink)
    assert event.verdict == "match" and event.shadow_path == "target_only"


# The fake swaps the two paths' top-2 at the flip, `flip_margin` apart: a near tie only when
# that is within the route's measured tolerance (guardian/policy/tolerance.py).
@pytest.mark.parametrize(("flip_margin", "verdict"), [(5.0, "divergence"), (0.1, "divergence"),
                                                      (1e-5, "near_tie")])
def test_flipped_token_is_reported_with_position_and_margin(make_client, backend, sink,
                                                            flip_margin, verdict) -> None:
    backend.spec_flip_at, backend.flip_margin = 3, flip_margin
    client = make_client(policy(sample_rate=1.0))
    event = _verdict(client, sink)
    assert (event.verdict, event.first_divergence_position) == (verdict, 3)
    assert event.margin_at_divergence == flip_margin
    assert event.tolerance == DEFAULT_NEAR_TIE_TOLERANCE


def test_sampled_requests_compare_distributions(make_client, backend, sink) -> None:
    client = make_client(policy(sample_rate=1.0))
    sampled = {**BODY, "temperature": 0.8, "seed": 1}
    ok = _verdict(client, sink, sampled)
    assert ok.verdict == "distribution_ok"
    assert ok.stats["max_tv"] < 1e-6
    # one request is far below the goodness-of-fit test's minimum sample
    assert {r["outcome"] for r in ok.stats["goodness_of_fit"].values()} == {"inconclusive"}
    assert ok.stats["speed_anomalies"] == []
    backend.spec_skew = 0.3  # the verifier's distribution differs from target-only's
    bad = _verdict(client, sink, sampled)
    assert bad.verdict == "distribution_mismatch" and bad.first_divergence_position == 0
    assert bad.stats["failed_check"] == "verifier_distribution"


def test_full_queue_drops_and_counts(make_client, backend, sink) -> None:
    client = make_client(policy(sample_rate=1.0), shadow_capacity=2, start_shadow=False)
    for _ in range(5):
        assert client.post("/v1/completions", json=BODY, headers=auth()).status_code == 200
    services = client.app.state.services
    assert services.shadow.dropped == 3 and services.shadow.depth == 2
    metrics = client.get("/metrics", headers=auth("oncall")).text
    line = next(x for x in metrics.splitlines()
                if x.startswith("guardian_shadow_drops_total{") and 'reason="queue_full"' in x)
    assert line.endswith(" 3.0")
    assert len(sink.of(RequestEvent)) == 5  # serving never waited on the full queue


def test_shadow_yields_to_serving_within_one_step(make_client, backend, sink) -> None:
    """A long shadow run is aborted at its next step when a serving request arrives."""
    backend.step_s = 0.05
    # served speculative (16 steps for 64 tokens); the target-only shadow would take 64 steps
    client = make_client(policy(mode="speculative", sample_rate=1.0))
    client.post("/v1/completions", json={**BODY, "max_tokens": 64}, headers=auth())
    _wait_for(lambda: any(c["thread"].startswith("shadow") for c in backend.calls))
    time.sleep(0.06)  # the shadow generation is mid-flight
    shadow = client.app.state.services.shadow
    assert shadow.preempted == 0
    r = client.post("/v1/completions", json={**BODY, "max_tokens": 1}, headers=auth())
    assert r.status_code == 200
    # the running shadow generation was aborted at its next step, not run to its end
    _wait_for(lambda: shadow.preempted >= 1, timeout=0.5)


def test_mirror_endpoint_judges_a_primary_produced_elsewhere(make_client, sink) -> None:
    client = make_client()
    good = client.post("/v1/completions", json=BODY, headers=auth()).json()["choices"][0]["text"]
    r = client.post("/v1/shadow", headers=auth("mirror"), json={
        "request": BODY, "response": {"choices": [{"text": good}]}, "wait": True})
    assert r.status_code == 200 and r.json()["verdict"] == "match"
    wrong = good[:2] + ("a" if good[2] != "a" else "b") + good[3:]
    r = client.post("/v1/shadow", headers=auth("mirror"), json={
        "request": BODY, "response": {"choices": [{"text": wrong}]}, "wait": True})
    assert r.json()["verdict"] == "divergence" and r.json()["first_divergence_position"] == 2
    rid = r.json()["id"]
    assert sink.of(RequestEvent, rid)[0].served_path == "external"
    assert sink.of(ShadowEvent, rid)[0].verdict == "divergence"
    queued = client.post("/v1/shadow", headers=auth("mirror"), json={
        "request": {**BODY, "messages": None}, "response": {"choices": [{"message": {
            "role": "assistant", "content": good}}]}})
    assert queued.status_code == 202 and queued.json()["status"] in ("queued", "evaluated")


def test_an_evaluation_that_raises_reaches_its_waiter(make_client, backend) -> None:
    """A mirrored request waiting on its verdict learns that evaluation failed: the worker
    resolves the job with the exception (not with None, which reads as 'dropped')."""
    client = make_client(policy(sample_rate=1.0))
    evaluator = client.app.state.services.shadow

    def boom(job, *, preemptible: bool = True):  # type: ignore[no-untyped-def]
        raise AttributeError("evaluation bug")

    evaluator.evaluate = boom  # type: ignore[method-assign]
    r = client.post("/v1/shadow", headers=auth("mirror"), json={
        "request": {"model": "fake-target", "prompt": "hello", "max_tokens": 4, "temperature": 0},
        "response": {"choices": [{"text": " world"}]}, "wait": True})
    assert r.status_code == 202, r.text
    assert r.json()["status"] == "failed"
    assert evaluator.dropped >= 1


def test_mirror_records_carry_the_mode_in_force(make_client, sink) -> None:
    """A rollback in the database (the resolver's answer) wins over the policy file for
    mirrored records too, exactly as for served ones."""

    class RolledBack:
        def mode(self, route, policy_mode, policy=None, policy_hash=None, request_key=None):  # type: ignore[no-untyped-def]
            return "target_only"

    client = make_client(policy(mode="speculative", sample_rate=1.0))
    client.app.state.services.core.resolver = RolledBack()
    served = client.post("/v1/completions", json=BODY, headers=auth()).json()
    r = client.post("/v1/shadow", headers=auth("mirror"), json={
        "request": BODY, "response": {"choices": [{"text": " world"}]}})
    assert r.status_code == 202, r.text
    mirrored = sink.of(RequestEvent, r.json()["id"])
    assert served["spec_guardian"]["mode"] == "target_only"
    assert mirrored and mirrored[0].mode == "target_only" == sink.of(RequestEvent, served["id"])[0].mode


def test_sampled_acceptance_off_its_recorded_expectation_either_way_is_a_mismatch() -> None:
    """With the q the proposer recorded, acceptance follows Σ min(p, q) exactly when the rule
    accepts with min(1, p/q): a sampler accepting with p(x) (too few) or always (too many)
    skews the output, so both directions are a distribution mismatch, not a speed anomaly."""
    from guardian.equivalence.judging import _acceptance_off
    from guardian.equivalence.verdicts import MIN_WINDOW_FOR_ACCEPTANCE_TEST, AcceptanceWindow

    n = MIN_WINDOW_FOR_ACCEPTANCE_TEST * 2
    fair, low, high = AcceptanceWindow(4096), AcceptanceWindow(4096), AcceptanceWindow(4096)
    fair.extend([(i % 2, 0.5) for i in range(n)])  # half accepted, as expected
    low.extend([(int(i % 4 == 0), 0.5) for i in range(n)])  # a quarter: too few
    high.extend([(1, 0.5) for _ in range(n)])  # every one: too many
    assert _acceptance_off(fair, 4.0) is None
    assert _acceptance_off(low, 4.0) == "below"
    assert _acceptance_off(high, 4.0) == "above"
    small = AcceptanceWindow(4096)
    small.extend([(0, 0.9)] * (MIN_WINDOW_FOR_ACCEPTANCE_TEST - 1))
    assert _acceptance_off(small, 4.0) is None  # below the minimum sample: no verdict
