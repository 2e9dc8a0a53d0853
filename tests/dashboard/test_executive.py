"""Executive page against seeded traffic: its figures recomputed here from the stored rows
in plain Python (not with the dashboard's SQL), and the page without a price."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from dashboard.slo import speedup

pytestmark = pytest.mark.slow


def _metric(at, label: str) -> str:  # type: ignore[no-untyped-def]
    return next(m.value for m in at.metric if m.label == label)


def _rows(url: str, flt) -> list[dict]:  # type: ignore[no-untyped-def]
    from guardian.audit.models import AuditRequest
    from guardian.core.db import make_engine

    db = make_engine(url)
    t = AuditRequest.__table__
    with db.connect() as conn:
        rows = [dict(r._mapping) for r in conn.execute(sa.select(
            t.c.route, t.c.served_path, t.c.completion_tokens, t.c.stats).where(
            t.c.created_at >= flt.since, t.c.created_at < flt.until))]
    db.dispose()
    return rows


def test_executive_figures(seeded, open_page) -> None:  # type: ignore[no-untyped-def]
    from guardian.policy import load_policy

    at = open_page(seeded.url, "executive")
    assert not at.exception and not at.error
    flt = at.session_state["filters"]
    rows = _rows(seeded.url, flt)
    assert _metric(at, "Requests") == f"{len(rows):,}"
    # M4: speculative = steps + 1 (prefill) per request, target-only = one per output token.
    forwards = sum(r["stats"]["steps"] + 1 if r["served_path"] == "speculative"
                   else r["completion_tokens"] for r in rows)
    assert _metric(at, "M4 target forwards / request") == f"{forwards / len(rows):.1f}"
    price = load_policy().cost.pool_hour  # type: ignore[union-attr]
    seconds = sum(r["stats"]["total_time_s"] for r in rows)
    spend = seconds * price / 3600
    assert _metric(at, "Spend in range") == f"{spend:,.4g} USD"
    tokens = sum(r["completion_tokens"] for r in rows)
    assert _metric(at, "M5 cost / 1k output tokens (USD)") == f"{seconds / tokens * price / 3.6:.4g}"
    sh = [s for s in seeded.summary.shadows if flt.since <= s["created_at"] < flt.until]
    gain = speedup(sum(s["target_s"] for s in sh), sum(s["target_n"] for s in sh),
                   sum(s["spec_s"] for s in sh), sum(s["spec_n"] for s in sh))
    assert _metric(at, "Speedup (shadow, same requests)") == f"{gain:.2f}×"
    table = at.dataframe[0].value
    assert set(table["route"]) == {r["route"] for r in rows}
    assert int(table["requests"].sum()) == len(rows)
    chat = table[table["route"] == "chat"].iloc[0]
    assert chat["speedup"] > 1.0 and chat["M4 forwards / request"] < chat["M4 target-only"]
    assert len(at.get("vega_lite_chart")) == 2  # cost trend, SLO compliance


def test_executive_without_a_price_shows_pool_seconds(seeded, open_page, tmp_path,
                                                      monkeypatch) -> None:  # type: ignore[no-untyped-def]
    policy = tmp_path / "policy.yaml"
    policy.write_text("routes:\n  default: {}\n")
    monkeypatch.setenv("GUARDIAN_POLICY_FILE", str(policy))
    at = open_page(seeded.url, "executive")
    assert not at.exception and not at.error
    assert _metric(at, "Spend in range").endswith("pool-s")
    assert any(m.label == "M5 cost / 1k output tokens (pool-s)" for m in at.metric)
    # The saving is a ratio the price cancels out of: shown without a price too (it was "—").
    flt = at.session_state["filters"]
    rows = _rows(seeded.url, flt)
    served = sum(r["stats"]["total_time_s"] for r in rows) / sum(r["completion_tokens"] for r in rows)
    sh = [s for s in seeded.summary.shadows if flt.since <= s["created_at"] < flt.until]
    base = sum(s["target_s"] for s in sh) / sum(s["target_n"] for s in sh)
    assert _metric(at, "Saving vs target-only") == f"{1 - served / base:.1%}"
    assert at.dataframe[0].value["saving"].notna().any()
