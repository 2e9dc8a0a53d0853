"""Review: someone with write access to the database but no key (no API key, no replica
signing key) must not be able to turn speculation ON by writing rows the sidecar acts on.

Each test plays that writer with plain SQL against a real SQLite file and a real Postgres
database (`fresh_db_url`), then asks the real code that grants speculation: the serving
path's `ModeResolver` (a policy file's `mode: speculative` held to the gate, and the
database route state), promotion and re-enable. Turning speculation OFF with forged rows is
the fail-safe direction and is not tested as a problem.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from guardian.audit import MemorySink
from guardian.audit.models import AuditGovernance, RouteState
from guardian.governance.errors import GovernanceRefused
from guardian.governance.promotion import promote, set_route_mode
from guardian.governance.rollback import reenable_route
from guardian.governance.routestate import ModeResolver, RouteStateStore
from tests.support.audit import guards_off
from tests.support.governance import governed_policy, record_report

PAIR = "a" * 64
NOT_SIGNED = "not signed by a pinned key"


def forge_gate_row(db: sa.Engine, policy_hash: str, *, passed: bool = True,
                   details: dict | None = None) -> None:
    """What the DB writer inserts: a passing gate result for the serving pair and policy,
    shaped exactly like a genuine one (it can read genuine rows to copy from)."""
    now = datetime.now(UTC)
    details = details or {
        "pair_hash": PAIR, "policy_hash": policy_hash, "route": "default", "passed": passed,
        "created_at": now.isoformat(), "golden_sha256": "0" * 64, "golden_file": "g.jsonl",
        "checks": [{"name": "greedy_equivalence", "outcome": "pass", "value": 1.0,
                    "threshold": 1.0, "detail": "10/10 identical"}]}
    with db.begin() as conn:
        conn.execute(sa.insert(AuditGovernance.__table__).values(
            chain_id=f"forged/{uuid.uuid4().hex[:8]}", seq=1, prev_hash="0" * 64,
            hash="f" * 64, event_id=f"gov-{uuid.uuid4().hex}", created_at=now,
            kind="gate_result", route="default", pair_hash=PAIR, policy_hash=policy_hash,
            actor="api-key:release-1", details=details))


def forge_route_state(db: sa.Engine, mode: str = "speculative", *, pair: str | None = PAIR,
                      policy_hash: str | None = None) -> None:
    """Insert or overwrite the route's state row (e.g. to clear a rollback)."""
    t = RouteState.__table__
    with db.begin() as conn:
        conn.execute(sa.delete(t).where(t.c.route == "default"))
        conn.execute(sa.insert(t).values(
            route="default", mode=mode, pair_hash=pair, policy_hash=policy_hash,
            reason="promotion", version=7, updated_at=datetime.now(UTC),
            updated_by="api-key:release-1"))


def resolver(db: sa.Engine, *, signed_state: bool = False) -> ModeResolver:
    return ModeResolver(RouteStateStore(db), pair_hash=PAIR, require_signed_state=signed_state)


# --- forged gate reports -------------------------------------------------------------------
def test_a_forged_gate_row_does_not_make_a_gated_file_route_serve_speculatively(db) -> None:
    policy = governed_policy("speculative")
    assert resolver(db).decide("default", "speculative", policy).mode == "target_only"
    forge_gate_row(db, policy.content_hash)
    decision = resolver(db).decide("default", "speculative", policy)
    assert decision.mode == "target_only", decision
    assert NOT_SIGNED in decision.reason and "guardian gate" in decision.reason


def test_a_forged_gate_row_does_not_let_a_release_key_promote(db, tmp_path) -> None:
    policy = governed_policy("target_only")
    forge_gate_row(db, policy.content_hash)
    with pytest.raises(GovernanceRefused, match=NOT_SIGNED):
        promote(RouteStateStore(db), MemorySink(), route="default", pair_hash=PAIR,
                policy=policy, actor="api-key:release", role="release", reason="gate passed",
                db=db)
    assert RouteStateStore(db).get("default") is None


def test_a_forged_gate_row_does_not_let_oncall_reenable(db) -> None:
    policy = governed_policy("speculative")
    store = RouteStateStore(db)
    store.set_mode("default", "target_only", actor="oncall", reason="drill", pair_hash=PAIR)
    forge_gate_row(db, policy.content_hash)
    with pytest.raises(GovernanceRefused, match=NOT_SIGNED):
        reenable_route(store, MemorySink(), "default", actor="api-key:oncall", role="oncall",
                       reason="fixed", policy=policy, pair_hash=PAIR)


