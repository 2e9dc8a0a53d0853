"""The gate's coverage draws (guardian.governance.gatecoverage): further seeds of the sampled
golden prompts while a sampled stopping case is below the quota, judged like any run and
kept out of acceptance, speed and the batched check."""

from __future__ import annotations

from guardian.governance.gatechecks import batched_check, evaluate_gate
from guardian.governance.gatecoverage import (
    COVERAGE_PHASE,
    candidates,
    run_coverage_draws,
    short_sampled_cases,
)
from guardian.governance.gatereport import PromptResult
from guardian.governance.golden import GoldenPrompt
from guardian.policy import GatePolicy


def _result(gp: GoldenPrompt, stopping: str | None, phase: str = "alone",
            verdict: str = "distribution_ok") -> PromptResult:
    rid = gp.id if phase == "alone" else f"{gp.id}@{phase}"
    return PromptResult(rid, gp.temperature, verdict, True, "", 8, 8, 1.0, 0.5, 8, 6,
                        judged=8, phase=phase, stopping=stopping, stop=list(gp.stop))


class _Judge:
    """Ends a run the way `ends(prompt id, seed)` says; records every seed it was given."""

    def __init__(self, ends) -> None:
        self.ends, self.seen = ends, []

    def serve(self, backend, gp, max_new, phase):
        self.seen.append((gp.id, gp.seed, phase))
        return gp

    def judge(self, backend, gp, gate, served, phase):
        base = gp.id.split("~seed", 1)[0]
        return _result(gp, self.ends(base, gp.seed), phase)


EOS = GoldenPrompt("s-eos", "def f():\n", 40, 0.7, seed=13)
STOP = GoldenPrompt("s-stop", "x =", 32, 0.7, seed=9, stop=("\n",))
LONG = GoldenPrompt("s-long", "import os\n", 6, 0.5, seed=23)
GREEDY = GoldenPrompt("g", "def g():\n", 32)
PROMPTS = [GREEDY, EOS, STOP, LONG]


def _golden_results() -> list[PromptResult]:
    return [_result(GREEDY, "eos_in_block", verdict="match"), _result(EOS, None),
            _result(STOP, "stop_string"), _result(STOP, "stop_string", "b4"),
            _result(LONG, "max_tokens"), _result(LONG, "max_tokens", "b4")]


def test_draws_stop_as_soon_as_the_short_case_meets_the_quota() -> None:
    # s-eos ends with EOS inside a block only from its third further seed on.
    judge = _Judge(lambda pid, seed: "eos_in_block" if pid == "s-eos" and seed >= 16 else None)
    results = _golden_results()
    gate = GatePolicy(stopping_quota=2, coverage_draws=16)
    assert short_sampled_cases(results, 2) == ["eos_in_block"]
    drawn = run_coverage_draws(judge, None, PROMPTS, results, gate, lambda gp: 40)
    assert short_sampled_cases(results + drawn, 2) == []
    assert all(r.phase == COVERAGE_PHASE for r in drawn)
    # only sampled prompts, never the same seed twice, never the golden seed itself
    seeds = [(pid, s) for pid, s, _ in judge.seen]
    assert len(seeds) == len(set(seeds)) == len(drawn)
    assert all(not pid.startswith("g") for pid, _ in seeds)
    assert ("s-eos~seed13", 13) not in seeds
    assert [r.id for r in drawn if r.stopping == "eos_in_block"] == [
        "s-eos~seed16@coverage", "s-eos~seed17@coverage"]
    # the budget was not spent once the case was covered
    assert len(drawn) < gate.coverage_draws


def test_draws_end_at_the_budget_and_the_check_still_fails() -> None:
    judge = _Judge(lambda pid, seed: None)  # no seed ever ends with EOS
    results = _golden_results()
    gate = GatePolicy(stopping_quota=2, coverage_draws=5)
    drawn = run_coverage_draws(judge, None, PROMPTS, results, gate, lambda gp: 40)
    assert len(drawn) == 5
    stopping = next(c for c in evaluate_gate(results + drawn, gate)
                    if c.name == "stopping_coverage")
    assert stopping.outcome == "fail"
    assert "sampled/eos_in_block" in stopping.detail and "5 coverage draw(s)" in stopping.detail


def test_no_draws_without_a_quota_or_a_budget_or_when_covered() -> None:
    judge = _Judge(lambda pid, seed: "eos_in_block")
    results = _golden_results()
    assert run_coverage_draws(judge, None, PROMPTS, results, GatePolicy(stopping_quota=0),
                              lambda gp: 40) == []
    assert run_coverage_draws(judge, None, PROMPTS, results,
                              GatePolicy(stopping_quota=2, coverage_draws=0), lambda gp: 40) == []
    covered = [*results, _result(EOS, "eos_in_block"), _result(EOS, "eos_in_block", "b4")]
    assert run_coverage_draws(judge, None, PROMPTS, covered, GatePolicy(stopping_quota=2),
                              lambda gp: 40) == []
    assert judge.seen == []


def test_a_stop_string_case_draws_only_prompts_with_stop_strings() -> None:
    results = [r for r in _golden_results() if r.stopping != "stop_string"]
    likely, rest = candidates(PROMPTS, results, "stop_string")
    assert (likely, [gp.id for gp in rest]) == ([], ["s-stop"])


def test_an_eos_draw_goes_first_to_prompts_whose_text_ended_with_eos() -> None:
    # The greedy prompt with s-long's text ended with EOS (not inside a block): s-long's
    # sampled draws are the likeliest to end with EOS, and get the first half of the budget.
    twin = GoldenPrompt("g-long", LONG.prompt, 32)
    results = [*_golden_results(), _result(twin, "eos", verdict="match")]
    likely, rest = candidates([*PROMPTS, twin], results, "eos_in_block")
    assert [gp.id for gp in likely] == ["s-long"] and [gp.id for gp in rest] == ["s-eos", "s-stop"]
    judge = _Judge(lambda pid, seed: None)
    run_coverage_draws(judge, None, [*PROMPTS, twin], results,
                       GatePolicy(stopping_quota=2, coverage_draws=6), lambda gp: 40)
    assert [pid for pid, _, _ in judge.seen] == [
        "s-long~seed24", "s-long~seed25", "s-long~seed26", "s-eos~seed14", "s-stop~seed10",
        "s-eos~seed15"]


def test_a_failing_draw_fails_the_gate_and_draws_stay_out_of_alpha_and_batching() -> None:
    results = _golden_results()
    bad = _result(GoldenPrompt("s-eos~seed14", EOS.prompt, 40, 0.7, 14), "eos_in_block",
                  COVERAGE_PHASE, verdict="divergence")
    bad.drafted = bad.judged = 100
    bad.accepted = 0
    checks = {c.name: c for c in evaluate_gate([*results, bad], GatePolicy(stopping_quota=1))}
    assert checks["sampled_distribution"].outcome == "fail"
    assert "s-eos~seed14@coverage" in checks["sampled_distribution"].detail
    alone = {c.name: c for c in evaluate_gate(results, GatePolicy(stopping_quota=1))}
    assert checks["min_alpha"].value == alone["min_alpha"].value
    bad.shared_spec_steps = 3
    engine = {"engine": "continuous"}
    only_draw = [_result(GREEDY, None, verdict="match"), bad]
    assert batched_check(engine, only_draw, GatePolicy()).outcome == "fail"
