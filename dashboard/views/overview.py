"""Overview / SLOs: are we within our latency SLOs, how fast is the budget burning, and is
speculation actually faster than target-only (as measured in shadow)? Route names, actors and
reasons come from the database (a rollback's reason is whatever its key holder typed): shown
as plain text (`dashboard.plain`)."""

from __future__ import annotations

from datetime import timedelta

import pandas as pd
import streamlit as st

from dashboard import charts, data, filters
from dashboard.plain import code, md

flt = filters.current()
url = data.database_url()
targets = data.slo_targets()

st.title("Overview / SLOs")
st.caption(f"{flt.since:%Y-%m-%d %H:%M} → {flt.until:%Y-%m-%d %H:%M} UTC · "
           f"routes: {flt.routes_label} · SLO: {targets.objective:.2%} of requests "
           f"within {targets.good_latency_s:g} s latency and {targets.good_ttft_s:g} s TTFT")

# On-call's first questions, first: what is each route doing, and what is on fire?
routes = data.routes_now(url)
st.subheader("Routes now")
if routes.empty:
    st.info("No routes: the policy in force names none and the database holds no route state.")
else:
    cols = st.columns(min(len(routes), 6))
    for i, (_, r) in enumerate(routes.iterrows()):
        mode = data.shown_mode(r)
        asked = r["policy_mode"] if isinstance(r["policy_mode"], str) else None
        cols[i % len(cols)].metric(
            md(r["route"]), md(mode), help=md(r["why"]),
            delta=None if asked in (None, mode) else f"policy asks {md(asked)}",
            delta_color="inverse" if asked == "speculative" else "off", delta_arrow="off")

acts = data.governance(url, flt.until - timedelta(days=30), flt.until, (), data.ROUTE_ACTS)
incidents = data.open_rollbacks(routes, acts)
counts = data.slo_window_counts(url, flt.until, flt.routes, targets)
paging = [a for a in data.slo_alerts(counts, targets) if a.firing]
st.subheader("Active incidents")
if not incidents and not paging:
    st.success("No active incident: no route is rolled back and no burn-rate alert is firing.")
for inc in incidents:  # a warning box: st.error is kept for pages that fail to read data
    st.warning(f"Route **{md(inc['route'])}** rolled back at {inc['at']:%Y-%m-%d %H:%M:%S} UTC "
               f"by {code(inc['by'])}"
               + (f" (fired: {', '.join(md(f) for f in inc['fired'])})" if inc["fired"] else "")
               + f"; now: {md(inc['mode'] or 'not served')}."
               + (f" Reason given: “{md(inc['reason'])}”" if inc["reason"] else ""),
               icon=":material/emergency:")
for a in paging:
    st.warning(
        f"Burn-rate {a.rule.severity.upper()}: {a.long_burn:.1f}× over "
        f"{a.rule.label.split(' over ')[1]} (threshold {a.rule.burn_rate:g}×)",
        icon=":material/local_fire_department:")

summary = data.latency_series(url, flt.since, flt.until, flt.routes, 0)
bad, total = counts[timedelta(days=targets.period_days)]
remaining = 1.0 - (bad / total / targets.budget if total else 0.0)
speed = data.shadow_speed(url, flt.since, flt.until, flt.routes)
gain = data.speedup_from(speed)

if summary.empty or not int(summary["requests"].sum()):
    st.info("No requests in this time range. Requests appear here once traffic flows through "
            "the sidecar (`guardian serve`); widen the time range or clear the route filter.")
else:
    row = summary.iloc[0]
    cols = st.columns(4)
    cols[0].metric("Requests", f"{int(row['requests']):,}")
    cols[1].metric(f"Error budget left ({targets.period_days} d)", f"{remaining:.1%}",
                   help=f"{bad:,} of {total:,} requests missed the SLO in the last "
                        f"{targets.period_days} days; budget = {targets.budget:.2%} of requests.")
    cols[2].metric("Speculative speedup (shadow)", "—" if gain is None else f"{gain:.2f}×",
                   delta=data.speedup_delta(gain),  # below 1×: slower than target-only, red
                   help=f"Seconds per token of target-only over speculative on "
                        f"{int(speed['pairs']):,} shadowed requests (same prompts, both paths).")
    cols[3].metric(f"SLO misses ({targets.period_days} d)", f"{bad:,}")
    for metric, label in (("latency", "Latency"), ("ttft", "Time to first token")):
        cols = st.columns(3)
        for c, q in zip(cols, (50, 95, 99), strict=True):
            value = float(row[f"{metric}_p{q}"])
            target = getattr(targets, f"{metric}_p{q}_s")
            c.metric(f"{label} p{q}", f"{value * 1000:.0f} ms",
                     delta=f"{(value - target) * 1000:+.0f} ms vs target {target * 1000:.0f} ms",
                     delta_color="inverse")

st.subheader("Burn-rate alerts")
st.caption("Multiwindow, multi-burn-rate alerts (SRE workbook): a rule fires when both its long "
           f"and short window burn the error budget at least that fast. Evaluated at "
           f"{flt.until:%Y-%m-%d %H:%M} UTC.")
alerts = data.slo_alerts(counts, targets)
firing = [a for a in alerts if a.firing]
st.caption(f"{len(firing)} firing (shown under Active incidents)." if firing
           else "No burn-rate alert is firing.")
st.dataframe(pd.DataFrame([{  # status first: still in sight on a phone-wide page
    "status": "FIRING" if a.firing else "ok", "severity": a.rule.severity, "rule": a.rule.label,
    "long-window burn": round(a.long_burn, 2), "short-window burn": round(a.short_burn, 2),
    "requests (long)": a.long_total,
} for a in alerts]), hide_index=True, width="stretch")

series = data.latency_series(url, flt.since, flt.until, flt.routes, flt.bucket_s)
if not series.empty:
    left, right = st.columns(2)
    left.altair_chart(charts.lines_with_targets(
        series, {"latency_p50": "p50", "latency_p95": "p95", "latency_p99": "p99"},
        {"p95 target": targets.latency_p95_s, "p99 target": targets.latency_p99_s},
        "End-to-end latency", "seconds"), width="stretch")
    right.altair_chart(charts.lines_with_targets(
        series, {"ttft_p50": "p50", "ttft_p95": "p95", "ttft_p99": "p99"},
        {"p95 target": targets.ttft_p95_s, "p99 target": targets.ttft_p99_s},
        "Time to first token", "seconds"), width="stretch")
    if note := flt.few_buckets_note(series["bucket"]):
        st.caption(note)
