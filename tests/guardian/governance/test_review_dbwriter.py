"""Review: someone with write access to the database but no key (no API key, no replica
signing key) must not be able to turn speculation ON by writing rows the sidecar acts on.

Each test plays that writer with plain SQL against a real SQLite file and a real Postgres
database (`fresh_db_url`), then asks the real code that grants speculation: the serving
path's `ModeResolver` (a policy file's `mode: speculative` held to the gate, and the
database route state), promotion and re-enable. Turning speculation OFF with forged rows is
the fail-safe direction and is not tested as a problem.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from guardian.audit import MemorySink
from guardian.audit.models import AuditGovernance, RouteState
from guardian.governance.errors import GovernanceRefused
from guardian.governance.promotion import promote
from guardian.governance.rollback import reenable_route
from guardian.governance.routestate import ModeResolver, RouteStateStore
from tests.guardian.governance.conftest import governed_policy, record_report

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
def test_the_serving_resolver_holds_route_states_to_signed_evidence(tmp_path) -> None:
    """`guardian serve`'s resolver (`runtime.attach`) has `require_signed_state` on: through
    the app, a forged speculative route state on a gated route serves target_only."""
    from fastapi.testclient import TestClient

    from guardian.app import build_services, close_services, create_app
    from guardian.audit import upgrade
    from guardian.governance.runtime import attach
    from guardian.policy import load_policy
    from tests.guardian.api.conftest import auth, keystore
    from tests.guardian.api.fakes import FakeBackend, ListSink

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
    finally:
        close_services(services)


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


def test_residual_a_rollback_of_a_genuinely_gated_pair_can_be_cleared_by_sql(db, tmp_path) -> None:
    """NOT prevented (documented): route state rows carry no signature, so a DB writer can
    put back a speculative state for a pair that holds a genuine signed passing report (e.g.
    undo a trigger's rollback). The acts' audit records (signed heads) show it afterwards."""
    policy = governed_policy("speculative")
    record_report(db, PAIR, policy.content_hash, tmp_path / "spool")
    RouteStateStore(db).set_mode("default", "target_only", actor="trigger:divergence",
                                 reason="3 diverged", pair_hash=PAIR)
    forge_route_state(db, "speculative", policy_hash=policy.content_hash)
    assert resolver(db, signed_state=True).decide("default", "speculative",
                                                  policy).mode == "speculative"



def test_the_trust_file_is_re_read_after_an_in_place_edit_that_keeps_its_mtime(tmp_path) -> None:
    """A key retired in the trust file stops counting even when the edit kept the file's size
    and put its mtime back (`cp -p`, `touch -r`): the reload looks at ctime too, as the API
    keys file's does (`guardian.fileio.file_signature`)."""
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
