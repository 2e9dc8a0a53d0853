"""Review: the CANARY state against someone with write access to the database but no key.

The writer edits `canary_state` (and, where a probe needs it, `route_state`) with plain SQL
on a real SQLite file and a real Postgres database (`fresh_db_url`), then asks the real code
that decides and shows modes: the serving `ModeResolver` (with `require_signed_state`, as
`guardian serve` runs it), `modes_in_force` as `guardian route status` and the dashboard use it,
the canary acts and the rollback controller.

The rule probed: a canary only narrows a speculative route state, and that state serves only
with signed evidence (a signed passing gate report for the serving pair and policy, or a
signed admin override) on routes whose policy asks for a report. So a canary row can never
turn speculation on by itself; hostile values in it must neither crash the resolver (whose
refresh thread carries every later rollback to this replica) nor make a status page show a
share other than the one replicas serve. And since the acts sign every canary row, with the
run its start wrote into the route state (`guardian.governance.statesig`), widening,
deleting or reviving the canary of a route whose state has genuine signed evidence serves
0 % of it.
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from guardian.audit import MemorySink
from guardian.audit.models import CanaryState, RouteState
from guardian.governance import canary as acts
from guardian.governance.canarystate import CanaryStore, canaries_of
from guardian.governance.gatecheck import modes_in_force
from guardian.governance.modes import canary_bucket
from guardian.governance.routestate import ModeResolver, RouteStateStore
from tests.support.governance import governed_policy, record_report

PAIR = "a" * 64


def is_sqlite(db: sa.Engine) -> bool:
    return db.dialect.name == "sqlite"


def forge_canary(db: sa.Engine, route: str = "default", **values: object) -> None:
    """Insert or overwrite the route's canary row (values as SQL sees them)."""
    row: dict[str, object] = dict(status="running", steps=json.dumps([1, 5, 25, 50, 100]),
                                  step_index=0, weight_pct=1.0, pair_hash=PAIR,
                                  reason="canary", version=3,
                                  step_started_at=datetime.now(UTC),
                                  updated_at=datetime.now(UTC), updated_by="api-key:release-1")
    row.update(values)
    t = CanaryState.__table__
    with db.begin() as conn:
        conn.execute(sa.delete(t).where(t.c.route == route))
        conn.execute(sa.insert(t).values(route=route, **row))


def forge_raw(db: sa.Engine, sql: str, **params: object) -> None:
    """Raw SQL: SQLite stores any value in any column (a string in `weight_pct` ...)."""
    with db.begin() as conn:
        conn.execute(sa.text(sql), params)


def forge_route_state(db: sa.Engine, mode: str = "speculative", *, policy_hash: str | None,
                      pair: str | None = PAIR, route: str = "default") -> None:
    t = RouteState.__table__
    with db.begin() as conn:
        conn.execute(sa.delete(t).where(t.c.route == route))
        conn.execute(sa.insert(t).values(
            route=route, mode=mode, pair_hash=pair, policy_hash=policy_hash,
            reason="canary: ok", version=9, updated_at=datetime.now(UTC),
            updated_by="api-key:release-1"))


def resolver(db: sa.Engine) -> ModeResolver:
    """The serving resolver as `guardian serve` builds it (`runtime.attach`)."""
    return ModeResolver(RouteStateStore(db), pair_hash=PAIR, require_signed_state=True)


def status_page(db: sa.Engine, policy) -> dict:
    """`guardian route status` / the dashboard's decision of every route."""
    return modes_in_force(db, policy, RouteStateStore(db).all(), pair_hash=PAIR,
                          canaries=canaries_of(db))


def served_share(res: ModeResolver, policy, n: int = 400) -> float:
    """% of `n` sticky keys the replica serves speculatively."""
    spec = sum(res.decide("default", policy.route("default").mode, policy,
                          request_key=f"u:{i}").mode == "speculative" for i in range(n))
    return 100.0 * spec / n


