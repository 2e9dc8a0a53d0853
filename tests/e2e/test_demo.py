"""`guardian demo` end to end: the real sidecar in a child process, the demo pair, the demo
policy, a temp GUARDIAN_HOME with SQLite; everything asserted from the audit database."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
import sqlalchemy as sa

logger = logging.getLogger(__name__)


def _demo_pair_or_skip() -> tuple[str, str]:
    """The demo pair from the usual cache (~/.cache/spec-guardian). A first build takes ~6 min,
    too long for this test's budget: skip unless GUARDIAN_TEST_BUILD_DEMO_PAIR=1 allows it."""
    from engine.demo_pair import demo_pair_dir, ensure_demo_pair
    from engine.demo_pair.build import is_built

    cache = Path.home() / ".cache" / "spec-guardian"
    if not is_built(demo_pair_dir(cache)) and not os.environ.get("GUARDIAN_TEST_BUILD_DEMO_PAIR"):
        pytest.skip(f"demo pair not built in {cache} (`python -m engine.demo_pair build`, ~6 min; "
                    "or set GUARDIAN_TEST_BUILD_DEMO_PAIR=1 to build it here)")
    paths = ensure_demo_pair(cache, progress=False)
    return str(paths.draft_dir), str(paths.target_dir)


@pytest.mark.e2e
@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_demo_fills_the_audit_db_with_true_traffic_and_a_rollback(tmp_path, monkeypatch) -> None:
    for name in ("GUARDIAN_DRAFT_DIR", "GUARDIAN_TARGET_DIR", "GUARDIAN_DATABASE_URL",
                 "GUARDIAN_POLICY_FILE", "GUARDIAN_API_KEYS_FILE"):
        monkeypatch.delenv(name, raising=False)
    draft_dir, target_dir = _demo_pair_or_skip()
    monkeypatch.setenv("GUARDIAN_DRAFT_DIR", draft_dir)  # the sidecar inherits these
    monkeypatch.setenv("GUARDIAN_TARGET_DIR", target_dir)
    home = tmp_path / "home"
    monkeypatch.setenv("GUARDIAN_HOME", str(home))

    from guardian.audit.models import AuditGovernance, AuditRequest, AuditShadow
    from guardian.core.db import make_engine
    from guardian.devtools.demo import MIN_DRIFT_REQUESTS, run_demo

    n = 3 * (MIN_DRIFT_REQUESTS + 2)  # bounded: enough for `drifting` to roll back
    summary = run_demo(requests=n, max_tokens=24, time_limit_s=300, home=home,
                       ready_timeout_s=300)
    logger.info("demo summary: %s", summary)
    assert summary.errors == 0, summary.error_samples
    assert summary.database_url == f"sqlite:///{home / 'guardian.db'}"

    engine = make_engine(summary.database_url)
    try:
        with engine.connect() as conn:
            reqs = conn.execute(sa.select(AuditRequest.route, AuditRequest.served_path,
                                          AuditRequest.params)).all()
            verdicts = conn.execute(sa.select(AuditShadow.route, AuditShadow.verdict)).all()
            rollbacks = conn.execute(sa.select(AuditGovernance.route, AuditGovernance.actor,
                                               AuditGovernance.details)
                                     .where(AuditGovernance.kind == "rollback")).all()
    finally:
        engine.dispose()

    assert len(reqs) == n
    assert {r.route for r in reqs} >= {"code", "creative", "drifting"}
    temps = [float((r.params or {}).get("temperature", 0.0)) for r in reqs]
    assert any(t == 0 for t in temps) and any(t > 0 for t in temps)  # greedy and sampled
    assert any(r.served_path == "speculative" for r in reqs)
    assert verdicts, "no shadow verdict recorded"
    assert {v.verdict for v in verdicts} & {"match", "near_tie", "distribution_ok"}

    # A true rollback of `drifting`, from its own measurements, with the evidence.
    drifting = [rb for rb in rollbacks if rb.route == "drifting"]
    assert drifting, f"no rollback of route drifting; rollbacks: {rollbacks}"
    details = drifting[0].details
    assert drifting[0].actor.startswith("trigger:")
    assert details["new_mode"] == "target_only" and details["fired"]
    for name in details["fired"]:
        m = details["evidence"][name]
        assert m["outcome"] == "fail" and m["samples"] >= m["min_samples"], m
    # the routes with steady traffic were not rolled back
    assert not [rb for rb in rollbacks if rb.route in ("code", "creative")], rollbacks
    # after the rollback, `drifting` served target-only
    assert any(r.route == "drifting" and r.served_path == "target_only" for r in reqs)
    assert summary.route_modes.get("drifting") == "target_only"
