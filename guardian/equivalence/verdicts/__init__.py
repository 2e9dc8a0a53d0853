"""Equivalence verdicts: functions that judge a speculative run against target-only.

Owns the verdict definitions of ../shared/DESIGN.md and nothing else (no engine, no I/O).
What each verdict means and cannot see: VERDICTS.section.md. The functions the shadow
evaluator (and the gate) call:

- greedy: `judge_greedy(PathOutput, PathOutput, tolerance)` — every token its path's argmax,
  log-probs agree along the common prefix (silent corruption), the first flip is a
  `near_tie` only when `near_tie_proof` holds (runner-up swap + both paths' logits within
  the measured tolerance), same tokens ending differently is a `divergence`.
  `judge_external_greedy` for mirrored primaries (one-sided proof). `greedy_verdict` is the
  legacy margin-only rule (a length difference is never a tie there either).
- every judged completion: `stopping_violation` / `stopping_verdict` (EOS last, stop strings
  end at the completing token, max_tokens).
- sampled: `sampled_trace_verdict` (p(x) > 0, resampled p(x) > q(x), accepted = proposed),
  `sampled_verdict` (verifier p vs target-only p, TV), `PitWindow` (randomized PIT by
  origin, KS over tumbling windows), `recorded_observations` + `AcceptanceWindow`
  (acceptance vs Σ min(p, q) from the recorded q; Leviathan et al. 2023 §3.1),
  `seed_replay_verdict` (a seeded request run again on its own path repeats its tokens).
- greedy answers with the same tokens: `structure_verdict` (the same tool calls, JSON and
  text; `tool_calls_of`).
- `speed_anomalies`: speed-only findings (never a correctness verdict).
- `support_verdict` / `trace_verdict`: the older per-token checks, kept for callers.

The package, by seam: `result` (what a verdict is), `greedy`, `sampled`, `stopping`,
`calibration` (the two stateful windows), `speed`, `structure`. Import from here."""

from __future__ import annotations

from guardian.equivalence.verdicts.calibration import (
    PIT_ALPHA,
    PIT_MIN_SAMPLE,
    PIT_ORIGINS,
    AcceptanceWindow,
    PitWindow,
    ks_uniform,
    origin_distribution,
    randomized_pit,
)
from guardian.equivalence.verdicts.greedy import (
    greedy_verdict,
    judge_external_greedy,
    judge_greedy,
    min_consistent_disagreement,
    near_tie_proof,
)
from guardian.equivalence.verdicts.result import (
    FAILED_CHECKS,
    PathOutput,
    VerdictResult,
    first_difference,
)
from guardian.equivalence.verdicts.sampled import (
    MIN_WINDOW_FOR_ACCEPTANCE_TEST,
    drafted_observations,
    expected_acceptance,
    reported_probability_verdict,
    sampled_trace_verdict,
    sampled_verdict,
    seed_replay_verdict,
    support_verdict,
    total_variation,
    trace_verdict,
)
from guardian.equivalence.verdicts.speed import (
    recorded_observations,
    speed_anomalies,
)
from guardian.equivalence.verdicts.stopping import (
    stopping_verdict,
    stopping_violation,
)
from guardian.equivalence.verdicts.structure import (
    structure_verdict,
    tool_calls_of,
)

__all__ = [
    "FAILED_CHECKS",
    "MIN_WINDOW_FOR_ACCEPTANCE_TEST",
    "PIT_ALPHA",
    "PIT_MIN_SAMPLE",
    "PIT_ORIGINS",
    "AcceptanceWindow",
    "PathOutput",
    "PitWindow",
    "VerdictResult",
    "drafted_observations",
    "expected_acceptance",
    "first_difference",
    "greedy_verdict",
    "judge_external_greedy",
    "judge_greedy",
    "ks_uniform",
    "min_consistent_disagreement",
    "near_tie_proof",
    "origin_distribution",
    "randomized_pit",
    "recorded_observations",
    "reported_probability_verdict",
    "sampled_trace_verdict",
    "sampled_verdict",
    "seed_replay_verdict",
    "speed_anomalies",
    "stopping_verdict",
    "stopping_violation",
    "structure_verdict",
    "support_verdict",
    "tool_calls_of",
    "total_variation",
    "trace_verdict",
]