def test_a_copied_genuine_report_for_another_policy_does_not_verify(db, tmp_path) -> None:
    """The writer copies a genuine signed report and edits its policy hash (or `passed`)."""
    policy = governed_policy("speculative")
    record_report(db, PAIR, "some-older-policy", tmp_path / "spool")
    t = AuditGovernance.__table__
    with db.connect() as conn:
        genuine = dict(conn.execute(sa.select(t.c.details).where(
            t.c.kind == "gate_result")).scalar_one())
    forge_gate_row(db, policy.content_hash, details={**genuine,
                                                      "policy_hash": policy.content_hash})
    decision = resolver(db).decide("default", "speculative", policy)
    assert decision.mode == "target_only" and NOT_SIGNED in decision.reason


# --- forged route state ----------------------------------------------------------------------
@contextmanager
def served_app(tmp_path) -> Iterator[tuple[Any, Any]]:
    """(services, governance) as `guardian serve` wires them (`runtime.attach`: the serving
    resolver with `require_signed_state`) over a fake backend and a SQLite audit DB, for a
    target_only policy file."""
    from guardian.app import build_services, close_services
    from guardian.audit import upgrade
    from guardian.governance.runtime import attach
    from guardian.policy import load_policy
    from tests.support.api import keystore
    from tests.support.fakes import FakeBackend, ListSink

    url = f"sqlite:///{tmp_path / 'g.db'}"
    upgrade(url)
    path = tmp_path / "policy.yaml"
    path.write_text("version: 1\ndefault_route: default\nroutes:\n  default:\n"
                    "    mode: target_only\n    shadow: {sample_rate: 0.0}\n")
    services = build_services(FakeBackend(), ListSink(), keys=keystore(),
                              policy=load_policy(path))
    try:
        gov = attach(services, url=url, policy_file=path, resolver_ttl_s=60,
                     start_controller=False)
        yield services, gov
    finally:
        close_services(services)


def test_the_serving_resolver_holds_route_states_to_signed_evidence(tmp_path) -> None:
    """`guardian serve`'s resolver (`runtime.attach`) has `require_signed_state` on: through
    the app, a forged speculative route state on a gated route serves target_only."""
    from fastapi.testclient import TestClient

    from guardian.app import create_app
    from tests.support.api import auth

    with served_app(tmp_path) as (services, gov):
        assert gov.resolver.require_signed_state
        t = RouteState.__table__
        with gov.db.begin() as conn:
            conn.execute(sa.insert(t).values(
                route="default", mode="speculative", pair_hash=services.core.backend.pair_hash,
                policy_hash=services.core.policy_hash, reason="promotion", version=1,
                updated_at=datetime.now(UTC), updated_by="api-key:release-1"))
        gov.resolver.refresh()
        r = TestClient(create_app(services=services)).post(
            "/v1/completions", headers=auth(),
            json={"model": "fake-target", "prompt": "hi", "max_tokens": 4, "temperature": 0})
        assert r.status_code == 200 and r.json()["spec_guardian"]["served_path"] == "target_only"
        decision = gov.resolver.decide("default", "target_only", services.core.policy)
        assert decision.mode == "target_only" and "route state says speculative" in decision.reason


def test_a_forged_speculative_route_state_does_not_turn_a_target_only_route_on(db) -> None:
    """The policy file says target_only and no gate report exists at all."""
    policy = governed_policy("target_only")
    forge_route_state(db, "speculative", policy_hash=policy.content_hash)
    decision = resolver(db, signed_state=True).decide("default", "target_only", policy)
    assert decision.mode == "target_only", decision
    assert NOT_SIGNED in decision.reason or "no gate report" in decision.reason


@pytest.mark.parametrize("pair", [PAIR, None])
def test_clearing_a_rollback_by_sql_does_not_resume_speculation_without_a_report(db, pair) -> None:
    policy = governed_policy("speculative")
    store = RouteStateStore(db)
    store.set_mode("default", "target_only", actor="trigger:divergence", reason="3 diverged",
                   pair_hash=PAIR, policy_hash=policy.content_hash)
    forge_route_state(db, "speculative", pair=pair, policy_hash=policy.content_hash)
    decision = resolver(db, signed_state=True).decide("default", "speculative", policy)
    assert decision.mode == "target_only"


def test_a_forged_gate_row_plus_route_state_does_not_turn_speculation_on(db) -> None:
    policy = governed_policy("target_only")
    forge_gate_row(db, policy.content_hash)
    forge_route_state(db, "speculative", policy_hash=policy.content_hash)
    assert resolver(db, signed_state=True).decide("default", "target_only",
                                                  policy).mode == "target_only"


