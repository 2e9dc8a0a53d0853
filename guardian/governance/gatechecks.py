"""Gate checks: the promotion gate's verdicts over per-prompt results (pure: no engine).

Checks (GatePolicy), computed by `evaluate_gate` for `guardian.governance.gates.run_gate`:
- greedy_equivalence: every greedy prompt's verdict is `match`, or `near_tie` (at most
  `max_near_ties` of them); any other verdict fails;
- sampled_distribution: every sampled prompt's verdict is `distribution_ok`;
- min_alpha over all speculative runs (engine.metrics: accepted / judged; acceptance_rate =
  accepted / proposed reported beside it);
- min_speedup: Σ target-only time / Σ speculative time over the greedy prompts, with a 95 %
  bootstrap interval and the median per-prompt ratio beside it; the totals and the median
  must both reach the floor — a disagreement fails (`speedup_check`);
- stopping_coverage (`stopping_check`) and batched_speculation (`batched_check`).
"""

from __future__ import annotations

import statistics
from typing import Any

from engine.metrics import SpecCounters
from guardian.equivalence.stopcases import KINDS, STOPPING_CASES, empty_counts, shortfall
from guardian.governance.checks import Check
from guardian.governance.gatecoverage import COVERAGE_PHASE
from guardian.governance.gatereport import PromptResult
from guardian.policy import GatePolicy

# A prompt passes on these verdicts; near_tie passes up to the policy's allowance; any other
# verdict (divergence, distribution_mismatch, a stopping or per-token failure) fails it.
PASSING_VERDICTS = frozenset({"match", "distribution_ok"})


def speedup_check(timed: list[PromptResult], gate: GatePolicy, *, resamples: int = 2000,
                  seed: int = 0) -> Check:
    """The speedup verdict from the totals, with a bootstrap CI and the median beside it.

    speedup = Σ target-only time / Σ speculative time over the timed (greedy) prompts — what a
    user of the whole golden set would see. A 95 % percentile-bootstrap interval (prompts
    resampled with replacement, deterministic seed) is reported with it. The check passes only
    when the totals AND the median of per-prompt ratios both reach `min_speedup`: a median that
    passes while the totals fail (or the reverse) is a disagreement, reported as a failure.
    """
    import random

    t_target = [r.target_time_s for r in timed]
    t_spec = [r.speculative_time_s for r in timed]
    total = sum(t_target) / sum(t_spec)
    median = statistics.median(a / b for a, b in zip(t_target, t_spec, strict=True))
    rng, n = random.Random(seed), len(timed)
    boot = []
    for _ in range(resamples):
        idx = [rng.randrange(n) for _ in range(n)]
        boot.append(sum(t_target[i] for i in idx) / sum(t_spec[i] for i in idx))
    boot.sort()
    lo, hi = boot[int(0.025 * resamples)], boot[min(resamples - 1, int(0.975 * resamples))]
    by_total, by_median = total >= gate.min_speedup, median >= gate.min_speedup
    detail = (f"totals: target-only {sum(t_target):.3f} s / speculative {sum(t_spec):.3f} s = "
              f"{total:.2f}x (95% CI {lo:.2f}-{hi:.2f}, bootstrap over {n} prompts); median "
              f"per-prompt ratio {median:.2f}x")
    if by_total != by_median:
        detail += ("; DISAGREEMENT: the totals and the median fall on different sides of "
                   f"{gate.min_speedup}, so the speedup is not established")
    elif lo < gate.min_speedup <= total:
        detail += f"; note: the CI reaches below {gate.min_speedup}"
    return Check("min_speedup", "pass" if by_total and by_median else "fail", total,
                 gate.min_speedup, detail)


