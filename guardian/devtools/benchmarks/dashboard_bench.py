"""`guardian bench dashboard`: page render time with ~1,000,000 per-token rows in Postgres.

Seeds a scratch Postgres database with realistic traffic written through the audit store's own
sealer and batch store (`guardian.audit.rows.Sealer` + `guardian.audit.store.BatchStore`: the
exact rows the production writer produces, hash chain included), then renders every dashboard
page headlessly with `streamlit.testing.v1.AppTest` and reports each page's render time, cold
(empty cache: every query runs) and warm (cached rerun). The target is < 2 s per page cold.

`seed_traffic` is also what the dashboard tests seed their databases with:

* route `chat`: served speculative (greedy), shadowed target-only;
* route `code`: served target-only (sampled), shadowed speculative;
* route `drifty`: speculative until its acceptance drops two thirds into the span, then a
  `rollback` governance event (with the evidence) and target-only serving after it;
* optionally an incident: every request of the last 30 minutes is slow (burn-rate alerts fire);
* shadow verdicts mostly match, with near ties and (unless `divergences=False`) rare
  divergences and distribution mismatches.
"""

from __future__ import annotations

import json
import logging
import math
import platform
import random
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import typer

from engine.metrics import SpecCounters

log = logging.getLogger(__name__)

PAIR = "pair-" + "d1a7" * 8
PAIR_DRIFTY = "pair-" + "be57" * 8
POLICY = "0f" * 32
ROUTES = ("chat", "code", "drifty")
PAGES = ("overview", "acceptance", "shadow", "audit", "pairs", "policy")


@dataclass
class SeedSummary:
    """What was seeded, for tests to compare the dashboard's figures with."""

    requests: list[dict[str, Any]] = field(default_factory=list)  # per request: the key numbers
    shadows: list[dict[str, Any]] = field(default_factory=list)
    runs: list[dict[str, Any]] = field(default_factory=list)  # speculative runs' counters
    governance: list[dict[str, Any]] = field(default_factory=list)
    token_rows: int = 0
    rollback_at: datetime | None = None


def _trace(rng: random.Random, n: int, alpha: float, gamma: int, speculative: bool) -> tuple[
        list[Any], dict[str, Any]]:
    """A decoding trace and its GenerationStats-shaped counters (vLLM definitions)."""
    from engine.trace import TokenTrace

    out: list[TokenTrace] = []
    drafted = [0] * gamma
    accepted_pp = [0] * gamma
    steps = accepted = 0
    while len(out) < n:
        if not speculative:
            out.append(TokenTrace(len(out), rng.randrange(32_000), "target", None,
                                  rng.uniform(0.3, 1.0), rng.uniform(0.0, 6.0), steps, 0))
            steps += 1
            continue
        run = 0
        while run < gamma and rng.random() < alpha:
            run += 1
        for i in range(gamma):
            drafted[i] += 1
            accepted_pp[i] += i < run
        for _ in range(run):
            if len(out) < n:
                out.append(TokenTrace(len(out), rng.randrange(32_000), "accepted",
                                      rng.uniform(0.2, 1.0), rng.uniform(0.3, 1.0),
                                      rng.uniform(0.0, 6.0), steps, gamma))
        if len(out) < n:
            origin = "bonus" if run == gamma else "resampled"
            out.append(TokenTrace(len(out), rng.randrange(32_000), origin,
                                  None if origin == "bonus" else rng.uniform(0.0, 0.3),
                                  rng.uniform(0.3, 1.0), rng.uniform(0.0, 6.0), steps, gamma))
        accepted += run
        steps += 1
    # Synthetic runs accept a prefix then reject (or take the bonus): judged = accepted + one
    # rejected position per step that stopped short.
    judged = accepted + sum(1 for t in out if t.origin == "resampled")
    stats = {"completion_tokens": n, "steps": steps,
             "proposed_tokens": gamma * steps if speculative else 0,
             "judged_tokens": judged if speculative else 0, "accepted": accepted,
             "drafted_per_position": drafted if speculative else [],
             "accepted_per_position": accepted_pp if speculative else []}
    return out, stats