# --- what still works --------------------------------------------------------------------------
def test_a_genuine_signed_report_still_grants_speculation(db, tmp_path) -> None:
    policy = governed_policy("speculative")
    record_report(db, PAIR, policy.content_hash, tmp_path / "spool")
    assert resolver(db).decide("default", "speculative", policy).mode == "speculative"
    status = promote(RouteStateStore(db), MemorySink(), route="default", pair_hash=PAIR,
                     policy=policy, actor="api-key:release", role="release", reason="ok", db=db)
    assert status.mode == "speculative"
    for signed_state in (False, True):
        assert resolver(db, signed_state=signed_state).decide(
            "default", "target_only", policy).mode == "speculative"


def test_a_signed_admin_override_keeps_its_route_speculative(db, tmp_path) -> None:
    """With `require_signed_state`, an override (no report) still serves: it is signed."""
    from guardian.audit.writer import AuditWriter

    policy = governed_policy("target_only")
    writer = AuditWriter(db.url.render_as_string(hide_password=False), spool_dir=tmp_path / "s")
    try:
        promote(RouteStateStore(db), writer, route="default", pair_hash=PAIR, policy=policy,
                actor="api-key:admin", role="admin", reason="INC-7", db=db,
                override_reason="gate runner down; verified by hand")
    finally:
        writer.close()
    assert resolver(db, signed_state=True).decide("default", "target_only",
                                                  policy).mode == "speculative"


# --- undoing a rollback of a pair that holds a genuine signed report --------------------------
@pytest.fixture
def writer(db, tmp_path):
    """The real audit writer: governance acts land in the database as `guardian serve`'s do."""
    from guardian.audit.writer import AuditWriter

    w = AuditWriter(db.url.render_as_string(hide_password=False), spool_dir=tmp_path / "acts")
    yield w
    w.close()


def promoted_then_rolled_back(db, tmp_path, writer, policy) -> dict:
    """A genuinely gated pair promoted (a signed row), then rolled back by on-call; returns
    the promotion's row as the database held it (what a writer can copy back)."""
    record_report(db, PAIR, policy.content_hash, tmp_path / "spool")
    store = RouteStateStore(db)
    promote(store, writer, route="default", pair_hash=PAIR, policy=policy,
            actor="api-key:release", role="release", reason="gate passed", db=db)
    t = RouteState.__table__
    with db.connect() as conn:
        genuine = dict(conn.execute(sa.select(t)).mappings().one())
    assert genuine["signature"]  # the act signed the row it wrote
    set_route_mode(store, writer, route="default", mode="target_only", policy=policy,
                   actor="api-key:oncall", role="oncall", reason="INC-9 divergences",
                   pair_hash=PAIR)
    writer.flush()
    return genuine


def put_row(db, **row) -> None:
    t = RouteState.__table__
    with db.begin() as conn:
        conn.execute(sa.delete(t).where(t.c.route == "default"))
        conn.execute(sa.insert(t).values(**row))


def delete_row(db) -> None:
    t = RouteState.__table__
    with db.begin() as conn:
        conn.execute(sa.delete(t).where(t.c.route == "default"))


@pytest.mark.parametrize("policy_mode", ["target_only", "speculative"])
def test_a_rollback_of_a_genuinely_gated_pair_cannot_be_undone_by_sql(
        db, tmp_path, writer, policy_mode) -> None:
    """The writer holds no key but can read every row. After a rollback it (1) rewrites the
    row to speculative, (2) copies the genuine signed promotion row back, byte for byte, or
    (3) deletes the row so the policy file's mode applies. None of it serves speculatively:
    not on the replica that saw the rollback, not on a fresh one that reads the rollback in
    the audit trail."""
    policy = governed_policy(policy_mode)
    running = resolver(db, signed_state=True)
    genuine = promoted_then_rolled_back(db, tmp_path, writer, policy)
    running.refresh()
    assert running.decide("default", policy_mode, policy).mode == "target_only"

    rewritten = {**genuine, "version": genuine["version"] + 1, "reason": "all clear",
                 "updated_at": datetime.now(UTC)}
    put_row(db, **{**rewritten, "signature": None})
    for res in (running, resolver(db, signed_state=True)):
        res.refresh()
        decision = res.decide("default", policy_mode, policy)
        assert decision.mode == "target_only" and NOT_SIGNED in decision.reason, decision
    put_row(db, **rewritten)  # a genuine signature over another version does not verify
    running.refresh()
    assert NOT_SIGNED in running.decide("default", policy_mode, policy).reason

    put_row(db, **genuine)  # the signed promotion row, copied back as it was
    for res in (running, resolver(db, signed_state=True)):
        res.refresh()
        decision = res.decide("default", policy_mode, policy)
        assert decision.mode == "target_only", decision
        assert "cannot undo a rollback" in decision.reason

    delete_row(db)
    fresh = resolver(db, signed_state=True)
    for res in (running, fresh):
        res.refresh()
        decision = res.decide("default", policy_mode, policy)
        assert decision.mode == "target_only", decision
        if res is running or policy_mode == "speculative":  # else the file says target_only
            assert "deleted outside the sidecar" in decision.reason


