"""Canary steps: the sticky split in effective_mode, the audited acts on the canary_state
table (SQLite and Postgres), and the rollback controller widening / aborting a canary."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from guardian.audit import upgrade
from guardian.audit.memory import MemorySink
from guardian.core.db import make_engine
from guardian.governance import canary
from guardian.governance.errors import GovernanceRefused
from guardian.governance.modes import canary_bucket, effective_mode, sticky_key
from guardian.governance.rollback import RollbackController
from guardian.governance.routestate import ModeResolver, RouteStateStore, RouteStatus
from guardian.governance.stats import Measurement
from guardian.policy import CanaryPolicy, Policy, RoutePolicy
from tests.support.governance import Clock, record_report

PAIR = "pair-a"


@dataclass
class _Canary:
    status: str
    weight_pct: float


def _state(mode: str = "speculative", pair: str | None = PAIR) -> RouteStatus:
    return RouteStatus("default", mode, pair, "p", "r", 1, datetime.now(UTC), "api-key:rel")


# --- the split ------------------------------------------------------------------------------
def test_bucket_is_uniform_and_sticky() -> None:
    buckets = [canary_bucket("default", f"user-{i}") for i in range(4000)]
    assert all(0 <= b < 100 for b in buckets)
    assert abs(sum(b < 5 for b in buckets) / len(buckets) - 0.05) < 0.015
    assert abs(sum(b < 50 for b in buckets) / len(buckets) - 0.5) < 0.03
    assert buckets[:50] == [canary_bucket("default", f"user-{i}") for i in range(50)]
    # another route splits the same keys differently (no route always gets the same users)
    other = [canary_bucket("chat", f"user-{i}") for i in range(4000)]
    assert sum((a < 25) != (b < 25) for a, b in zip(buckets, other, strict=True)) > 1000


def test_effective_mode_serves_the_canary_share_sticky_per_key() -> None:
    c = _Canary("running", 25.0)
    keys = [sticky_key(None, f"user-{i}", None, f"req-{i}") for i in range(2000)]
    modes = [effective_mode("target_only", _state(), pair_hash=PAIR, canary=c, route="default",
                            request_key=k).mode for k in keys]
    share = modes.count("speculative") / len(modes)
    assert 0.22 < share < 0.28
    again = [effective_mode("target_only", _state(), pair_hash=PAIR, canary=c, route="default",
                            request_key=k).mode for k in keys]
    assert again == modes  # sticky: the same key, the same side
    # widening keeps everyone already inside inside (monotone in the weight)
    wider = [effective_mode("target_only", _state(), pair_hash=PAIR, canary=_Canary("running", 50),
                            route="default", request_key=k).mode for k in keys]
    assert all(w == "speculative" for m, w in zip(modes, wider, strict=True) if m == "speculative")
    # asked for the route (no key): it does speculate, decided by the canary
    d = effective_mode("target_only", _state(), pair_hash=PAIR, canary=c, route="default")
    assert (d.mode, d.source) == ("speculative", "canary")


def test_a_canary_only_narrows_speculation() -> None:
    c = _Canary("running", 100.0)
    # a rolled-back / disabled route ignores the canary
    d = effective_mode("speculative", _state("target_only"), canary=c, route="default",
                       request_key="u:1")
    assert d.mode == "target_only"
    # `off` in the file wins; another pair serving wins; an aborted canary is ignored
    assert effective_mode("off", _state(), canary=c, request_key="u:1").mode == "off"
    assert effective_mode("target_only", _state(pair="pair-b"), pair_hash=PAIR, canary=c,
                          request_key="u:1").source == "other_pair"
    assert effective_mode("target_only", _state(), canary=_Canary("aborted", 0.0),
                          request_key="u:1").source == "database"


def test_sticky_key_order_header_user_api_key_request() -> None:
    assert sticky_key("h1", "u1", "k1", "r1") == "h:h1"
    assert sticky_key(None, "u1", "k1", "r1") == "u:u1"
    assert sticky_key("", None, "k1", "r1") == "k:k1"
    assert sticky_key(None, None, None, "r1") == "r:r1"


def test_policy_canary_steps_are_validated() -> None:
    assert CanaryPolicy().steps == [1, 5, 25, 50, 100]
    for bad in ([5, 1, 100], [1, 5, 50], [0, 100], [], [50, 150]):
        with pytest.raises(ValueError, match=r"canary steps|last canary step"):
            CanaryPolicy(steps=bad)


# --- the acts, on both databases -------------------------------------------------------------
def _policy(**canary_cfg) -> Policy:  # type: ignore[no-untyped-def]
    return Policy(routes={"default": RoutePolicy(mode="target_only",
                                                 canary=CanaryPolicy(**canary_cfg))})


@pytest.fixture
def stores(fresh_db_url, tmp_path):  # type: ignore[no-untyped-def]
    upgrade(fresh_db_url)
    db = make_engine(fresh_db_url)
    yield db, RouteStateStore(db), canary.CanaryStore(db), tmp_path / "spool"
    db.dispose()


def test_start_advance_abort_are_audited_and_shared(stores) -> None:  # type: ignore[no-untyped-def]
    db, routes, canaries, spool = stores
    policy, sink = _policy(steps=[1, 25, 100]), MemorySink()
    kw = dict(route="default", pair_hash=PAIR, policy=policy, reason="new draft v2")
    with pytest.raises(GovernanceRefused, match="roles release"):
        canary.start(routes, canaries, sink, actor="api-key:oc", role="oncall", **kw)
    with pytest.raises(GovernanceRefused, match="gate report"):
        canary.start(routes, canaries, sink, actor="api-key:rel", role="release", **kw)
    assert canaries.get("default") is None and routes.get("default") is None
    record_report(db, PAIR, policy.content_hash, spool)
    started = canary.start(routes, canaries, sink, actor="api-key:rel", role="release", **kw)
    assert (started.status, started.weight_pct, started.step_index) == ("running", 1.0, 0)
    assert routes.get("default").mode == "speculative"
    with pytest.raises(GovernanceRefused, match="already runs"):
        canary.start(routes, canaries, sink, actor="api-key:rel", role="release", **kw)

    # every replica's resolver sees the canary (state in the database, not in memory)
    resolver = ModeResolver(RouteStateStore(make_engine(db.url.render_as_string(False))))
    assert resolver.canary("default").weight_pct == 1.0
    d = resolver.decide("default", "target_only", policy)
    assert d.source == "canary"

    with pytest.raises(GovernanceRefused, match="roles release"):
        canary.advance(canaries, sink, route="default", policy=policy, actor="x", role="oncall",
                       reason="r")
    s = canary.advance(canaries, sink, route="default", policy=policy, actor="api-key:rel",
                       role="release", reason="looks good")
    assert (s.weight_pct, s.status) == (25.0, "running")
    with pytest.raises(GovernanceRefused, match="changed"):  # compare-and-set on the version
        canary.advance(canaries, sink, route="default", policy=policy, actor="api-key:rel",
                       role="release", reason="stale", expected_version=started.version)
    s = canary.abort(routes, canaries, sink, route="default", policy=policy, actor="api-key:oc",
                     role="oncall", reason="p99 up")
    assert (s.status, s.weight_pct) == ("aborted", 0.0)
    assert routes.get("default").mode == "target_only"
    resolver.refresh()
    assert resolver.decide("default", "target_only", policy).mode == "target_only"

    events = [e for e in sink.events if e.kind == "canary"]
    assert [(e.details["action"], e.details["weight_pct"], e.actor) for e in events] == [
        ("start", 1.0, "api-key:rel"), ("advance", 25.0, "api-key:rel"),
        ("abort", 0.0, "api-key:oc")]
    assert events[1].details["previous_weight_pct"] == 1.0
    assert events[2].details["reason"] == "p99 up"
    assert "gate_report" in events[0].details


def test_advance_to_the_last_step_completes(stores) -> None:  # type: ignore[no-untyped-def]
    db, routes, canaries, spool = stores
    policy, sink = _policy(steps=[10, 100]), MemorySink()
    record_report(db, PAIR, policy.content_hash, spool)
    canary.start(routes, canaries, sink, route="default", pair_hash=PAIR, policy=policy,
                 actor="a", role="release", reason="go")
    s = canary.advance(canaries, sink, route="default", policy=policy, actor="a", role="admin",
                       reason="r")
    assert (s.status, s.weight_pct) == ("complete", 100.0)
    with pytest.raises(GovernanceRefused, match="no canary runs"):
        canary.advance(canaries, sink, route="default", policy=policy, actor="a", role="admin",
                       reason="r")
    # complete: the route serves speculatively for every key
    assert effective_mode("target_only", routes.get("default"), canary=canaries.get("default"),
                          route="default", request_key="u:any").mode == "speculative"


# --- the controller: widen on a passing analysis, abort on a rollback -------------------------
def _measure(outcome: str) -> dict[str, Measurement]:
    return {"acceptance": Measurement("alpha", outcome, 0.5, 0.3, 200, 128)}  # type: ignore[arg-type]


def test_controller_widens_after_a_whole_passing_step_and_aborts_on_rollback(
        stores, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import guardian.governance.rollback as rb

    db, routes, canaries, spool = stores
    policy, sink, clock = _policy(steps=[5, 50, 100], step_duration_s=60), MemorySink(), Clock()
    record_report(db, PAIR, policy.content_hash, spool)
    canary.start(routes, canaries, sink, route="default", pair_hash=PAIR, policy=policy,
                 actor="a", role="release", reason="go")
    posted: list[tuple] = []

    class Alerts:
        def rollback(self, route, fired, reason, *, pair_hash):  # type: ignore[no-untyped-def]
            posted.append((route, tuple(fired), pair_hash))

    ctl = RollbackController(routes, sink, lambda: policy, pair_hash=PAIR, clock=clock,
                             alerts=Alerts())  # type: ignore[arg-type]
    outcome = {"v": "pass"}
    monkeypatch.setattr(rb, "evaluate_triggers", lambda w, p, now: _measure(outcome["v"]))
    ctl.evaluate("default")
    assert canaries.get("default").weight_pct == 5  # passing, but not for a whole step yet
    clock.t += 61
    ctl.evaluate("default")
    assert canaries.get("default").weight_pct == 5  # the step itself is not 60 s old (wall clock)
    # age the step in the database (as if 61 s had passed on the wall clock)
    import sqlalchemy as sa

    from guardian.audit.models import CanaryState

    def age_step() -> None:
        with db.begin() as conn:
            conn.execute(sa.update(CanaryState.__table__).values(
                step_started_at=datetime(2020, 1, 1, tzinfo=UTC)))
    age_step()
    ctl.evaluate("default")
    s = canaries.get("default")
    assert (s.weight_pct, s.updated_by) == (50, canary.ANALYSIS_ACTOR)
    # an inconclusive evaluation restarts the passing clock
    age_step()
    clock.t += 61
    outcome["v"] = "inconclusive"
    ctl.evaluate("default")
    outcome["v"] = "pass"
    ctl.evaluate("default")
    assert canaries.get("default").weight_pct == 50
    # a failure that fires: rollback, canary to 0, alert posted
    outcome["v"] = "fail"
    actions_seen = []
    for _ in range(2):  # failure_limit of acceptance is 2 by default
        ctl._seen.clear()  # no new window data in this unit test: count each failure anyway
        actions_seen.append(ctl.evaluate("default").action)
    assert actions_seen == ["none", "rolled_back"]
    s = canaries.get("default")
    assert (s.status, s.weight_pct) == ("aborted", 0.0) and s.updated_by.startswith("trigger:")
    assert routes.get("default").mode == "target_only"
    assert posted == [("default", ("acceptance",), PAIR)]
    actions = [e.details["action"] for e in sink.events if e.kind == "canary"]
    assert actions == ["start", "advance", "abort"]
    analysis = ctl.analysis("default")
    assert analysis["verdict"] == "fail" and analysis["rolled_back"]


def test_a_canary_keeps_narrowing_its_route_when_the_database_is_down_at_start(
        stores, tmp_path) -> None:  # type: ignore[no-untyped-def]
    db, routes, canaries, spool = stores
    policy, sink = _policy(steps=[10, 100]), MemorySink()
    record_report(db, PAIR, policy.content_hash, spool)
    canary.start(routes, canaries, sink, route="default", pair_hash=PAIR, policy=policy,
                 actor="a", role="release", reason="go")
    state_file = tmp_path / "route-state.json"
    online = ModeResolver(RouteStateStore(db), pair_hash=PAIR, state_file=state_file)
    assert online.decide("default", "target_only", policy).source == "canary"
    keys = [f"u:{i}" for i in range(300)]
    expected = [online.decide("default", "target_only", policy, request_key=k).mode for k in keys]
    assert 10 < expected.count("speculative") < 60
    # a restart while the database is down: the file keeps the canary's share, not 100 %
    offline = ModeResolver(RouteStateStore(make_engine(
        "postgresql+psycopg://postgres@127.0.0.1:1/guardian")), pair_hash=PAIR,
        state_file=state_file)
    assert offline.source == "file"
    got = [offline.decide("default", "target_only", policy, request_key=k).mode for k in keys]
    assert got == expected