def _timing(rng: random.Random, n: int, stats: dict[str, Any], speculative: bool,
            slow: bool) -> dict[str, float]:
    per_target = rng.uniform(0.010, 0.014)  # s per target forward
    forwards = stats["steps"] + 1  # + prefill
    total = forwards * per_target * (1.25 if speculative else 1.0)  # drafting costs ~25 %
    ttft = per_target * rng.uniform(1.5, 3.0)
    queue = rng.expovariate(1 / 0.01)
    if slow:
        total, ttft, queue = total + 3.0, ttft + 0.8, queue + 0.5
    return {"total_time_s": total, "time_to_first_token_s": ttft, "queue_time_s": queue}



def _signed(report: dict[str, Any]) -> dict[str, Any]:
    """A seeded gate report signed with this home's audit key, as `guardian gate` signs its
    own (unsigned, no page would show the route speculative: a database row alone grants
    nothing); unsigned where the home has no key."""
    from guardian.governance.reportsig import current_signer, sign_report

    signer = current_signer("dashboard-seed")
    return sign_report(report, signer) if signer is not None else report

def _signed_state(row: dict[str, Any]) -> dict[str, Any]:
    """A seeded route state as the act that writes one signs it (`statesig`): a speculative
    row carries its signature, or no page would show the route speculative."""
    from guardian.governance.statesig import sign_state, state_signer

    signer = state_signer("dashboard-seed") if row["mode"] == "speculative" else None
    if signer is None:
        return {**row, "signature": None}
    return {**row, "signature": sign_state(
        signer, route=row["route"], mode=row["mode"], version=row["version"],
        pair_hash=row["pair_hash"], policy_hash=row["policy_hash"], reason=row["reason"],
        updated_by=row["updated_by"])}


