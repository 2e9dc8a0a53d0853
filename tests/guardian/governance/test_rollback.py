"""Rollback controller on synthetic evidence: flapping, cool-down, inconclusive windows,
divergence vs near_tie, latency and drift triggers, replicas sharing route state, webhook."""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from guardian.audit.models import RouteState
from guardian.governance.errors import GovernanceRefused
from guardian.governance.rollback import RollbackController
from guardian.governance.routestate import ModeResolver, RouteStateStore
from guardian.observability.telemetry import Telemetry
from guardian.policy import (
    AcceptanceTrigger,
    DivergenceTrigger,
    DriftTrigger,
    LatencyTrigger,
    TriggerPolicy,
)
from tests.support.governance import governed_policy, record_report, request_event, shadow_event

ONLY_ACCEPTANCE = dict(latency=LatencyTrigger(enabled=False), drift=DriftTrigger(enabled=False),
                       divergence=DivergenceTrigger(enabled=False))


def controller(store, sink, policy, clock=None, **kw) -> RollbackController:
    extra = {"clock": clock} if clock else {}
    return RollbackController(store, sink, lambda: policy, pair_hash="pair-a", **extra, **kw)


def test_inconclusive_with_too_few_samples_never_fires(store, sink) -> None:
    policy = governed_policy(triggers=TriggerPolicy(
        acceptance=AcceptanceTrigger(min_alpha=0.5, min_samples=200, failure_limit=1), **ONLY_ACCEPTANCE))
    c = controller(store, sink, policy)
    for _ in range(4):  # 160 drafted tokens, none accepted: terrible, but not yet evidence
        c.observe(request_event(drafted=40, accepted=0))
        ev = c.evaluate("default")
        assert ev.measurements["acceptance"].outcome == "inconclusive"
        assert ev.action == "none"
    assert store.get("default") is None and not sink.governance
    c.observe(request_event(drafted=40, accepted=0))  # 200 drafted: now it is decisive
    assert c.evaluate("default").action == "rolled_back"


def test_hovering_acceptance_does_not_flap(store, sink, clock) -> None:
    """α alternating around the threshold never gives failure_limit consecutive failures."""
    policy = governed_policy(triggers=TriggerPolicy(
        window_s=1.0, acceptance=AcceptanceTrigger(min_alpha=0.5, min_samples=40, failure_limit=3),
        **ONLY_ACCEPTANCE))
    c = controller(store, sink, policy, clock)
    outcomes = []
    for i in range(12):
        clock.t += 2.0  # each evaluation sees only the newest request (1 s window)
        c.observe(request_event(drafted=40, accepted=10 if i % 2 else 30))
        outcomes.append(c.evaluate("default").measurements["acceptance"].outcome)
    assert outcomes.count("fail") == 6 and outcomes.count("pass") == 6
    assert store.get("default") is None and c.rollbacks == 0
    # Re-evaluating the same failing window is not a new failure either.
    clock.t += 2.0
    c.observe(request_event(drafted=40, accepted=0))
    for _ in range(5):
        c.evaluate("default")
    assert c.rollbacks == 0
    # Three genuinely new failing windows in a row do fire.
    for _ in range(2):
        clock.t += 2.0
        c.observe(request_event(drafted=40, accepted=0))
        c.evaluate("default")
    assert c.rollbacks == 1 and store.get("default").mode == "target_only"


