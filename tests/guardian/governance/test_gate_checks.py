"""Gate checks over per-prompt results (pure): equivalence, near-tie allowance, speedup."""

from __future__ import annotations

from guardian.governance.gates import PromptResult, evaluate_gate
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


def test_one_stalled_prompt_does_not_decide_the_speedup() -> None:
    results = [result(str(i), t_target=2.0, t_spec=1.0) for i in range(5)]
    results.append(result("stalled", t_target=2.0, t_spec=60.0))  # a scheduler stall
    speed = next(c for c in evaluate_gate(results, GatePolicy(min_speedup=1.5)) if c.name == "min_speedup")
    assert speed.outcome == "pass" and speed.value == 2.0
    slow = [result(str(i), t_target=1.0, t_spec=1.0) for i in range(5)]
    assert outcome(evaluate_gate(slow, GatePolicy(min_speedup=1.2)), "min_speedup") == "fail"


def test_sampled_check_is_skipped_without_sampled_prompts() -> None:
    checks = evaluate_gate([result("a")], GatePolicy())
    assert outcome(checks, "sampled_distribution") == "skipped"
    checks = evaluate_gate([result("a"), result("s", "distribution_mismatch", temperature=0.8)],
                           GatePolicy())
    assert outcome(checks, "sampled_distribution") == "fail"