def start_genuine_canary(db: sa.Engine, policy, tmp_path) -> None:
    record_report(db, PAIR, policy.content_hash, tmp_path / "spool")
    acts.start(RouteStateStore(db), CanaryStore(db), MemorySink(), route="default",
               pair_hash=PAIR, policy=policy, actor="api-key:release", role="release",
               reason="draft v2 passed")


# --- can a canary row grant speculation? -------------------------------------------------------
@pytest.mark.parametrize("status", ["running", "complete"])
@pytest.mark.parametrize("policy_mode", ["target_only", "speculative"])
def test_a_forged_canary_alone_grants_no_speculation(db, policy_mode, status) -> None:
    """No route state, no report: a running (or `complete`, 100 %) canary row changes nothing."""
    policy = governed_policy(policy_mode)
    forge_canary(db, status=status, weight_pct=100.0, step_index=4)
    res = resolver(db)
    assert served_share(res, policy) == 0.0
    assert res.decide("default", policy_mode, policy).mode == "target_only"
    assert status_page(db, policy)["default"].mode == "target_only"


def test_a_forged_canary_plus_forged_route_state_serves_no_share(db) -> None:
    """The canary sits under a speculative route state: a forged one (no signed report) is
    refused before the canary is looked at, so no key lands inside any share."""
    policy = governed_policy("target_only")
    forge_route_state(db, policy_hash=policy.content_hash)
    forge_canary(db, weight_pct=50.0, step_index=3)
    res = resolver(db)
    assert served_share(res, policy) == 0.0
    decision = res.decide("default", "target_only", policy)
    assert decision.mode == "target_only" and decision.source == "gate", decision
    assert status_page(db, policy)["default"].mode == "target_only"


def test_reviving_an_aborted_canary_needs_a_signed_report_for_the_pair(db, tmp_path) -> None:
    """Abort, then the writer flips the canary back to running and the state to speculative,
    under a policy whose newest report for the pair is a signed FAILING one: no share."""
    policy = governed_policy("target_only")
    start_genuine_canary(db, policy, tmp_path)
    acts.abort(RouteStateStore(db), CanaryStore(db), MemorySink(), route="default",
               policy=policy, actor="api-key:oncall", role="oncall", reason="p99")
    record_report(db, PAIR, policy.content_hash, tmp_path / "spool2", passed=False)
    forge_canary(db, status="running", weight_pct=25.0, step_index=2)
    forge_route_state(db, policy_hash=policy.content_hash)
    res = resolver(db)
    assert served_share(res, policy) == 0.0
    assert status_page(db, policy)["default"].mode == "target_only"


def test_a_canary_kept_running_after_a_rollback_is_ignored(db, tmp_path) -> None:
    """A trigger's rollback sets the route target_only; a canary row put back to running
    (the writer leaves the route state alone) narrows nothing: nothing is speculative."""
    policy = governed_policy("target_only")
    start_genuine_canary(db, policy, tmp_path)
    RouteStateStore(db).set_mode("default", "target_only", actor="trigger:divergence",
                                 reason="3 diverged", pair_hash=PAIR,
                                 policy_hash=policy.content_hash)
    forge_canary(db, status="running", weight_pct=100.0, step_index=4)
    res = resolver(db)
    assert served_share(res, policy) == 0.0
    assert res.decide("default", "target_only", policy).source == "database"
    assert status_page(db, policy)["default"].mode == "target_only"


