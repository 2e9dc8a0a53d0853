"""Executive: what speculation costs and saves (SLIs M4 target forwards per request and M5
cost per output token, against target-only decoding of the same requests), how much faster it
is, and whether the SLO held. The arithmetic is `guardian.governance.cost`; the price of a
pool-hour comes from the policy in force (`cost.pool_hour`). Route names and the currency come
from the URL and the recorded policy: shown as plain text (`dashboard.plain`)."""

from __future__ import annotations

from datetime import timedelta

import pandas as pd
import streamlit as st

from dashboard import charts, data, filters
from dashboard.plain import cells, md

flt = filters.current()
url = data.database_url()
targets = data.slo_targets()
price, currency = data.pool_price()
unit = currency if price is not None else "pool-s"

st.title("Executive: cost & speedup")
st.caption(f"{flt.since:%Y-%m-%d %H:%M} → {flt.until:%Y-%m-%d %H:%M} UTC · routes: "
           f"{flt.routes_label} · "
           + (f"pool-hour {price:g} {md(currency)} (policy `cost.pool_hour`)" if price is not None
              else "no `cost:` in the policy: costs in pool-seconds")
           + ". Baseline = target-only decoding of the same requests, timed in shadow.")

usage = data.cost_usage(url, flt.since, flt.until, flt.routes, flt.bucket_s)
paired = data.paired_speed(url, flt.since, flt.until, flt.routes, flt.bucket_s)
if usage.empty:
    st.info("No requests in this time range: cost appears once traffic flows through the "
            "sidecar. Widen the time range or clear the route filter.")
    st.stop()

overall = data.cost_figures(usage, paired, price, keys=()).iloc[0]
counts = data.slo_window_counts(url, flt.until, flt.routes, targets)
bad, total = counts[timedelta(days=targets.period_days)]
compliance = 1.0 - bad / total if total else None


def fmt(v: object, spec: str, suffix: str = "") -> str:
    return "—" if v is None or pd.isna(v) else f"{v:{spec}}{suffix}"


cols = st.columns(4)
cols[0].metric("Spend in range", f"{overall['spend']:,.4g} {md(currency)}" if price is not None
               else f"{usage['seconds'].sum():,.1f} pool-s",
               help="Engine seconds the pool spent on the served requests × pool-hour price.")
saving = data.saving_of(overall["saving"], overall["seconds_per_token"],
                        overall["baseline_seconds_per_token"])
cols[1].metric("Saving vs target-only", fmt(saving, ".1%"),
               help="1 − cost as served / what decoding the same output tokens target-only "
                    "would have cost (target-only seconds per token measured in shadow; "
                    "negative: speculation cost more).")
cols[2].metric("Speedup (shadow, same requests)", fmt(overall["speedup"], ".2f", "×"),
               delta=data.speedup_delta(None if pd.isna(overall["speedup"])
                                        else float(overall["speedup"])),
               help="Target-only seconds per token / speculative seconds per token over the "
                    "shadowed requests that ran both paths.")
cols[3].metric(f"SLO compliance ({targets.period_days} d)", fmt(compliance, ".2%"),
               delta=None if compliance is None else
               f"{(compliance - targets.objective) * 100:+.2f} pts vs objective "
               f"{targets.objective:.2%}",
               delta_color="normal")
cols = st.columns(4)
# Served requests whose pool reported no forward count (an upstream pool without counters):
# M4 says so rather than showing what the others' figure implies for them.
unknown_forwards = int(usage["requests"].sum() - usage["forward_requests"].sum()) \
    if "forward_requests" in usage else 0
cols[0].metric("M4 target forwards / request",
               "not reported" if pd.isna(overall["forwards_per_request"]) and unknown_forwards
               else fmt(overall["forwards_per_request"], ".1f"),
               delta=None if pd.isna(overall["forwards_saved"]) else
               f"{-overall['forwards_saved']:.0%} vs target-only "
               f"{overall['baseline_forwards_per_request']:.1f}", delta_color="inverse",
               help=None if not unknown_forwards else
               f"{unknown_forwards} speculative answers came from a pool that reports no "
               "counters: their forwards are not reported and left out of M4.")


def per_1k(cost: object, seconds: object) -> float | None:
    """Per 1,000 output tokens: the cost with a price, else pool-seconds."""
    v = cost if price is not None else seconds
    return None if v is None or pd.isna(v) else float(v) * 1000.0


base_1k = per_1k(overall["baseline_cost_per_token"], overall["baseline_seconds_per_token"])
cols[1].metric(f"M5 cost / 1k output tokens ({md(currency) if price is not None else unit})",
               fmt(per_1k(overall["cost_per_token"], overall["seconds_per_token"]), ".4g"),
               delta=None if base_1k is None else f"target-only {base_1k:.4g}",
               delta_color="off", delta_arrow="off")  # a reference, not a change
cols[2].metric("Requests", f"{int(overall['requests']):,}")
cols[3].metric("Served speculatively", f"{int(overall['spec_requests']):,}")

left, right = st.columns(2)
trend = data.cost_trend(usage, paired, price)
if trend.empty:
    left.info("No cost trend: no request carried engine timings in this range.")
else:
    # The unit only: the title says "per 1,000 output tokens", and a y title longer than the
    # plot is tall pushed the chart's title out of its frame.
    left.altair_chart(charts.cost_trend(trend, unit), width="stretch")
good = data.slo_good_series(url, flt.since, flt.until, flt.routes, targets, flt.bucket_s)
if good.empty:
    right.info("No requests to measure the SLO on.")
else:
    good = good.assign(compliance=good["good"] / good["requests"])
    right.altair_chart(charts.compliance(good, targets.objective), width="stretch")
if note := flt.few_buckets_note(good["bucket"] if not good.empty else None):
    st.caption(note)

st.subheader("Per route · pair")
table = data.cost_figures(usage, paired, price)
shown = pd.DataFrame({
    "route": table["route"], "pair": table["pair_hash"].map(data.short_hash),
    "requests": table["requests"], "served speculatively": table["spec_requests"],
    "M4 forwards / request": table["forwards_per_request"],
    "M4 target-only": table["baseline_forwards_per_request"],
    f"M5 {unit} / 1k tokens": [per_1k(c, x) for c, x in
                                zip(table["cost_per_token"], table["seconds_per_token"],
                                    strict=True)],
    f"M5 target-only {unit} / 1k": [per_1k(c, x) for c, x in
                                    zip(table["baseline_cost_per_token"],
                                        table["baseline_seconds_per_token"], strict=True)],
    "speedup": table["speedup"],
    "saving": [data.saving_of(v, x, b) for v, x, b in
               zip(table["saving"], table["seconds_per_token"],
                   table["baseline_seconds_per_token"], strict=True)],
})
st.dataframe(cells(shown), hide_index=True, width="stretch", column_config={
    "M4 forwards / request": st.column_config.NumberColumn(format="%.1f"),
    "M4 target-only": st.column_config.NumberColumn(format="%.1f"),
    "speedup": st.column_config.NumberColumn(format="%.2f×"),
    "saving": st.column_config.NumberColumn(format="percent"),
})
st.caption("M4: target forward passes per request (speculative: prefill + one verify per step; "
           "target-only: one per output token). M5: engine seconds per output token × pool-hour "
           "price. Speedup and the target-only columns need shadowed requests of that route · "
           "pair (policy `shadow.sample_rate`).")