def seed_traffic(url: str, *, requests: int, now: datetime, span: timedelta = timedelta(days=1),
                 tokens_per_request: int = 48, shadow_rate: float = 0.25, incident: bool = False,
                 divergences: bool = True, seed: int = 0) -> SeedSummary:
    """Write `requests` requests (+ shadows, governance, registry rows) ending at `now`."""
    import sqlalchemy as sa

    from guardian.audit.events import GovernanceEvent, RequestEvent, ShadowEvent
    from guardian.audit.models import ModelPair, PolicyVersion, RouteState
    from guardian.audit.rows import Sealer
    from guardian.audit.store import BatchStore
    from guardian.core.db import make_engine, normalize_url

    rng = random.Random(seed)
    engine = make_engine(normalize_url(url))
    store = BatchStore(engine)
    sealer = Sealer(f"seed/{uuid.uuid4().hex[:12]}", salt=b"dashboard-seed",
                    copy_lines=store.postgres)
    summary = SeedSummary()
    start = now - span
    drift_at = start + span * 2 / 3
    rollback_at = drift_at + span / 12
    summary.rollback_at = rollback_at
    events: list[Any] = []

    def flush() -> None:
        if events:
            store.write(sealer.seal(events))
            events.clear()

    def gov(kind: str, at: datetime, route: str | None, pair: str | None, actor: str,
            details: dict[str, Any]) -> None:
        events.append(GovernanceEvent(f"gov-{uuid.uuid4().hex[:16]}", at, kind,  # type: ignore[arg-type]
                                      route, pair, POLICY, actor, details))
        summary.governance.append({"kind": kind, "created_at": at, "route": route})

    gov("policy_loaded", start, None, None, "cli:ops", {"path": "policies/default.yaml"})
    for pair in (PAIR, PAIR_DRIFTY):
        gov("pair_registered", start, None, pair, "cli:release", {"draft": "demo-draft"})
    # Details shaped like guardian.governance's GateReport.to_dict() and rollback evidence.
    gov("gate_result", start + timedelta(minutes=1), "chat", PAIR, "cli:release", _signed({
        "pair_hash": PAIR, "policy_hash": POLICY, "route": "chat", "passed": True,
        "golden_file": "policies/golden/default.jsonl", "prompts": [], "checks": [
            {"name": "greedy_exact_match", "outcome": "pass", "value": 1.0, "threshold": 1.0,
             "detail": "64/64 prompts token-identical"},
            {"name": "acceptance_rate", "outcome": "pass", "value": 0.71, "threshold": 0.3,
             "detail": ""},
            {"name": "speedup", "outcome": "pass", "value": 1.9, "threshold": 1.0, "detail": ""}]}))
    gov("promotion", start + timedelta(minutes=2), "chat", PAIR, "cli:release",
        {"previous_mode": "target_only", "new_mode": "speculative"})

    for i in range(requests):
        at = start + span * (i + 0.5) / requests
        route = ROUTES[i % 3]
        drifted = route == "drifty" and at >= drift_at
        spec_served = route == "chat" or (route == "drifty" and at < rollback_at)
        greedy = route != "code"
        pair = PAIR_DRIFTY if route == "drifty" else PAIR
        alpha = 0.35 if drifted else (0.8 if route == "chat" else 0.7)
        n = max(4, int(rng.gauss(tokens_per_request, tokens_per_request / 4)))
        slow = incident and at >= now - timedelta(minutes=30)
        trace, stats = _trace(rng, n, alpha, 4, spec_served)
        tm = _timing(rng, n, stats, spec_served, slow)
        stats.update(prompt_tokens=12, total_time_s=tm["total_time_s"],
                     time_to_first_token_s=tm["time_to_first_token_s"])
        if spec_served:  # served by a continuously batched engine (no rng draw: figures stay)
            stats["batch_rows"] = float(1 + i % 16)
        rid = f"req-{route}-{i:07d}"
        ids = [t.token_id for t in trace]
        events.append(RequestEvent(
            rid, at, route, "speculative" if spec_served else "target_only",
            "speculative" if spec_served else "target_only", pair, POLICY, "completions", "full",
            f"prompt {i}", f"completion {i}", list(range(12)), ids, "length",
            {"temperature": 0.0 if greedy else 0.8, "max_tokens": n}, tm["queue_time_s"],
            tm["total_time_s"], tm["time_to_first_token_s"],
            tm["total_time_s"] / max(n - 1, 1), stats, trace, None, "seed"))
        summary.token_rows += n
        if spec_served:
            summary.runs.append({"created_at": at, "route": route, **{
                k: stats[k] for k in ("accepted", "proposed_tokens", "judged_tokens", "steps")}})
        summary.requests.append({"request_id": rid, "created_at": at, "route": route,
                                 "latency": tm["queue_time_s"] + tm["total_time_s"],
                                 "ttft": tm["queue_time_s"] + tm["time_to_first_token_s"],
                                 "speculative": spec_served, "alpha": alpha})
        if rng.random() < shadow_rate:
            cap = min(n, 64)
            sh_trace, sh_stats = _trace(rng, cap, alpha, 4, not spec_served)
            sh_tm = _timing(rng, cap, sh_stats, not spec_served, False)
            sh_stats.update(total_time_s=sh_tm["total_time_s"])
            spec_stats = stats if spec_served else sh_stats
            rate = SpecCounters.from_stats(spec_stats).acceptance_rate
            r = rng.random() if divergences else 0.0
            if greedy:
                verdict = "match" if r < 0.9 else ("near_tie" if r < 0.985 else "divergence")
            else:
                verdict = "distribution_ok" if r < 0.97 else "distribution_mismatch"
            pos = None if verdict in ("match", "distribution_ok") else rng.randrange(cap)
            margin = {"near_tie": rng.uniform(0.0, 0.5), "divergence": rng.uniform(1.0, 4.0)}.get(verdict)
            if greedy:  # greedy paths emit the served tokens up to the first difference
                cut = cap if pos is None else pos
                sh_trace = [type(t)(t.position, ids[t.position] if t.position < cut
                                    else (ids[t.position] + 1) % 32_000, t.origin, t.draft_prob,
                                    t.target_prob, t.target_margin, t.step, t.gamma)
                            for t in sh_trace]
            sh_at = at + timedelta(milliseconds=200)
            events.append(ShadowEvent(
                rid, sh_at, route, pair, POLICY,
                "speculative" if not spec_served else "target_only", verdict, pos, margin,  # type: ignore[arg-type]
                0.5 if greedy else 0.02,
                {"shadow_stats": sh_stats, "compared_cap": cap, "acceptance_rate": rate,
                 "mean_acceptance_length": 1 + spec_stats["accepted"] / spec_stats["steps"]},
                sh_tm["total_time_s"], sh_trace))
            summary.token_rows += cap
            target, spec = ((tm, stats), (sh_tm, sh_stats)) if not spec_served \
                else ((sh_tm, sh_stats), (tm, stats))
            summary.shadows.append({
                "request_id": rid, "created_at": sh_at, "route": route, "verdict": verdict,
                "position": pos, "margin": margin, "shadow_path": "target_only" if spec_served
                else "speculative",
                "target_s": target[0]["total_time_s"], "target_n": target[1]["completion_tokens"],
                "spec_s": spec[0]["total_time_s"], "spec_n": spec[1]["completion_tokens"]})
            if not spec_served:
                summary.runs.append({"created_at": sh_at, "route": route, **{
                    k: sh_stats[k] for k in ("accepted", "proposed_tokens", "judged_tokens", "steps")}})
        if len(events) >= 256:
            flush()
    last_at = summary.requests[-1]["created_at"] if summary.requests else start
    if last_at >= rollback_at:
        gov("rollback", rollback_at, "drifty", PAIR_DRIFTY, "trigger:drift", {
            "previous_mode": "speculative", "new_mode": "target_only", "fired": ["drift"],
            "reason": "drift: accepted_length_drift=0.161 vs 0.1", "evidence": {
                "drift": {"name": "accepted_length_drift", "outcome": "fail", "value": 0.161,
                          "threshold": 0.1, "samples": 1003, "min_samples": 200,
                          "details": {"js_bits": 0.161, "psi": 1.05, "max_psi": 0.25}},
                "acceptance": {"name": "acceptance_rate", "outcome": "pass", "value": 0.31,
                               "threshold": 0.3, "samples": 4012, "min_samples": 128,
                               "details": {}}}})
    flush()
    _seed_state(engine, now, start, rollback_at if last_at >= rollback_at else None,
                sa, ModelPair, RouteState, PolicyVersion)
    engine.dispose()
    return summary


