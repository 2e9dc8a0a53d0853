"""Rolling windows: pruning by age, accepted-length histograms, and rebuilding from the DB."""

from __future__ import annotations

from guardian.audit.writer import AuditWriter
from guardian.governance.windows import RouteWindow, accepted_lengths, load_window
from tests.support.governance import request_event, shadow_event


def test_accepted_lengths_from_prefix_counters() -> None:
    # 3 steps of gamma 4: accepted 4, 1, 0 -> position counts [2, 1, 1, 1]
    stats = {"drafted_per_position": [3, 3, 3, 3], "accepted_per_position": [2, 1, 1, 1]}
    assert accepted_lengths(stats) == {0: 1, 1: 1, 4: 1}


def test_window_prunes_old_evidence_and_keeps_the_reference(clock) -> None:
    w = RouteWindow("default", window_s=10, reference_size=5, clock=clock)
    w.observe_request(request_event(drafted=40, accepted=40))
    clock.t += 11
    w.observe_request(request_event(drafted=40, accepted=0))
    w.prune()
    assert [s.counters.accepted for s in w.spec] == [0]
    assert sum(w.reference_steps.values()) >= 5  # the reference is frozen, not pruned


def test_window_rebuilt_from_the_audit_db_matches_the_live_one(db_engine, tmp_path) -> None:
    url = db_engine.url.render_as_string(hide_password=False)
    writer = AuditWriter(url, spool_dir=tmp_path / "spool", replica_id="r1")
    live = RouteWindow("default")
    events = [request_event(drafted=40, accepted=12), request_event(path="target_only", tpot=0.02),
              shadow_event("divergence"), request_event(drafted=40, accepted=30)]
    for e in events:
        writer.submit(e)
        (live.observe_request if hasattr(e, "served_path") else live.observe_shadow)(e)
    writer.close()
    rebuilt = load_window(db_engine, "default", window_s=300)
    assert rebuilt.counters().accepted == live.counters().accepted == 42
    assert [v.verdict for v in rebuilt.verdicts] == ["divergence"]
    assert [v for _, v in rebuilt.baseline_latency] == [v for _, v in live.baseline_latency]
    assert rebuilt.current_steps() == live.current_steps()


def test_mirrored_verdicts_are_rebuilt_only_where_trusted(db_engine, tmp_path) -> None:
    """A window rebuilt from the DB leaves mirrored verdicts out unless the route trusts them
    (as the live controller does), and keeps who was behind each one it counts."""
    import dataclasses

    url = db_engine.url.render_as_string(hide_password=False)
    writer = AuditWriter(url, spool_dir=tmp_path / "spool", replica_id="r1")
    mirrored = dataclasses.replace(shadow_event("divergence"), request_id="shadow-1",
                                   stats={"external": True, "principal": "api-key:mesh"})
    writer.submit(shadow_event("match"))
    writer.submit(mirrored)
    writer.close()
    untrusted = load_window(db_engine, "default", window_s=300)
    assert [(v.verdict, v.principal) for v in untrusted.verdicts] == [("match", "sidecar")]
    trusted = load_window(db_engine, "default", window_s=300, mirror_evidence=True)
    assert sorted((v.verdict, v.principal) for v in trusted.verdicts) == [
        ("divergence", "api-key:mesh"), ("match", "sidecar")]
