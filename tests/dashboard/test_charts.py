"""Charts over time read in UTC on a 24-hour clock (15:15 UTC was labelled "03:15")."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pandas as pd

from dashboard import charts

T0 = datetime(2026, 11, 23, 15, 15, tzinfo=UTC)


def _spec(chart) -> str:  # type: ignore[no-untyped-def]
    return json.dumps(chart.to_dict())


def test_every_time_chart_uses_a_utc_24_hour_axis() -> None:
    bins = pd.DataFrame({"bucket": [T0, T0 + timedelta(minutes=15)], "group": ["a", "a"],
                         "p99": [1.0, 2.0], "verdict": ["match", "match"], "n": [1, 2]})
    events = pd.DataFrame({"created_at": [T0], "route": ["r"], "kind": ["rollback"],
                           "actor": ["x"], "pair": ["p"]})
    built = [
        charts.lines_with_targets(bins, {"p99": "p99"}, {"SLO": 1.5}, "latency", "s"),
        charts.series_by_group(bins, "p99", "s", "title", threshold=1.0),
        charts.stacked_counts(bins, "verdict", charts.VERDICT_COLORS, "verdicts"),
        charts.event_timeline(events),
    ]
    for chart in built:
        spec = _spec(chart)
        assert '"type": "utc"' in spec and "%H:%M" in spec, spec[:300]
        assert "%I" not in spec and "%p" not in spec  # no 12-hour clock anywhere
        assert "utcyearmonthdatehoursminutesseconds" in spec  # tooltips in UTC too


def test_thresholds_are_labelled_in_their_own_styles_never_the_p99_red() -> None:
    bins = pd.DataFrame({"bucket": [T0, T0 + timedelta(minutes=15)], "group": ["a", "a"],
                         "p50": [0.5, 0.6], "p99": [1.0, 2.0]})
    latency = json.loads(_spec(charts.lines_with_targets(
        bins, {"p50": "p50", "p99": "p99"}, {"p99 target": 1.5}, "latency", "s")))
    alpha = json.loads(_spec(charts.series_by_group(
        bins, "p99", "α", "α", rules=[("α floor (a)", 0.3, "floor")])))
    drift = json.loads(_spec(charts.series_by_group(bins, "p99", "JS", "JS", 0.1, "JS trigger")))
    red = charts.PERCENTILE_COLORS["p99"]
    seen = {}
    for name, spec in (("slo", latency), ("floor", alpha), ("drift", drift)):
        text = json.dumps(spec)
        style = charts.THRESHOLD_STYLES[name]
        assert f'"color": "{style["color"]}"' in text  # the rule in its kind's colour...
        assert json.dumps(style["strokeDash"]) in text  # ...and dash pattern
        seen[name] = (style["color"], tuple(style["strokeDash"]))  # type: ignore[arg-type]
        assert style["color"] != red
    assert len(set(seen.values())) == 3  # three kinds, three looks
    assert "p99 target 1.5" in json.dumps(latency)  # labelled in the plot
    assert "\\u03b1 floor (a) 0.3" in json.dumps(alpha) or "α floor (a) 0.3" in json.dumps(alpha)
    assert "JS trigger 0.1" in json.dumps(drift)
    assert red in json.dumps(latency)  # the p99 series keeps its red


def test_per_route_charts_keep_a_narrow_legend_when_one_pair_serves() -> None:
    """A chart a third of the page wide lost its title and floor labels to a "route · pair…"
    legend: with one pair the legend names routes, the pair in its title."""
    one = pd.DataFrame({"bucket": [T0, T0], "route": ["code", "creative"],
                        "pair_hash": ["082f3aa201d8ea6a", "082f3aa201d8ea6a"],
                        "group": ["code · 082f3aa201d8…", "creative · 082f3aa201d8…"],
                        "alpha": [0.7, 0.6], "position": [0, 0], "acceptance": [0.7, 0.6],
                        "drafted": [10, 10], "accepted": [7, 6]})
    for chart in (charts.series_by_group(one, "alpha", "α", "α"), charts.position_bars(one)):
        spec = chart.to_dict()
        layer = spec["layer"][0] if "layer" in spec else spec
        color = layer["encoding"]["color"]
        assert color["field"] == "route" and color["title"] == "route (pair 082f3aa2)", color
    two = one.assign(pair_hash=["082f3aa201d8ea6a", "ffff0000aaaa"])
    color = charts.series_by_group(two, "alpha", "α", "α").to_dict()["layer"][0]["encoding"]["color"]
    assert color["field"] == "group" and color["title"] == "route · pair"


def test_cost_trend_has_a_legend_for_its_two_lines() -> None:
    """`legend=None` on the dash hid the merged colour + dash legend: the two lines (as
    served, target-only) could not be told apart."""
    trend = pd.DataFrame({"bucket": [T0, T0], "series": ["as served", "target-only baseline"],
                          "value": [2.42, 2.39]})
    enc = charts.cost_trend(trend, "pool-s").to_dict()["encoding"]
    assert enc["color"].get("legend", {}) is not None
    assert enc["strokeDash"].get("legend", {}) is not None
    assert enc["color"]["title"] == enc["strokeDash"]["title"]  # one merged legend


def test_token_strip_rows_are_readable_and_its_legend_is_in_sight() -> None:
    strip = pd.DataFrame({"path": ["target-only", "speculative"] * 40,
                          "position": [i // 2 for i in range(80)], "token": ["1"] * 80,
                          "origin": ["target", "accepted"] * 40, "differs": [False] * 80})
    spec = charts.token_strip(strip).to_dict()
    assert spec["height"] == {"step": 28}  # not 110 px for both rows and the axis
    rect = spec["layer"][0]["encoding"]["color"]
    assert rect["legend"]["orient"] == "top"  # not past the right end of a 3,500 px strip
