"""Altair chart builders shared by the pages (pure: DataFrame in, chart out)."""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt
import pandas as pd

ORIGIN_COLORS = {"accepted": "#2e7d32", "resampled": "#f9a825", "bonus": "#0288d1",
                 "target": "#5c6bc0"}
VERDICT_COLORS = {"match": "#2e7d32", "distribution_ok": "#66bb6a", "near_tie": "#f9a825",
                  "distribution_mismatch": "#ef6c00", "divergence": "#c62828"}
EVENT_COLORS = {"rollback": "#c62828", "reenable": "#2e7d32", "promotion": "#0288d1",
                "gate_result": "#7e57c2", "pair_registered": "#9e9e9e",
                "policy_loaded": "#795548", "policy_decision": "#607d8b",
                "canary": "#f9a825"}


# Threshold lines, one style per kind, none in the red the p99 series and rollbacks use; each
# rule carries its label in the plot (and in its tooltip).
THRESHOLD_STYLES: dict[str, dict[str, object]] = {
    "slo": {"color": "#37474f", "strokeDash": [6, 4]},           # SLO targets: slate, dashed
    "floor": {"color": "#6a1b9a", "strokeDash": [2, 3]},         # acceptance floor: purple, dotted
    "drift": {"color": "#e65100", "strokeDash": [10, 3, 2, 3]},  # drift limits: orange, dash-dot
    "objective": {"color": "#00695c", "strokeDash": [4, 2]},     # SLO objective: teal
}
# The percentile series of the latency charts: p99 in red, so no threshold is red.
PERCENTILE_COLORS = {"p50": "#1e88e5", "p95": "#fb8c00", "p99": "#c62828"}


def threshold_rules(rules: list[tuple[str, float, str]]) -> alt.LayerChart:
    """Horizontal rules (label, value, kind in THRESHOLD_STYLES), each labelled at its right end."""
    layers = []
    for label, value, kind in rules:
        style = THRESHOLD_STYLES[kind]
        df = pd.DataFrame({"value": [value], "label": [f"{label} {value:g}"]})
        base = alt.Chart(df).encode(y="value:Q")
        layers.append(base.mark_rule(strokeWidth=1.6, color=style["color"],
                                     strokeDash=style["strokeDash"]).encode(
            tooltip=[alt.Tooltip("label:N", title="threshold")]))
        layers.append(base.mark_text(align="right", baseline="bottom", dx=-2, dy=-2, fontSize=11,
                                     fontWeight="bold", color=style["color"])
                      .encode(x=alt.value("width"), text="label:N"))
    return alt.layer(*layers)


def _scale(colors: Mapping[str, str]) -> alt.Scale:
    return alt.Scale(domain=list(colors), range=list(colors.values()))


# Times are UTC on a 24-hour clock, dates at midnight ticks. Vega's default axis labels an
# hour tick "03 PM" and a quarter-hour tick "03:15" (no AM/PM): 15:15 UTC read as morning.
_TIME_LABEL = ("utcFormat(datum.value, utchours(datum.value) == 0 && utcminutes(datum.value)"
               " == 0 ? '%b %d' : '%H:%M')")


def time_x(field: str) -> alt.X:
    """The x encoding of every chart over time (UTC scale, 24-hour labels)."""
    return alt.X(f"{field}:T", title="time (UTC)", scale=alt.Scale(type="utc"),
                 axis=alt.Axis(labelExpr=_TIME_LABEL, labelOverlap=True))


def time_tip(field: str) -> alt.Tooltip:
    """A tooltip that shows `field` as a full UTC timestamp, 24-hour."""
    return alt.Tooltip(field=field, type="temporal", timeUnit="utcyearmonthdatehoursminutesseconds",
                       title="time (UTC)", format="%Y-%m-%d %H:%M:%S")


def lines_with_targets(df: pd.DataFrame, value_cols: Mapping[str, str],
                       targets: Mapping[str, float], title: str, y_title: str) -> alt.LayerChart:
    """Lines of `value_cols` (column -> legend label) over `bucket`, dashed target rules."""
    long = df.melt(id_vars=["bucket"], value_vars=list(value_cols), var_name="series",
                   value_name="value")
    long["series"] = long["series"].map(value_cols)
    labels = list(value_cols.values())
    colors = alt.Scale(domain=labels, range=[PERCENTILE_COLORS.get(x, "#546e7a") for x in labels])
    line = alt.Chart(long).mark_line(point=True).encode(
        x=time_x("bucket"), y=alt.Y("value:Q", title=y_title),
        color=alt.Color("series:N", title=None, scale=colors),
        tooltip=[time_tip("bucket"), "series:N", alt.Tooltip("value:Q", format=".3f")])
    rules = threshold_rules([(k, v, "slo") for k, v in targets.items()])
    return alt.layer(line, rules).properties(title=title, height=260)


