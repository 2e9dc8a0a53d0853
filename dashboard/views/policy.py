"""Policy: the policy IN FORCE (the one the sidecars recorded loading last, with its content),
its load history (`policy_loads`, every start and reload), the `policy_loaded` events of the
audit log, and which policy hash the served requests actually carried. What the database records (who loaded
it, from where, the content and its parse errors) is shown as plain text (`dashboard.plain`)."""

from __future__ import annotations

import streamlit as st

from dashboard import data, filters
from dashboard.plain import cells, code, md

flt = filters.current()
url = data.database_url()

st.title("Policy")
active = data.active_policy()
if active["source"] == "database":
    st.caption(f"In force: loaded {active['loaded_at']:%Y-%m-%d %H:%M:%S} UTC by "
               f"{code(active['loaded_by'])} from {code(active['path'])} (recorded by the "
               "sidecar).")
    if active["tampered"]:
        st.error("The recorded policy content does not hash to its recorded hash: the "
                 "`policy_versions` table was edited outside the sidecar. Trust the audit log's "
                 "`policy_loaded` events (below) instead.")
    if active["file_hash"] and active["file_hash"] != active["hash"]:
        st.warning(f"This dashboard's own policy file (hash {code(data.short_hash(active['file_hash']))})"
                   " is not the policy in force: the page shows the one in force.")
else:
    st.caption(f"No policy load recorded in this database yet: showing this dashboard's file "
               f"{code(active['path'])}. The sidecar records the policy it puts in force when it "
               "starts and on every reload.")
if active["error"]:
    st.error(f"The policy cannot be read: {md(active['error'])}")
if active["policy"]:
    pol = active["policy"]
    cols = st.columns(4)
    cols[0].metric("Policy hash in force", md(data.short_hash(active["hash"])),
                   help=md(active["hash"]))
    cols[1].metric("Routes", len(pol["routes"]))
    cols[2].metric("Default route", md(pol["default_route"]))
    price, currency = data.pool_price()
    cols[3].metric("Pool-hour price", "—" if price is None else f"{price:g} {md(currency)}",
                   help="`cost.pool_hour`: the price of one hour of the serving pool")
    st.dataframe(cells([{"route": name, "mode (file)": r["mode"], "proposer": r["proposer"],
                   "shadow sample rate": r["shadow"]["sample_rate"],
                   "gamma": f"{r['gamma']['strategy']} {r['gamma']['initial']}",
                   "redaction": r["redaction"], "gate required": r["gate"]["require_report"],
                   "α floor": r["triggers"]["acceptance"]["min_alpha"],
                   "drift JS / PSI": f"{r['triggers']['drift']['max_js']:g} / "
                                     f"{r['triggers']['drift']['max_psi']:g}"}
                  for name, r in pol["routes"].items()]), hide_index=True, width="stretch")
    targets = data.slo_targets()
    st.caption(f"SLO targets: p95 latency {targets.latency_p95_s:g} s, p95 TTFT "
               f"{targets.ttft_p95_s:g} s, objective {targets.objective:.2%}")
if active["yaml"]:
    with st.expander("Policy text in force"):
        st.code(active["yaml"], language="yaml")

hist = data.policy_history(url, flt.since, flt.until)
st.subheader("History")
versions = hist["versions"]
if versions.empty:
    st.info("No policy load recorded yet (`policy_loads`): the sidecar writes one row when it "
            "starts with an audit database and one on every reload.")
else:
    shown = versions.copy()
    for c in ("policy_hash", "previous_policy_hash"):
        shown[c] = shown[c].map(data.short_hash)
    st.dataframe(cells(shown), hide_index=True, width="stretch",
                 column_config={"loaded_at": st.column_config.DatetimeColumn(
                     "loaded at (UTC)", format="YYYY-MM-DD HH:mm:ss")})
events = hist["events"]
with st.expander(f"`policy_loaded` events in the audit log ({len(events)})"):
    if events.empty:
        st.write("None.")
    else:
        st.dataframe(cells(events), hide_index=True, width="stretch")

st.subheader("Policy hashes on served requests")
usage = hist["usage"]
if usage.empty:
    st.info("No request in this time range.")
else:
    st.dataframe(cells(usage), hide_index=True, width="stretch")
