"""Shadow equivalence: does speculative decoding still say what the target alone would say?
Verdicts over time, the divergences and near ties with their margins, and one request side by
side (target-only vs speculative, each token marked accepted / resampled / bonus). Token ids
only for compliance and admin (`dashboard.auth`). Ids (typed, or from a link) and route names
are shown as plain text (`dashboard.plain`)."""

from __future__ import annotations

import streamlit as st

from dashboard import auth, charts, data, filters, judging
from dashboard.plain import cells, code, md
from guardian.policy import NearTieTrigger

access = auth.current()
flt = filters.current()
url = data.database_url()

st.title("Shadow equivalence")
verdicts = data.verdict_series(url, flt.since, flt.until, flt.routes, flt.bucket_s)
if verdicts.empty:
    st.info("No shadow comparisons in this time range. They appear when a route's policy has "
            "`shadow.sample_rate` > 0 and traffic flows; widen the time range or the routes.")
    st.stop()

by_verdict = verdicts.groupby("verdict")["n"].sum()
cols = st.columns(5)
for c, v in zip(cols, ("match", "near_tie", "divergence", "distribution_ok", "distribution_mismatch"),
                strict=True):
    c.metric(v.replace("_", " "), f"{int(by_verdict.get(v, 0)):,}")
bad = int(by_verdict.get("divergence", 0) + by_verdict.get("distribution_mismatch", 0))
if bad:
    st.error(f"{bad} comparison(s) found speculative output that target-only would not produce "
             "(divergence / distribution mismatch): each is a bug until explained. Inspect them "
             "below.")
judging.render_flags(url, flt)  # speculation_silent: a speculative label that speculates not
st.altair_chart(charts.stacked_counts(verdicts, "verdict", charts.VERDICT_COLORS,
                                      "Verdicts over time"), width="stretch")
if note := flt.few_buckets_note(verdicts["bucket"]):
    st.caption(note)

st.subheader("Divergences and near ties")
flagged = data.flagged_shadows(url, flt.since, flt.until, flt.routes)
st.caption("near tie: the argmax flipped and it is proven numerical — each path's token is the "
           "other's runner-up (or, three tokens tied, one path's) and the logits both paths "
           "recorded agree within the route's measured tolerance (guardian bench tolerance); "
           "divergence: anything else, including the same tokens "
           "ending differently and log-probabilities that disagree without a flip.")
if flagged.empty:
    st.success("No divergence, near tie or distribution mismatch in this range.")
else:
    show = flagged.assign(pair_hash=flagged["pair_hash"].map(data.short_hash))
    st.dataframe(cells(show), hide_index=True, width="stretch", column_config={
        "margin_at_divergence": st.column_config.NumberColumn("margin", format="%.4f"),
        "tolerance": st.column_config.NumberColumn(format="%.3f"),
        "first_divergence_position": st.column_config.NumberColumn("position")})

st.subheader("Near-tie rate per route and pair")
rates = data.near_tie_rates(url, flt.since, flt.until, flt.routes)
limit = NearTieTrigger().max_rate
st.caption(f"Share of greedy verdicts that were proven near ties. On a healthy pair they are rare; "
           f"the near-tie trigger fails above {limit:.0%} (policy `triggers.near_tie.max_rate`), "
           "which points at numerics that drifted apart (dtype, kernel, device) or a loose "
           "tolerance. Also exported as `guardian_shadow_near_tie_rate`.")
if rates.empty:
    st.info("No greedy shadow verdicts in this range.")
else:
    high = rates[rates["near_tie_rate"] > limit]
    for _, row in high.iterrows():
        st.warning(f"{md(row['route'])}: near-tie rate {row['near_tie_rate']:.1%} over "
                   f"{int(row['greedy_verdicts'])} greedy verdicts (limit {limit:.0%})")
    st.dataframe(cells(rates.assign(pair_hash=rates["pair_hash"].map(data.short_hash))),
                 hide_index=True, width="stretch", column_config={
                     "near_tie_rate": st.column_config.NumberColumn("near-tie rate",
                                                                    format="%.3f")})

judging.render_coverage(url, flt)

st.subheader("One request, side by side")
ids = flagged["request_id"].tolist() if not flagged.empty else \
    data.recent_shadows(url, flt.since, flt.until, flt.routes)["request_id"].tolist()
qp_id = st.query_params.get("request_id")
typed = st.text_input("Request id", value=qp_id or "", placeholder="any shadowed request id",
                      key="shadow_rid")
pick = typed.strip() or (st.selectbox("…or a flagged request" if not flagged.empty else
                                      "…or a recent shadowed request", ids, key="shadow_pick")
                         if ids else None)
if not pick:
    st.stop()
rec = data.request_record(url, pick, text=access.text)
if rec is None:
    st.warning(f"No request {code(pick)} in the audit store: check the id (and the database).")
    st.stop()
req, tokens, shadows = rec["request"], rec["tokens"], rec["shadows"]
if not shadows:
    st.info(f"Request {code(pick)} was not shadowed: only sampled requests "
            "(policy `shadow.sample_rate`) have a second path to compare with.")
    st.stop()
sh = shadows[-1]
st.markdown(f"**{md(pick)}** · route {code(req['route'])} · served **{md(req['served_path'])}** · "
            f"verdict **{md(sh['verdict'])}** · first difference at "
            f"{sh['first_divergence_position'] if sh['first_divergence_position'] is not None else '—'}"
            f" · margin {sh['margin_at_divergence'] if sh['margin_at_divergence'] is not None else '—'}"
            f" · tolerance {md(sh['tolerance'])}")
cap = (sh.get("stats") or {}).get("compared_cap") or req["completion_tokens"]
strip = data.side_by_side(tokens, req["served_path"], sh["shadow_path"], int(cap),
                          sh["first_divergence_position"])
if strip.empty:
    st.info("No per-token rows stored for this request (redaction `none`, or pruned).")
else:
    st.altair_chart(charts.token_strip(strip, sh["first_divergence_position"]), width="content")
    st.caption("Cell = token id (hash prefix when redacted; · where the audit store keeps no id, "
               "as for shadow tokens); colour = origin. Compared up to the shadow cap; the red "
               "line marks the first difference."
               + ("" if access.text else f" {access.hidden_note}"))