def group_color(df: pd.DataFrame) -> alt.Color:
    """The colour of per-route, per-pair charts. Where every row has the same pair (the usual
    case), by route, the pair's hash prefix in the legend title: the legend stays narrow enough
    for a chart a third of the page (or a phone) wide. A "route · pair…" legend took half of
    such a chart, and the plot left over was too narrow for its own title and floor labels."""
    pairs = df["pair_hash"].dropna().unique() if "pair_hash" in df else ()
    if "route" in df and len(pairs) == 1:
        return alt.Color("route:N", title=f"route (pair {str(pairs[0])[:8]})",
                         legend=alt.Legend(titleLimit=400))
    return alt.Color("group:N", title="route · pair", legend=alt.Legend(labelLimit=220))


def series_by_group(df: pd.DataFrame, y: str, y_title: str, title: str,
                    threshold: float | None = None, threshold_label: str = "trigger",
                    y_domain: tuple[float, float] | None = None,
                    threshold_kind: str = "drift",
                    rules: list[tuple[str, float, str]] | None = None) -> alt.LayerChart:
    """One line per `group` over `bucket`, with an optional labelled threshold rule
    (`threshold_kind` in THRESHOLD_STYLES)."""
    y_enc = alt.Y(f"{y}:Q", title=y_title,
                  scale=alt.Scale(domain=list(y_domain)) if y_domain else alt.Undefined)
    line = alt.Chart(df).mark_line(point=True).encode(
        x=time_x("bucket"), y=y_enc, color=group_color(df),
        tooltip=[time_tip("bucket"), "group:N", alt.Tooltip(f"{y}:Q", format=".3f")])
    layers: list[alt.Chart] = [line]
    if threshold is not None:
        layers.append(threshold_rules([(threshold_label, threshold, threshold_kind)]))
    if rules:
        layers.append(threshold_rules(rules))
    return alt.layer(*layers).properties(title=title, height=240)


def position_bars(df: pd.DataFrame) -> alt.Chart:
    return alt.Chart(df).mark_bar().encode(
        x=alt.X("position:O", title="draft position"),
        xOffset="group:N",
        y=alt.Y("acceptance:Q", title="acceptance", scale=alt.Scale(domain=[0, 1])),
        color=group_color(df),
        tooltip=["group:N", "position:O", alt.Tooltip("acceptance:Q", format=".3f"),
                 "drafted:Q", "accepted:Q"],
    ).properties(title="Acceptance per draft position", height=240)


def stacked_counts(df: pd.DataFrame, color: str, colors: Mapping[str, str], title: str,
                   y: str = "n") -> alt.Chart:
    return alt.Chart(df).mark_bar().encode(
        x=time_x("bucket"), y=alt.Y(f"sum({y}):Q", title="count"),
        color=alt.Color(f"{color}:N", scale=_scale(colors), title=None),
        tooltip=[time_tip("bucket"), f"{color}:N", f"sum({y}):Q"],
    ).properties(title=title, height=240)


def token_strip(df: pd.DataFrame, marked: int | None = None) -> alt.LayerChart:
    """Tokens as cells: one row per path, x = position, colour = origin, text = token.

    `df` columns: path, position, token, origin, differs (bool). `marked` outlines the first
    divergence position.
    """
    base = alt.Chart(df).encode(x=alt.X("position:O", title="position"),
                                y=alt.Y("path:N", title=None,
                                        sort=["target-only", "speculative", "external"]))
    rect = base.mark_rect(stroke="white").encode(
        # Legend on top: at the right end of a strip wider than the page it was out of sight.
        color=alt.Color("origin:N", scale=_scale(ORIGIN_COLORS), title="origin",
                        legend=alt.Legend(orient="top", direction="horizontal")),
        tooltip=["path:N", "position:Q", "token:N", "origin:N", "differs:N"])
    text = base.mark_text(fontSize=11, color="white").encode(text="token:N")
    layers: list[alt.Chart] = [rect, text]
    if marked is not None:
        layers.append(alt.Chart(pd.DataFrame({"position": [marked]})).mark_rule(
            color="#c62828", strokeWidth=3).encode(x="position:O"))
    # Wide enough to read a token id per cell; the page scrolls it sideways.
    width = max(400, 44 * (int(df["position"].max()) + 1 if not df.empty else 1))
    # Rows 28 px high (a fixed height of 110 px left each path a 12 px sliver).
    return alt.layer(*layers).properties(height=alt.Step(28), width=width)


