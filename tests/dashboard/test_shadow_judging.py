"""The Shadow page shows stopping coverage per route and flags a route whose speculation
silently stopped (`speculation_silent`), from audit rows written by the real writer."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from dashboard.judging import silent_routes, stopping_coverage
from tests.support.dashboard import rendered
from tests.support.governance import request_event, shadow_event


def _write(url: str, spool, events) -> None:
    from guardian.audit import upgrade
    from guardian.audit.writer import AuditWriter

    upgrade(url)
    writer = AuditWriter(url, spool_dir=spool)
    try:
        for e in events:
            writer.submit(e)
        writer.flush()
    finally:
        writer.close()


@pytest.fixture
def db_url(tmp_path) -> str:
    now = datetime.now(UTC) - timedelta(minutes=1)
    events = []
    for i in range(20):  # route "stuck": speculative label, depth cap at 0, nothing proposed
        e = request_event(drafted=0, accepted=0, route="stuck")
        e.stats = {"proposed_tokens": 0, "accepted": 0, "steps": 8, "capped_steps": 8}
        events.append(dataclasses.replace(e, request_id=f"stuck-{i}", mode="speculative",
                                          created_at=now))
    for i in range(20):  # route "fine" speculates
        events.append(dataclasses.replace(request_event(route="fine"), request_id=f"fine-{i}",
                                          mode="speculative", created_at=now))
    for i, (case, decoding) in enumerate([("stop_string", "greedy"), ("eos_in_block", "greedy"),
                                          ("max_tokens", "sampled"), ("max_tokens", "sampled")]):
        s = shadow_event("match", route="fine")
        s.stats = {"stopping_case": case, "decoding": decoding}
        events.append(dataclasses.replace(s, request_id=f"fine-{i}", created_at=now))
    url = f"sqlite:///{tmp_path / 'a.db'}"
    _write(url, tmp_path / "spool", events)
    return url


def test_queries_count_stopping_cases_and_find_the_silent_route(db_url) -> None:
    from guardian.core.db import make_engine

    db = make_engine(db_url)
    since, until = datetime.now(UTC) - timedelta(hours=1), datetime.now(UTC)
    cov = stopping_coverage(db, since, until, []).set_index(["route", "kind"])
    assert cov.loc[("fine", "greedy"), "stop_string"] == 1
    assert cov.loc[("fine", "greedy"), "eos_in_block"] == 1
    assert cov.loc[("fine", "sampled"), "max_tokens"] == 2
    flagged = silent_routes(db, [])
    assert flagged["route"].tolist() == ["stuck"]
    assert flagged.iloc[0]["reason"] == "depth_cap"
    db.dispose()


def test_the_shadow_page_shows_coverage_and_the_flag(db_url, open_page) -> None:
    at = open_page(db_url, "shadow")
    warnings = " ".join(rendered(w.value) for w in at.warning)
    assert "speculation_silent on route stuck:" in warnings and "depth_cap" in warnings
    assert any("Stopping coverage per route" in s.value for s in at.subheader)
