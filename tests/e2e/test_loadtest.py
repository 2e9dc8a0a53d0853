"""Load test from a second process: the sidecar runs under uvicorn in a child process over a
tiny real pair and the SQLite audit store; concurrent clients here (bounded in count and
time) measure throughput, p50/p99 and the sidecar's overhead, and every request must have
its audit records."""

from __future__ import annotations

import json
import logging

import pytest

from guardian.devtools.loadtest import _free_port, run_load, spawn_sidecar
from tests.support.tiny_models import build_tokenizer, make_model, perturb, save

logger = logging.getLogger(__name__)

POLICY = """
default_route: default
routes:
  default:
    mode: speculative
    shadow: {sample_rate: 0.5, max_new_tokens: 16}
    # This measures serving load, not the promotion gate: no gate report exists for this
    # throwaway pair, so let the file's speculative mode apply (the gate has its own tests).
    gate: {require_report: false}
"""


@pytest.mark.e2e
@pytest.mark.integration
@pytest.mark.timeout(300)
def test_load_from_a_second_process(tmp_path) -> None:
    tok = build_tokenizer()
    target = make_model("llama", len(tok), 3, seed=1, eos_id=tok.eos_token_id)
    draft_dir = save(perturb(target, 0.05, seed=3), tok, tmp_path / "draft")
    target_dir = save(target, tok, tmp_path / "target")
    (tmp_path / "policy.yaml").write_text(POLICY)
    env = {"GUARDIAN_HOME": str(tmp_path / "home"), "GUARDIAN_DRAFT_DIR": str(draft_dir),
           "GUARDIAN_TARGET_DIR": str(target_dir),
           "GUARDIAN_POLICY_FILE": str(tmp_path / "policy.yaml"), "GUARDIAN_TORCH_THREADS": "1"}
    with spawn_sidecar(_free_port(), env, ready_timeout_s=120) as url:
        report = run_load(url, requests=48, concurrency=6, max_tokens=12, time_limit_s=120)
    logger.info("load report: %s", json.dumps(report.__dict__, default=str))
    assert report.errors == 0, report.error_samples
    assert report.ok == 48
    assert report.audit_checked == 48 and report.audit_missing == []
    assert report.throughput_rps > 0 and report.latency_p99_ms >= report.latency_p50_ms
    assert report.served_paths.get("speculative", 0) > 0
    # the sidecar's own share of a request stays small next to the engine's
    assert report.overhead_p50_ms < 100