def _seed_state(engine: Any, now: datetime, start: datetime, rollback_at: datetime | None,
                sa: Any, ModelPair: Any, RouteState: Any, PolicyVersion: Any) -> None:
    """Mutable registry/route/policy rows (the governance module owns them; seeded directly)."""
    with engine.begin() as conn:
        conn.execute(sa.insert(ModelPair.__table__), [
            {"pair_hash": p, "draft_name": d, "draft_revision": "r1", "target_name": "demo-target",
             "target_revision": "r1", "tokenizer_hash": "tok" + "0" * 61, "chat_template_hash": None,
             "state": s, "details": {"draft_params": 1_000_000}, "created_at": start,
             "updated_at": start, "updated_by": "cli:release"}
            for p, d, s in ((PAIR, "demo-draft", "promoted"), (PAIR_DRIFTY, "demo-draft-2",
                                                              "gated"))])
        conn.execute(sa.insert(RouteState.__table__), [_signed_state(row) for row in (
            {"route": "chat", "mode": "speculative", "pair_hash": PAIR, "policy_hash": POLICY,
             "reason": "promoted", "version": 2, "updated_at": start, "updated_by": "cli:release"},
            {"route": "code", "mode": "target_only", "pair_hash": PAIR, "policy_hash": POLICY,
             "reason": None, "version": 1, "updated_at": start, "updated_by": "cli:ops"},
            {"route": "drifty", "mode": "target_only" if rollback_at else "speculative",
             "pair_hash": PAIR_DRIFTY, "policy_hash": POLICY,
             "reason": "drift: accepted_length_drift=0.161 vs 0.1" if rollback_at else None,
             "version": 3,
             "updated_at": rollback_at or start, "updated_by": "trigger:drift"})])
        conn.execute(sa.insert(PolicyVersion.__table__), [
            {"policy_hash": POLICY, "name": "default", "version": "1",
             "content": "version: 1\ndefault_route: chat\n", "loaded_at": start,
             "loaded_by": "cli:ops"}])