def test_the_replica_that_saw_the_rollback_keeps_it_without_the_audit_record(
        db, tmp_path, writer) -> None:
    """The writer also deletes the rollback's audit record: the replica that saw the rollback
    (and, after a restart, its last-known-state file) still refuses the copy; `guardian audit
    verify` shows the deleted record. Only a replica that never saw it is fooled (docs/guides/security.md)."""
    policy = governed_policy("speculative")
    running = ModeResolver(RouteStateStore(db), pair_hash=PAIR, require_signed_state=True,
                           state_file=tmp_path / "route-state.json")
    genuine = promoted_then_rolled_back(db, tmp_path, writer, policy)
    running.refresh()
    t = AuditGovernance.__table__
    with db.begin() as conn:  # the writer lifts the append-only guards first
        guards_off(conn)
        assert conn.execute(sa.delete(t).where(t.c.kind == "rollback")).rowcount == 1
    put_row(db, **genuine)
    running.refresh()
    assert running.decide("default", "speculative", policy).mode == "target_only"
    restarted = ModeResolver(RouteStateStore(db), pair_hash=PAIR, require_signed_state=True,
                             state_file=tmp_path / "route-state.json")
    decision = restarted.decide("default", "speculative", policy)
    assert decision.mode == "target_only" and "this replica has seen version" in decision.reason
    delete_row(db)
    restarted.refresh()
    assert "deleted outside the sidecar" in restarted.decide("default", "speculative",
                                                             policy).reason


def test_a_prune_that_deletes_the_acts_keeps_their_versions(db, tmp_path, writer,
                                                             monkeypatch) -> None:
    """`guardian audit prune` removes the promotion's and the rollback's records (as a
    retention policy would, once they are old). A replica started after the prune, without
    the last-known-state file, still refuses the genuine promotion row copied back: the
    prune recorded each route's version (`state_floor`) before deleting the acts. A new
    promotion after the prune still serves."""
    from typer.testing import CliRunner

    import guardian.audit.retention as retention
    from guardian.cli import app

    policy = governed_policy("speculative")
    genuine = promoted_then_rolled_back(db, tmp_path, writer, policy)
    writer.close()
    # As if the acts were days old: prune everything recorded until now (Postgres rounds the
    # cutoff down to a day).
    monkeypatch.setattr(retention, "prune_cutoff",
                        lambda spec: datetime.now(UTC) + timedelta(days=1))
    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "cli-home"))
    url = db.url.render_as_string(hide_password=False)
    out = CliRunner().invoke(app, ["audit", "prune", "--url", url, "--older-than", "1d",
                                   "--dev"])
    assert out.exit_code == 0 and "chains anchored" in out.output, out.output
    t = AuditGovernance.__table__
    with db.connect() as conn:
        kinds = {k for (k,) in conn.execute(sa.select(t.c.kind))}
    assert not kinds & {"promotion", "rollback"}, kinds  # the acts' records are gone
    assert "state_floor" in kinds

    record_report(db, PAIR, policy.content_hash, tmp_path / "spool-2")  # a report stands
    put_row(db, **genuine)  # the signed promotion row, copied back over the rollback
    fresh = resolver(db, signed_state=True)
    decision = fresh.decide("default", "speculative", policy)
    assert decision.mode == "target_only" and "cannot undo a rollback" in decision.reason, \
        decision
    delete_row(db)
    fresh.refresh()
    assert "deleted outside the sidecar" in fresh.decide("default", "speculative",
                                                         policy).reason
    from guardian.audit.writer import AuditWriter

    again = AuditWriter(url, spool_dir=tmp_path / "acts-2")
    try:
        promote(RouteStateStore(db), again, route="default", pair_hash=PAIR, policy=policy,
                actor="api-key:release", role="release", reason="promoted again", db=db)
    finally:
        again.close()
    fresh.refresh()
    assert fresh.decide("default", "speculative", policy).mode == "speculative"


def test_a_prune_whose_floors_do_not_reach_the_database_prunes_nothing(db, tmp_path, writer,
                                                                       monkeypatch) -> None:
    """The floors must be in the database before any act's record goes: if they are not
    (here, a writer that loses them), the prune stops with an error and deletes nothing."""
    from typer.testing import CliRunner

    import guardian.audit.retention as retention
    import guardian.cli.audit.prune as cli_prune
    from guardian.cli import app

    promoted_then_rolled_back(db, tmp_path, writer, governed_policy("speculative"))
    writer.close()

    # accepts events, never writes them to the database
    monkeypatch.setattr(cli_prune, "open_writer", lambda url: MemorySink())
    monkeypatch.setattr(retention, "prune_cutoff",
                        lambda spec: datetime.now(UTC) + timedelta(days=1))
    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "cli-home"))
    out = CliRunner().invoke(app, ["audit", "prune", "--url",
                                   db.url.render_as_string(hide_password=False),
                                   "--older-than", "1d", "--dev"])
    assert out.exit_code == 1 and "nothing was pruned" in out.output, out.output
    t = AuditGovernance.__table__
    with db.connect() as conn:
        kinds = {k for (k,) in conn.execute(sa.select(t.c.kind))}
    assert {"promotion", "rollback"} <= kinds and "audit_prune" not in kinds, kinds


