"""SLO arithmetic: the SRE workbook's multiwindow, multi-burn-rate table, budget and speedup."""

from __future__ import annotations

from datetime import timedelta

import pytest

from dashboard.slo import (
    ALERT_WINDOWS,
    BURN_RATE_RULES,
    SloTargets,
    burn_rate,
    error_budget_remaining,
    evaluate_alerts,
    percentile,
    speedup,
)

H, M, D = timedelta(hours=1), timedelta(minutes=1), timedelta(days=1)


def test_rules_are_the_workbook_table() -> None:
    table = [(r.severity, r.long_window, r.short_window, r.burn_rate) for r in BURN_RATE_RULES]
    assert table == [("page", H, 5 * M, 14.4), ("page", 6 * H, 30 * M, 6.0),
                     ("ticket", D, 2 * H, 3.0), ("ticket", 3 * D, 6 * H, 1.0)]
    # 14.4x for an hour spends 2 % of a 30-day budget; 6x for 6 h 5 %; 3x for 1 d and 1x for 3 d 10 %.
    assert [round(r.budget_consumed, 4) for r in BURN_RATE_RULES] == [0.02, 0.05, 0.1, 0.1]
    assert ALERT_WINDOWS == (5 * M, 30 * M, H, 2 * H, 6 * H, D, 3 * D)
    assert BURN_RATE_RULES[0].label == "14.4× over 1h and 5m"


def test_burn_rate_and_budget() -> None:
    assert burn_rate(1, 100, 0.01) == pytest.approx(1.0)
    assert burn_rate(144, 1000, 0.01) == pytest.approx(14.4)
    assert burn_rate(0, 0, 0.01) == 0.0  # no traffic burns nothing
    assert error_budget_remaining(5, 1000, 0.01) == pytest.approx(0.5)
    assert error_budget_remaining(20, 1000, 0.01) == pytest.approx(-1.0)  # overspent shows negative
    with pytest.raises(ValueError, match=r"below 1\.0"):
        burn_rate(1, 10, 0.0)


def _counts(**burns: float) -> dict[timedelta, tuple[int, int]]:
    """Window counts giving each named window the burn rate asked for (budget 1 %, 10,000 reqs)."""
    names = {"m5": 5 * M, "m30": 30 * M, "h1": H, "h2": 2 * H, "h6": 6 * H, "d1": D, "d3": 3 * D}
    return {w: (round(burns.get(k, 0.0) * 100), 10_000) for k, w in names.items()}


def test_alert_needs_both_windows() -> None:
    # Long window burning at 20x but already recovered in the short one: no page.
    st = evaluate_alerts(_counts(h1=20, m5=0.5), 0.01)
    assert not st[0].firing and st[0].long_burn == pytest.approx(20)
    # Short blip without a long-window burn: no page either.
    assert not evaluate_alerts(_counts(h1=2, m5=50), 0.01)[0].firing
    # Both over 14.4: the fast page fires, nothing else.
    st = evaluate_alerts(_counts(h1=15, m5=15), 0.01)
    assert [a.firing for a in st] == [True, False, False, False]


def test_threshold_is_inclusive_and_each_row_uses_its_windows() -> None:
    st = evaluate_alerts(_counts(h6=6, m30=6, d1=3, h2=3, d3=1), 0.01)
    assert [a.firing for a in st] == [False, True, True, True]
    st = evaluate_alerts(_counts(d1=2.99, h2=10), 0.01)
    assert not st[2].firing


def test_targets_from_policy_mapping() -> None:
    t = SloTargets.from_mapping({"latency_p95_s": 1.5, "objective": 0.999, "unknown": 1})
    assert t.latency_p95_s == 1.5 and t.budget == pytest.approx(0.001)
    assert SloTargets.from_mapping(None) == SloTargets()


def test_speedup_and_percentile() -> None:
    # target-only 20 ms/token, speculative 10 ms/token -> 2x, whatever the token counts.
    assert speedup(2.0, 100, 0.5, 50) == pytest.approx(2.0)
    assert speedup(1.0, 0, 1.0, 10) is None
    assert percentile([], 0.5) is None
    assert percentile([4.0, 1.0, 3.0, 2.0], 0.5) == pytest.approx(2.5)  # interpolates
    assert percentile([1.0, 2.0, 3.0, 4.0, 5.0], 0.95) == pytest.approx(4.8)


def test_open_rollbacks_name_the_mode_in_words_never_nan() -> None:
    import pandas as pd

    from dashboard import data

    routes = pd.DataFrame([
        {"route": "code", "mode": "target_only", "source": "state", "why": "rolled back"},
        {"route": "gone", "mode": float("nan"), "source": "policy", "why": "not in the policy"}])
    acts = pd.DataFrame([
        {"route": r, "kind": "rollback", "created_at": pd.Timestamp("2026-11-26T04:00Z"),
         "actor": "trigger:drift", "details": {"fired": ["drift"], "reason": "drift"}}
        for r in ("code", "gone")])
    got = {i["route"]: i["mode"] for i in data.open_rollbacks(routes, acts)}
    assert got == {"code": "target_only", "gone": "not served"}
