"""The gate's coverage draws: more seeds of the golden set's sampled prompts while a sampled
stopping case is below `gate.stopping_quota`.

How a sampled completion stops is a draw: whether some seeded golden prompt ends with an EOS
accepted inside a draft block depends on the seed and on the pair, and the demo pair is
trained for a wall-clock budget, so two builds differ and a seed picked on one build may
never end that way on the next. A gate that fails `stopping_coverage` for that reason says
nothing about the pair. So after the alone and batched phases, for each sampled stopping case
still short, the gate judges more seeds of the sampled prompts (phase `coverage`, one run
each, alone) until the case meets the quota or `gate.coverage_draws` runs are spent; the
first half of the budget goes to the prompts whose text some run already ended that way. Each
draw is a full judged run: it must pass the same checks, and it is in the report under its
own id (`<prompt id>~seed<n>`). Greedy cases are deterministic, so draws cannot cover them;
the golden set must. Acceptance and speed are measured on the alone phase only
(guardian.governance.gatechecks), so draws do not move them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from guardian.equivalence.stopcases import STOPPING_CASES
from guardian.governance.golden import GoldenPrompt
from guardian.policy import GatePolicy

COVERAGE_PHASE = "coverage"


def short_sampled_cases(results: list[Any], quota: int) -> list[str]:
    """The sampled stopping cases judged fewer than `quota` times, in STOPPING_CASES order."""
    n = {c: 0 for c in STOPPING_CASES}
    for r in results:
        if r.temperature > 0 and r.stopping in n:
            n[r.stopping] += 1
    return [c for c in STOPPING_CASES if n[c] < quota]


def candidates(prompts: list[GoldenPrompt], results: list[Any],
               case: str) -> tuple[list[GoldenPrompt], list[GoldenPrompt]]:
    """The sampled prompts a draw for `case` is taken from, as (likely, rest): likely are
    those whose prompt text some judged run - greedy or sampled - already ended that way
    (for `eos_in_block`, with any EOS: the target ends that text with EOS, so its sampled
    draws are the likeliest to), in file order. Only prompts with stop strings can end by
    one."""
    sampled = [gp for gp in prompts if gp.temperature > 0 and (case != "stop_string" or gp.stop)]
    near = {case, "eos"} if case == "eos_in_block" else {case}
    by_id = {gp.id: gp.prompt for gp in prompts}
    texts = {by_id.get(r.id.split("@", 1)[0].split("~seed", 1)[0]) for r in results
             if r.stopping in near}
    likely = [gp for gp in sampled if gp.prompt in texts]
    return likely, [gp for gp in sampled if gp.prompt not in texts]


def run_coverage_draws(judge: Any, backend: Any, prompts: list[GoldenPrompt], results: list[Any],
                       gate: GatePolicy, max_new: Callable[[GoldenPrompt], int],
                       on_prompt: Callable[[Any], None] | None = None) -> list[Any]:
    """The coverage draws' PromptResults (none when every sampled case meets the quota)."""
    if gate.stopping_quota <= 0 or gate.coverage_draws <= 0:
        return []
    drawn: list[Any] = []
    next_seed: dict[str, int] = {}
    while len(drawn) < gate.coverage_draws:
        # The first half of the budget goes to the likely prompts (when there are any)
        narrow = 2 * len(drawn) < gate.coverage_draws
        pools = ((likely if narrow and likely else likely + rest)
                 for likely, rest in (candidates(prompts, results + drawn, case) for case in
                                      short_sampled_cases(results + drawn, gate.stopping_quota)))
        pool = next((p for p in pools if p), None)
        if pool is None:
            break
        # Round-robin over the pool: the prompt drawn least so far goes next.
        gp = min(pool, key=lambda p: next_seed.get(p.id, 1))
        k = next_seed.get(gp.id, 1)
        next_seed[gp.id] = k + 1
        seed = gp.seed + k
        draw = replace(gp, id=f"{gp.id}~seed{seed}", seed=seed)
        r = judge.judge(backend, draw, gate, judge.serve(backend, draw, max_new(gp),
                                                         COVERAGE_PHASE), COVERAGE_PHASE)
        drawn.append(r)
        if on_prompt is not None:
            on_prompt(r)
    return drawn