def test_through_the_app_a_copied_promotion_row_does_not_undo_an_api_rollback(tmp_path) -> None:
    """`guardian serve`'s app: release promotes over the API (a signed report behind it),
    on-call rolls back over the API, the writer copies the promotion's row back by SQL: the
    next request is served target_only, and the route's state says why."""
    from fastapi.testclient import TestClient

    from engine.identity import PairIdentity
    from guardian.app import create_app
    from guardian.governance.registry import PairRegistry
    from tests.support.api import auth

    with served_app(tmp_path) as (services, gov):
        pair = services.core.backend.pair_hash
        PairRegistry(gov.db).register(PairIdentity(pair, "d", "t", "tok", "tpl", "draft",
                                                   "target"), actor="test")
        record_report(gov.db, pair, services.core.policy_hash, tmp_path / "spool")
        client = TestClient(create_app(services=services))

        def served() -> str:
            r = client.post("/v1/completions", headers=auth(), json={
                "model": "fake-target", "prompt": "hi", "max_tokens": 4, "temperature": 0})
            assert r.status_code == 200, r.text
            return r.json()["spec_guardian"]["served_path"]

        r = client.post("/admin/routes/default/promote", json={"reason": "gated"},
                        headers=auth("release"))
        assert r.status_code == 200, r.text
        assert served() == "speculative"
        t = RouteState.__table__
        with gov.db.connect() as conn:
            genuine = dict(conn.execute(sa.select(t)).mappings().one())
        assert client.post("/admin/routes/default/rollback", json={"reason": "INC-9"},
                           headers=auth("oncall")).status_code == 200
        assert served() == "target_only"
        with gov.db.begin() as conn:
            conn.execute(sa.delete(t))
            conn.execute(sa.insert(t).values(**genuine))
        gov.resolver.refresh()
        assert served() == "target_only"
        decision = gov.resolver.decide("default", "target_only", services.core.policy)
        assert "cannot undo a rollback" in decision.reason, decision


def test_a_genuine_reenable_or_promotion_after_the_rollback_still_serves(
        db, tmp_path, writer) -> None:
    """The rule refuses copies, not acts: on-call's re-enable after the rollback serves on
    the replica that saw the rollback, and a promotion after a deleted row restores it."""
    policy = governed_policy("speculative")
    running = resolver(db, signed_state=True)
    promoted_then_rolled_back(db, tmp_path, writer, policy)
    running.refresh()
    store = RouteStateStore(db)
    reenable_route(store, writer, "default", actor="api-key:oncall", role="oncall",
                   reason="fixed", policy=policy, pair_hash=PAIR, force=True)
    running.refresh()
    assert running.decide("default", "speculative", policy).mode == "speculative"
    assert resolver(db, signed_state=True).decide("default", "speculative",
                                                  policy).mode == "speculative"
    set_route_mode(store, writer, route="default", mode="target_only", policy=policy,
                   actor="api-key:oncall", role="oncall", reason="again", pair_hash=PAIR)
    writer.flush()
    delete_row(db)
    running.refresh()
    assert running.decide("default", "speculative", policy).mode == "target_only"
    promote(store, writer, route="default", pair_hash=PAIR, policy=policy,
            actor="api-key:release", role="release", reason="promoted again", db=db)
    running.refresh()
    assert running.decide("default", "speculative", policy).mode == "speculative"


def forge_act(db, n: int = 1, **values) -> None:
    """Plain inserts into the governance log (no trigger lifted): what any writer can add."""
    from datetime import timedelta

    now = datetime.now(UTC)
    with db.begin() as conn:
        for i in range(n):
            row = dict(chain_id=f"forged/{uuid.uuid4().hex[:8]}", seq=1, prev_hash="0" * 64,
                       hash="f" * 64, event_id=f"gov-{uuid.uuid4().hex}",
                       created_at=now + timedelta(seconds=1 + i), kind="canary",
                       route="default", actor="x", details={"action": "advance"})
            row.update(values)
            conn.execute(sa.insert(AuditGovernance.__table__).values(**row))