def test_widening_or_deleting_the_canary_of_a_genuinely_gated_route_is_refused(db, tmp_path,
                                                                             ) -> None:
    """With a genuine signed report and a signed speculative state behind the route, the
    writer widens the canary row (unsigned), edits the genuine row's weight (its signature no
    longer matches), or deletes it (the whole route would serve): each serves 0 %. A genuine
    advance still widens, and a copy of that wider row replayed after an abort and a new
    canary start serves 0 % (a row of another canary run)."""
    policy = governed_policy("target_only")
    start_genuine_canary(db, policy, tmp_path)
    res = resolver(db)
    assert 0.0 < served_share(res, policy) < 10.0  # the genuine 1 % step
    t = CanaryState.__table__
    with db.connect() as conn:
        genuine = dict(conn.execute(sa.select(t)).mappings().one())
    forge_canary(db, weight_pct=50.0, step_index=3)
    res.refresh()
    assert served_share(res, policy) == 0.0
    assert "canary row is not signed" in res.decide("default", "target_only", policy).reason
    forge_canary(db, **{**genuine, "weight_pct": 50.0, "step_index": 3})
    res.refresh()
    assert served_share(res, policy) == 0.0
    forge_raw(db, "DELETE FROM canary_state")
    res.refresh()
    assert served_share(res, policy) == 0.0
    assert "canary row is gone" in res.decide("default", "target_only", policy).reason
    assert status_page(db, policy)["default"].mode == "target_only"  # what `route status` says

    forge_canary(db, **genuine)  # the genuine row back: the route serves its 1 % again
    res.refresh()
    assert 0.0 < served_share(res, policy) < 10.0
    acts.advance(CanaryStore(db), MemorySink(), route="default", policy=policy,
                 actor="api-key:release", role="release", reason="step 1 clean")
    res.refresh()
    assert 2.0 < served_share(res, policy) < 9.0  # 5 %
    with db.connect() as conn:
        wider = dict(conn.execute(sa.select(t)).mappings().one())
    acts.abort(RouteStateStore(db), CanaryStore(db), MemorySink(), route="default",
               policy=policy, actor="api-key:oncall", role="oncall", reason="p99")
    res.refresh()  # the replica sees the abort (within its refresh interval)
    assert served_share(res, policy) == 0.0
    acts.start(RouteStateStore(db), CanaryStore(db), MemorySink(), route="default",
               pair_hash=PAIR, policy=policy, actor="api-key:release", role="release",
               reason="draft v3")
    res.refresh()
    assert 0.0 < served_share(res, policy) < 2.5  # the new canary's 1 %
    forge_canary(db, **wider)
    res.refresh()
    assert served_share(res, policy) == 0.0
    assert "a copy of an earlier canary" in res.decide("default", "target_only", policy).reason


# --- hostile values: the resolver keeps refreshing, requests keep being answered -------------
HOSTILE = [  # SQLite stores any type in any column; Postgres refuses those (skipped there)
    ("steps", "UPDATE canary_state SET steps = 'not json'"),
    ("steps", "UPDATE canary_state SET steps = 'null'"),
    ("steps", "UPDATE canary_state SET steps = '{\"a\": 1}'"),
    ("steps", "UPDATE canary_state SET steps = '[]'"),
    ("steps", "UPDATE canary_state SET steps = '[\"x\"]'"),
    ("weight", "UPDATE canary_state SET weight_pct = 'lots'"),
    ("weight", "UPDATE canary_state SET weight_pct = NULL"),
    ("step_index", "UPDATE canary_state SET step_index = 'two'"),
    ("version", "UPDATE canary_state SET version = 'v9'"),
    ("time", "UPDATE canary_state SET step_started_at = 'yesterday'"),
    ("time", "UPDATE canary_state SET updated_at = 12"),
    ("steps", "UPDATE canary_state SET steps = '5'"),
    ("steps", "UPDATE canary_state SET steps = '[1, 5, NaN]'"),
]


def _hostile(db: sa.Engine, sql: str) -> None:
    try:
        forge_raw(db, sql)
    except sa.exc.DBAPIError:  # Postgres checks types and NOT NULL; SQLite only NOT NULL
        pytest.skip("this database refuses the value")