def test_rollback_is_audited_with_evidence_metric_and_stays_until_reenabled(store, sink,
                                                                          tmp_path) -> None:
    telemetry = Telemetry()
    policy = governed_policy(triggers=TriggerPolicy(
        cooldown_s=600, acceptance=AcceptanceTrigger(min_alpha=0.5, min_samples=40, failure_limit=1),
        **ONLY_ACCEPTANCE))
    c = controller(store, sink, policy, telemetry=telemetry)
    c.observe(request_event(drafted=40, accepted=4))
    assert c.evaluate("default").action == "rolled_back"
    [event] = [e for e in sink.governance if e.kind == "rollback"]
    assert event.actor == "trigger:acceptance" and event.policy_hash == policy.content_hash
    evidence = event.details["evidence"]["acceptance"]
    assert evidence["outcome"] == "fail" and evidence["value"] == pytest.approx(0.1)
    metrics = telemetry.render_prometheus().decode()
    assert re.search(r'guardian_governance_rollbacks_total\{[^}]*route="default",'
                     r'trigger="acceptance"\} 1\.0', metrics), metrics
    # Good evidence afterwards does not switch speculation back on by itself (hysteresis).
    for _ in range(5):
        c.observe(request_event(drafted=40, accepted=40))
        c.evaluate("default")
    assert store.get("default").mode == "target_only"
    # Re-enabling within the cool-down is refused, with the time left named.
    with pytest.raises(GovernanceRefused, match="cool-down is 600 s"):
        c.reenable("default", actor="cli:alice", role="oncall", reason="fixed")
    with pytest.raises(GovernanceRefused, match="oncall role"):
        c.reenable("default", actor="api-key:ci", role="release", reason="fixed", force=True)
    # Once the cool-down is over (rollback 11 minutes ago), oncall may re-enable, given a
    # passing gate report for this pair and policy (issue 13: turning speculation on needs it).
    with store.db.begin() as conn:
        conn.execute(sa.update(RouteState.__table__).values(
            updated_at=datetime.now(UTC) - timedelta(minutes=11)))
    with pytest.raises(GovernanceRefused, match="no gate report for pair pair-a"):
        c.reenable("default", actor="cli:alice", role="oncall", reason="draft retrained")
    record_report(store.db, "pair-a", policy.content_hash, tmp_path / "spool")
    c.reenable("default", actor="cli:alice", role="oncall", reason="draft retrained")
    assert store.get("default").mode == "speculative"
    reenable = next(e for e in sink.governance if e.kind == "reenable")
    assert reenable.actor == "cli:alice" and reenable.details["previous_mode"] == "target_only"
    # The old failing evidence was cleared: one more bad request is not enough on its own...
    c.observe(request_event(drafted=8, accepted=0))
    assert c.evaluate("default").measurements["acceptance"].outcome == "inconclusive"


def test_divergence_fires_at_once_but_near_tie_does_not(store, sink) -> None:
    policy = governed_policy()
    c = controller(store, sink, policy)
    for _ in range(5):
        c.observe(shadow_event("near_tie", margin=0.1))
        c.observe(shadow_event("match"))
    ev = c.evaluate("default")
    assert ev.measurements["divergence"].outcome == "pass" and ev.action == "none"
    c.observe(shadow_event("divergence", margin=4.2))
    ev = c.evaluate("default")
    assert ev.fired == ["divergence"] and ev.action == "rolled_back"
    rollback = next(e for e in sink.governance if e.kind == "rollback")
    example = rollback.details["evidence"]["divergence"]["details"]["examples"][0]
    assert example["verdict"] == "divergence" and example["margin"] == 4.2


def test_evidence_about_another_pair_is_ignored(store, sink) -> None:
    c = controller(store, sink, governed_policy())
    c.observe(shadow_event("divergence", pair="pair-b"))
    assert c.evaluate("default").action == "none"


def test_latency_regression_against_shadow_baseline(store, sink) -> None:
    policy = governed_policy(triggers=TriggerPolicy(
        latency=LatencyTrigger(max_ratio=1.1, min_samples=10, failure_limit=1),
        acceptance=AcceptanceTrigger(enabled=False), drift=DriftTrigger(enabled=False)))
    c = controller(store, sink, policy)
    for _ in range(10):
        c.observe(request_event(path="target_only", tpot=0.010))
        c.observe(request_event(path="speculative", tpot=0.008))
    assert c.evaluate("default").measurements["latency"].outcome == "pass"
    for _ in range(20):
        c.observe(request_event(path="speculative", tpot=0.030))
    ev = c.evaluate("default")
    assert ev.fired == ["latency"] and ev.measurements["latency"].value > 1.1


def test_drift_of_acceptance_lengths_from_the_reference_fires(store, sink) -> None:
    policy = governed_policy(triggers=TriggerPolicy(
        drift=DriftTrigger(statistic="js_psi", reference_size=50, min_samples=50, max_js=0.1,
                           max_psi=0.25, failure_limit=1),
        acceptance=AcceptanceTrigger(enabled=False), latency=LatencyTrigger(enabled=False),
        window_max=10))
    c = controller(store, sink, policy)
    for _ in range(10):  # reference: high acceptance, tokens 0..15
        c.observe(request_event(drafted=40, accepted=36))
    assert c.evaluate("default").action == "none"
    for _ in range(10):  # same α regime but a different token distribution (shifted ids)
        c.observe(request_event(drafted=40, accepted=36, tokens=list(range(100, 116))))
    ev = c.evaluate("default")
    assert "drift_tokens" in ev.fired and ev.measurements["drift_tokens"].details["psi"] > 0.25
    # the measurement is named after the statistic that failed, with its value (issue 11)
    m = ev.measurements["drift_tokens"]
    failed_js = m.details["js_bits"] > 0.1
    assert m.name.endswith("_js_bits" if failed_js else "_psi")
    assert m.value == (m.details["js_bits"] if failed_js else m.details["psi"])