def evaluate_gate(results: list[PromptResult], gate: GatePolicy) -> list[Check]:
    """The gate checks over per-prompt results (pure: tested without an engine)."""
    greedy = [r for r in results if r.temperature == 0]
    sampled = [r for r in results if r.temperature > 0]
    # Acceptance and speed from the prompts decoded alone (a batch's rows share its steps'
    # time; their depth is the batch's cap): the batch phases judge correctness.
    alone = [r for r in results if r.phase == "alone"]
    divergences = [r.id for r in greedy if r.verdict not in PASSING_VERDICTS | {"near_tie"}]
    ties = [r.id for r in greedy if r.verdict == "near_tie"]
    eq_fail = bool(divergences) or len(ties) > gate.max_near_ties
    checks = [Check("greedy_equivalence", "skipped" if not greedy else ("fail" if eq_fail else "pass"),
                    float(len(divergences) + len(ties)), float(gate.max_near_ties),
                    f"{len(greedy) - len(divergences) - len(ties)} match, {len(ties)} near_tie "
                    f"(allowed {gate.max_near_ties}), {len(divergences)} divergence"
                    + (f": {', '.join(divergences + ties)}" if eq_fail else ""))]
    bad = [r.id for r in sampled if r.verdict not in PASSING_VERDICTS]
    worst = max((r.max_tv or 0.0 for r in sampled), default=None)
    checks.append(Check("sampled_distribution", "skipped" if not sampled else ("fail" if bad else "pass"),
                        worst, gate.distribution_tolerance,
                        "no sampled prompts in the golden set" if not sampled
                        else f"{len(sampled) - len(bad)}/{len(sampled)} within tolerance"
                        + (f"; failing: {', '.join(bad)}" if bad else "")))
    total = SpecCounters.total(r.counters for r in alone)
    checks.append(Check("min_alpha", "fail" if total.alpha < gate.min_alpha else "pass",
                        total.alpha, gate.min_alpha,
                        f"{total.accepted}/{total.judged} judged draft positions accepted "
                        f"(acceptance_rate {total.acceptance_rate:.3f} of {total.proposed} "
                        "proposed)"))
    timed = [r for r in greedy if r.speculative_time_s > 0 and r.phase == "alone"]
    if timed:
        checks.append(speedup_check(timed, gate))
    else:
        checks.append(Check("min_speedup", "skipped", None, gate.min_speedup, "no greedy prompts timed"))
    checks.append(stopping_check(results, gate))
    return checks


def stopping_counts(results: list[PromptResult]) -> dict[str, dict[str, int]]:
    """Judged completions per decoding kind and stopping case (guardian.equivalence.stopcases)."""
    counts = empty_counts()
    for r in results:
        if r.stopping is not None:
            counts["sampled" if r.temperature > 0 else "greedy"][r.stopping] += 1
    return counts


def stopping_check(results: list[PromptResult], gate: GatePolicy) -> Check:
    """`stopping_coverage`: each of greedy and sampled judged at least `stopping_quota`
    completions ending by a stop string, by an EOS accepted inside a block, at max_tokens."""
    counts = stopping_counts(results)
    short = shortfall(counts, gate.stopping_quota)
    shown = "; ".join(f"{k}: " + ", ".join(f"{c} {n}" for c, n in v.items())
                      for k, v in counts.items())
    outcome = "pass" if not short else ("skipped" if gate.stopping_quota == 0 else "fail")
    draws = sum(r.phase == COVERAGE_PHASE for r in results)
    if draws:
        shown += f"; {draws} coverage draw(s) of sampled prompts"
    return Check("stopping_coverage", outcome,
                 float(min(counts[k][c] for k in KINDS for c in STOPPING_CASES)),
                 float(gate.stopping_quota),
                 shown + (f"; below the quota: {', '.join(short)}" if short else ""))


def batched_check(engine: dict[str, Any], results: list[Any], gate: GatePolicy) -> Any:
    """`batched_speculation`: the serving engine batches, so some batched row must have
    speculated beside another (else no shared-batch fault could have shown)."""
    if engine.get("engine") != "continuous":
        return Check("batched_speculation", "skipped", None, None,
                     "the serving engine decodes one request at a time (GUARDIAN_BATCHING=off)")
    batched = [r for r in results if r.phase not in ("alone", COVERAGE_PHASE)]
    if not gate.batch_sizes:
        return Check("batched_speculation", "skipped", None, None,
                     "gate.batch_sizes is empty: judged one at a time only")
    together = sum(r.shared_spec_steps > 0 for r in batched)
    rows = max((r.batch_rows_max for r in batched), default=0)
    detail = (f"{together}/{len(batched)} batched rows speculated in a shared batch "
              f"(up to {rows} rows); phases: {', '.join(sorted({r.phase for r in batched}))}"
              if batched else "no batch phase ran (gate.batch_sizes empty, or < 2 prompts)")
    return Check("batched_speculation", "pass" if together else "fail", float(together), 1.0,
                 detail)