def test_flooding_the_audit_trail_does_not_hide_the_rollback(db, tmp_path, writer) -> None:
    """Newer acts inserted by the writer cannot lower the version the trail records (a max):
    a fresh replica still refuses the copied promotion row."""
    policy = governed_policy("target_only")
    genuine = promoted_then_rolled_back(db, tmp_path, writer, policy)
    forge_act(db, 60)
    forge_act(db, 3, kind="reenable", details={"state_version": 1})
    put_row(db, **genuine)
    decision = resolver(db, signed_state=True).decide("default", "target_only", policy)
    assert decision.mode == "target_only" and "the audit trail records version" in decision.reason


def test_a_hostile_audit_row_is_read_past_and_breaks_nothing(db, tmp_path, writer) -> None:
    """One audit row whose version cannot be read (SQLite: not JSON; Postgres: a version that
    is not a number) is read past, row by row: the replica that granted the promotion does
    not keep that grant for the copied row, a fresh replica refuses it too, the status pages
    answer, and on-call's next disable is written above every recorded version (a failing
    version query would have let it be written at version 1, below the copy)."""
    from guardian.governance.gatecheck import modes_in_force

    policy = governed_policy("target_only")
    running = resolver(db, signed_state=True)
    genuine = promoted_then_rolled_back(db, tmp_path, writer, policy)
    running.refresh()
    if db.dialect.name == "sqlite":
        with db.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO audit_governance (chain_id, seq, prev_hash, hash, event_id, "
                "created_at, kind, route, actor, details) VALUES ('forged', 1, '0', 'f', 'e', "
                "'2099-01-01 00:00:00.000000', 'canary', 'default', 'x', 'not json')")
    forge_act(db, details={"state_version": "lots"})
    put_row(db, **genuine)
    running.refresh()
    for res in (running, resolver(db, signed_state=True)):
        decision = res.decide("default", "target_only", policy)
        assert decision.mode == "target_only" and "cannot undo a rollback" in decision.reason
    pages = modes_in_force(db, policy, RouteStateStore(db).all(), pair_hash=PAIR, canaries={})
    assert pages["default"].mode == "target_only"
    delete_row(db)
    status = set_route_mode(RouteStateStore(db), writer, route="default", mode="target_only",
                            policy=policy, actor="api-key:oncall", role="oncall",
                            reason="again", pair_hash=PAIR)
    assert status.version == 3  # above the rollback's recorded 2, the row being gone
    writer.flush()
    t = AuditGovernance.__table__
    with db.connect() as conn:
        rollbacks = conn.execute(sa.select(sa.func.count()).where(
            t.c.kind == "rollback", t.c.actor == "api-key:oncall")).scalar()
    assert rollbacks == 2


def test_a_promotion_row_copied_over_a_canary_start_does_not_serve_the_whole_route(
        db, tmp_path) -> None:
    """Promoted, then a canary of the same pair started (a newer state): the writer copies
    the promotion row back (no canary to narrow it) and deletes the canary row."""
    from guardian.audit.models import CanaryState
    from guardian.governance import canary as acts
    from guardian.governance.canarystate import CanaryStore

    policy = governed_policy("target_only")
    record_report(db, PAIR, policy.content_hash, tmp_path / "spool")
    store = RouteStateStore(db)
    promote(store, MemorySink(), route="default", pair_hash=PAIR, policy=policy,
            actor="api-key:release", role="release", reason="ok", db=db)
    t = RouteState.__table__
    with db.connect() as conn:
        promotion = dict(conn.execute(sa.select(t)).mappings().one())
    acts.start(store, CanaryStore(db), MemorySink(), route="default", pair_hash=PAIR,
               policy=policy, actor="api-key:release", role="release", reason="re-verify")
    res = resolver(db, signed_state=True)
    assert res.decide("default", "target_only", policy).source == "canary"
    put_row(db, **promotion)
    with db.begin() as conn:
        conn.execute(sa.delete(CanaryState.__table__))
    res.refresh()
    decision = res.decide("default", "target_only", policy)
    assert decision.mode == "target_only" and "this replica has seen version" in decision.reason


def test_a_turn_off_kept_at_the_old_version_still_raises_this_replicas_floor(db, tmp_path) -> None:
    """The writer keeps a disable from raising the version (a database trigger resetting it,
    say): the replica reads a different row at the version it had read, so it knows a newer
    state existed, and refuses the promotion row copied back afterwards."""
    policy = governed_policy("target_only")
    record_report(db, PAIR, policy.content_hash, tmp_path / "spool")
    promote(RouteStateStore(db), MemorySink(), route="default", pair_hash=PAIR, policy=policy,
            actor="api-key:release", role="release", reason="ok", db=db)
    t = RouteState.__table__
    with db.connect() as conn:
        genuine = dict(conn.execute(sa.select(t)).mappings().one())
    running = resolver(db, signed_state=True)
    assert running.decide("default", "target_only", policy).mode == "speculative"
    with db.begin() as conn:  # the disable, as the trigger left it: same version
        conn.execute(sa.update(t).values(mode="target_only", reason="INC-4", signature=None,
                                         updated_by="api-key:oncall"))
    running.refresh()
    put_row(db, **genuine)
    running.refresh()
    decision = running.decide("default", "target_only", policy)
    assert decision.mode == "target_only" and "has seen version 2" in decision.reason


