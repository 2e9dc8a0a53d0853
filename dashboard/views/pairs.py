"""Pairs, promotions & rollbacks: which draft/target pairs exist and in what lifecycle state,
what mode each route is in now, which gates passed, and every rollback / re-enable with the
evidence that fired it. Actors, reasons (typed by whoever held the key that acted) and other
governance details come from the database: shown as plain text (`dashboard.plain`)."""

from __future__ import annotations

import streamlit as st

from dashboard import charts, data, filters
from dashboard.plain import cells, md

flt = filters.current()
url = data.database_url()
KINDS = ("rollback", "reenable", "promotion", "canary", "gate_result", "pair_registered")

st.title("Pairs, promotions & rollbacks")

st.subheader("Routes now")
st.caption("The mode in force (what serving does and `guardian route status` shows): the policy "
           "file's mode unless a rollback, re-enable or promotion set one in the database; a "
           "file's `speculative` needs a passing gate report for the serving pair.")
routes = data.routes_now(url)
if routes.empty:
    st.info("No routes: the policy file names none and the database holds no route state.")
else:
    cols = st.columns(min(len(routes), 4))
    for i, (_, r) in enumerate(routes.iterrows()):
        cols[i % len(cols)].metric(md(r["route"]), md(data.shown_mode(r)), help=md(r["why"]))

st.subheader("Pair registry")
pairs = data.model_pairs(url)
if pairs.empty:
    st.info("No pair registered. Pairs appear here once `guardian gate` registers the pair it "
            "checks; `guardian route promote` then moves a gated pair to promoted (lifecycle: "
            "registered → gated → promoted).")
else:
    st.dataframe(cells(pairs.drop(columns=["details"], errors="ignore")), hide_index=True,
                 width="stretch")

events = data.governance(url, flt.since, flt.until, flt.routes, KINDS)
st.subheader("Timeline")
if events.empty:
    st.info("No gate result, promotion, rollback or re-enable in this time range. They are "
            "written to the governance log by `guardian gate`, promotions and the rollback "
            "triggers; widen the time range to see older ones.")
    st.stop()
timeline = events.assign(route=events["route"].fillna("(all routes)"),
                         pair=events["pair_hash"].map(data.short_hash))
st.altair_chart(charts.event_timeline(timeline), width="stretch")

for kind, title in (("rollback", "Rollbacks"), ("reenable", "Re-enables"),
                    ("gate_result", "Gate reports"), ("promotion", "Promotions"),
                    ("canary", "Canary steps")):
    sel = events[events["kind"] == kind]
    st.markdown(f"**{title}** ({len(sel)})")
    if sel.empty:
        st.caption(f"No {kind.replace('_', ' ')} in this range.")
    for _, ev in sel.iterrows():
        details = ev["details"] if isinstance(ev["details"], dict) else {}
        verdict = ("PASS · " if details.get("passed") else "FAIL · ") if "passed" in details else ""
        with st.expander(f"{verdict}{ev['created_at']:%Y-%m-%d %H:%M:%S} · route "
                         f"{md(ev['route'] or '—')} · pair {md(data.short_hash(ev['pair_hash']))}"
                         f" · by {md(ev['actor'])}"):
            if details.get("reason"):
                st.markdown(f"**Why:** “{md(details['reason'])}”")
            if details.get("previous_mode") or details.get("new_mode"):
                st.markdown(f"mode {md(details.get('previous_mode', '?'))} → "
                            f"{md(details.get('new_mode', '?'))}")
            if details.get("evidence"):  # rollback: every measurement the trigger took
                st.dataframe(cells(data.evidence_frame(details["evidence"])), hide_index=True,
                             width="stretch")
            if details.get("checks"):  # gate report
                st.dataframe(cells(details["checks"]), hide_index=True, width="stretch")
            st.json(details, expanded=False)
