"""Audit explorer: find a request (by id, time range, route, verdict), read its per-token
record, check the hash chains, and download an offline-verifiable export.

Prompt / completion text, token ids and exports only for compliance and admin (`dashboard.auth`);
on-call and release get the metadata, from queries that never select the text.

Everything a record holds was written by somebody else - the prompt by whoever held an
inference key - and a request id can come from a link: all of it is shown as plain text
(`dashboard.plain`). The prompt and the completion each sit in their own labelled box, with
control, invisible and direction-changing characters written as ⟨U+XXXX⟩, so a prompt cannot
draw a fake "completion" of its own or show reordered text; the export holds the exact bytes."""

from __future__ import annotations

import streamlit as st

from dashboard import auth, data, filters
from dashboard.plain import cells, code, md, reveal

access = auth.current()
flt = filters.current()
url = data.database_url()
VERDICTS = ["any", "match", "near_tie", "divergence", "distribution_ok", "distribution_mismatch",
            "not shadowed"]

st.title("Audit explorer")
c1, c2 = st.columns([2, 1])
request_id = c1.text_input("Request id", value=st.query_params.get("request_id", ""),
                           placeholder="exact id; searches all time", key="audit_rid").strip()
verdict = c2.selectbox("Shadow verdict", VERDICTS, key="audit_verdict")
found = data.search_requests(url, flt.since, flt.until, flt.routes, request_id or None,
                             None if verdict == "any" else verdict)
if request_id:
    if found.empty:
        st.warning(f"No request with id {code(request_id)}: check the id; ids are exact "
                   "(as returned in the API response's `id`).")
    else:
        st.query_params["request_id"] = request_id
elif "request_id" in st.query_params:
    del st.query_params["request_id"]

st.caption(f"{len(found):,} request(s) shown (newest first, at most 200)"
           + ("" if request_id else f" · {flt.since:%Y-%m-%d %H:%M} → {flt.until:%H:%M} UTC"))
if found.empty and not request_id:
    st.info("No request matches these filters; widen the time range or change the verdict.")
pick = None
if not found.empty:
    event = st.dataframe(cells(found), hide_index=True, width="stretch", on_select="rerun",
                         selection_mode="single-row", key="audit_table", column_config={
                             "latency_s": st.column_config.NumberColumn(format="%.3f"),
                             "ttft_s": st.column_config.NumberColumn(format="%.3f"),
                             "acceptance_rate": st.column_config.NumberColumn(format="%.3f")})
    rows = event.selection.rows if event is not None else []
    pick = found["request_id"].iloc[rows[0] if rows else 0]

if pick:
    rec = data.request_record(url, pick, text=access.text)
    if rec is not None:
        req = rec["request"]
        st.subheader(f"Request {md(pick)}")
        cols = st.columns(4)
        cols[0].metric("Served path", md(req["served_path"]))
        cols[1].metric("Output tokens", md(req["completion_tokens"]))
        cols[2].metric("Verdict", md(rec["shadows"][-1]["verdict"]) if rec["shadows"]
                       else "not shadowed")
        cols[3].metric("Redaction", md(req["redaction"]))
        st.markdown(f"pair {code(data.short_hash(req['pair_hash'], 24))} · policy "
                    f"{code(data.short_hash(req['policy_hash'], 24))} · chain "
                    f"{code(req['chain_id'])} seq {md(req['seq'])} · hash "
                    f"{code(data.short_hash(req['hash'], 16))}")
        st.caption(f"prompt {md(req['prompt_tokens'])} tokens · hash "
                   f"{code(data.short_hash(req['prompt_hash'], 16))} · completion "
                   f"{md(req['completion_tokens'])} tokens · hash "
                   f"{code(data.short_hash(req['completion_hash'], 16))} · finish "
                   f"{md(req['finish_reason'])}")
        if not access.text:
            st.info(access.hidden_note, icon=":material/visibility_off:")
        elif req.get("prompt_text") is not None:
            with st.expander("Prompt and completion"):
                for label, value in (("Prompt", req["prompt_text"]),
                                     ("Completion", req["completion_text"] or "")):
                    shown, hidden = reveal(value)
                    st.markdown(f"**{label}** · {len(value):,} characters" + (
                        f" · {hidden:,} control, invisible or direction-changing character(s) "
                        "written as ⟨U+XXXX⟩" if hidden else ""))
                    st.code(shown, language=None, wrap_lines=True,
                            height=400 if shown.count("\n") > 20 or len(shown) > 4000
                            else "content")
        st.markdown("**Per-token record**")
        st.dataframe(cells(rec["tokens"]), hide_index=True, width="stretch")

st.divider()
left, right = st.columns(2)
with left:
    st.markdown("**Verify the hash chains**")
    st.caption("Walks every chain (`guardian audit verify`): edited, deleted, inserted or "
               "reordered records are reported. Takes a while on large stores.")
    if st.button("Run chain verification", key="audit_verify"):
        with st.spinner("verifying…"):
            rep = data.verify_chains()
        if rep.ok:
            st.success(f"All {rep.chains} chain(s) verify: {rep.records:,} records intact"
                       + (f"; declared losses: {len(rep.declared_losses)}" if rep.declared_losses
                          else ""))
        else:
            st.error(f"Chain verification FAILED ({len(rep.errors)} problem(s)); first: "
                     f"{md(rep.first_error)}")
            with st.expander("All problems"):
                st.text("\n".join(rep.errors))
with right:
    st.markdown("**Export**")
    if not access.text:  # records are verified against hashes that cover the text
        st.caption(f"Exports hold prompt and completion text. {access.hidden_note}")
        st.stop()
    scope = "this request" if request_id else "the filtered time range and route"
    st.caption(f"Records of {scope} with their hashes; verify offline with "
               "`guardian audit verify --export FILE`.")
    fmt = st.selectbox("Format", ["jsonl", "csv", "parquet"], key="audit_fmt")
    if st.button("Prepare export", key="audit_export"):
        if len(flt.routes) > 1 and not request_id:
            st.warning("Export takes one route or all routes; exporting all routes of the range.")
        payload, n = data.export_records(None if request_id else flt.since,
                                         None if request_id else flt.until,
                                         None if request_id else flt.single_route,
                                         request_id or None, fmt, text=access.text)
        st.download_button(f"Download {n:,} records ({fmt})", payload,
                           file_name=f"guardian-audit.{fmt}", key="audit_download")
