"""Every page under AppTest against seeded data: no exception, key figures equal to what was
seeded (computed here from the seed summary, not with the dashboard's queries)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from dashboard.filters import Filters
from dashboard.slo import ALERT_WINDOWS, SloTargets, evaluate_alerts, percentile, speedup
from engine.metrics import SpecCounters
from tests.support.dashboard import SEEDED_ROUTES_POLICY, rendered

pytestmark = pytest.mark.slow


def _flt(at) -> Filters:  # type: ignore[no-untyped-def]
    return at.session_state["filters"]


def _in(rows: list[dict], flt: Filters) -> list[dict]:
    return [r for r in rows if flt.since <= r["created_at"] < flt.until
            and (not flt.routes or r["route"] in flt.routes)]


def _metric(at, label: str) -> str:  # type: ignore[no-untyped-def]
    """The value a metric shows (labels and values are Markdown: compared as rendered)."""
    return next(rendered(m.value) for m in at.metric if rendered(m.label) == label)


def test_overview_figures(seeded, open_page) -> None:  # type: ignore[no-untyped-def]
    at = open_page(seeded.url, "overview")
    flt, t = _flt(at), SloTargets()
    reqs = _in(seeded.summary.requests, flt)
    assert _metric(at, "Requests") == f"{len(reqs):,}"
    for q in (50, 95, 99):
        want = percentile([r["latency"] for r in reqs], q / 100)
        assert _metric(at, f"Latency p{q}") == f"{want * 1000:.0f} ms"
        want = percentile([r["ttft"] for r in reqs], q / 100)
        assert _metric(at, f"Time to first token p{q}") == f"{want * 1000:.0f} ms"
    sh = _in(seeded.summary.shadows, flt)
    gain = speedup(sum(s["target_s"] for s in sh), sum(s["target_n"] for s in sh),
                   sum(s["spec_s"] for s in sh), sum(s["spec_n"] for s in sh))
    assert _metric(at, "Speculative speedup (shadow)") == f"{gain:.2f}×"
    # ...with what it means: below 1× speculation is slower than target-only (a red delta).
    delta = next(m.delta for m in at.metric if rendered(m.label) == "Speculative speedup (shadow)")
    assert delta == f"{gain - 1:+.0%} vs target-only"

    # Burn-rate alerts recomputed from the seeded latencies: the incident must page.
    def bad(r: dict) -> bool:
        return r["latency"] > t.good_latency_s or r["ttft"] > t.good_ttft_s

    counts = {}
    for w in ALERT_WINDOWS:
        inside = [r for r in seeded.summary.requests if flt.until - w <= r["created_at"] < flt.until]
        counts[w] = (sum(map(bad, inside)), len(inside))
    expected = evaluate_alerts(counts, t.budget)
    assert expected[0].firing  # the seeded incident is a fast burn
    # Active incidents sit at the top of the page: the paging burn-rate alerts and the seeded
    # rollback of `drifty` (its newest route act; it does not serve speculatively now).
    pages = [w.value for w in at.warning if w.value.startswith("Burn-rate PAGE")]
    assert len(pages) == sum(a.firing for a in expected if a.rule.severity == "page")
    rolled = [w.value for w in at.warning if w.value.startswith("Route **drifty** rolled back")]
    assert len(rolled) == 1 and "trigger:drift" in rolled[0], [w.value for w in at.warning]
    assert not at.error
    assert at.subheader[0].value == "Routes now" and at.subheader[1].value == "Active incidents"
    assert any("14.4×" in p for p in pages)
    table = at.dataframe[0].value
    assert list(table["status"]) == ["FIRING" if a.firing else "ok" for a in expected]
    assert table.columns[0] == "status"  # in sight on a narrow page, not scrolled off
    n30 = [r for r in seeded.summary.requests if r["created_at"] >= flt.until - timedelta(days=30)]
    left = 1 - sum(map(bad, n30)) / len(n30) / t.budget
    assert _metric(at, "Error budget left (30 d)") == f"{left:.1%}"
    assert len(at.get("vega_lite_chart")) == 2


def test_url_filters_apply_and_survive_page_switches(seeded, open_page) -> None:  # type: ignore[no-untyped-def]
    at = open_page(seeded.url, "overview", range="6h", route="chat")
    flt = _flt(at)
    assert flt.routes == ("chat",) and flt.span == timedelta(hours=6)
    assert _metric(at, "Requests") == f"{len(_in(seeded.summary.requests, flt)):,}"
    at.switch_page("views/shadow.py").run()
    assert _flt(at).routes == ("chat",) and _flt(at).range_key == "6h"
    sh = _in(seeded.summary.shadows, _flt(at))
    assert _metric(at, "match") == f"{sum(s['verdict'] == 'match' for s in sh):,}"


def test_sidebar_choices_are_written_to_the_url(seeded, open_page) -> None:  # type: ignore[no-untyped-def]
    at = open_page(seeded.url, "overview")
    assert at.query_params["range"] == "24h" and "route" not in at.query_params
    at.sidebar.selectbox(key="flt_range").select("3d").run()
    at.sidebar.multiselect(key="flt_routes").select("code").run()
    assert at.query_params["range"] == "3d" and at.query_params["route"] == "code"
    at.switch_page("views/acceptance.py").run()
    assert at.query_params["range"] == "3d" and at.query_params["route"] == "code"
    runs = _in(seeded.summary.runs, _flt(at))
    assert {r["route"] for r in runs} == {"code"}
    assert _metric(at, "Speculative runs") == f"{len(runs):,}"


def test_acceptance_and_drift(seeded, open_page) -> None:  # type: ignore[no-untyped-def]
    at = open_page(seeded.url, "acceptance")
    runs = _in(seeded.summary.runs, _flt(at))
    # Stored counters, summed, ratios by engine.metrics.
    total = SpecCounters.total(SpecCounters.from_stats(r) for r in runs)
    assert _metric(at, "Acceptance rate") == f"{total.acceptance_rate:.3f}"
    assert _metric(at, "α") == f"{total.alpha:.3f}"
    mal = 1 + sum(r["accepted"] for r in runs) / sum(r["steps"] for r in runs)
    assert _metric(at, "Mean acceptance length") == f"{mal:.2f}"
    assert _metric(at, "Speculative runs") == f"{len(runs):,}"
    # The drifting route (α 0.7 -> 0.35) crosses the trigger; the stable ones do not.
    warnings = [w.value for w in at.warning]
    assert any(w.startswith("drifty") for w in warnings), warnings
    assert not any(w.startswith(("chat", "code")) for w in warnings), warnings
    # rate, α, length, per position, depth by load, JS, PSI
    assert len(at.get("vega_lite_chart")) == 7
    assert "Speculation depth by load" in [h.value for h in at.subheader]
    # The statistic the drift trigger fired on, from the seeded rollback's evidence.
    fired = next(m for m in at.metric if rendered(m.label) == "drifty · accepted_length_drift")
    assert fired.value == "0.161" and "JS 0.161 bits (limit 0.1)" in fired.help
    assert "PSI 1.05 (limit 0.25)" in fired.help


def test_shadow_verdicts_and_side_by_side(seeded, open_page) -> None:  # type: ignore[no-untyped-def]
    div = next(s for s in seeded.summary.shadows if s["verdict"] == "divergence")
    at = open_page(seeded.url, "shadow", request_id=div["request_id"])
    sh = _in(seeded.summary.shadows, _flt(at))
    for v in ("match", "near_tie", "divergence", "distribution_ok", "distribution_mismatch"):
        assert _metric(at, v.replace("_", " ")) == f"{sum(s['verdict'] == v for s in sh):,}"
    assert at.error and "divergence" in at.error[0].value
    flagged = at.dataframe[0].value
    assert len(flagged) == sum(s["verdict"] in ("divergence", "near_tie", "distribution_mismatch")
                               for s in sh)
    header = next(rendered(m.value) for m in at.markdown if div["request_id"] in rendered(m.value))
    assert "verdict **divergence**" in header
    assert f"first difference at {div['position']}" in header
    assert len(at.get("vega_lite_chart")) == 2  # verdicts over time + token strip


def test_side_by_side_marks_the_first_difference(seeded) -> None:  # type: ignore[no-untyped-def]
    from dashboard import data, queries
    from guardian.core.db import make_engine

    div = next(s for s in seeded.summary.shadows if s["verdict"] == "divergence")
    toks = queries.request_tokens(make_engine(seeded.url), div["request_id"])
    strip = data.side_by_side(toks, "target_only" if div["shadow_path"] == "speculative"
                              else "speculative", div["shadow_path"], 64, div["position"])
    assert set(strip["path"]) == {"target-only", "speculative"}
    assert strip["path"].iloc[0] == "target-only"  # the reference path comes first
    first = strip[strip["differs"]]["position"].min()
    assert first == div["position"]
    assert set(strip["origin"][strip["path"] == "speculative"]) <= {"accepted", "resampled", "bonus"}


def test_audit_explorer_request_and_verification(seeded, open_page) -> None:  # type: ignore[no-untyped-def]
    rid = seeded.summary.shadows[0]["request_id"]
    at = open_page(seeded.url, "audit", request_id=rid)
    assert len(at.dataframe[0].value) == 1
    tokens = at.dataframe[1].value
    assert (tokens["source"] == "served").sum() == int(_metric(at, "Output tokens"))
    assert (tokens["source"] == "shadow").sum() > 0
    assert _metric(at, "Verdict") == seeded.summary.shadows[0]["verdict"]
    at.button(key="audit_verify").click().run()
    assert any("chain(s) verify" in s.value for s in at.success), [e.value for e in at.error]
    at.button(key="audit_export").click().run()
    assert not at.exception
    assert at.get("download_button")


def test_audit_explorer_unknown_id_says_what_to_do(seeded, open_page) -> None:  # type: ignore[no-untyped-def]
    at = open_page(seeded.url, "audit", request_id="req-nope")
    assert any("No request with id req-nope:" in rendered(w.value) for w in at.warning)


def test_export_verifies_offline(seeded, monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from dashboard import data
    from guardian.audit.export import verify_export

    monkeypatch.setenv("GUARDIAN_DATABASE_URL", seeded.url)
    rid = seeded.summary.shadows[0]["request_id"]
    payload, n = data.export_records(None, None, None, rid, "jsonl", text=True)
    path = tmp_path / "x.jsonl"
    path.write_bytes(payload)
    rep = verify_export(path)
    assert rep.ok and rep.records == n and n > 2  # request + tokens + shadow (+ its tokens)


def test_pairs_rollbacks(seeded, open_page, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    policy = tmp_path / "policy.yaml"
    policy.write_text(SEEDED_ROUTES_POLICY)
    monkeypatch.setenv("GUARDIAN_POLICY_FILE", str(policy))
    at = open_page(seeded.url, "pairs", range="3d")
    # The mode in force (effective_mode): the database's rollback / promotion over the file.
    assert _metric(at, "drifty") == "target_only" and _metric(at, "chat") == "speculative"
    rollbacks = [e for e in at.expander if "route drifty" in e.label]
    assert len(rollbacks) == 1 and "trigger:drift" in rendered(rollbacks[0].label)
    evidence = rollbacks[0].dataframe[0].value
    assert list(evidence["outcome"]) == ["fail", "pass"]  # what fired, and what did not
    assert "accepted_length_drift=0.161" in rendered(rollbacks[0].markdown[0].value)
    gate = next(e for e in at.expander if e.label.startswith("PASS"))
    assert len(gate.dataframe[0].value) == 3  # the gate report's checks
    assert len(at.get("vega_lite_chart")) == 1
    assert any("Gate reports** (1)" in m.value for m in at.markdown)


def test_routes_now_follow_the_policy_file_not_stale_database_rows(seeded, open_page) -> None:  # type: ignore[no-untyped-def]
    # The default policy names none of the seeded routes: no replica serves them, whatever
    # their database rows say (the same answer `guardian route status` gives).
    at = open_page(seeded.url, "pairs", range="3d")
    drifty = next(m for m in at.metric if m.label == "drifty")
    assert rendered(drifty.value) == "not served" and "not in the policy file" in drifty.help
    assert _metric(at, "default") == "target_only"


def test_policy_page(seeded, open_page) -> None:  # type: ignore[no-untyped-def]
    from guardian.policy import load_policy

    at = open_page(seeded.url, "policy")
    h = load_policy().content_hash
    # No load recorded in the seeded database: the page says so and shows this host's file.
    assert _metric(at, "Policy hash in force") == h[:12] + "…"
    assert any("No policy load recorded" in c.value for c in at.caption)
    assert len(at.dataframe) == 3  # routes of the policy, policy_loaded events, hashes on requests
    loads = at.dataframe[1].value
    assert list(loads["loaded_by"]) == ["cli:ops"]
    assert list(loads["policy_file"]) == ["policies/default.yaml"]
    usage = at.dataframe[2].value
    assert int(usage["requests"].sum()) == len(_in(seeded.summary.requests, _flt(at)))


def test_policy_page_shows_the_policy_in_force_and_its_history(tmp_path, open_page) -> None:  # type: ignore[no-untyped-def]
    """The sidecar's loads (a start, then a reload) are recorded; the page shows the policy
    in force, not the dashboard host's file, with the history, and catches an edited row."""
    import sqlalchemy as sa

    from guardian.audit import upgrade
    from guardian.audit.models import PolicyVersion
    from guardian.core.db import make_engine
    from guardian.policy import DEFAULT_POLICY_FILE, PolicyReloader, load_policy

    url = f"sqlite:///{tmp_path / 'guardian.db'}"
    upgrade(url)
    db = make_engine(url)
    served = tmp_path / "served.yaml"
    served.write_text(DEFAULT_POLICY_FILE.read_text())
    reloader = PolicyReloader(served, lambda p: None, db=db, actor="replica:r1")  # start = load
    first = reloader.policy.content_hash
    served.write_text(DEFAULT_POLICY_FILE.read_text().replace("sample_rate: 0.25",
                                                              "sample_rate: 0.5"))
    changed, second = reloader.reload(actor="api-key:oncall-1")
    assert changed and second != first == load_policy().content_hash

    at = open_page(url, "policy")
    assert _metric(at, "Policy hash in force") == second[:12] + "…"
    assert any("replica:r1" not in c.value and "api-key:oncall-1" in c.value for c in at.caption)
    assert any("not the policy in force" in w.value for w in at.warning)
    history = at.dataframe[1].value
    assert list(history["loaded_by"]) == ["api-key:oncall-1", "replica:r1"]
    assert list(history["previous_policy_hash"]) == [first[:12] + "…", "—"]
    assert "sample_rate: 0.5" in at.code[0].value  # the text in force, as written
    assert not at.error

    with db.begin() as conn:  # a DB writer edits the recorded text: the page says so
        conn.execute(sa.update(PolicyVersion.__table__).where(
            PolicyVersion.__table__.c.policy_hash == second).values(
            content=served.read_text().replace("sample_rate: 0.5", "sample_rate: 0.9")))
    at = open_page(url, "policy")
    assert any("does not hash to its recorded hash" in e.value for e in at.error)
    db.dispose()


def test_shadow_page_shows_the_near_tie_rate_per_route(seeded, open_page) -> None:  # type: ignore[no-untyped-def]
    at = open_page(seeded.url, "shadow")
    sh = _in(seeded.summary.shadows, _flt(at))
    assert any(s.value == "Near-tie rate per route and pair" for s in at.subheader)
    rates = at.dataframe[1].value
    greedy = [s for s in sh if s["verdict"] in ("match", "near_tie", "divergence")]
    assert int(rates["greedy_verdicts"].sum()) == len(greedy)
    assert int(rates["near_ties"].sum()) == sum(s["verdict"] == "near_tie" for s in greedy)
    assert ((rates["near_tie_rate"] - rates["near_ties"] / rates["greedy_verdicts"]).abs()
            < 1e-12).all()