def test_rollback_on_one_replica_reaches_another_within_the_refresh_bound(db_engine, sink) -> None:
    import time

    replica_a, replica_b = RouteStateStore(db_engine), RouteStateStore(db_engine)
    resolver_b = ModeResolver(replica_b, ttl_s=0.2).start()
    try:
        assert resolver_b.mode("default", "speculative") == "speculative"
        policy = governed_policy(triggers=TriggerPolicy(
            acceptance=AcceptanceTrigger(min_alpha=0.5, min_samples=40, failure_limit=1),
            **ONLY_ACCEPTANCE))
        c = controller(replica_a, sink, policy)
        c.observe(request_event(drafted=40, accepted=0))
        c.evaluate("default")
        started = time.monotonic()
        while resolver_b.mode("default", "speculative") != "target_only":
            assert time.monotonic() - started < 1.0, "replica B did not see the rollback within 1 s"
            time.sleep(0.01)
        assert resolver_b.mode("default", "off") == "off"  # the policy's `off` always wins
    finally:
        resolver_b.stop()


def test_webhook_is_posted_off_the_evaluation_path(store, sink) -> None:
    posted = threading.Event()
    seen: dict = {}

    def slow_post(url: str, payload: dict, timeout_s: float) -> None:
        seen.update(url=url, payload=payload, timeout=timeout_s)
        posted.set()
        threading.Event().wait(0.5)  # a slow webhook must not delay the rollback

    policy = governed_policy(triggers=TriggerPolicy(
        webhook_url="http://alerts.invalid/hook", webhook_timeout_s=1.5,
        acceptance=AcceptanceTrigger(min_alpha=0.5, min_samples=40, failure_limit=1), **ONLY_ACCEPTANCE))
    c = controller(store, sink, policy, webhook_post=slow_post)
    c.observe(request_event(drafted=40, accepted=0))
    import time

    t0 = time.perf_counter()
    c.evaluate("default")
    assert time.perf_counter() - t0 < 0.4
    assert posted.wait(2)
    assert seen["payload"]["fired"] == ["acceptance"] and seen["timeout"] == 1.5


def _loop_rolls_back_on_evidence(store, sink, triggers: TriggerPolicy, why: str,
                                 settle_s: float = 0.0) -> None:
    """Start the controller's loop on `triggers`, feed it failing acceptance evidence and wait
    (2 s) for the rollback it must make; after `settle_s`, its thread must still be alive."""
    import time

    c = controller(store, sink, governed_policy(triggers=triggers)).start()
    try:
        if settle_s:
            time.sleep(settle_s)
            assert c._thread is not None and c._thread.is_alive()
        c.observe(request_event(drafted=40, accepted=0))
        deadline = time.monotonic() + 2
        while store.get("default") is None:
            assert time.monotonic() < deadline, why
            time.sleep(0.01)
    finally:
        c.stop()


FAILING_ACCEPTANCE = TriggerPolicy(evaluation_interval_s=30, acceptance=AcceptanceTrigger(
    min_alpha=0.5, min_samples=40, failure_limit=1), **ONLY_ACCEPTANCE)


def test_background_loop_evaluates_when_evidence_arrives(store, sink) -> None:
    _loop_rolls_back_on_evidence(store, sink, FAILING_ACCEPTANCE, "observe() did not wake the loop")


def test_a_rollback_names_whose_requests_its_evidence_came_from(store, sink) -> None:
    """One caller's unusual prompts can lower a route's acceptance for everyone: the rollback
    counts the speculative requests behind its evidence per principal (from the request's
    audited params), so on-call sees when one key supplied most of it."""
    import dataclasses

    policy = governed_policy(triggers=TriggerPolicy(
        acceptance=AcceptanceTrigger(min_alpha=0.5, min_samples=40, failure_limit=1),
        **ONLY_ACCEPTANCE))
    c = controller(store, sink, policy)
    for principal, n in (("api-key:flood", 5), ("api-key:app", 1)):
        for _ in range(n):
            c.observe(dataclasses.replace(request_event(drafted=40, accepted=4),
                                          params={"principal": principal}))
    c.observe(request_event(drafted=40, accepted=4))  # no principal recorded
    assert c.evaluate("default").action == "rolled_back"
    [event] = [e for e in sink.governance if e.kind == "rollback"]
    assert event.details["request_principals"] == {"api-key:flood": 5, "api-key:app": 1,
                                                   "unattributed": 1}


def test_the_loop_survives_an_interval_no_wait_can_take(store, sink) -> None:
    """The policy bounds evaluation_interval_s now, but the controller must not depend on it:
    `Event.wait(1e300)` raised OverflowError in the controller's thread, which ended it, and
    with it every automatic rollback, without a word."""
    _loop_rolls_back_on_evidence(
        store, sink, FAILING_ACCEPTANCE.model_copy(update={"evaluation_interval_s": 1e300}),
        "the controller's loop is gone", settle_s=0.2)
