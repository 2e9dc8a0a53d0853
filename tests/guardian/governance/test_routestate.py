"""Route state in the database: compare-and-set, replicas, unreadable DB, pair binding."""

from __future__ import annotations

import time

import pytest

from guardian.core.db import make_engine
from guardian.governance.routestate import ModeResolver, RouteStateStore, StateConflict


def test_compare_and_set_refuses_a_stale_version(store) -> None:
    first = store.set_mode("default", "speculative", actor="a", reason="promote")
    store.set_mode("default", "target_only", actor="trigger:acceptance", reason="alpha low",
                   expected_version=first.version)
    with pytest.raises(StateConflict, match="re-read"):
        store.set_mode("default", "speculative", actor="b", reason="late", expected_version=first.version)
    assert store.get("default").mode == "target_only" and store.get("default").version == 2


def test_policy_mode_applies_until_a_governance_action_sets_one(store, resolver) -> None:
    assert resolver.mode("default", "speculative") == "speculative"
    assert resolver.mode("default", "target_only") == "target_only"
    store.set_mode("default", "target_only", actor="x", reason="r")
    assert resolver.mode("default", "speculative") == "target_only"  # local write: immediate


def test_a_promotion_of_another_pair_does_not_make_this_replica_speculative(store) -> None:
    resolver = ModeResolver(store, pair_hash="pair-b")
    store.set_mode("default", "speculative", actor="release", reason="gated", pair_hash="pair-a")
    assert resolver.mode("default", "target_only") == "target_only"
    assert ModeResolver(store, pair_hash="pair-a").mode("default", "target_only") == "speculative"


def test_unreadable_database_keeps_the_last_known_state(tmp_path, store) -> None:
    store.set_mode("default", "target_only", actor="trigger:divergence", reason="bug")
    resolver = ModeResolver(store)
    store.db.dispose()
    (tmp_path / "guardian.db").unlink()
    (tmp_path / "guardian.db").mkdir()  # the file is gone and cannot be recreated
    assert resolver.refresh() is False
    assert resolver.mode("default", "speculative") == "target_only"


def test_a_refresh_that_read_before_a_local_write_does_not_undo_it(store) -> None:
    """The background refresh reads the rows, a governance act writes through the same store,
    then the refresh swaps in what it read: the act must stay in force (it did not: a canary
    just started served its route target_only until the next refresh)."""
    import threading

    from guardian.governance.routestate import RouteStatus

    store.set_mode("default", "target_only", actor="release", reason="start")
    resolver = ModeResolver(store)
    read, written = threading.Event(), threading.Event()
    real_all = store.all
    calls = []

    def slow_all() -> dict[str, RouteStatus]:
        rows = real_all()
        calls.append(rows)
        if len(calls) == 1:  # the first read is the stale one: let the write land after it
            read.set()
            assert written.wait(5)
        return rows

    store.all = slow_all  # type: ignore[method-assign]
    refresher = threading.Thread(target=resolver.refresh)
    refresher.start()
    assert read.wait(5)
    store.set_mode("default", "speculative", actor="release", reason="promote")
    written.set()
    refresher.join(5)
    assert resolver.status("default").mode == "speculative"
    assert resolver.mode("default", "target_only") == "speculative"
    assert len(calls) == 2  # it read again rather than merge a stale read


@pytest.mark.integration
def test_replicas_on_postgres_see_a_rollback_within_a_second(fresh_pg_url) -> None:
    from guardian.audit import upgrade

    upgrade(fresh_pg_url)
    a, b = RouteStateStore(make_engine(fresh_pg_url)), RouteStateStore(make_engine(fresh_pg_url))
    a.set_mode("default", "speculative", actor="release", reason="gated")
    resolver_b = ModeResolver(b, ttl_s=0.5).start()
    try:
        assert resolver_b.mode("default", "target_only") == "speculative"
        a.set_mode("default", "target_only", actor="trigger:acceptance", reason="alpha 0.02")
        started = time.monotonic()
        while resolver_b.mode("default", "speculative") != "target_only":
            assert time.monotonic() - started < 1.0
            time.sleep(0.01)
        assert b.get("default").updated_by == "trigger:acceptance"
    finally:
        resolver_b.stop()
        a.db.dispose()
        b.db.dispose()


def test_serving_pair_is_the_routes_recent_pair_else_the_newest_anywhere(store, tmp_path) -> None:
    import dataclasses
    from datetime import UTC, datetime, timedelta

    from guardian.audit.writer import AuditWriter
    from tests.support.governance import request_event

    assert store.serving_pair("default") is None  # no request yet
    writer = AuditWriter(store.db.url.render_as_string(hide_password=False),
                         spool_dir=tmp_path / "spool")
    old = datetime.now(UTC) - timedelta(days=2)
    for i, (route, pair, at) in enumerate([("idle", "pair-old", old), ("default", "pair-x", old),
                                           ("default", "pair-a", datetime.now(UTC))]):
        writer.submit(dataclasses.replace(request_event(route=route, pair=pair), created_at=at,
                                          request_id=f"req-{i}"))
    writer.close()
    assert store.serving_pair("default") == "pair-a"
    # Idle for two days: what the replicas serve now, not what served it back then.
    assert store.serving_pair("idle") == "pair-a"
    assert store.serving_pair("idle", recent_s=3 * 86400) == "pair-old"
