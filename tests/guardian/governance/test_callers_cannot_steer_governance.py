"""Adversarial sweep of governance: evidence an inference caller can shape, acts that could
skip the gate or the cool-down, analysis answers, and replicas racing on one database."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from guardian.governance.rollback import RollbackController
from guardian.policy import (
    AcceptanceTrigger,
    DivergenceTrigger,
    DriftTrigger,
    LatencyTrigger,
    TriggerPolicy,
)
from tests.support.governance import governed_policy, request_event

ONLY_LATENCY = dict(acceptance=AcceptanceTrigger(enabled=False), drift=DriftTrigger(enabled=False),
                    divergence=DivergenceTrigger(enabled=False),
                    latency=LatencyTrigger(max_ratio=1.1, min_samples=5, failure_limit=1))


def _controller(store, sink, policy) -> RollbackController:
    return RollbackController(store, sink, lambda: policy, pair_hash="pair-a")


def _cancelled(path: str) -> object:
    """What `ServingCore._record_cancelled` audits for a client that hung up mid-stream."""
    ev = request_event(path=path, tpot=0.0)
    return dataclasses.replace(ev, finish_reason="cancelled", stats={"cancelled": "client_disconnected"},
                               time_per_output_token_s=0.0, compute_time_s=0.0)


def test_cancelled_generations_are_not_latency_or_drift_evidence(store, sink) -> None:
    """An inference caller that hangs up on many streams served target-only must not fake a
    speculative slowdown (zero-latency baseline samples) and roll the route back."""
    policy = governed_policy(triggers=TriggerPolicy(**ONLY_LATENCY))
    c = _controller(store, sink, policy)
    for _ in range(10):
        c.observe(request_event(path="speculative", tpot=0.010))
        c.observe(request_event(path="target_only", tpot=0.010))
    assert c.evaluate("default").measurements["latency"].outcome == "pass"
    version = c.window("default").version
    for _ in range(300):
        c.observe(_cancelled("target_only"))
        c.observe(_cancelled("speculative"))
    assert c.window("default").version == version  # nothing counted
    ev = c.evaluate("default")
    assert ev.measurements["latency"].outcome == "pass" and ev.action == "none"
    assert store.get("default") is None


def _rolled_back_by_trigger(store, route: str = "default") -> None:
    store.set_mode(route, "target_only", actor="trigger:divergence", reason="divergences=1 vs 0",
                   pair_hash="pair-a", policy_hash="p")


def test_release_cannot_skip_a_rollbacks_cool_down_by_promoting_or_canarying_the_same_pair(
        db_engine, store, sink, tmp_path) -> None:
    from guardian.governance import canary
    from guardian.governance.errors import GovernanceRefused
    from guardian.governance.promotion import promote
    from tests.support.governance import record_report

    policy = governed_policy(mode="target_only")
    record_report(db_engine, "pair-a", policy.content_hash, tmp_path / "spool")
    _rolled_back_by_trigger(store)
    kw = dict(route="default", pair_hash="pair-a", policy=policy, reason="looks fine")
    with pytest.raises(GovernanceRefused, match="cool-down"):
        promote(store, sink, actor="api-key:rel", role="release", db=db_engine, **kw)
    with pytest.raises(GovernanceRefused, match="cool-down"):
        canary.start(store, canary.CanaryStore(db_engine), sink, actor="api-key:rel",
                     role="release", **kw)
    assert store.get("default").mode == "target_only"
    assert canary.CanaryStore(db_engine).get("default") is None
    # an admin override (audited with its reason) may; so may anyone once the cool-down is over
    promote(store, sink, actor="api-key:adm", role="admin", db=db_engine,
            override_reason="root cause fixed in the upstream pool", **kw)
    assert store.get("default").mode == "speculative"
    _rolled_back_by_trigger(store)
    relaxed = governed_policy(mode="target_only", triggers=TriggerPolicy(cooldown_s=0.0))
    record_report(db_engine, "pair-a", relaxed.content_hash, tmp_path / "spool2")
    promote(store, sink, actor="api-key:rel", role="release", db=db_engine,
            **{**kw, "policy": relaxed})
    assert store.get("default").mode == "speculative"


def test_a_route_on_call_turned_off_never_analyses_as_pass_nor_widens_its_canary(
        db_engine, store, sink, tmp_path, monkeypatch) -> None:
    """On-call pulls the plug by hand during a canary: the window may still pass on older
    evidence, but Argo/Flagger must not read `pass` and the controller must not widen."""
    import sqlalchemy as sa

    import guardian.governance.rollback as rb
    from guardian.audit.models import CanaryState
    from guardian.governance import canary
    from guardian.governance.promotion import set_route_mode
    from guardian.governance.stats import Measurement
    from guardian.policy import CanaryPolicy
    from tests.support.governance import Clock, record_report

    policy = governed_policy(mode="target_only",
                             canary=CanaryPolicy(steps=[5, 50, 100], step_duration_s=60))
    record_report(db_engine, "pair-a", policy.content_hash, tmp_path / "spool")
    canaries = canary.CanaryStore(db_engine)
    canary.start(store, canaries, sink, route="default", pair_hash="pair-a", policy=policy,
                 actor="api-key:rel", role="release", reason="go")
    clock = Clock()
    ctl = RollbackController(store, sink, lambda: policy, pair_hash="pair-a", clock=clock)
    monkeypatch.setattr(rb, "evaluate_triggers", lambda w, p, now: {
        "acceptance": Measurement("alpha", "pass", 0.5, 0.3, 200, 128)})
    assert ctl.analysis("default")["verdict"] == "pass"
    set_route_mode(store, sink, route="default", mode="target_only", policy=policy,
                   actor="api-key:oncall", role="oncall", reason="paged: odd outputs",
                   pair_hash="pair-a")
    a = ctl.analysis("default")
    assert a["verdict"] == "fail" and "turned off by api-key:oncall" in a["reason"]
    with db_engine.begin() as conn:  # the step is old enough to widen
        conn.execute(sa.update(CanaryState.__table__).values(
            step_started_at=datetime.now(UTC) - timedelta(seconds=600)))
    for _ in range(3):
        clock.t += 61
        ctl.evaluate("default")
    ended = canaries.get("default")  # the disable ended the canary; nothing widened it
    assert ended.status == "aborted" and ended.weight_pct == 0.0


def test_a_re_enable_on_one_replica_is_not_undone_by_another_replicas_old_evidence(
        db_engine, store, sink, tmp_path) -> None:
    """Two replicas saw the same divergence; A rolled the route back. After a (forced,
    gated) re-enable on A, B must not roll the route straight back on the old verdict."""
    from guardian.governance.routestate import RouteStateStore
    from tests.support.governance import record_report, shadow_event

    policy = governed_policy(triggers=TriggerPolicy(
        acceptance=AcceptanceTrigger(enabled=False), drift=DriftTrigger(enabled=False),
        latency=LatencyTrigger(enabled=False)))
    record_report(db_engine, "pair-a", policy.content_hash, tmp_path / "spool")
    store.set_mode("default", "speculative", actor="api-key:rel", reason="promoted",
                   pair_hash="pair-a", policy_hash=policy.content_hash)
    a = _controller(store, sink, policy)
    b = _controller(RouteStateStore(db_engine), sink, policy)
    for c in (a, b):
        c.observe(shadow_event("divergence"))
    assert a.evaluate("default").action == "rolled_back"
    assert store.get("default").mode == "target_only"
    assert b.evaluate("default").action == "not_speculative"
    a.reenable("default", actor="api-key:oc", role="oncall", reason="fixed upstream", force=True)
    assert store.get("default").mode == "speculative"
    assert b.evaluate("default").action == "none"
    assert store.get("default").mode == "speculative"
    b.observe(shadow_event("divergence"))  # fresh evidence on B still acts
    assert b.evaluate("default").action == "rolled_back"
