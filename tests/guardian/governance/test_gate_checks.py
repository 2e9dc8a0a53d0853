"""Gate checks over per-prompt results (pure): equivalence, near-tie allowance, speedup."""

from __future__ import annotations

from guardian.governance.gatechecks import evaluate_gate
from guardian.governance.gatereport import PromptResult
from guardian.policy import GatePolicy


def result(pid: str, verdict: str = "match", t_target: float = 2.0, t_spec: float = 1.0,
           temperature: float = 0.0) -> PromptResult:
    return PromptResult(pid, temperature, verdict, verdict in ("match", "distribution_ok"), "",
                        10, 10, t_target, t_spec, 40, 30)


def outcome(checks, name: str) -> str:
    return next(c.outcome for c in checks if c.name == name)


def test_near_ties_pass_up_to_the_allowance_and_divergence_never() -> None:
    results = [result("a"), result("b", "near_tie")]
    assert outcome(evaluate_gate(results, GatePolicy(max_near_ties=1)), "greedy_equivalence") == "pass"
    assert outcome(evaluate_gate(results, GatePolicy(max_near_ties=0)), "greedy_equivalence") == "fail"
    checks = evaluate_gate([result("a"), result("c", "divergence")], GatePolicy(max_near_ties=5))
    eq = next(c for c in checks if c.name == "greedy_equivalence")
    assert eq.outcome == "fail" and "c" in eq.detail


def speed(results, floor: float):
    return next(c for c in evaluate_gate(results, GatePolicy(min_speedup=floor))
                if c.name == "min_speedup")


def test_the_speedup_verdict_agrees_with_the_totals_and_reports_a_ci() -> None:
    results = [result(str(i), t_target=2.0 + i / 10, t_spec=1.0) for i in range(6)]
    check = speed(results, 1.5)
    assert check.outcome == "pass"
    assert check.value == sum(2.0 + i / 10 for i in range(6)) / 6.0  # the totals' ratio
    assert "95% CI" in check.detail and "median" in check.detail
    slow = [result(str(i), t_target=1.0, t_spec=1.0) for i in range(5)]
    assert speed(slow, 1.2).outcome == "fail"


def test_a_median_that_passes_while_the_totals_fail_is_a_failure() -> None:
    # issue 16: speculative 2x slower in total while the median-of-ratios check passed
    results = [result(str(i), t_target=2.0, t_spec=1.0) for i in range(5)]
    results.append(result("stalled", t_target=2.0, t_spec=60.0))
    check = speed(results, 1.5)
    assert check.outcome == "fail" and check.value < 1.0
    assert "DISAGREEMENT" in check.detail
    # and the reverse: totals pass (one very slow target-only run), median fails
    rev = [result(str(i), t_target=1.0, t_spec=1.0) for i in range(5)]
    rev.append(result("big", t_target=100.0, t_spec=1.0))
    check = speed(rev, 1.5)
    assert check.outcome == "fail" and "DISAGREEMENT" in check.detail


def test_any_verdict_but_match_or_an_allowed_near_tie_fails_greedy_equivalence() -> None:
    # e.g. a stopping or per-token verdict the evaluator adds later: fail closed
    checks = evaluate_gate([result("a"), result("b", "some_new_failure")], GatePolicy(max_near_ties=3))
    assert outcome(checks, "greedy_equivalence") == "fail"
    checks = evaluate_gate([result("s", "some_new_failure", temperature=0.7)], GatePolicy())
    assert outcome(checks, "sampled_distribution") == "fail"


def test_sampled_check_is_skipped_without_sampled_prompts() -> None:
    checks = evaluate_gate([result("a")], GatePolicy())
    assert outcome(checks, "sampled_distribution") == "skipped"
    checks = evaluate_gate([result("a"), result("s", "distribution_mismatch", temperature=0.8)],
                           GatePolicy())
    assert outcome(checks, "sampled_distribution") == "fail"