@pytest.mark.parametrize("what,sql", HOSTILE, ids=[f"{w}-{i}" for i, (w, _) in enumerate(HOSTILE)])
def test_a_hostile_canary_row_does_not_stop_the_resolver(db, tmp_path, what, sql) -> None:
    """The writer breaks a running canary's row. Every reader (the serving resolver and
    its refresh, the status pages, the canary acts, `canary status`) still answers; a
    rollback made afterwards applies on this replica; the route never serves more than the
    genuine step did."""
    policy = governed_policy("target_only")
    start_genuine_canary(db, policy, tmp_path)
    res = resolver(db)
    _hostile(db, sql)
    assert res.refresh() is True  # raised (ValueError/TypeError) before the fix
    assert served_share(res, policy) < 10.0  # at most the genuine 1 % step
    canaries_of(db)  # `route status`, the dashboard
    CanaryStore(db).all()  # `canary status`
    page = status_page(db, policy)["default"]
    assert page.mode in ("target_only", "speculative")
    # a rollback by another replica (or `guardian route disable`) reaches this replica
    other = RouteStateStore(db)
    other.set_mode("default", "target_only", actor="trigger:divergence", reason="diverged",
                   pair_hash=PAIR, policy_hash=policy.content_hash)
    assert res.refresh() is True
    assert served_share(res, policy) == 0.0


@pytest.mark.parametrize("sql", [s for _, s in HOSTILE[:6]])
def test_a_hostile_canary_row_does_not_break_a_rollback_through_this_replica(db, tmp_path,
                                                                             sql) -> None:
    """A write through the resolver's own store (the rollback controller's, the admin
    API's) re-reads the canaries: a hostile row must not make the write raise after its
    commit, leaving this replica serving the old mode."""
    policy = governed_policy("target_only")
    start_genuine_canary(db, policy, tmp_path)
    store = RouteStateStore(db)
    res = ModeResolver(store, pair_hash=PAIR, require_signed_state=True)
    _hostile(db, sql)
    store.set_mode("default", "target_only", actor="trigger:divergence", reason="diverged",
                   pair_hash=PAIR, policy_hash=policy.content_hash)
    assert served_share(res, policy) == 0.0


def test_a_resolver_starts_with_a_hostile_canary_row(db, tmp_path) -> None:
    """`guardian serve` builds its resolver at start: a broken row must not stop the start."""
    policy = governed_policy("target_only")
    start_genuine_canary(db, policy, tmp_path)
    _hostile(db, "UPDATE canary_state SET steps = 'not json'")
    res = resolver(db)
    assert res.source == "database"
    assert served_share(res, policy) < 10.0


def test_the_background_refresh_thread_survives_a_hostile_row(db, tmp_path) -> None:
    import time

    policy = governed_policy("target_only")
    start_genuine_canary(db, policy, tmp_path)
    res = ModeResolver(RouteStateStore(db), pair_hash=PAIR, require_signed_state=True,
                       ttl_s=0.02).start()
    try:
        _hostile(db, "UPDATE canary_state SET steps = 'null'")
        time.sleep(0.2)
        assert res._thread is not None and res._thread.is_alive()
        RouteStateStore(db).set_mode("default", "target_only", actor="oncall", reason="off",
                                     pair_hash=PAIR)
        deadline = time.monotonic() + 5
        while served_share(res, policy, 50) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert served_share(res, policy) == 0.0
    finally:
        res.stop()


# --- weights outside 0..100: what the status pages show is what replicas serve ---------------
@pytest.mark.parametrize("weight,served", [(150.0, 100.0), (-5.0, 0.0), (math.nan, 0.0),
                                           (math.inf, 100.0), (-math.inf, 0.0), (0.0, 0.0)])
def test_a_weight_outside_0_100_is_read_clamped_and_serves_nothing(db, tmp_path, weight,
                                                                   served) -> None:
    """The row is read as at most the share serving could apply (clamped: `canary status`,
    the gauge), and, forged (unsigned), serves none of it: replicas, `route status` and the
    dashboard all say target_only."""
    policy = governed_policy("target_only")
    start_genuine_canary(db, policy, tmp_path)
    if is_sqlite(db) and math.isnan(weight):
        pytest.skip("SQLite stores NaN as NULL (a NULL weight is probed above)")
    forge_canary(db, weight_pct=weight, step_index=2)
    res = resolver(db)
    assert served_share(res, policy) == 0.0
    shown = CanaryStore(db).get("default")
    assert shown is not None and shown.weight_pct == served
    for decision in (res.decide("default", "target_only", policy),
                     status_page(db, policy)["default"]):  # `route status`, the dashboard
        assert decision.mode == "target_only", decision


