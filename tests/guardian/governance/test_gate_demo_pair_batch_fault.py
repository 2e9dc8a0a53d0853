"""Issue #44 (a) on the demo pair: a fault that lives only in the continuous engine (each
speculative row commits the batch's largest accepted count, invisible to a row alone) fails
the gate over shipped golden prompts; the report blames the shared-batch phase only."""

from __future__ import annotations

import pytest

from guardian.policy import GatePolicy
from tests.faults.continuous_faults import CB_BY_NAME
from tests.support.governance import gate_on, golden_prompts

IDS = ("add", "class-init", "for-loop", "sampled-docstring")  # one batch of 4, mixed kinds
GATE = GatePolicy(min_speedup=0.0, min_alpha=0.0, batch_sizes=[4])


@pytest.mark.slow
def test_a_continuous_engine_only_fault_fails_the_gate_on_the_demo_pair(demo_pair_paths):
    from engine import load_pair

    prompts = golden_prompts(IDS)
    pair = load_pair(demo_pair_paths.draft_dir, demo_pair_paths.target_dir, device="cpu")

    def gate(batching: bool = True):  # type: ignore[no-untyped-def]
        return gate_on(pair, prompts, GATE, batching=batching)

    clean = gate()
    with CB_BY_NAME["cb_rows_commit_batch_max_count"].inject():
        report = gate()
        alone = gate(batching=False)  # the request-level engine: one row, the fault unseen
    assert clean.passed, clean.to_markdown()  # the same gate, the fault absent
    md = report.to_markdown()
    assert not report.passed, md
    assert next(c for c in report.checks if c.name == "greedy_equivalence").outcome == "fail"
    failing = report.failing_prompts
    assert failing and all(p.phase == "b4" for p in failing), [(p.id, p.phase) for p in failing]
    assert report.engine["engine"] == "continuous"
    assert report.engine["phases"]["b4"]["speculated_in_batch"] > 0
    assert alone.passed, alone.to_markdown()
