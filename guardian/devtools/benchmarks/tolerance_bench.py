"""`guardian bench tolerance`: how far a (γ+1)-token verify forward's logits are from
one-token forwards of the same prefixes — the numerical noise a near tie must fit inside.

Speculative decoding scores position t inside a (γ+1)-token verify forward; target-only
decoding scores it in a one-token forward over the cache. Both are the same function of the
same prefix, so any difference is floating-point (different kernel shapes and reduction
orders). The evaluator calls a flipped argmax a `near_tie` only when both paths' logits
agree within `near_tie_tolerance` (guardian/equivalence/verdicts/), so the tolerance must sit just
above this noise: far above it, real bugs hide as ties; below it, clean flips are called bugs.

Method, per prompt: target-only greedy decodes `max_new_tokens` tokens (a realistic
continuation); then the same prefixes are scored (a) one token per forward, as target-only
decoding does, and (b) in (γ+1)-token chunks over a cache cropped back after each chunk, as
verification does, at every chunk alignment (offset 0..γ), so each position is seen in every
slot of a verify forward. Both use the engine's own forward path (engine.batch.forward).
Then (c) the same continuations are scored again inside a batch, as continuous batching
serves them (engine.ragged.RaggedCache: batches of 2 and of `BATCH_ROWS` rows of different
lengths, padded and masked, fed one token per step, in (γ+1)-token chunks, and in widths
that differ by row as rows of different depths do): a request's
served and shadow runs share a batch with different neighbours, so this is noise a near tie
must fit inside too. On one CPU core (fp32) it is of the same order as (b); on a GPU in bf16 it
is the larger one: the one-row and many-row matrix products take different kernels (measured
on an H200: verify and one-token forwards of the tiny test models were bit-identical, while
the same rows in a batch moved log-probabilities by up to 0.03; on an H100 the uniform-width
batches of 3 rows this measured then saw none of it, while the engine's mixed batches did).

The report gives the largest absolute difference of raw logits (over the whole vocabulary and
over the top-2 only) and of the emitted token's log-probability, for the verify and the
batched comparisons, keyed by dtype/device, and the tolerance it recommends: the largest of
them times `SAFETY_MARGIN`, rounded up to one significant digit (guardian/policy/tolerance.py holds
the measured defaults).

The same noise moves the sampled checks, which compare distributions, not logits: the
evaluator's `verifier_distribution` check bounds the total variation (TV) between the target
distributions a speculative run sampled from and a teacher-forced re-score of the completion
(`route.distribution_tolerance`), and `drafter_inconsistent` (a speed anomaly) bounds |Δq|,
the gap between the draft probability a proposal recorded and a clean re-score
(`route.drafter_tolerance`). Both compare *processed* distributions (engine.sampling.
process_logits under the request's temperature, top-p and top-k; lower temperatures amplify
logit noise ~1/T, and a token at a top-p/top-k cut can move in or out), so each is measured
under every transform in `SAMPLINGS` (the ones `guardian bench clean` sends): the largest TV
between the processed distributions over the same position pairs (verify vs one-token:
`max_tv`; batched vs alone: `max_batched_tv`) and between the teacher-forced re-score the
check actually uses (engine.scoring.target_logits) and the one-token forwards
(`max_rescore_tv`); and the largest |Δq| over the vocabulary between the draft's own forwards
(one token, (γ+1)-token chunks, ragged batches) and its teacher-forced re-score
(engine.scoring.draft_logits: `max_draft_q_diff`). Each recommendation is the largest of
its measurements times `DISTRIBUTION_SAFETY_MARGIN` (3), rounded up to one significant
digit, floored at the fp32 default (guardian/policy/tolerance.py: 0.02 and 1e-3) and capped at 1.
In fp32 the TV stays far below its floor; |Δq| (a maximum over the vocabulary) can reach
~1e-3 even there, when a token of that mass sits at a top-p cut that rounding moves it
across. In bf16 (`--dtype bfloat16`, on CPU too) TV between two correct computations exceeds
0.02.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from guardian.policy.tolerance import DEFAULT_DISTRIBUTION_TOLERANCE, DEFAULT_DRAFTER_TOLERANCE

if TYPE_CHECKING:
    import torch

# The recommended tolerance is the measured maximum times this: the measurement sees a few
# thousand positions, production sees millions, and the tail of rounding noise grows slowly
# with the number of draws (and with context length); 10x covers that with room to spare
# while staying orders of magnitude below the top-2 margins real faults flip.
SAFETY_MARGIN = 10.0
# The sampled checks' margin is smaller: TV sums |Δp| over the whole vocabulary, so its tail
# over more draws is far thinner than one logit's, and the check must still catch faults of
# a few tenths of TV (a temperature not applied, a shifted position). 10x the bf16 noise made
# the demo pair's TV tolerance 0.8 (a check that passes nearly anything); 3x makes it 0.3,
# above every TV clean bf16 traffic showed (0.031 max over 48 requests).
DISTRIBUTION_SAFETY_MARGIN = 3.0
BATCH_ROWS = 16  # rows per batch in (c): the serving default max_batch
# (temperature, top_p, top_k) the distribution noise is measured under: the sampled requests
# `guardian bench clean` sends (guardian/devtools/benchmarks/clean_bench.py `plan`). A route serving
# colder temperatures should measure those (the noise grows ~1/T).
SAMPLINGS: tuple[tuple[float, float, int], ...] = tuple(
    (t, p, k) for t in (1.0, 0.7) for p in (1.0, 0.9) for k in (0, 40))


@dataclass
class ToleranceReport:
    key: str  # "<dtype>/<device>"
    prompts: int
    positions: int
    gamma: int
    max_logit_diff: float  # over every vocabulary entry
    max_top2_logit_diff: float  # over the target's top-2 entries (what a near tie compares)
    max_logprob_diff: float  # log-probability of the emitted token
    recommended_tolerance: float  # the largest difference * SAFETY_MARGIN, 1 sig. digit up
    # (c) the same positions scored inside a batch of other prompts' rows, vs one token alone
    max_batched_logit_diff: float = 0.0
    max_batched_top2_logit_diff: float = 0.0
    max_batched_logprob_diff: float = 0.0
    # Distribution noise (processed under every SAMPLINGS transform): total variation between
    # the verify and one-token forwards, the batched and alone ones, and the teacher-forced
    # re-score (what `verifier_distribution` compares with) and the one-token forwards.
    max_tv: float = 0.0
    max_batched_tv: float = 0.0
    max_rescore_tv: float = 0.0
    recommended_distribution_tolerance: float = DEFAULT_DISTRIBUTION_TOLERANCE
    # |Δq| over the vocabulary: the draft's own forwards vs its teacher-forced re-score
    # (what `drafter_inconsistent` compares).
    max_draft_q_diff: float = 0.0
    recommended_drafter_tolerance: float = DEFAULT_DRAFTER_TOLERANCE
    # The dtype the target's logits come out in: float32 where its output projection runs in
    # float32 (engine.head, the default), else the model's own.
    logits_dtype: str = ""

    def as_dict(self) -> dict:
        return asdict(self)


def _processed(logits: torch.Tensor) -> list[torch.Tensor]:
    """(T, V) raw logits -> their processed distributions under each SAMPLINGS transform."""
    from engine.sampling import SamplingParams, process_logits

    return [process_logits(logits, SamplingParams(temperature=t, top_p=p, top_k=k))
            for t, p, k in SAMPLINGS]


def _max_tv(a: list[torch.Tensor], b: list[torch.Tensor]) -> float:
    """Largest per-position total variation between two `_processed` lists."""
    return max(float(0.5 * (x - y).abs().sum(-1).max()) for x, y in zip(a, b, strict=True))


def _max_abs(a: list[torch.Tensor], b: list[torch.Tensor]) -> float:
    """Largest |Δ probability| of any token between two `_processed` lists."""
    return max(float((x - y).abs().max()) for x, y in zip(a, b, strict=True))


@dataclass
class _OneToken:
    """A continuation scored one token per forward — what every other scoring is compared
    with: `one` (T, V) row j predicts out[j]; its top-2 ids, the emitted tokens'
    log-probabilities and its processed distributions, computed once. `draft_q`: the
    draft's teacher-forced re-score, processed (what the draft's own forwards are compared
    with)."""

    prompt: list[int]
    out: list[int]
    one: torch.Tensor
    top: torch.Tensor
    emitted: torch.Tensor
    lp: torch.Tensor
    probs: list[torch.Tensor]
    draft_q: list[torch.Tensor]

    @classmethod
    def of(cls, prompt: list[int], out: list[int], one: torch.Tensor,
           draft_rescore: torch.Tensor) -> _OneToken:
        import torch

        emitted = torch.tensor(out, device=one.device).unsqueeze(1)
        return cls(prompt, out, one, torch.topk(one, 2, dim=-1).indices, emitted,
                   torch.log_softmax(one, -1).gather(1, emitted), _processed(one),
                   _processed(draft_rescore))

    def diffs(self, got: torch.Tensor) -> tuple[float, float, float, float]:
        """Largest |Δ logit| (whole vocabulary, top-2), |Δ log p| of the emitted tokens and
        total variation of the processed distributions of `got` (same shape as `one`)
        against the one-token scores."""
        import torch

        diff = (got - self.one).abs()
        lp = torch.log_softmax(got, -1).gather(1, self.emitted)
        return (float(diff.max()), float(diff.gather(1, self.top).max()),
                float((lp - self.lp).abs().max()), _max_tv(_processed(got), self.probs))

    def q_diff(self, got: torch.Tensor) -> float:
        """Largest |Δq| of any token between the draft logits `got` (T, V) and the draft's
        teacher-forced re-score, processed alike."""
        return _max_abs(_processed(got), self.draft_q)


def _nanmax(*xs: float) -> float:
    """max that keeps a NaN (Python's max drops or keeps one by argument order)."""
    return math.nan if any(math.isnan(x) for x in xs) else max(xs)


def _fold(acc: tuple[float, ...], new: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(_nanmax(a, b) for a, b in zip(acc, new, strict=True))


class NonFiniteNoise(ValueError):
    """A forward gave NaN or infinite logits: no tolerance can be measured from it."""


def round_up_1sig(x: float) -> float:
    """Round up to one significant digit: 3.2e-6 -> 4e-6, 0.158 -> 0.2 (0 stays 0)."""
    if x <= 0:
        return 0.0
    exp = math.floor(math.log10(x))
    return float(f"{math.ceil(x / 10 ** exp)}e{exp}")  # via text: 0.3, not 0.30000000000000004


def recommended(max_diff: float, floor: float = 1e-6, cap: float = math.inf,
                margin: float = SAFETY_MARGIN) -> float:
    """`max_diff` * `margin` rounded up to one significant digit, at least `floor` (a
    tolerance is never tighter than the fp32 one) and at most `cap`."""
    return min(max(round_up_1sig(max_diff * margin), floor), cap)


def measure(pair, prompts: list[str], *, gamma: int = 4, max_new_tokens: int = 48,
            progress: bool = False) -> ToleranceReport:
    """Run the measurement on a loaded engine.Pair (see the module docstring)."""
    import torch
    from rich.progress import Progress

    from engine import generate
    from engine.batch import Batch, DecodeRequest
    from engine.sampling import SamplingParams
    from engine.scoring import draft_logits, target_logits

    verify_max: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0)  # |Δ logit| all, top-2, |Δ log p|, TV
    rescore_tv = draft_q = 0.0
    positions = 0
    scored: list[_OneToken] = []
    with torch.inference_mode(), Progress(disable=not progress, transient=True) as bar:
        task = bar.add_task("verify vs one-token forwards", total=len(prompts))
        for prompt in prompts:
            res = generate(pair, prompt, speculative=False, max_new_tokens=max_new_tokens)
            prompt_ids, out = list(res.prompt_token_ids), list(res.token_ids)
            if len(prompt_ids) < 2 or not out:
                bar.advance(task)
                continue
            ids = prompt_ids + out
            req = DecodeRequest([prompt_ids], SamplingParams(), max_new_tokens, [])
            batch = Batch(pair, req, extra_columns=max_new_tokens + gamma + 2)
            tokens = torch.tensor([ids], device=pair.device)
            n = len(out)
            # (a) one token per forward: logits predicting ids[t+1] from ids[:t+1]
            ref = _OneToken.of(prompt_ids, out,
                               _chunked(pair.target, tokens, len(prompt_ids), 1, 0, batch),
                               draft_logits(pair, prompt_ids, out))
            # (b) (γ+1)-token verify chunks at every alignment
            for offset in range(gamma + 1):
                got = _chunked(pair.target, tokens, len(prompt_ids), gamma + 1, offset, batch)
                verify_max = _fold(verify_max, ref.diffs(got[:n]))
            # the teacher-forced re-score the sampled checks compare with
            rescore_tv = _nanmax(rescore_tv, _max_tv(_processed(target_logits(pair, prompt_ids, out)),
                                                 ref.probs))
            # the draft: one token per forward (drafting), (γ+1)-token chunks (catching up
            # after a verify step) vs its teacher-forced re-score (drafter_inconsistent)
            for width, offset in [(1, 0)] + [(gamma + 1, o) for o in range(gamma + 1)]:
                got = _chunked(pair.draft, tokens, len(prompt_ids), width, offset, batch)
                draft_q = _nanmax(draft_q, ref.q_diff(got[:n]))
            positions += n
            scored.append(ref)
            bar.advance(task)
        batched, batched_q = _batched_diffs(pair, scored, gamma)
    key = f"{str(pair.dtype).removeprefix('torch.')}/{pair.device.type}"
    logit_max, batched_logit = verify_max[:3], batched[:3]
    tv, batched_tv = verify_max[3], batched[3]
    draft_q = _nanmax(draft_q, batched_q)
    measured = {"verify": verify_max, "batched": batched,
                "re-score / draft": (rescore_tv, draft_q)}
    bad = [stage for stage, values in measured.items()
           if not all(math.isfinite(v) for v in values)]
    if bad:
        raise NonFiniteNoise(
            f"{key}: NaN or infinite logit differences in the {', '.join(bad)} forwards — "
            "the pair overflows in this dtype (float16?); no tolerance can be measured from it")
    return ToleranceReport(
        key, len(prompts), positions, gamma, *logit_max,
        recommended(max(logit_max[0], logit_max[2], *batched_logit)), *batched_logit,
        max_tv=tv, max_batched_tv=batched_tv, max_rescore_tv=rescore_tv,
        recommended_distribution_tolerance=recommended(
            max(tv, batched_tv, rescore_tv), DEFAULT_DISTRIBUTION_TOLERANCE, 1.0,
            DISTRIBUTION_SAFETY_MARGIN),
        max_draft_q_diff=draft_q,
        recommended_drafter_tolerance=recommended(draft_q, DEFAULT_DRAFTER_TOLERANCE, 1.0,
                                                  DISTRIBUTION_SAFETY_MARGIN),
        logits_dtype=_logits_dtype(pair))


def _logits_dtype(pair) -> str:  # type: ignore[no-untyped-def]
    from engine.head import logits_dtype

    return str(logits_dtype(pair.target)).removeprefix("torch.")


def _chunked(model, tokens: torch.Tensor, n_prompt: int, width: int, offset: int,
             batch) -> torch.Tensor:
    """`model`'s logits (float32, one row per position from the last prompt token on) over a
    cache: the prompt less its last token prefilled, then `offset` tokens (if any), then
    `width`-token forwards, the cache cropped back after each as verification does after a
    fully kept step. width 1: one token per forward, as target-only decoding and drafting."""
    import torch

    from engine.batch import forward
    from engine.kv import crop_to, new_cache

    cache = new_cache()
    forward(model, tokens[:, :n_prompt - 1], cache, 0, batch, last_only=True)
    start, end = n_prompt - 1, tokens.shape[1] - 1
    rows: list[torch.Tensor] = []
    if offset:
        rows.append(forward(model, tokens[:, start:start + offset], cache, start, batch)[0].float())
        start += offset
    while start < end:
        chunk = tokens[:, start:min(start + width, end)]
        rows.append(forward(model, chunk, cache, start, batch)[0].float())
        start += chunk.shape[1]
        crop_to(cache, start)
    return torch.cat(rows)


def _batched_diffs(pair, scored: list[_OneToken], gamma: int
                   ) -> tuple[tuple[float, ...], float]:
    """(c): every continuation scored inside ragged batches of 2 and of BATCH_ROWS rows, fed
    one token per forward, in (γ+1)-token chunks and in widths that differ by row, and once
    more with rows that joined one by one behind leading holes of different sizes -> largest
    |Δ logit| (all, top-2), |Δ log p| of the emitted token and TV against the
    one-token-alone logits; and the draft, in the mixed-width batches (plain and
    staggered) -> largest |Δq| against its teacher-forced re-score."""
    worst: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0)
    worst_q = 0.0
    if not scored:
        return worst, worst_q
    # Width per row: all one token, all γ+1, and mixed (row r feeds 1 + r mod (γ+1) tokens
    # per forward, padded to the widest, as rows of different depths are in the engine: each
    # width is its own matrix-product and attention shape, so its own bf16 rounding). Rows
    # per batch: two and BATCH_ROWS (continuations repeated to fill it when there are
    # fewer): the products' row count picks their kernels too. Last, staggered: each row
    # joins alone behind a leading hole (as rows joining a running batch are left-padded, and
    # compaction moves them), so its columns sit at another offset of the attention kernel's
    # key blocks, and the online softmax rescales at other places. Measured on an H100, the
    # uniform widths in batches of 3 saw no noise at all where the engine's batches had 0.03.
    mixed = lambda r: 1 + r % (gamma + 1)  # noqa: E731
    passes = [(lambda r: 1, False), (lambda r: gamma + 1, False), (mixed, False), (mixed, True)]
    for width, stagger in passes:
        for size, i in [(s, i) for s in (2, BATCH_ROWS) for i in range(0, len(scored), s)]:
            group = [scored[(i + j) % len(scored)] for j in range(size)]
            for g, logits in zip(group, _score_group(pair, group, width, stagger), strict=True):
                worst = _fold(worst, g.diffs(logits))
            if width is mixed:  # the draft runs in the engine's batches too
                got = _score_group(pair, group, width, stagger, model=pair.draft)
                worst_q = _nanmax(worst_q, *(g.q_diff(q) for g, q in zip(group, got, strict=True)))
    return worst, worst_q