def test_bucket_line_is_0_to_100() -> None:
    """The premise of the clamp above: every key falls in [0, 100)."""
    assert all(0.0 <= canary_bucket("default", f"k{i}") < 100.0 for i in range(2000))


@pytest.mark.parametrize("status", ["RUNNING", "paused", "", "x" * 5000])
def test_an_unknown_status_narrows_like_a_running_canary(db, tmp_path, status) -> None:
    """An unknown status is not `complete` (all traffic) nor `aborted`: the row is treated
    as the running canary it was, so it widens nothing, and `canary status` says so."""
    policy = governed_policy("target_only")
    start_genuine_canary(db, policy, tmp_path)
    forge_canary(db, status=status, weight_pct=1.0)
    res = resolver(db)
    assert served_share(res, policy) < 10.0
    shown = CanaryStore(db).get("default")
    assert shown is not None and shown.running and shown.weight_pct == 1.0
    assert status_page(db, policy)["default"].source == "canary"


def test_a_complete_canary_is_shown_at_the_share_it_serves(db, tmp_path) -> None:
    """A genuine canary advanced to `complete` serves the whole route, shown as 100 %; a
    forged `complete` row is read as 100 % whatever weight it claims, and serves none."""
    policy = governed_policy("target_only")
    start_genuine_canary(db, policy, tmp_path)
    for _ in policy.route("default").canary.steps[1:]:
        acts.advance(CanaryStore(db), MemorySink(), route="default", policy=policy,
                     actor="api-key:release", role="release", reason="clean step")
    assert CanaryStore(db).get("default").status == "complete"
    assert served_share(resolver(db), policy) == 100.0
    forge_canary(db, status="complete", weight_pct=5.0)
    assert served_share(resolver(db), policy) == 0.0
    shown = CanaryStore(db).get("default")
    assert shown is not None and shown.weight_pct == 100.0


def test_huge_strings_are_cut_on_read(db, tmp_path) -> None:
    """A multi-megabyte reason or actor is not carried into every status page and log line."""
    policy = governed_policy("target_only")
    start_genuine_canary(db, policy, tmp_path)
    forge_canary(db, reason="r" * 3_000_000, updated_by="u" * 3_000_000,
                 pair_hash="p" * 3_000_000)
    shown = CanaryStore(db).get("default")
    assert shown is not None
    assert len(shown.reason or "") <= 2000 and len(shown.updated_by) <= 2000
    assert len(shown.pair_hash or "") <= 2000
    assert served_share(resolver(db), policy) < 10.0


def test_the_canary_acts_refuse_a_broken_row_cleanly(db, tmp_path) -> None:
    """`advance` on a row whose steps are gone is a refusal, not an IndexError; `abort`
    still drops it (on-call's way out) and sets the route target_only."""
    from guardian.governance.errors import GovernanceRefused

    policy = governed_policy("target_only")
    start_genuine_canary(db, policy, tmp_path)
    _hostile(db, "UPDATE canary_state SET steps = '[]'")
    with pytest.raises(GovernanceRefused):
        acts.advance(CanaryStore(db), MemorySink(), route="default", policy=policy,
                     actor="api-key:release", role="release", reason="go")
    acts.abort(RouteStateStore(db), CanaryStore(db), MemorySink(), route="default",
               policy=policy, actor="api-key:oncall", role="oncall", reason="broken row")
    assert served_share(resolver(db), policy) == 0.0


