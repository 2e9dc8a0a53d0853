"""Issue 13, item 3: turning speculation on needs evidence, turning it off never waits.

Through the sidecar app (fake backend, real SQLite route state, the app's own `attach`):
re-enable, promotion and a policy reload (admin API and the file watcher) all need a passing
gate report for the serving pair and the policy in force; an admin override with a reason is
the only way around it and is audited as one; rollback never needs a report or a cool-down.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.audit import upgrade
from guardian.audit.events import GovernanceEvent
from guardian.governance.errors import GovernanceRefused
from guardian.governance.runtime import Governance, attach
from guardian.policy import load_policy
from tests.support.api import auth, keystore
from tests.support.fakes import FakeBackend, ListSink
from tests.support.governance import record_report

POLICY = """version: 1
default_route: default
routes:
  default:
    mode: {mode}
    shadow: {{sample_rate: 1.0}}
    triggers:
      cooldown_s: 600
      evaluation_interval_s: 0.05
"""
BODY = {"model": "fake-target", "prompt": "hello", "max_tokens": 8, "temperature": 0}


class App:
    def __init__(self, client: TestClient, backend: FakeBackend, sink: ListSink,
                 gov: Governance, path: Path) -> None:
        self.client, self.backend, self.sink, self.gov, self.path = client, backend, sink, gov, path

    def served(self) -> dict:
        r = self.client.post("/v1/completions", json=BODY, headers=auth())
        assert r.status_code == 200, r.text
        return r.json()["spec_guardian"]

    def act(self, act: str, role: str, **body: object) -> object:
        return self.client.post(f"/admin/routes/default/{act}", json=body, headers=auth(role))

    def report(self, *, policy_hash: str | None = None, passed: bool = True) -> None:
        record_report(self.gov.db, self.backend.pair_hash,
                      policy_hash or self.gov.reloader.policy.content_hash,
                      self.path.parent / "spool", passed=passed)

    def events(self, kind: str) -> list[GovernanceEvent]:
        return [e for e in self.sink.events if isinstance(e, GovernanceEvent) and e.kind == kind]

    def mode(self) -> str:
        routes = self.client.get("/admin/routes", headers=auth("oncall")).json()["routes"]
        return {r["route"]: r["mode"] for r in routes}["default"]


@pytest.fixture
def make_app(tmp_path) -> Iterator:
    opened = []

    def go(mode: str = "target_only", *, watch_interval_s: float | None = None) -> App:
        url = f"sqlite:///{tmp_path / 'g.db'}"
        upgrade(url)
        path = tmp_path / "policy.yaml"
        path.write_text(POLICY.format(mode=mode))
        backend, sink = FakeBackend(), ListSink()
        services = build_services(backend, sink, keys=keystore(), policy=load_policy(path))
        gov = attach(services, url=url, policy_file=path, resolver_ttl_s=0.05)
        if watch_interval_s is not None:
            gov.reloader.interval_s = watch_interval_s
        opened.append(services)
        return App(TestClient(create_app(services=services)), backend, sink, gov, path)

    yield go
    for services in opened:
        close_services(services)


def _wait(pred, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


# --- re-enable -----------------------------------------------------------------------------
def test_reenable_of_a_never_gated_route_is_409_naming_the_missing_report(make_app) -> None:
    app = make_app("target_only")
    r = app.act("reenable", "oncall", reason="looks fine to me")
    assert r.status_code == 409
    message = r.json()["error"]["message"]
    assert f"no gate report for pair {app.backend.pair_hash[:12]}" in message
    assert "guardian gate" in message  # says what to do
    assert app.mode() == "target_only" and app.served()["served_path"] == "target_only"
    assert app.gov.store.get("default") is None and not app.events("reenable")
    # A report for another policy, or a failing one, does not count either.
    app.report(policy_hash="0" * 64)
    r = app.act("reenable", "oncall", reason="gated")
    assert r.status_code == 409 and "stale gate report" in r.json()["error"]["message"]
    time.sleep(0.01)  # the newest report wins: ordered by time
    app.report(passed=False)
    r = app.act("reenable", "oncall", reason="gated")
    assert r.status_code == 409 and "failed: greedy_equivalence" in r.json()["error"]["message"]
    time.sleep(0.01)
    app.report()
    r = app.act("reenable", "oncall", reason="gated")
    assert r.status_code == 200, r.text
    assert app.served()["served_path"] == "speculative"
    [event] = app.events("reenable")
    assert event.actor == "api-key:oncall-key" and "gate_report" in event.details
    assert "override" not in event.details


def _deliver(app: App, event: GovernanceEvent) -> None:
    from guardian.audit.writer import AuditWriter

    writer = AuditWriter(app.gov.db.url.render_as_string(hide_password=False),
                         spool_dir=app.path.parent / "spool")
    try:
        writer.submit(event)
    finally:
        writer.close()


@pytest.mark.parametrize("act,role", [("reenable", "oncall"), ("promote", "release")])
def test_an_override_needs_the_admin_role_and_a_reason_and_is_audited(make_app, act, role) -> None:
    app = make_app("target_only")
    r = app.act(act, role, reason="trust me", override=True)
    assert r.status_code == 403 and "admin role" in r.json()["error"]["message"]
    r = app.act(act, "admin", reason="  ", override=True)
    assert r.status_code == 400 and r.json()["error"]["param"] == "reason"
    r = app.act(act, "admin", reason="", override=False)
    assert r.status_code == 409  # no report, no override: refused like anyone else
    assert app.gov.store.get("default") is None
    r = app.act(act, "admin", reason="incident 42: gate infra down, pair verified by hand",
                override=True)
    assert r.status_code == 200, r.text
    [event] = app.events("reenable" if act == "reenable" else "promotion")
    # The route state alone is no evidence (anyone who can write the database could have
    # written it): it serves once the act's signed override is in the database, as the real
    # audit writer delivers it (this app's sink is an in-memory list).
    app.gov.resolver.refresh()
    assert app.served()["served_path"] == "target_only"
    _deliver(app, event)
    app.gov.resolver.refresh()
    assert app.served()["served_path"] == "speculative"
    override = event.details["override"]
    assert event.actor == override["by"] == "api-key:admin-key"
    assert override["reason"] == "incident 42: gate infra down, pair verified by hand"
    assert "no gate report" in override["refusal"] or "not registered" in override["refusal"]
    state = app.gov.store.get("default")
    assert state.mode == "speculative" and state.updated_by == "api-key:admin-key"


def test_rollback_never_needs_a_report_nor_waits_for_a_cool_down(make_app) -> None:
    app = make_app("target_only")
    r = app.act("reenable", "admin", reason="drill", override=True)
    assert r.status_code == 200
    # Straight after turning it on (no report exists at all): off again, at once.
    r = app.act("rollback", "oncall", reason="pager")
    assert r.status_code == 200 and app.mode() == "target_only"
    # During a trigger's cool-down too: a manual rollback of a rolled-back route is fine.
    app.gov.store.set_mode("default", "target_only", actor="trigger:divergence", reason="div")
    r = app.act("rollback", "oncall", reason="belt and braces")
    assert r.status_code == 200 and app.served()["served_path"] == "target_only"
    assert [e.details["new_mode"] for e in app.events("rollback")] == ["target_only"] * 2


def test_an_act_records_the_mode_serving_was_really_in(make_app) -> None:
    """The file says speculative but no gate report exists, so serving is target_only: a
    manual disable records previous_mode target_only (not the file's word), and so does a
    promotion made afterwards."""
    from guardian.governance.promotion import promote, set_route_mode

    app = make_app("speculative")
    assert app.served()["served_path"] == "target_only"
    policy, pair = app.gov.reloader.policy, app.backend.pair_hash
    set_route_mode(app.gov.store, app.sink, route="default", mode="target_only", policy=policy,
                   actor="api-key:oncall", role="oncall", reason="drill", pair_hash=pair)
    (disabled,) = app.events("rollback")
    assert disabled.details["previous_mode"] == "target_only"
    app.report()
    promote(app.gov.store, app.sink, route="default", pair_hash=pair, policy=policy,
            actor="api-key:release", role="release", reason="gated", db=app.gov.db)
    (promoted,) = app.events("promotion")
    assert promoted.details["previous_mode"] == "target_only"


def test_set_route_mode_cannot_turn_speculation_on(store, sink) -> None:
    from guardian.governance.promotion import set_route_mode
    from tests.support.governance import governed_policy

    with pytest.raises(GovernanceRefused, match="only turns speculation off"):
        set_route_mode(store, sink, route="default", mode="speculative",
                       policy=governed_policy("target_only"), actor="x", role="admin", reason="r")
    assert store.get("default") is None


# --- policy reload -------------------------------------------------------------------------
def _decisions(app: App) -> list[GovernanceEvent]:
    return [e for e in app.events("policy_decision") if e.route == "default"
            and e.details.get("effective_mode") == "target_only"]


def test_a_reload_through_the_api_that_makes_an_ungated_route_speculative_keeps_it_target_only(
        make_app) -> None:
    app = make_app("target_only")
    before = app.gov.reloader.policy.content_hash
    app.path.write_text(POLICY.format(mode="speculative"))
    r = app.client.post("/admin/policy/reload", headers=auth("oncall"))
    assert r.status_code == 200, r.text  # the policy loads...
    new = r.json()["policy_hash"]
    assert new != before and app.gov.reloader.policy.content_hash == new
    # ...but the route stays target_only: no passing report for this pair under the new policy.
    assert {x["route"]: x["mode"] for x in r.json()["routes"]}["default"] == "target_only"
    for _ in range(3):
        assert app.served()["served_path"] == "target_only"
    assert app.client.post("/admin/policy/reload", headers=auth("oncall")).status_code == 200
    time.sleep(0.2)  # a few resolver refreshes: still audited only once
    [decision] = _decisions(app)
    assert decision.policy_hash == new and decision.pair_hash == app.backend.pair_hash
    assert decision.details["requested_mode"] == "speculative"
    # A report for the OLD policy does not help; one for the new policy does (within the TTL).
    app.report(policy_hash=before)
    time.sleep(0.2)
    assert app.served()["served_path"] == "target_only"
    time.sleep(0.01)
    app.report(policy_hash=new)
    _wait(lambda: app.served()["served_path"] == "speculative", timeout=5)
    assert len(_decisions(app)) == 1


def test_a_reload_by_the_file_watcher_is_held_to_the_same_gate(make_app) -> None:
    app = make_app("target_only", watch_interval_s=0.05)
    before = app.gov.reloader.policy.content_hash
    time.sleep(0.05)  # a different mtime than the file the reloader started with
    app.path.write_text(POLICY.format(mode="speculative") + "# edited on disk\n")
    _wait(lambda: app.gov.reloader.policy.content_hash != before)
    assert app.gov.reloader.policy.route("default").mode == "speculative"
    for _ in range(3):
        assert app.served()["served_path"] == "target_only"
    assert app.mode() == "target_only"
    assert len(_decisions(app)) == 1
    loaded = app.events("policy_loaded")
    assert loaded and loaded[-1].actor.startswith("replica:")


UNGATED = POLICY + "    gate: {{require_report: false}}\n"


def test_a_reload_cannot_switch_the_gate_off_to_turn_speculation_on(make_app) -> None:
    app = make_app("target_only")
    before = app.gov.reloader.policy.content_hash
    app.path.write_text(UNGATED.format(mode="speculative"))
    r = app.client.post("/admin/policy/reload", headers=auth("oncall"))
    assert r.status_code == 400
    message = r.json()["error"]["message"]
    assert "route(s) default" in message and "require_report" in message
    assert app.gov.reloader.policy.content_hash == before  # the last good policy stays
    assert app.served()["served_path"] == "target_only"
    [refused] = [e for e in app.events("policy_decision")
                 if e.details.get("action") == "reload_refused"]
    assert refused.actor == "api-key:oncall-key"
    # With the gate on, the same reload loads (and the resolver holds the route to it).
    app.path.write_text(POLICY.format(mode="speculative"))
    assert app.client.post("/admin/policy/reload", headers=auth("oncall")).status_code == 200
    assert app.served()["served_path"] == "target_only"


def test_gate_not_lowered_lets_an_already_ungated_route_change_other_settings() -> None:
    from guardian.policy import GatePolicy, PolicyError
    from guardian.policy.loading import gate_not_lowered
    from tests.support.governance import governed_policy

    ungated = governed_policy("speculative", gate=GatePolicy(require_report=False))
    gate_not_lowered(ungated, governed_policy("speculative", sample_rate=0.5,
                                              gate=GatePolicy(require_report=False)))
    gate_not_lowered(governed_policy("speculative"), governed_policy("target_only"))
    gate_not_lowered(governed_policy("target_only"), governed_policy("speculative"))  # gated
    for old in (governed_policy("speculative"),  # gate on -> off
                governed_policy("target_only", gate=GatePolicy(require_report=False))):
        with pytest.raises(PolicyError, match="route\\(s\\) default"):
            gate_not_lowered(old, ungated)
