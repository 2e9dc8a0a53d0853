"""`guardian bench tolerance`: how far a (γ+1)-token verify forward's logits are from
one-token forwards of the same prefixes — the numerical noise a near tie must fit inside.

Speculative decoding scores position t inside a (γ+1)-token verify forward; target-only
decoding scores it in a one-token forward over the cache. Both are the same function of the
same prefix, so any difference is floating-point (different kernel shapes and reduction
orders). The evaluator calls a flipped argmax a `near_tie` only when both paths' logits
agree within `near_tie_tolerance` (guardian/verdicts.py), so the tolerance must sit just
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
them times `SAFETY_MARGIN`, rounded up to one significant digit (guardian/tolerance.py holds
the measured defaults).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    import torch

# The recommended tolerance is the measured maximum times this: the measurement sees a few
# thousand positions, production sees millions, and the tail of rounding noise grows slowly
# with the number of draws (and with context length); 10x covers that with room to spare
# while staying orders of magnitude below the top-2 margins real faults flip.
SAFETY_MARGIN = 10.0
BATCH_ROWS = 16  # rows per batch in (c): the serving default max_batch


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

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class _OneToken:
    """A continuation scored one token per forward — what every other scoring is compared
    with: `one` (T, V) row j predicts out[j]; its top-2 ids and the emitted tokens'
    log-probabilities, computed once."""

    prompt: list[int]
    out: list[int]
    one: torch.Tensor
    top: torch.Tensor
    emitted: torch.Tensor
    lp: torch.Tensor

    @classmethod
    def of(cls, prompt: list[int], out: list[int], one: torch.Tensor) -> _OneToken:
        import torch

        emitted = torch.tensor(out, device=one.device).unsqueeze(1)
        return cls(prompt, out, one, torch.topk(one, 2, dim=-1).indices, emitted,
                   torch.log_softmax(one, -1).gather(1, emitted))

    def diffs(self, got: torch.Tensor) -> tuple[float, float, float]:
        """Largest |Δ logit| (whole vocabulary, top-2) and |Δ log p| of the emitted tokens
        of `got` (same shape as `one`) against the one-token scores."""
        import torch

        diff = (got - self.one).abs()
        lp = torch.log_softmax(got, -1).gather(1, self.emitted)
        return (float(diff.max()), float(diff.gather(1, self.top).max()),
                float((lp - self.lp).abs().max()))


def _fold(acc: tuple[float, float, float], new: tuple[float, float, float]
          ) -> tuple[float, float, float]:
    return (max(acc[0], new[0]), max(acc[1], new[1]), max(acc[2], new[2]))


def round_up_1sig(x: float) -> float:
    """Round up to one significant digit: 3.2e-6 -> 4e-6 (0 stays 0)."""
    if x <= 0:
        return 0.0
    exp = math.floor(math.log10(x))
    return math.ceil(x / 10 ** exp) * 10 ** exp


def recommended(max_diff: float, floor: float = 1e-6) -> float:
    return round_up_1sig(max(max_diff * SAFETY_MARGIN, floor))


def measure(pair, prompts: list[str], *, gamma: int = 4, max_new_tokens: int = 48,
            progress: bool = False) -> ToleranceReport:
    """Run the measurement on a loaded engine.Pair (see the module docstring)."""
    import torch
    from rich.progress import Progress

    from engine import generate
    from engine.batch import Batch, DecodeRequest, forward
    from engine.kv import crop_to, new_cache
    from engine.sampling import SamplingParams

    verify_max = (0.0, 0.0, 0.0)  # |Δ logit| all, top-2, |Δ log p|
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
            n_prompt = len(prompt_ids)
            # (a) one token per forward: logits predicting ids[t+1] from ids[:t+1]
            cache = new_cache()
            forward(pair.target, tokens[:, :n_prompt - 1], cache, 0, batch, last_only=True)
            single = []
            for t in range(n_prompt - 1, len(ids) - 1):
                single.append(forward(pair.target, tokens[:, t:t + 1], cache, t, batch)[0, -1].float())
            ref = _OneToken.of(prompt_ids, out, torch.stack(single))
            # (b) (γ+1)-token verify chunks at every alignment
            for offset in range(gamma + 1):
                cache = new_cache()
                forward(pair.target, tokens[:, :n_prompt - 1], cache, 0, batch, last_only=True)
                start = n_prompt - 1
                rows: list[torch.Tensor] = []
                if offset:
                    chunk = tokens[:, start:start + offset]
                    rows.append(forward(pair.target, chunk, cache, start, batch)[0].float())
                    start += offset
                while start < len(ids) - 1:
                    chunk = tokens[:, start:min(start + gamma + 1, len(ids) - 1)]
                    logits = forward(pair.target, chunk, cache, start, batch)[0].float()
                    rows.append(logits)
                    start += chunk.shape[1]
                    crop_to(cache, start)  # what verification does after a fully kept step
                verify_max = _fold(verify_max, ref.diffs(torch.cat(rows)[:ref.one.shape[0]]))
            positions += ref.one.shape[0]
            scored.append(ref)
            bar.advance(task)
        batched = _batched_diffs(pair, scored, gamma)
    key = f"{str(pair.dtype).removeprefix('torch.')}/{pair.device.type}"
    return ToleranceReport(key, len(prompts), positions, gamma, *verify_max,
                           recommended(max(verify_max[0], verify_max[2], *batched)), *batched)


def _batched_diffs(pair, scored: list[_OneToken], gamma: int) -> tuple[float, float, float]:
    """(c): every continuation scored inside ragged batches of 2 and of BATCH_ROWS rows, fed
    one token per forward, in (γ+1)-token chunks and in widths that differ by row, and once
    more with rows that joined one by one behind leading holes of different sizes -> largest
    |Δ logit| (all, top-2) and |Δ log p| of the emitted token against the one-token-alone
    logits."""
    worst = (0.0, 0.0, 0.0)
    if not scored:
        return worst
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
    return worst


def _score_group(pair, group: list[_OneToken], width, stagger: bool) -> list:
    """Each continuation's logits (one per scored position), scored together in one ragged
    batch: row r feeds `width(r)` tokens per forward; `stagger`: rows join one at a time,
    each behind a leading hole of its own size."""
    import torch

    from engine.ragged import RaggedCache

    filler = pair.pad_token_id
    if stagger:
        cache = RaggedCache.empty_rows(pair.device, 0)
        firsts = []
        for r, g in enumerate(group):
            one = RaggedCache.empty_rows(pair.device, 1)
            lead = (37 * r) % 97
            if lead:
                one.forward(pair.target, [[filler] * lead], filler)
                one.drop(0, 0, lead)
            logits, _ = one.forward(pair.target, [g.prompt], filler)
            firsts.append(logits[0, len(g.prompt) - 1].float())
            cache.extend(one)
    else:
        cache = RaggedCache.empty_rows(pair.device, len(group))
        logits, _ = cache.forward(pair.target, [g.prompt for g in group], filler)
        firsts = [logits[r, len(g.prompt) - 1].float() for r, g in enumerate(group)]
    rows: list[list[torch.Tensor]] = [[f] for f in firsts]
    done = [0] * len(group)
    while any(d < len(g.out) - 1 for d, g in zip(done, group, strict=True)):
        feeds = [g.out[d:min(d + width(r), len(g.out) - 1)]
                 for r, (d, g) in enumerate(zip(done, group, strict=True))]
        logits, _ = cache.forward(pair.target, feeds, filler)
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
    json_path: Path | None = typer.Option(None, "--json", help="Also write the report as JSON."),
) -> None:
    """Measure verify-vs-one-token logit noise; recommend the near-tie tolerance."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from engine import load_pair
    from engine.demo_pair.corpus import heldout_prompts
    from guardian.benchmarks.engine_bench import pair_dirs

    draft, target = pair_dirs(draft, target)
    pair = load_pair(draft, target, device=device)
    report = measure(pair, heldout_prompts(prompts), gamma=gamma,
                     max_new_tokens=max_new_tokens, progress=True)
    for k, v in report.as_dict().items():
        typer.echo(f"{k:24} {v}")
    if json_path:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(report.as_dict(), indent=2) + "\n")
        typer.echo(f"wrote {json_path}")


__all__ = ["SAFETY_MARGIN", "ToleranceReport", "cli", "measure", "recommended"]
