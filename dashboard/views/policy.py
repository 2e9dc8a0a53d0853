"""Policy: which policy is active (file, content hash, settings per route), which policies
the sidecar put in force before (its `policy_loaded` events), and which policy hash the
served requests actually carried."""

from __future__ import annotations

import streamlit as st

from dashboard import data, filters

flt = filters.current()
url = data.database_url()

st.title("Policy")
active = data.active_policy()
if active["error"]:
    st.error(f"The configured policy cannot be loaded: {active['error']}")
else:
    cols = st.columns(3)
    cols[0].metric("Active policy hash", data.short_hash(active["hash"]), help=active["hash"])
    cols[1].metric("Routes", len(active["policy"]["routes"]))
    cols[2].metric("Default route", active["policy"]["default_route"])
    st.caption(f"File: `{active['path']}` · hash `{active['hash']}`")
    st.dataframe([{"route": name, "mode": r["mode"], "shadow sample rate": r["shadow"]["sample_rate"],
                   "gamma": f"{r['gamma']['strategy']} {r['gamma']['initial']}",
                   "redaction": r["redaction"], "near-tie tolerance": r["near_tie_tolerance"],
                   "distribution tolerance": r["distribution_tolerance"]}
                  for name, r in active["policy"]["routes"].items()], hide_index=True,
                 width="stretch")
    targets = data.slo_targets()
    st.caption(f"SLO targets: p95 latency {targets.latency_p95_s:g} s, p95 TTFT "
               f"{targets.ttft_p95_s:g} s, objective {targets.objective:.2%} "
               + ("(from the policy)" if active["policy"].get("slo") else
                  "(dashboard defaults: the policy has no `slo:` section)"))
    with st.expander("Policy file"):
        st.code(active["yaml"], language="yaml")

hist = data.policy_history(url, flt.since, flt.until)
st.subheader("History")
versions = hist["versions"]
if versions.empty:
    st.info("No policy load recorded yet: the sidecar records the policy it puts in force (a "
            "`policy_loaded` governance event, by content hash) when it starts with an audit "
            "database and on every reload.")
else:
    if active["hash"] and active["hash"] not in set(versions["policy_hash"]):
        st.warning("The configured policy file's hash is not among the loaded versions: the "
                   "running sidecar may use another policy than this file.")
    st.dataframe(versions, hide_index=True, width="stretch")

st.subheader("Policy hashes on served requests")
usage = hist["usage"]
if usage.empty:
    st.info("No request in this time range.")
else:
    st.dataframe(usage, hide_index=True, width="stretch")