def _score_group(pair, group: list[_OneToken], width, stagger: bool, model=None) -> list:
    """Each continuation's logits (one per scored position), scored together in one ragged
    batch: row r feeds `width(r)` tokens per forward; `stagger`: rows join one at a time,
    each behind a leading hole of its own size. `model`: the pair's target (default) or
    draft."""
    import torch

    from engine.ragged import RaggedCache

    model = pair.target if model is None else model
    filler = pair.pad_token_id
    if stagger:
        cache = RaggedCache.empty_rows(pair.device, 0)
        firsts = []
        for r, g in enumerate(group):
            one = RaggedCache.empty_rows(pair.device, 1)
            lead = (37 * r) % 97
            if lead:
                one.forward(model, [[filler] * lead], filler)
                one.drop(0, 0, lead)
            logits, _ = one.forward(model, [g.prompt], filler)
            firsts.append(logits[0, len(g.prompt) - 1].float())
            cache.extend(one)
    else:
        cache = RaggedCache.empty_rows(pair.device, len(group))
        logits, _ = cache.forward(model, [g.prompt for g in group], filler)
        firsts = [logits[r, len(g.prompt) - 1].float() for r, g in enumerate(group)]
    rows: list[list[torch.Tensor]] = [[f] for f in firsts]
    done = [0] * len(group)
    while any(d < len(g.out) - 1 for d, g in zip(done, group, strict=True)):
        feeds = [g.out[d:min(d + width(r), len(g.out) - 1)]
                 for r, (d, g) in enumerate(zip(done, group, strict=True))]
        logits, _ = cache.forward(model, feeds, filler)
        for r, feed in enumerate(feeds):
            rows[r].extend(logits[r, j].float() for j in range(len(feed)))
            done[r] += len(feed)
        if stagger:
            cache.trim()  # as the engine does after every step (it compacts when holes grow)
    return [torch.stack(r) for r in rows]