# --- the benchmark ------------------------------------------------------------------------
def time_pages(url: str, *, range_key: str = "24h", warm: bool = True,
               timeout_s: float = 60.0) -> dict[str, dict[str, Any]]:
    """Render each page with AppTest against `url` over the time range `range_key` (1h..30d):
    seconds cold (cache cleared, every query runs) and warm (cached rerun)."""
    import os

    import streamlit as st
    from streamlit import config
    from streamlit.testing.v1 import AppTest

    app = str(Path(__file__).resolve().parents[3] / "dashboard" / "app.py")
    os.environ["GUARDIAN_DATABASE_URL"] = url
    # Times the pages, not the login: no keys file, dev mode (see dashboard.auth).
    os.environ.pop("GUARDIAN_API_KEYS_FILE", None)
    os.environ["GUARDIAN_DASHBOARD_DEV"] = "1"
    config.set_option("server.address", "127.0.0.1")  # dev mode is loopback-only
    out: dict[str, dict[str, Any]] = {}
    for page in PAGES:
        st.cache_data.clear()
        at = AppTest.from_file(app, default_timeout=timeout_s)
        at.query_params["range"] = range_key
        at.run()  # landing page (overview) once: engine + routes; not part of the page's time
        st.cache_data.clear()
        t0 = time.perf_counter()
        at.switch_page(f"views/{page}.py").run()
        if at.session_state["filters"].range_key != range_key:
            raise RuntimeError(f"range {range_key} not applied")
        cold = time.perf_counter() - t0
        # Exceptions are failures; st.error alerts (a firing burn-rate page) are content.
        exceptions = [e.value for e in at.exception]
        res: dict[str, Any] = {"cold_s": round(cold, 3)}
        if warm:
            t0 = time.perf_counter()
            at.run()
            res["warm_s"] = round(time.perf_counter() - t0, 3)
        res["exceptions"] = len(exceptions)
        res["error_alerts"] = len(at.error)
        if exceptions:
            log.warning("page %s raised: %s", page, exceptions[:3])
        out[page] = res
    return out


def cli(
    json_path: Path | None = typer.Option(None, "--json", help="Write the results here."),
    url: str | None = typer.Option(None, "--url", help="Postgres URL (default: "
                                   "GUARDIAN_DATABASE_URL, else postgresql://postgres@127.0.0.1"
                                   "/postgres). A scratch database is created next to it."),
    token_rows: int = typer.Option(1_000_000, help="Per-token rows to seed (served + shadow)."),
    tokens: int = typer.Option(48, "--tokens-per-request", help="Mean emitted tokens per request."),
    span_days: float = typer.Option(3.0, help="Seeded traffic spans this many days up to now."),
    keep: bool = typer.Option(False, help="Keep the scratch database (prints its URL)."),
) -> None:
    """Dashboard: render time of every page with ~1M per-token rows in Postgres (< 2 s each)."""
    import sqlalchemy as sa

    from guardian.core.db import make_engine
    from guardian.devtools.benchmarks.scratch import scratch_postgres

    with scratch_postgres(url, keep=keep) as scratch:
        # Per-token rows per request: served tokens + shadowed share of the (capped) shadow run.
        n_requests = math.ceil(1.03 * token_rows / (tokens + 0.25 * min(tokens, 64)))
        t0 = time.perf_counter()
        summary = seed_traffic(scratch, requests=n_requests, now=datetime.now(UTC),
                               span=timedelta(days=span_days), tokens_per_request=tokens,
                               incident=True)
        seed_s = time.perf_counter() - t0
        engine = make_engine(scratch)
        with engine.connect() as conn:
            conn.execute(sa.text("ANALYZE"))
            stored = conn.execute(sa.text("SELECT count(*) FROM audit_tokens")).scalar_one()
            n_req = conn.execute(sa.text("SELECT count(*) FROM audit_requests")).scalar_one()
            pg_version = conn.execute(sa.text("SHOW server_version")).scalar_one()
        engine.dispose()
        pages = {r: time_pages(scratch, range_key=r) for r in ("24h", "30d")}
    worst = max(p["cold_s"] for by_page in pages.values() for p in by_page.values())
    result = {
        "benchmark": "dashboard_render",
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"python": platform.python_version(), "postgres": pg_version},
        "data": {"token_rows": stored, "requests": n_req, "span_days": span_days,
                 "seed_s": round(seed_s, 1), "seeded_token_rows": summary.token_rows},
        "method": "streamlit.testing AppTest, page rerun after the landing page; cold = "
                  "st.cache_data cleared (every query runs), warm = cached rerun; time range "
                  "24h (a third of the data) and 30d (all of it)",
        "pages_by_range": pages,
        "worst_cold_s": worst,
        "target_s": 2.0,
        "meets_target": worst < 2.0 and not any(
            p["exceptions"] for by_page in pages.values() for p in by_page.values()),
    }
    text = json.dumps(result, indent=2)
    typer.echo(text)
    if json_path is not None:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(text + "\n")


__all__ = ["PAGES", "SeedSummary", "cli", "seed_traffic", "time_pages"]