def test_a_disable_ends_the_running_canary_so_no_row_can_widen_it_later(db, tmp_path) -> None:
    """On-call disables a route while its canary runs: the canary is aborted with it (signed,
    audited), so after a re-enable no running canary row is left whose deletion or edit
    would change the share; and a promotion ends a running canary too."""
    from guardian.governance import canary as acts
    from guardian.governance.canarystate import CanaryStore

    policy = governed_policy("target_only")
    record_report(db, PAIR, policy.content_hash, tmp_path / "spool")
    store, canaries, sink = RouteStateStore(db), CanaryStore(db), MemorySink()
    acts.start(store, canaries, sink, route="default", pair_hash=PAIR, policy=policy,
               actor="api-key:release", role="release", reason="v2")
    set_route_mode(store, sink, route="default", mode="target_only", policy=policy,
                   actor="api-key:oncall", role="oncall", reason="INC-5", pair_hash=PAIR)
    assert canaries.get("default").status == "aborted"
    assert [e.details.get("action") for e in sink.governance if e.kind == "canary"] == [
        "start", "abort"]
    acts.start(store, canaries, sink, route="default", pair_hash=PAIR, policy=policy,
               actor="api-key:release", role="release", reason="v2 again")
    promote(store, sink, route="default", pair_hash=PAIR, policy=policy,
            actor="api-key:release", role="release", reason="all in", db=db)
    assert canaries.get("default").status == "aborted"
    res = resolver(db, signed_state=True)
    assert res.decide("default", "target_only", policy).source == "database"  # whole route


def test_a_canary_row_too_deep_to_parse_stops_neither_refresh_nor_rollback(db, tmp_path,
                                                                          writer) -> None:
    """`steps` nested 8,192 deep makes `json.loads` raise RecursionError: the row reads as
    unreadable (0 %), every replica keeps refreshing, and a disable through a replica is
    served and recorded."""
    from guardian.audit.models import CanaryState

    policy = governed_policy("target_only")
    record_report(db, PAIR, policy.content_hash, tmp_path / "spool")
    promote(RouteStateStore(db), writer, route="default", pair_hash=PAIR, policy=policy,
            actor="api-key:release", role="release", reason="ok", db=db)
    with db.begin() as conn:
        conn.execute(sa.insert(CanaryState.__table__).values(
            route="zzz", status="running", steps="[" * 8192, step_index=0, weight_pct=1.0,
            version=1, step_started_at=datetime.now(UTC), updated_at=datetime.now(UTC),
            updated_by="x"))
    other = resolver(db, signed_state=True)
    store = RouteStateStore(db)
    acting = ModeResolver(store, pair_hash=PAIR, require_signed_state=True)
    assert acting.decide("default", "target_only", policy).mode == "speculative"
    set_route_mode(store, writer, route="default", mode="target_only", policy=policy,
                   actor="api-key:oncall", role="oncall", reason="INC-6", pair_hash=PAIR)
    writer.flush()
    assert other.refresh()
    for res in (acting, other):
        assert res.decide("default", "target_only", policy).mode == "target_only"
    t = AuditGovernance.__table__
    with db.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).where(t.c.kind == "rollback")).scalar() == 1


def test_a_route_without_a_gate_report_is_held_to_signed_states_too(db, tmp_path,
                                                                    writer) -> None:
    """`gate.require_report: false`: the file may grant speculation without a report, but a
    rollback of the route is not undone by an unsigned row or by deleting its row."""
    from guardian.policy import GatePolicy

    policy = governed_policy("speculative", gate=GatePolicy(require_report=False))
    running = resolver(db, signed_state=True)
    assert running.decide("default", "speculative", policy).mode == "speculative"
    set_route_mode(RouteStateStore(db), writer, route="default", mode="target_only",
                   policy=policy, actor="trigger:divergence", role="oncall", reason="3 diverged",
                   pair_hash=PAIR)
    writer.flush()
    with db.begin() as conn:
        conn.execute(sa.update(RouteState.__table__).values(mode="speculative"))
    running.refresh()
    decision = running.decide("default", "speculative", policy)
    assert decision.mode == "target_only" and NOT_SIGNED in decision.reason
    delete_row(db)
    for res in (running, resolver(db, signed_state=True)):
        res.refresh()
        decision = res.decide("default", "speculative", policy)
        assert decision.mode == "target_only" and "deleted outside" in decision.reason