def cli(
    draft: Path | None = typer.Option(None, help="Draft model dir (default: the demo pair)."),
    target: Path | None = typer.Option(None, help="Target model dir (default: the demo pair)."),
    prompts: int = typer.Option(64, min=1, help="Held-out prompts to measure over."),
    max_new_tokens: int = typer.Option(48, min=1, help="Continuation length per prompt."),
    gamma: int = typer.Option(4, min=1, max=16, help="Verify forward width is γ+1."),
    device: str | None = typer.Option(None, help="cpu / cuda (default: the engine's choice)."),
    dtype: str | None = typer.Option(
        None, help="Model dtype: bfloat16, float16 or float32 (default: the engine's, bf16 on "
        "CUDA, fp32 on CPU; bfloat16 on CPU reproduces bf16 rounding noise without a GPU)."),
    half_logits: bool = typer.Option(
        False, "--half-logits", help="Keep the output projection in the model's half "
        "precision (the engine runs it in float32: engine/head.py), to measure what that "
        "saves."),
    json_path: Path | None = typer.Option(None, "--json", help="Also write the report as JSON."),
) -> None:
    """Measure verify-vs-one-token logit and distribution noise; recommend the near-tie,
    distribution and drafter tolerances."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from engine import load_pair
    from engine.demo_pair.corpus import heldout_prompts
    from guardian.cli.options import device_option, dtype_option
    from guardian.devtools.benchmarks.engine_bench import pair_dirs

    dtype, device = dtype_option(dtype), device_option(device)
    draft, target = pair_dirs(draft, target)
    pair = load_pair(draft, target, device=device, dtype=dtype, fp32_logits=not half_logits)
    try:
        report = measure(pair, heldout_prompts(prompts), gamma=gamma,
                         max_new_tokens=max_new_tokens, progress=True)
    except NonFiniteNoise as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    for k, v in report.as_dict().items():
        typer.echo(f"{k:34} {v}")
    if json_path:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(report.as_dict(), indent=2) + "\n")
        typer.echo(f"wrote {json_path}")


__all__ = ["DISTRIBUTION_SAFETY_MARGIN", "SAFETY_MARGIN", "SAMPLINGS", "NonFiniteNoise",
           "ToleranceReport", "cli", "measure", "recommended"]
