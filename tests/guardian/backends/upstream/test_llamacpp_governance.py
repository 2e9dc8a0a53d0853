"""Governance over real llama.cpp pools (xllamacpp's llama-server on SmolLM2-135M GGUF): the
sidecar app as `guardian serve` builds it (GUARDIAN_BACKEND=upstream, a policy file, a real
SQLite audit database, governance attached), in process so the tests can read its parts.

Pools: `plain` (target-only), `spec` (llama.cpp's n-gram speculation over the same GGUF) and
`perturbed` (the same GGUF with half of its final norm scaled: a pool that silently changes
outputs, speculative pool of the `broken` route). Each behaviour here failed against a real
pool before its fix (issue #39)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest
import sqlalchemy as sa
import yaml
from fastapi.testclient import TestClient

from guardian.app import create_app
from guardian.settings import Settings
from tests.support.llamacpp import (
    MODEL,
    LlamaServer,
    ensure_gguf,
    governed_route,
    perturbed_copy,
    skip_reason,
)

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.timeout(600)]

# Prompts whose greedy continuations repeat what they read: llama.cpp's n-gram speculation
# drafts on them (timings.draft_n > 0).
REPEATING = "1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3,"
PROSE = ["Once upon a time", "The capital of France is", "Write a haiku about the sea.",
         "The best way to learn a language is", "My favourite food is"]


@pytest.fixture(scope="module")
def pools(tmp_path_factory) -> Iterator[dict[str, LlamaServer]]:
    if (why := skip_reason()) is not None:
        pytest.skip(why)
    root = tmp_path_factory.mktemp("llamacpp")
    gguf = ensure_gguf()
    assert gguf is not None
    bad = perturbed_copy(gguf, root / "perturbed.gguf")
    servers = {"plain": LlamaServer(gguf, root / "plain.log"),
               "spec": LlamaServer(gguf, root / "spec.log", spec="ngram-mod"),
               "perturbed": LlamaServer(bad, root / "perturbed.log")}
    try:
        for s in servers.values():
            s.wait_ready()
        yield servers
    finally:
        for s in servers.values():
            s.stop()


@pytest.fixture(scope="module")
def sidecar(pools, tmp_path_factory) -> Iterator[TestClient]:
    home = tmp_path_factory.mktemp("sidecar")
    policy = home / "policy.yaml"
    policy.write_text(yaml.safe_dump({"version": 1, "default_route": "default", "routes": {
        "default": governed_route(pools["spec"], pools["plain"], models=[MODEL]),
        "broken": governed_route(pools["perturbed"], pools["plain"], models=["broken"]),
        # gate: a timing on 2 shared cores is no speed evidence (min_speedup 0 here)
        "quiet": governed_route(pools["spec"], pools["plain"], models=["quiet"],
                                sample_rate=0.0, gate={"require_report": False,
                                                       "min_speedup": 0.0, "min_alpha": 0.2,
                                                       "max_new_tokens": 12})}}))
    settings = Settings(backend="upstream", policy_file=policy, home=home,
                        database_url=f"sqlite:///{home / 'audit.db'}")
    with TestClient(create_app(settings)) as client:
        deadline = time.monotonic() + 60
        while client.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline, client.get("/readyz").text
            time.sleep(0.1)
        client.db = sa.create_engine(settings.resolved_database_url)  # type: ignore[attr-defined]
        client.home = home  # type: ignore[attr-defined]
        yield client


def complete(client: TestClient, prompt: str, model: str = MODEL, **kw: object) -> dict:
    r = client.post("/v1/completions", json={"model": model, "prompt": prompt,
                                             "max_tokens": kw.pop("max_tokens", 12),
                                             "temperature": 0, **kw})
    assert r.status_code == 200, r.text
    return r.json()


def request_row(client: TestClient, request_id: str) -> dict:
    services = client.app.state.services
    services.sink.flush()
    with client.db.connect() as conn:  # type: ignore[attr-defined]
        row = conn.execute(sa.text("SELECT * FROM audit_requests WHERE request_id = :i"),
                           {"i": request_id}).mappings().one()
    return dict(row)


def shadow_rows(client: TestClient, route: str) -> list[dict]:
    client.app.state.services.sink.flush()
    with client.db.connect() as conn:  # type: ignore[attr-defined]
        return [dict(r) for r in conn.execute(sa.text(
            "SELECT * FROM audit_shadow WHERE route = :r"), {"r": route}).mappings()]


def route_mode(client: TestClient, route: str) -> str:
    return next(r["mode"] for r in client.get("/admin/routes").json()["routes"]
                if r["route"] == route)


def wait_for(check, timeout_s: float = 120.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.25)


def test_a_pool_that_changes_outputs_is_rolled_back_by_its_shadow_divergences(sidecar) -> None:
    """The divergence trigger fires on the pool shadow's verdicts: they reach the rollback
    controller (not only the raw audit sink), `/v1/analysis` and `/metrics`."""
    for prompt in PROSE:
        out = complete(sidecar, prompt, model="broken")
        if out["spec_guardian"]["served_path"] == "target_only":
            break
    wait_for(lambda: route_mode(sidecar, "broken") == "target_only",
             what="the broken route's rollback")
    rows = shadow_rows(sidecar, "broken")
    assert any(r["verdict"] == "divergence" for r in rows), rows
    analysis = sidecar.get("/v1/analysis/broken").json()
    div = analysis["checks"]["divergence"]
    assert div["samples"] >= 1 and div["value"] >= 1, div
    assert analysis["verdict"] == "fail"
    metrics = sidecar.get("/metrics").text
    assert 'guardian_shadow_verdicts_total{' in metrics
    assert any('route="broken"' in line and 'verdict="divergence"' in line
               for line in metrics.splitlines() if line.startswith("guardian_shadow_verdicts"))
    with sidecar.db.connect() as conn:  # type: ignore[attr-defined]
        acts = conn.execute(sa.text("SELECT kind, route, details FROM audit_governance "
                                    "WHERE kind = 'rollback'")).mappings().all()
    assert [a["route"] for a in acts] == ["broken"]
    # later requests are served by the target-only pool
    after = complete(sidecar, PROSE[0], model="broken")
    assert after["spec_guardian"]["served_path"] == "target_only"


def test_prompt_tokens_and_latency_come_from_the_pool(sidecar) -> None:
    out = complete(sidecar, "The capital of France is", model="quiet", max_tokens=12)
    assert out["usage"]["prompt_tokens"] > 0
    row = request_row(sidecar, out["id"])
    assert row["prompt_tokens"] == out["usage"]["prompt_tokens"]
    timings = row["stats"] if isinstance(row["stats"], dict) else json.loads(row["stats"])
    pool_ms = timings["upstream_timings"]["predicted_per_token_ms"]
    # the pool's own per-token time (~20-60 ms on one core), not the sidecar's parse (~µs)
    assert row["time_per_output_token_s"] == pytest.approx(pool_ms / 1000, rel=0.05)
    assert row["time_to_first_token_s"] > 0.001
    metrics = sidecar.get("/metrics").text
    line = next(ln for ln in metrics.splitlines()
                if ln.startswith("gen_ai_client_token_usage_sum{")
                and 'gen_ai_token_type="input"' in ln and 'route="quiet"' in ln)
    assert float(line.rsplit(" ", 1)[1]) > 0, line

    # streamed: the usage chunk carries the pool's prompt count
    with sidecar.stream("POST", "/v1/chat/completions", json={
            "model": "quiet", "messages": [{"role": "user", "content": "hello"}],
            "max_tokens": 6, "temperature": 0, "stream": True,
            "stream_options": {"include_usage": True}}) as r:
        events = [json.loads(line[6:]) for line in r.iter_lines()
                  if line.startswith("data: {")]
    usage = next(e["usage"] for e in events if e.get("usage"))
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0


def test_the_speculative_pool_reports_acceptance_and_what_it_does_not_is_not_zero(sidecar) -> None:
    out = complete(sidecar, REPEATING, model="quiet", max_tokens=16)
    stats = out["spec_guardian"]["stats"]
    assert out["spec_guardian"]["served_path"] == "speculative"
    timings = stats["upstream_timings"]
    assert timings["draft_n"] > 0
    assert stats["proposed_tokens"] == timings["draft_n"]
    assert stats["accepted"] == timings["draft_n_accepted"]
    assert stats["acceptance_rate"] == pytest.approx(timings["draft_n_accepted"] / timings["draft_n"])
    # judged positions and steps: llama.cpp does not say; not reported, never 0
    assert stats["alpha"] is None and stats["mean_acceptance_length"] is None
    row = request_row(sidecar, out["id"])
    assert row["acceptance_rate"] == pytest.approx(stats["acceptance_rate"])

    # a target-only answer (and a speculative one that drafted nothing) reports no counters
    plain = complete(sidecar, "My favourite food is", model="quiet", max_tokens=4)
    pstats = plain["spec_guardian"]["stats"]
    if "draft_n" not in pstats.get("upstream_timings", {}):
        assert pstats["acceptance_rate"] is None
        assert request_row(sidecar, plain["id"])["acceptance_rate"] is None


def test_v1_shadow_judges_a_mirrored_answer_against_the_target_only_pool(sidecar) -> None:
    prompt = "The capital of France is"
    plain = sidecar.app.state.services.core.policy.routes["default"].upstream.target_only.url
    good = httpx.post(f"{plain}/completions", json={"model": MODEL, "prompt": prompt,
                                                    "max_tokens": 8, "temperature": 0},
                      timeout=60).json()["choices"][0]["text"]
    body = {"request": {"model": "quiet", "prompt": prompt, "max_tokens": 8, "temperature": 0},
            "response": {"choices": [{"text": good, "finish_reason": "length"}]}, "wait": True}
    r = sidecar.post("/v1/shadow", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["verdict"] == "match", r.json()
    body["response"]["choices"][0]["text"] = " London, and it is big"
    r = sidecar.post("/v1/shadow", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["verdict"] == "divergence", r.json()


def test_audit_show_prints_an_upstream_request_with_its_tokens(sidecar) -> None:
    from typer.testing import CliRunner

    from guardian.cli import app

    out = complete(sidecar, REPEATING, model="quiet", max_tokens=8, logprobs=2)
    request_row(sidecar, out["id"])  # flushed
    url = str(sidecar.db.url)  # type: ignore[attr-defined]
    shown = CliRunner().invoke(app, ["audit", "show", out["id"], "--url", url])
    assert shown.exit_code == 0, shown.output + repr(shown.exception)
    assert "upstream" in shown.output and "pool" in shown.output
    assert "came from an upstream pool" in shown.output
    assert "not reported" in shown.output  # α and mean acceptance length: llama.cpp omits them


def test_guardian_gate_runs_on_a_routes_pools_and_records_the_upstream_pair(sidecar) -> None:
    from typer.testing import CliRunner

    from guardian.cli import app

    golden = sidecar.home / "golden.jsonl"  # type: ignore[attr-defined]
    golden.write_text("".join(json.dumps({"id": f"p{i}", "prompt": p}) + "\n" for i, p in
                              enumerate([REPEATING, "a b c d a b c d a b c", PROSE[1]])))
    url = str(sidecar.db.url)  # type: ignore[attr-defined]
    policy = str(sidecar.home / "policy.yaml")  # type: ignore[attr-defined]
    reports = sidecar.home / "reports"  # type: ignore[attr-defined]
    runner = CliRunner()
    base = ["gate", "--upstream", "--policy", policy, "--golden", str(golden), "--url", url,
            "--report-dir", str(reports), "--dev"]
    passed = runner.invoke(app, [*base, "--route", "quiet"])
    assert passed.exit_code == 0, passed.output + repr(passed.exception)
    pair = sidecar.app.state.services.core.backend.pair_hash
    report = json.loads(next(reports.glob("*.json")).read_text())
    assert report["pair_hash"] == pair and report["route"] == "quiet" and report["passed"]
    assert report["pair"]["upstream"]["speculative"]["url"].endswith("/v1")
    alpha = next(c for c in report["checks"] if c["name"] == "min_alpha")
    assert "not reported" in alpha["detail"] and alpha["value"] > 0.2
    with sidecar.db.connect() as conn:  # type: ignore[attr-defined]
        recorded = conn.execute(sa.text("SELECT pair_hash, details FROM audit_governance "
                                        "WHERE kind = 'gate_result'")).mappings().all()
    assert [r["pair_hash"] for r in recorded] == [pair]

    failed = runner.invoke(app, [*base, "--route", "broken"])  # the perturbed pool
    assert failed.exit_code == 1, failed.output
    assert "divergence" in failed.output

    shown = runner.invoke(app, ["pair", "show", "--upstream", "--policy", policy])
    assert shown.exit_code == 0, shown.output
    assert f"pair_hash: {pair}" in shown.output and "route broken:" in shown.output


def test_the_pools_own_spec_decode_counters_are_the_routes_pool_wide_acceptance(
        sidecar, pools) -> None:
    from guardian.backends.upstream.poolmetrics import parse_spec_counters

    complete(sidecar, REPEATING, model="quiet", max_tokens=16)  # the pool drafts on it
    time.sleep(5.1)  # past the sidecar's cache of the pools' counters
    source, own = parse_spec_counters(httpx.get(f"{pools['spec'].root}/metrics").text)
    assert source == "llamacpp" and own.proposed > 0 and own.accepted > 0
    lines = [ln for ln in sidecar.get("/metrics").text.splitlines()
             if ln.startswith("guardian_upstream_pool_") and 'route="quiet"' in ln]
    rate = next(ln for ln in lines if ln.startswith("guardian_upstream_pool_acceptance_rate"))
    assert float(rate.rsplit(" ", 1)[1]) == pytest.approx(own.accepted / own.proposed, abs=0.05)
    assert 'source="llamacpp"' in rate
    # the target-only pool is not a route's speculative pool: no series for it
    assert not any(pools["plain"].url in ln for ln in lines)
