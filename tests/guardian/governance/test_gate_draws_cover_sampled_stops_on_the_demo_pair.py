"""On the demo pair, the gate's coverage draws (guardian.governance.gatecoverage) judge further
seeds of the sampled golden prompts until each sampled stopping case meets the quota: a quota
the golden seeds alone cannot meet (one sampled prompt per case, judged alone, quota 3) is met
by draws that each pass the same checks. The demo pair is trained for a wall-clock budget, so
which seeds end with an EOS inside a block differs by build; this holds on any build that can
end a sampled completion that way at all."""

from __future__ import annotations

import pytest

from guardian.governance.gatecoverage import COVERAGE_PHASE
from guardian.policy import GatePolicy
from tests.support.governance import gate_on, golden_prompts

IDS = ("sampled-eos", "sampled-cool-eos", "sampled-cool-stop", "sampled-max-tokens")
QUOTA = 3


@pytest.mark.slow
def test_draws_meet_a_sampled_quota_the_golden_seeds_cannot(demo_pair_paths) -> None:
    from engine import load_pair

    prompts = golden_prompts(IDS, max_tokens=40)
    pair = load_pair(demo_pair_paths.draft_dir, demo_pair_paths.target_dir, device="cpu")
    gate = GatePolicy(min_speedup=0.0, min_alpha=0.0, batch_sizes=[], stopping_quota=QUOTA,
                      coverage_draws=32)
    report = gate_on(pair, prompts, gate)
    alone = [p for p in report.prompts if p.phase == "alone"]
    draws = [p for p in report.prompts if p.phase == COVERAGE_PHASE]
    assert len(alone) == len(IDS)
    # Four prompts judged once each cannot end 3 ways 3 times: draws had to run.
    assert draws and len(draws) <= gate.coverage_draws
    assert all(p.temperature > 0 and "~seed" in p.id for p in draws)
    assert len({p.id for p in draws}) == len(draws)
    assert all(p.passed and p.verdict == "distribution_ok" for p in draws), report.to_markdown()
    sampled = report.stopping["sampled"]
    assert all(sampled[c] >= QUOTA for c in ("stop_string", "eos_in_block", "max_tokens")), sampled
    coverage = next(c for c in report.checks if c.name == "stopping_coverage")
    # No greedy prompt in this set: only the greedy cells stay short.
    short = coverage.detail.split("below the quota: ", 1)[1].split(", ")
    assert short == ["greedy/stop_string", "greedy/eos_in_block", "greedy/max_tokens"], coverage
    assert f"{len(draws)} coverage draw(s)" in coverage.detail
