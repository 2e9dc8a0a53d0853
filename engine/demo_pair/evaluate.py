"""Offline evaluation of a draft/target pair, without the speculative engine.

Greedy speculative decoding accepts a draft token exactly when it equals the target's
greedy token at the same prefix, and every emitted prefix is the target's own greedy
output. So acceptance can be computed by teacher-forcing the draft over the target's
greedy continuation and counting, at each simulated step, the run of consecutive draft
argmax matches (capped at gamma); the step then emits that run plus one target token.

Also owns the CPU cost measurements that make a speed-up possible:
c = time(draft forward, 1 new token) / time(target forward, 1 new token) and the
target's 5-vs-1 new token cost ratio (verification of gamma=4 drafts costs one
5-token target forward).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import torch
from transformers import DynamicCache, PreTrainedModel, PreTrainedTokenizerFast

from engine.kv import with_cache
from engine.metrics import SpecCounters, acceptance_rate


@dataclass(slots=True)
class AcceptanceReport:
    """The simulated steps' counters (engine.metrics vocabulary); ratios come from there."""

    gamma: int
    steps: int = 0
    proposed: int = 0  # draft tokens proposed: min(gamma, tokens left - 1) per step, as the engine
    judged: int = 0  # draft positions judged: up to and including the first rejection
    accepted: int = 0
    emitted: int = 0
    accepted_per_position: list[int] = field(default_factory=list)  # [i]: steps accepting pos i

    @property
    def counters(self) -> SpecCounters:
        return SpecCounters(proposed=self.proposed, judged=self.judged, accepted=self.accepted,
                            steps=self.steps)

    @property
    def mean_acceptance_length(self) -> float:
        """Tokens per target forward = 1 + accepted / steps (DESIGN.md vocabulary)."""
        return self.counters.mean_acceptance_length

    @property
    def acceptance_rate(self) -> float:
        """accepted / proposed draft tokens (vLLM)."""
        return self.counters.acceptance_rate

    @property
    def alpha(self) -> float:
        """accepted / judged draft positions (Leviathan et al.)."""
        return self.counters.alpha

    @property
    def acceptance_per_position(self) -> list[float]:
        """[i] = share of steps that accepted draft position i."""
        return [acceptance_rate(a, self.steps) for a in self.accepted_per_position]


@torch.inference_mode()
def greedy_continuations(target: PreTrainedModel, tokenizer: PreTrainedTokenizerFast,
                         prompts: list[str], max_new_tokens: int = 64
                         ) -> list[tuple[list[int], list[int]]]:
    """(prompt ids, target greedy continuation ids) per prompt, decoded one prompt at a time.

    Batch 1 on purpose: left padding changes position ids and numerics slightly, and the
    evaluation must see exactly what the engine's target-only path would produce.
    """
    out: list[tuple[list[int], list[int]]] = []
    for prompt in prompts:
        ids = tokenizer(prompt, return_tensors="pt").input_ids
        gen = target.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False,
                              max_new_tokens=max_new_tokens,
                              pad_token_id=tokenizer.pad_token_id)
        cont = gen[0, ids.shape[1]:].tolist()
        eos = tokenizer.eos_token_id
        if eos in cont:  # generation stops at EOS; keep the EOS itself as the last token
            cont = cont[: cont.index(eos) + 1]
        out.append((ids[0].tolist(), cont))
    return out


@torch.inference_mode()
def draft_matches(draft: PreTrainedModel, prompt_ids: list[int], cont_ids: list[int]) -> list[bool]:
    """[i] = the draft's argmax after prompt + cont[:i] equals cont[i] (teacher-forced)."""
    ids = torch.tensor([prompt_ids + cont_ids])
    logits = draft(input_ids=ids).logits[0]  # (T, V)
    preds = logits[len(prompt_ids) - 1 : -1].argmax(-1)  # predictions of cont[0..n-1]
    return (preds == torch.tensor(cont_ids)).tolist()


def simulate_greedy(matches: list[bool], gamma: int, report: AcceptanceReport) -> None:
    """Add the speculative steps of one continuation to `report`."""
    if len(report.accepted_per_position) < gamma:
        report.accepted_per_position.extend([0] * (gamma - len(report.accepted_per_position)))
    n, pos = len(matches), 0
    while pos < n:
        # The step must still emit one target token, so at most n - pos - 1 drafts count.
        limit = min(gamma, n - pos - 1)
        k = 0
        while k < limit and matches[pos + k]:
            k += 1
        for i in range(k):
            report.accepted_per_position[i] += 1
        report.steps += 1
        report.proposed += limit
        report.judged += min(k + 1, limit)
        report.accepted += k
        report.emitted += k + 1
        pos += k + 1


def acceptance(draft: PreTrainedModel, samples: list[tuple[list[int], list[int]]],
               gamma: int = 4) -> AcceptanceReport:
    report = AcceptanceReport(gamma=gamma)
    for prompt_ids, cont_ids in samples:
        if cont_ids:
            simulate_greedy(draft_matches(draft, prompt_ids, cont_ids), gamma, report)
    return report


@torch.inference_mode()
def forward_time(model: PreTrainedModel, new_tokens: int, *, context: int = 96,
                 reps: int = 40, clock: Callable[[], float] = time.perf_counter) -> float:
    """Median seconds of one cached forward over `new_tokens` tokens after `context` tokens."""
    model.eval()
    vocab = model.config.vocab_size
    gen = torch.Generator().manual_seed(0)
    cache = DynamicCache()
    model(input_ids=torch.randint(0, vocab, (1, context), generator=gen),
          **with_cache(model, cache), use_cache=True)
    times: list[float] = []
    for _ in range(reps + 5):
        ids = torch.randint(0, vocab, (1, new_tokens), generator=gen)
        t0 = clock()
        model(input_ids=ids, **with_cache(model, cache), use_cache=True)
        times.append(clock() - t0)
        cache.crop(-new_tokens)  # transformers 5: a negative crop removes that many tokens
    return statistics.median(times[5:])  # the first calls warm allocator and kernels


@dataclass(frozen=True, slots=True)
class SpeedShape:
    draft_1_s: float
    target_1_s: float
    target_5_s: float

    @property
    def c(self) -> float:
        return self.draft_1_s / self.target_1_s

    @property
    def target_5_vs_1(self) -> float:
        return self.target_5_s / self.target_1_s


def speed_shape(draft: PreTrainedModel, target: PreTrainedModel, rounds: int = 5, *,
                cpu_clock: bool = False) -> SpeedShape:
    """Interleaved rounds (load from other processes hits draft and target alike); the
    fastest round's medians, since contention only ever adds time.

    cpu_clock: time on one torch thread with the calling thread's CPU clock instead of the
    wall clock. All work then runs on that thread, so the numbers ignore time spent
    descheduled: the way to measure the pair itself on a busy, shared machine.
    """
    threads = torch.get_num_threads()
    if cpu_clock:
        torch.set_num_threads(1)
    clock = time.thread_time if cpu_clock else time.perf_counter
    try:
        runs = [(forward_time(draft, 1, clock=clock), forward_time(target, 1, clock=clock),
                 forward_time(target, 5, clock=clock)) for _ in range(rounds)]
    finally:
        torch.set_num_threads(threads)
    d1, t1, t5 = (min(col) for col in zip(*runs, strict=True))
    return SpeedShape(d1, t1, t5)
