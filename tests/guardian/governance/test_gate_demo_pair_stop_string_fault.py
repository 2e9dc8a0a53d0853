"""Issue #44, point 4 on the demo pair: the golden set's stop-string prompts (greedy and
sampled, counted per kind by the gate's stopping coverage) catch a stop-string fault of the
continuous engine - a batched row that notices a stop string completed inside an accepted
block one block late - which the one-at-a-time gate passes."""

from __future__ import annotations

import re

import pytest

from guardian.policy import GatePolicy
from tests.faults.continuous_faults import CB_BY_NAME
from tests.support.governance import gate_on, golden_prompts

IDS = ("stop-newline", "stop-paren", "sampled-top-p-k-stop", "sampled-cool-stop")
GATE = GatePolicy(min_speedup=0.0, min_alpha=0.0, batch_sizes=[4])


@pytest.mark.slow
def test_the_stop_string_prompts_catch_a_late_stop_in_the_serving_engine(demo_pair_paths):
    from engine import load_pair

    prompts = golden_prompts(IDS)
    pair = load_pair(demo_pair_paths.draft_dir, demo_pair_paths.target_dir, device="cpu")

    def gate(batching: bool = True):  # type: ignore[no-untyped-def]
        return gate_on(pair, prompts, GATE, batching=batching)

    clean = gate()
    with CB_BY_NAME["cb_stop_string_one_block_late"].inject():
        report = gate()
        alone = gate(batching=False)  # the request-level engine: the fault is not in it
    assert clean.passed, clean.to_markdown()
    coverage = next(c for c in clean.checks if c.name == "stopping_coverage").detail
    greedy, sampled = coverage.split("sampled:")  # stop strings judged for both kinds
    assert re.search(r"stop_string [1-9]", greedy) and re.search(r"stop_string [1-9]", sampled)
    assert not report.passed, report.to_markdown()
    assert {p.phase for p in report.failing_prompts} <= {"alone", "b4"}
    assert alone.passed, alone.to_markdown()