def test_the_refresh_thread_outlives_an_unexpected_error(db, monkeypatch) -> None:
    """Whatever a read raises (not only a database error), the thread goes on refreshing:
    it is what carries a rollback made elsewhere to this replica."""
    import time

    policy = governed_policy("target_only")
    store = RouteStateStore(db)
    res = ModeResolver(store, pair_hash=PAIR, ttl_s=0.02)
    calls = {"n": 0}
    real_all = store.all

    def flaky() -> dict:
        calls["n"] += 1
        if calls["n"] <= 2:
            raise ValueError("a value no reader expected")
        return real_all()

    monkeypatch.setattr(store, "all", flaky)
    res.start()
    try:
        time.sleep(0.2)
        assert res._thread is not None and res._thread.is_alive()
        store.set_mode("default", "target_only", actor="oncall", reason="off", pair_hash=PAIR)
        assert res.decide("default", "speculative", policy).mode == "target_only"
        assert calls["n"] > 2
    finally:
        res.stop()


# --- `guardian canary status` says when replicas do not apply a canary row --------------------
def test_canary_status_says_a_forged_canary_is_not_applied(db, tmp_path) -> None:
    """A running row on a route that does not serve speculatively (no state, a forged state
    without a signed report) showed as "running at 50%" while replicas served 0 %."""
    from typer.testing import CliRunner

    from guardian.cli import canary as canary_cli
    from guardian.policy import load_policy_file

    path = tmp_path / "policy.yaml"
    path.write_text("version: 1\ndefault_route: default\nroutes:\n  default:\n"
                    "    mode: target_only\n    shadow: {sample_rate: 0.0}\n")
    policy = load_policy_file(path)
    url = db.url.render_as_string(hide_password=False)
    forge_canary(db, weight_pct=50.0, step_index=3)
    for forged_state in (False, True):
        if forged_state:
            forge_route_state(db, policy_hash=policy.content_hash)
        assert served_share(resolver(db), policy) == 0.0
        out = CliRunner().invoke(canary_cli.app, ["status", "--url", url, "--policy", str(path)])
        assert out.exit_code == 0, out.output
        assert "running at 50%" in out.output and "NOT APPLIED" in out.output, out.output
        assert "replicas serve target_only" in out.output
        out = CliRunner().invoke(canary_cli.app, ["status", "--json", "--url", url,
                                                  "--policy", str(path)])
        row = json.loads(out.output)["canaries"]["default"]
        assert row["in_force"]["mode"] == "target_only", row


def test_canary_status_shows_a_genuine_canary_as_applied(db, tmp_path) -> None:
    from typer.testing import CliRunner

    from guardian.cli import canary as canary_cli
    from guardian.policy import load_policy_file

    path = tmp_path / "policy.yaml"
    path.write_text("version: 1\ndefault_route: default\nroutes:\n  default:\n"
                    "    mode: target_only\n    shadow: {sample_rate: 0.0}\n")
    start_genuine_canary(db, load_policy_file(path), tmp_path)
    out = CliRunner().invoke(canary_cli.app, ["status", "--json", "--url",
                                              db.url.render_as_string(hide_password=False),
                                              "--policy", str(path)])
    assert out.exit_code == 0, out.output
    row = json.loads(out.output)["canaries"]["default"]
    assert row["in_force"]["mode"] == "speculative" and row["in_force"]["decided_by"] == "canary"


def test_reviving_an_aborted_canary_of_a_genuinely_gated_pair_is_refused(db, tmp_path) -> None:
    """After an abort, the writer puts the canary back and the route state too: a forged
    (unsigned) row, or the genuine signed row of the canary's start copied back over the
    abort. Neither serves: the copy is older than the abort's state (`statesig`), though the
    genuine signed report is still the newest for the pair."""
    policy = governed_policy("target_only")
    start_genuine_canary(db, policy, tmp_path)
    t = RouteState.__table__
    with db.connect() as conn:
        genuine = dict(conn.execute(sa.select(t)).mappings().one())
    res = resolver(db)
    assert 0.0 < served_share(res, policy) < 10.0
    acts.abort(RouteStateStore(db), CanaryStore(db), MemorySink(), route="default",
               policy=policy, actor="api-key:oncall", role="oncall", reason="p99")
    res.refresh()
    assert served_share(res, policy) == 0.0
    forge_canary(db, status="running", weight_pct=25.0, step_index=2)
    forge_route_state(db, policy_hash=policy.content_hash)
    res.refresh()
    assert served_share(res, policy) == 0.0
    assert "not signed by a pinned key" in res.decide("default", "target_only", policy).reason
    with db.begin() as conn:  # the genuine signed row of the start, copied back
        conn.execute(sa.delete(t))
        conn.execute(sa.insert(t).values(**genuine))
    res.refresh()
    assert served_share(res, policy) == 0.0
    assert "cannot undo a rollback" in res.decide("default", "target_only", policy).reason