def event_timeline(df: pd.DataFrame) -> alt.Chart:
    # yOffset by kind: acts on one route within seconds (a rollback, then its re-enable) sit
    # side by side in the route's band instead of hiding each other.
    return alt.Chart(df).mark_point(size=140, filled=True, opacity=0.85).encode(
        x=time_x("created_at"), y=alt.Y("route:N", title="route"),
        yOffset=alt.YOffset("kind:N", scale=alt.Scale(domain=list(EVENT_COLORS))),
        color=alt.Color("kind:N", scale=_scale(EVENT_COLORS), title=None),
        shape="kind:N", tooltip=[time_tip("created_at"), "kind:N", "route:N", "actor:N", "pair:N"],
    ).properties(title="Governance timeline", height=260)


# A legend of line styles: each entry a short stroke in its colour and dash.
_LINE_LEGEND = alt.Legend(symbolType="stroke", symbolStrokeWidth=2, symbolSize=300)


def cost_trend(df: pd.DataFrame, y_title: str) -> alt.Chart:
    """Cost per 1,000 output tokens over time: as served vs the target-only baseline."""
    colors = alt.Scale(domain=["as served", "target-only baseline"], range=["#2e7d32", "#78909c"])
    return alt.Chart(df).mark_line(point=True).encode(
        x=time_x("bucket"), y=alt.Y("value:Q", title=y_title),
        # Colour and dash on one field, with the same title: Vega-Lite draws one legend
        # for both. (`legend=None` on the dash hid the merged legend, colour's too.)
        color=alt.Color("series:N", title=None, scale=colors, legend=_LINE_LEGEND),
        strokeDash=alt.StrokeDash("series:N", title=None, legend=_LINE_LEGEND, scale=alt.Scale(
            domain=["as served", "target-only baseline"], range=[[1, 0], [5, 3]])),
        tooltip=[time_tip("bucket"), "series:N", alt.Tooltip("value:Q", format=".4g")],
    ).properties(title="Cost per 1,000 output tokens", height=260)


def compliance(df: pd.DataFrame, objective: float) -> alt.LayerChart:
    """Share of requests within the SLO per bucket, with the objective as a labelled rule."""
    line = alt.Chart(df).mark_line(point=True, color="#1e88e5").encode(
        x=time_x("bucket"), y=alt.Y("compliance:Q", title="requests within SLO",
                                    axis=alt.Axis(format="%")),
        tooltip=[time_tip("bucket"), alt.Tooltip("compliance:Q", format=".2%"), "requests:Q"])
    return alt.layer(line, threshold_rules([("objective", objective, "objective")])).properties(
        title="SLO compliance", height=260)


def depth_by_load(df: pd.DataFrame) -> alt.Chart:
    """Draft tokens proposed and output tokens per step by batch-size band: one colour per
    route, solid = proposed (the depth cap at work), dashed = output. One axis: both are
    tokens per step."""
    names = {"depth": "draft tokens proposed", "tokens_per_step": "output tokens"}
    long = (df.melt(id_vars=["route", "batch_size", "requests"], value_vars=list(names),
                    var_name="measure", value_name="per_step")
            .assign(measure=lambda d: d["measure"].map(names)))
    return (alt.Chart(long).mark_line(point=True)
            .encode(x=alt.X("batch_size:O", title="batch size (rows per step, band start)",
                            axis=alt.Axis(labelAngle=0)),
                    y=alt.Y("per_step:Q", title="tokens per step"),
                    color=alt.Color("route:N", title="route"),
                    strokeDash=alt.StrokeDash("measure:N", title="per step",
                                              sort=list(names.values()),
                                              legend=None),  # the caption says it
                    tooltip=["route:N", "batch_size:O", "requests:Q", "measure:N",
                             alt.Tooltip("per_step:Q", format=".2f", title="tokens per step")])
            .properties(height=260))
