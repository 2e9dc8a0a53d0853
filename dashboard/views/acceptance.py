"""Acceptance & drift: how well does each pair's draft predict its target on each route, per
draft position, and has its acceptance distribution drifted from its reference window? Route
names and statistics from the database are shown as plain text (`dashboard.plain`)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard import charts, data, filters
from dashboard.plain import cells, md

flt = filters.current()
url = data.database_url()
thresholds = data.drift_thresholds()

st.title("Acceptance & drift")
st.caption("Speculative runs = requests served speculatively + speculative shadow runs. "
           "Acceptance rate = accepted / proposed draft tokens (vLLM's; falls as γ grows); "
           "α = accepted / judged draft positions (up to each step's first rejection; "
           "Leviathan et al.; what the acceptance trigger and the gate floor check); mean "
           "acceptance length = 1 + accepted / steps (tokens per target forward).")


bins = data.acceptance_bins(url, flt.since, flt.until, flt.routes, flt.bucket_s)
if bins.empty:
    st.info("No speculative runs in this time range: acceptance appears once a route serves "
            "speculatively or shadows target-only traffic with the speculative path "
            "(policy `mode` and `shadow.sample_rate`). Widen the time range or the routes.")
    st.stop()

series = data.label_groups(data.acceptance_series(bins))
totals = series.groupby("group")[["runs"]].sum()
overall = data.counters(bins[["proposed", "judged", "accepted", "steps"]].sum())
cols = st.columns(4)
cols[0].metric("Acceptance rate", f"{overall.acceptance_rate:.3f}" if overall.proposed else "—",
               help="accepted / proposed draft tokens")
cols[1].metric("α", f"{overall.alpha:.3f}" if overall.judged else "—",
               help="accepted / judged draft positions; the acceptance trigger's min_alpha")
cols[2].metric("Mean acceptance length", f"{overall.mean_acceptance_length:.2f}"
               if overall.steps else "—")
cols[3].metric("Speculative runs", f"{int(bins['runs'].sum()):,}")

left, mid, right = st.columns(3)
left.altair_chart(charts.series_by_group(series, "acceptance_rate", "accepted / proposed",
                                         "Acceptance rate over time", y_domain=(0.0, 1.0)),
                  width="stretch")
# The acceptance trigger's floor (min_alpha) of each route shown, one labelled rule per value.
floors: dict[float, list[str]] = {}
for route, floor in data.acceptance_floors(sorted(series["route"].unique())).items():
    floors.setdefault(floor, []).append(route)
mid.altair_chart(charts.series_by_group(
    series, "alpha", "α", "α over time", y_domain=(0.0, 1.0),
    # One floor for every route shown: a short label (the chart is a third of the page wide).
    rules=[("α floor" if len(floors) == 1 else f"α floor {', '.join(rs)}", v, "floor")
           for v, rs in sorted(floors.items())]),
    width="stretch")
right.altair_chart(charts.series_by_group(series, "mean_acceptance_length", "tokens / forward",
                                          "Mean acceptance length over time"), width="stretch")
if note := flt.few_buckets_note(series["bucket"]):
    st.caption(note)

per_pos, hist = data.position_stats(url, flt.since, flt.until, flt.routes, flt.drift_bucket_s)
if per_pos.empty:
    st.info("No per-position counters recorded (the engine's `accepted_per_position` stats).")
else:
    st.altair_chart(charts.position_bars(data.label_groups(per_pos)), width="stretch")

depth = data.depth_by_load(url, flt.since, flt.until, flt.routes)
if not depth.empty:
    st.subheader("Speculation depth by load")
    st.caption("Continuous batching: the engine caps every row's speculation depth by the size "
               "of the shared batch, by goodput predicted from step costs measured on the pair "
               "and the live acceptance rate (0 = speculation off at that load). Per "
               "batch-size band (a request's mean rows per step): draft tokens proposed per "
               "step (solid lines) and output tokens per step "
               "(dashed) of the requests served speculatively. The cap in force: GET /admin/speculation and "
               "`guardian_speculation_gamma_cap` on /metrics.")
    st.altair_chart(charts.depth_by_load(depth), width="stretch")

st.subheader("Drift against the reference window")
rollbacks = data.governance(url, flt.since, flt.until, flt.routes, ("rollback",))
firings = data.drift_firings(rollbacks)
fired = firings[firings["fired"]] if not firings.empty else firings
if not fired.empty:
    st.markdown("**Drift triggers that fired** (the rollback controller's own measurement, "
                "from the rollback's evidence)")
    cols = st.columns(min(len(fired), 4))
    for i, (_, f) in enumerate(fired.head(4).iterrows()):
        parts = [f"JS {f['js']:.3f} bits (limit {f['max_js']:g})" if pd.notna(f["js"]) else None,
                 f"PSI {f['psi']:.2f} (limit {f['max_psi']:g})" if pd.notna(f["psi"]) else None]
        cols[i].metric(f"{md(f['route'])} · {md(f['statistic'])}",
                       f"{f['value']:.3f}" if pd.notna(f["value"]) else "—",
                       delta=f"limit {f['threshold']:g}" if pd.notna(f["threshold"]) else None,
                       delta_color="off", delta_arrow="off",
                       help=f"Fired at {f['at']:%Y-%m-%d %H:%M:%S} UTC over {md(f['samples'])} "
                            f"samples: " + "; ".join(p for p in parts if p))
    st.dataframe(cells(firings.assign(at=firings["at"].dt.strftime("%Y-%m-%d %H:%M:%S"))),
                 hide_index=True, width="stretch")
st.caption(f"Distribution of accepted draft tokens per step (what the rollback trigger watches) "
           f"per bucket vs the reference window: the first {thresholds.reference_size} steps of "
           f"each route · pair in the range. Buckets with fewer than {thresholds.min_samples} "
           f"steps are not scored. Dashed lines: trigger thresholds (JS "
           f"{thresholds.js_divergence:g} bits, PSI {thresholds.psi:g}).")
drift = data.label_groups(data.drift_series(hist, thresholds)).dropna(subset=["js_divergence"])
if drift.empty:
    st.info(f"Not enough steps to score drift: after the reference window, a bucket needs at "
            f"least {thresholds.min_samples} speculative steps. Widen the time range.")
else:
    over = drift[(drift["js_divergence"] > thresholds.js_divergence) | (drift["psi"] > thresholds.psi)]
    for group in sorted(over["group"].unique()):
        last = over[over["group"] == group].iloc[-1]
        st.warning(f"{md(group)}: drift above trigger at {last['bucket']:%Y-%m-%d %H:%M} UTC "
                   f"(JS {last['js_divergence']:.3f}, PSI {last['psi']:.3f})")
    left, right = st.columns(2)
    left.altair_chart(charts.series_by_group(drift, "js_divergence", "JS divergence (bits)",
                                             "JS divergence", thresholds.js_divergence,
                                             "JS trigger"), width="stretch")
    right.altair_chart(charts.series_by_group(drift, "psi", "PSI", "Population stability index",
                                              thresholds.psi, "PSI trigger"), width="stretch")
with st.expander("Runs per route · pair"):
    st.dataframe(cells(totals), width="stretch")