@pytest.mark.parametrize("sql", [
    "UPDATE route_state SET updated_at = 'not a time' WHERE route = 'other'",
    "UPDATE route_state SET version = 'x' WHERE route = 'other'",
])
def test_an_unreadable_route_state_row_does_not_freeze_the_resolver(db, sql) -> None:
    """A writer without the key puts a bad value in one route's row (SQLite stores any value
    in any column): that route reads as target_only, and a rollback of another route made
    elsewhere still reaches this replica (the read raised, and every refresh with it)."""
    if not is_sqlite(db):
        pytest.skip("Postgres refuses these values")
    store = RouteStateStore(db)
    store.set_mode("default", "speculative", actor="api-key:admin-1", reason="promoted")
    store.set_mode("other", "speculative", actor="api-key:admin-1", reason="promoted")
    res = ModeResolver(RouteStateStore(db), ttl_s=60)
    forge_raw(db, sql)
    assert res.refresh()
    states = RouteStateStore(db).all()
    assert states["other"].mode == "target_only" and "unreadable" in (states["other"].reason or "")
    RouteStateStore(db).set_mode("default", "target_only", actor="trigger:acceptance",
                                 reason="rolled back on another replica")
    assert res.refresh() and res._states["default"].mode == "target_only"


def test_rewriting_a_running_canary_to_aborted_serves_none_of_the_route(db, tmp_path) -> None:
    """`aborted` narrows nothing, so a writer could try to lift a canary's narrowing by
    rewriting its status: under the state its start wrote, that serves 0 %, not the route."""
    policy = governed_policy("target_only")
    start_genuine_canary(db, policy, tmp_path)
    forge_raw(db, "UPDATE canary_state SET status = 'aborted'")
    res = resolver(db)
    assert served_share(res, policy) == 0.0
    assert "not signed by a pinned key" in res.decide("default", "target_only", policy).reason
    assert status_page(db, policy)["default"].mode == "target_only"


def test_an_aborted_canary_does_not_narrow_a_route_re_enabled_after_it(db, tmp_path) -> None:
    """On-call aborts the canary (recorded in the audit trail after the row was signed), then
    re-enables the route: it serves whole; the aborted row narrows nothing."""
    from guardian.audit.writer import AuditWriter
    from guardian.governance.rollback import reenable_route

    policy = governed_policy("target_only")
    start_genuine_canary(db, policy, tmp_path)
    res = resolver(db)
    writer = AuditWriter(db.url.render_as_string(hide_password=False), spool_dir=tmp_path / "w")
    try:
        acts.abort(RouteStateStore(db), CanaryStore(db), writer, route="default", policy=policy,
                   actor="api-key:oncall", role="oncall", reason="p99")
        writer.flush()
        res.refresh()
        assert served_share(res, policy) == 0.0
        reenable_route(RouteStateStore(db), writer, "default", actor="api-key:oncall",
                       role="oncall", reason="fixed", policy=policy, pair_hash=PAIR)
        writer.flush()
    finally:
        writer.close()
    res.refresh()
    assert CanaryStore(db).get("default").status == "aborted"
    assert served_share(res, policy) == 100.0
    assert status_page(db, policy)["default"].mode == "speculative"