def test_a_route_state_table_that_cannot_be_read_while_the_database_answers_fails_closed(
        db, tmp_path, writer) -> None:
    """The writer renames `route_state` away right after a rollback, before this replica
    reads it: the database still answers, so the replica does not keep serving the rows it
    held (an outage would keep them)."""
    policy = governed_policy("target_only")
    record_report(db, PAIR, policy.content_hash, tmp_path / "spool")
    promote(RouteStateStore(db), writer, route="default", pair_hash=PAIR, policy=policy,
            actor="api-key:release", role="release", reason="ok", db=db)
    running = resolver(db, signed_state=True)
    assert running.decide("default", "target_only", policy).mode == "speculative"
    with db.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE route_state RENAME TO route_state_gone")
    try:
        assert not running.refresh()
        decision = running.decide("default", "target_only", policy)
        assert decision.mode == "target_only" and "cannot be read" in decision.reason
    finally:
        with db.begin() as conn:
            conn.exec_driver_sql("ALTER TABLE route_state_gone RENAME TO route_state")


def test_an_act_that_turns_speculation_on_without_a_signing_key_is_refused(
        db, tmp_path, monkeypatch) -> None:
    """Without a key the state would be reported done and serve target_only everywhere; so
    promotion refuses, while turning speculation off still works without one."""
    from guardian.governance import statesig

    policy = governed_policy("target_only")
    record_report(db, PAIR, policy.content_hash, tmp_path / "spool")
    monkeypatch.setattr(statesig, "state_signer", lambda actor: None)
    with pytest.raises(GovernanceRefused, match="audit signing key"):
        promote(RouteStateStore(db), MemorySink(), route="default", pair_hash=PAIR,
                policy=policy, actor="api-key:release", role="release", reason="ok", db=db)
    assert RouteStateStore(db).get("default") is None
    set_route_mode(RouteStateStore(db), MemorySink(), route="default", mode="target_only",
                   policy=policy, actor="api-key:oncall", role="oncall", reason="drill",
                   pair_hash=PAIR)
    assert RouteStateStore(db).get("default").mode == "target_only"


def test_the_trust_file_is_re_read_after_an_in_place_edit_that_keeps_its_mtime(tmp_path) -> None:
    """A key retired in the trust file stops counting even when the edit kept the file's size
    and put its mtime back (`cp -p`, `touch -r`): the reload looks at ctime too, as the API
    keys file's does (`guardian.core.fileio.file_signature`)."""
    import json
    import os
    import time

    from guardian.governance.reportsig import current_trust

    path = tmp_path / "audit-trust.json"

    def write(not_after: str) -> None:
        path.write_text(json.dumps({"format": "guardian-audit-trust/v1", "keys": [
            {"key_id": "k1", "public_key": "A" * 44, "not_before": None,
             "not_after": not_after}]}))

    write("2099-01-01T00:00:00+00:00")
    assert current_trust(path)["keys"][0]["not_after"].startswith("2099")
    st = path.stat()
    time.sleep(0.01)  # a later ctime
    write("2026-01-01T00:00:00+00:00")  # retired: same length, so the same size
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
    assert current_trust(path)["keys"][0]["not_after"].startswith("2026")


def test_a_key_rotated_while_an_act_signs_still_gives_a_state_that_serves(db, monkeypatch,
                                                                          ) -> None:
    """`guardian audit keys rotate` between an act loading the key and signing its row: the
    row was signed after the old key's retirement and served nowhere, while the act reported
    success (second review). The act re-signs with the key now in place."""
    import guardian.governance.routestate.store as routestate_store
    from guardian.audit.signing import key_paths, rotate
    from guardian.policy import GatePolicy
    from guardian.settings import get_settings

    policy = governed_policy("speculative", gate=GatePolicy(require_report=False))
    key_path, trust_path = key_paths(get_settings())
    routestate_store.state_signer("setup")  # this home's key exists (generated as a start would)
    real_sign, rotated = routestate_store.sign_state, []

    def rotate_first(*args, **kwargs):
        if not rotated:
            rotated.append(rotate(key_path, trust_path, "replica"))
        return real_sign(*args, **kwargs)

    monkeypatch.setattr(routestate_store, "sign_state", rotate_first)
    status = RouteStateStore(db).set_mode("default", "speculative", actor="api-key:release",
                                          reason="promotion", pair_hash=PAIR,
                                          policy_hash=policy.content_hash)
    assert rotated and status.signature
    assert json.loads(status.signature)["key_id"] == rotated[0][1].key_id  # the new key
    decision = resolver(db, signed_state=True).decide("default", "speculative", policy)
    assert decision.mode == "speculative", decision
