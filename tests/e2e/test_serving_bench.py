"""`guardian bench serving` end to end on a tiny pair: two real sidecars, every cell answered
and audited, and a bench whose requests fail says so instead of reporting 0 tokens/s.

(The bench once sent a model name the sidecars had since learnt to refuse: every request was a
404, every cell read 0 tokens/s, and the command exited 0.)"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from guardian.cli import app
from guardian.devtools.benchmarks import serving_bench
from tests.support.tiny_models import build_tokenizer, make_model, perturb, save

ARGS = ["bench", "serving", "--concurrency", "2", "--requests-per-client", "1",
        "--min-requests", "2", "--max-tokens", "4", "--max-batch", "4", "--rounds", "1",
        "--time-limit", "60"]


@pytest.fixture
def tiny_pair_env(tmp_path, monkeypatch):
    tok = build_tokenizer()
    target = make_model("llama", len(tok), 2, seed=1, eos_id=tok.eos_token_id)
    monkeypatch.setenv("GUARDIAN_DRAFT_DIR", str(save(perturb(target, 0.05, seed=3), tok,
                                                      tmp_path / "draft")))
    monkeypatch.setenv("GUARDIAN_TARGET_DIR", str(save(target, tok, tmp_path / "target")))
    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "home"))
    return tmp_path


@pytest.mark.e2e
@pytest.mark.integration
@pytest.mark.timeout(300)
def test_bench_serving_measures_every_cell(tiny_pair_env) -> None:
    out = tiny_pair_env / "serving.json"
    res = CliRunner().invoke(app, [*ARGS, "--json", str(out)], terminal_width=200)
    assert res.exit_code == 0, res.output
    r = json.loads(out.read_text())
    assert r["complete"] is True
    cells = {(c["mode"], c["route"]): c for c in r["cells"]}
    assert set(cells) == {(m, route) for m in serving_bench.MODES
                          for route in serving_bench.ROUTES}
    for c in cells.values():
        assert (c["ok"], c["errors"], c["audit_missing"]) == (c["requests"], 0, 0), c
        assert c["tokens_per_s"] > 0 and c["latency_p99_ms"] >= c["latency_p50_ms"] > 0
        assert c["tokens_per_s_by_round"] == [pytest.approx(c["tokens_per_s"])]  # one round
    assert set(cells["off", "target"]["served_paths"]) == {"target_only"}
    diff, seen = r["differs"]
    assert seen >= 2 and 0 <= diff <= seen
    # The batched server's depth-cap model beside what serving paid, per band and cap
    live = r["speculation"]["cap_model"]["live_by_batch_size_and_depth"]
    assert live and all(c["steps"] > 0 and c["ms_per_step"] > 0 and c["model_ms_per_step"] > 0
                        for caps in live.values() for c in caps.values())
    assert "depth-cap model against serving" in res.output
    assert r["speculation"]["cap_model"]["on_off_switches"] >= 0
    assert "speculation turned on or off" in res.output


@pytest.mark.e2e
@pytest.mark.integration
@pytest.mark.timeout(300)
def test_bench_serving_fails_loudly_when_requests_fail(tiny_pair_env, monkeypatch) -> None:
    monkeypatch.setattr(serving_bench, "_served_model", lambda url: "not-served")
    res = CliRunner().invoke(app, ARGS, terminal_width=200)
    assert res.exit_code != 0
    assert isinstance(res.exception, serving_bench.BenchFailed)
    assert "warm-up requests" in str(res.exception) and "model_not_found" in str(res.exception)
