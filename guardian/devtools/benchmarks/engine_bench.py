"""`guardian bench engine`: speculative vs target-only vs transformers' assisted generation.

Proposers (`--proposer`): the pair's draft model, or n-gram prompt lookup (no draft model;
transformers' counterpart is `prompt_lookup_num_tokens`). Workloads (`--workload`): the demo
pair's held-out code-completion prompts, or a repetitive code-editing workload whose prompts
contain the function being rewritten (engine.demo_pair.corpus.code_edit_prompts), where
prompt lookup shines.

All methods run in one process, on the same prompts, interleaved prompt by prompt (so a
noisy neighbour slows every method alike), after a warm-up. The output is a set of ratios
measured side by side, never an absolute timing to compare across runs.

Reported (JSON and a table): tokens/s of each method, speedup vs target-only and vs assisted
generation, α, the acceptance rate, mean acceptance length, the measured draft/target cost
ratio c, the speedup predicted by (1 − α^(γ+1)) / ((1 − α)(γc + 1)), efficiency = measured /
predicted, and the greedy exact-match rate of speculative (and assisted) output against
target-only.

Counters and their ratios come from engine.metrics (DESIGN.md vocabulary): α = accepted /
draft positions judged (up to and including the first rejection), the per-token acceptance
probability the formula is stated in; acceptance_rate = accepted / proposed (vLLM's); mean
acceptance length = 1 + accepted / steps. Prompt lookup runs no draft forward: its c is the
lookup's time per proposed position over a target forward (≈ 0), and rows with no match
propose nothing, so the formula (γ proposals every step) is an upper bound for it.

Kernels (`--kernels`, engine/packed.py): with `auto` (the default) the pair's CPU linears
multiply forwards of >= 2 rows by oneDNN-packed weights where that measures faster. The
transformers methods run as shipped (plain `F.linear`); when the pair is packed, transformers'
assisted generation / prompt lookup also runs on the packed weights
(`speedup_vs_assisted_same_kernels`): the comparison of the two loops alone.

The headline speedup and efficiency are end to end (prompt prefill included), as a user sees
them. Two diagnostics sit beside them: the same efficiency with the measured cost of a γ+1-token
verify forward in the formula (what is hardware, what is implementation), and the decode-phase
speedup and efficiency — wall time minus the prompt prefill forwards — the phase the formula
models and speculation changes.
"""

from __future__ import annotations

import json
import logging
import os
import platform
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer

logger = logging.getLogger(__name__)


@dataclass
class MethodTotals:
    """Wall time and tokens summed over prompts for one decoding method."""

    name: str
    seconds: float = 0.0
    tokens: int = 0
    outputs: list[list[int]] = field(default_factory=list)
    # Decode phase only: wall time minus the prompt prefill forward(s), and the tokens those
    # decoding steps emitted (target-only's prefill forward emits the first token itself).
    decode_seconds: float = 0.0
    decode_tokens: int = 0

    @property
    def tokens_per_s(self) -> float:
        return self.tokens / self.seconds if self.seconds else 0.0

    @property
    def decode_tokens_per_s(self) -> float:
        return self.decode_tokens / self.decode_seconds if self.decode_seconds else 0.0


def _timed(fn: Any) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


WORKLOADS = ("heldout", "code-edit")


def run_engine_bench(
    draft_dir: Path,
    target_dir: Path,
    *,
    prompts: list[str],
    max_new_tokens: int,
    gamma: int,
    threads: int | None,
    weight_layout: str = "column",
    kernels: str = "auto",
    proposer: str = "draft_model",
    workload: str = "heldout",
    progress: bool = True,
    pair_name: str = "dirs",
) -> dict[str, Any]:
    """Run the side-by-side benchmark and return the JSON-ready report."""
    import torch
    from rich.progress import Progress

    from engine import SpecCounters, generate, load_pair
    from engine.metrics import expected_speedup
    from engine.packed import plain_linears

    if threads:
        torch.set_num_threads(threads)
    pair = load_pair(draft_dir, target_dir, weight_layout=weight_layout, kernels=kernels)
    same_kernels = pair.kernels == "packed"  # then transformers runs twice: plain and packed
    tok = pair.tokenizer
    eos = sorted(pair.eos_token_ids)
    pad = tok.pad_token_id if tok.pad_token_id is not None else eos[0]
    lookup_max = 4  # engine.generate's prompt_lookup_max default, and transformers' match size

    def ours(prompt: str, speculative: bool) -> Any:
        return generate(pair, prompt, speculative=speculative, max_new_tokens=max_new_tokens,
                        temperature=0.0, gamma=gamma, gamma_strategy="constant",
                        proposer=proposer, prompt_lookup_max=lookup_max)

    def hf(prompt: str, assisted: bool, ours_kernels: bool = False) -> list[int]:
        if not ours_kernels:  # transformers as shipped: F.linear for every forward
            with plain_linears(pair.draft, pair.target):
                return hf(prompt, assisted, ours_kernels=True)
        enc = tok(prompt, return_tensors="pt").to(pair.device)
        extra: dict[str, Any] = {}
        if assisted and proposer == "ngram":
            # transformers' prompt lookup, same γ and longest n-gram as ours.
            extra = dict(prompt_lookup_num_tokens=gamma, max_matching_ngram_size=lookup_max)
        elif assisted:
            # Same pair and the same constant γ as ours, so the comparison is of implementations.
            extra = dict(assistant_model=pair.draft, num_assistant_tokens=gamma,
                         num_assistant_tokens_schedule="constant")
        with torch.inference_mode():
            out = pair.target.generate(**enc, do_sample=False, max_new_tokens=max_new_tokens,
                                       eos_token_id=eos, pad_token_id=pad, **extra)
        return out[0, enc["input_ids"].shape[1]:].tolist()

    # Warm-up: first calls pay one-off allocation and dispatch costs.
    ours(prompts[0], False)
    ours(prompts[0], True)
    hf(prompts[0], True)
    hf(prompts[0], False)
    if same_kernels:
        hf(prompts[0], True, ours_kernels=True)

    target_only = MethodTotals("target_only")
    speculative = MethodTotals("speculative")
    assisted = MethodTotals("hf_assisted")
    hf_greedy = MethodTotals("hf_target_only")
    # transformers' assisted generation on this engine's packed kernels (engine.packed):
    # what of the gap over stock transformers is the kernels, what the implementation.
    assisted_packed = MethodTotals("hf_assisted_packed_kernels")
    counters = []
    draft_time = draft_forwards = 0.0
    target_time = target_forwards = 0.0
    spec_verify_time = spec_target_forwards = 0.0
    with Progress(disable=not progress, transient=True) as bar:
        task = bar.add_task("bench engine", total=len(prompts))
        for prompt in prompts:
            res_t, dt = _timed(lambda p=prompt: ours(p, False))
            target_only.seconds += dt
            target_only.tokens += len(res_t.token_ids)
            target_only.outputs.append(res_t.token_ids)
            target_only.decode_seconds += dt - res_t.stats.prefill_time_s
            target_only.decode_tokens += max(0, len(res_t.token_ids) - 1)
            # Per-forward target cost: 1-token decode forwards plus one prefill per prompt
            # (1 of ~max_new_tokens forwards, so it barely moves the mean).
            target_time += res_t.stats.verify_time_s
            target_forwards += res_t.stats.target_forwards

            res_s, dt = _timed(lambda p=prompt: ours(p, True))
            speculative.seconds += dt
            speculative.tokens += len(res_s.token_ids)
            speculative.outputs.append(res_s.token_ids)
            speculative.decode_seconds += dt - res_s.stats.prefill_time_s
            speculative.decode_tokens += len(res_s.token_ids)
            st = res_s.stats
            counters.append(st.counters)
            draft_time += st.draft_time_s
            draft_forwards += st.draft_forwards
            spec_verify_time += st.verify_time_s
            spec_target_forwards += st.target_forwards

            ids, dt = _timed(lambda p=prompt: hf(p, True))
            assisted.seconds += dt
            assisted.tokens += len(ids)
            assisted.outputs.append(ids)

            ids, dt = _timed(lambda p=prompt: hf(p, False))
            hf_greedy.seconds += dt
            hf_greedy.tokens += len(ids)
            hf_greedy.outputs.append(ids)

            if same_kernels:
                ids, dt = _timed(lambda p=prompt: hf(p, True, ours_kernels=True))
                assisted_packed.seconds += dt
                assisted_packed.tokens += len(ids)
                assisted_packed.outputs.append(ids)
            bar.advance(task)

    spec = SpecCounters.total(counters)
    alpha = spec.alpha
    target_forward_s = target_time / target_forwards
    # Cost of proposing one token: a draft forward, or (prompt lookup, no forwards) the
    # lookup's time per proposed position.
    per_proposal = draft_forwards or spec.proposed
    c = (draft_time / per_proposal) / target_forward_s if per_proposal else 0.0
    # The formula assumes a verify forward over γ+1 tokens costs one 1-token target
    # forward. It is the headline. On a CPU the γ+1-row matmuls cost more than 1-row ones, so
    # the same formula with the *measured* verify cost is reported beside it as a diagnostic:
    # the gap between the two efficiencies is the hardware, the rest is the implementation.
    verify_cost = (spec_verify_time / spec_target_forwards) / target_forward_s
    predicted = expected_speedup(alpha, gamma, c)
    predicted_measured_verify = expected_speedup(alpha, gamma, c, verify_cost=verify_cost)
    speedup = speculative.tokens_per_s / target_only.tokens_per_s
    decode_speedup = speculative.decode_tokens_per_s / target_only.decode_tokens_per_s
    n = len(prompts)

    def match_rate(m: MethodTotals) -> float:
        return sum(a == b for a, b in zip(m.outputs, target_only.outputs, strict=True)) / n

    report = {
        "machine": {"platform": platform.platform(), "processor": platform.processor(),
                    "device": str(pair.device), "dtype": str(pair.dtype),
                    "torch_threads": torch.get_num_threads(), "torch": torch.__version__},
        "pair": {"pair_hash": pair.identity.pair_hash, "draft": str(draft_dir),
                 "target": str(target_dir)},
        "config": {"pair": pair_name, "prompts": n, "max_new_tokens": max_new_tokens, "gamma": gamma,
                   "gamma_strategy": "constant", "temperature": 0.0,
                   "weight_layout": weight_layout, "kernels": pair.kernels,
                   "kernels_ms": (pair.kernels_choice or {}).get("kernels_ms"),
                   "proposer": proposer, "workload": workload,
                   "prompt_lookup_max": lookup_max if proposer == "ngram" else None},
        "tokens_per_s": {m.name: round(m.tokens_per_s, 2)
                         for m in (target_only, speculative, assisted, hf_greedy,
                                   *([assisted_packed] if same_kernels else []))},
        "speedup_vs_target_only": round(speedup, 3),
        "speedup_vs_assisted": round(speculative.tokens_per_s / assisted.tokens_per_s, 3),
        "speedup_vs_assisted_same_kernels": (
            round(speculative.tokens_per_s / assisted_packed.tokens_per_s, 3)
            if same_kernels else None),
        "hf_target_only_vs_ours": round(hf_greedy.tokens_per_s / target_only.tokens_per_s, 3),
        "counters": spec.as_dict(),  # summed over prompts, with their unrounded ratios
        "alpha": round(alpha, 4),
        "acceptance_rate": round(spec.acceptance_rate, 4),
        "mean_acceptance_length": round(spec.mean_acceptance_length, 3),
        "cost_ratio_c": round(c, 4),
        "predicted_speedup": round(predicted, 3),
        "efficiency": round(speedup / predicted, 3) if predicted else 0.0,
        "verify_cost_ratio": round(verify_cost, 3),
        "predicted_speedup_measured_verify": round(predicted_measured_verify, 3),
        "efficiency_measured_verify": round(speedup / predicted_measured_verify, 3),
        "decode_tokens_per_s": {m.name: round(m.decode_tokens_per_s, 2)
                                for m in (target_only, speculative)},
        "decode_speedup_vs_target_only": round(decode_speedup, 3),
        "efficiency_decode": round(decode_speedup / predicted, 3) if predicted else 0.0,
        "exact_match_rate": round(match_rate(speculative), 4),
        "assisted_exact_match_rate": round(match_rate(assisted), 4),
    }
    return report


def _print_table(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    cfg = report["config"]
    table = Table(title=f"guardian bench engine — {cfg['proposer']}, γ={cfg['gamma']}, "
                        f"{cfg['prompts']} {cfg['workload']} prompts × "
                        f"{cfg['max_new_tokens']} tokens, {report['machine']['device']}, "
                        f"{cfg['weight_layout']}-major weights, {cfg['kernels']} kernels")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for name, tps in report["tokens_per_s"].items():
        table.add_row(f"tokens/s {name}", f"{tps:.1f}")
    for key in ("speedup_vs_target_only", "speedup_vs_assisted",
                "speedup_vs_assisted_same_kernels", "hf_target_only_vs_ours",
                "alpha", "acceptance_rate", "mean_acceptance_length", "cost_ratio_c",
                "predicted_speedup", "efficiency", "verify_cost_ratio",
                "predicted_speedup_measured_verify", "efficiency_measured_verify",
                "decode_speedup_vs_target_only", "efficiency_decode",
                "exact_match_rate",
                "assisted_exact_match_rate"):
        table.add_row(key, str(report[key]))
    Console().print(table)


PAIRS = ("demo", "smollm2")


def pair_dirs(draft: Path | None, target: Path | None, pair: str = "demo") -> tuple[Path, Path]:
    """--draft/--target as given (both or neither), else the named pair: the demo pair or a
    recipe's (engine.recipes), built on first use under the settings' home."""
    from guardian.backends.local import demo_home, demo_pair_dirs, ensure_private_recipe_pair
    from guardian.settings import get_settings

    if (draft is None) != (target is None):
        raise typer.BadParameter("give both --draft and --target, or neither (--pair)")
    if draft is None or target is None:
        if pair == "demo":
            draft, target = demo_pair_dirs(get_settings())
        else:
            paths = ensure_private_recipe_pair(pair, demo_home(get_settings()))
            draft, target = Path(paths.draft_dir), Path(paths.target_dir)
    for p in (draft, target):
        if not p.is_dir():
            typer.echo(f"error: model directory not found: {p}", err=True)
            raise typer.Exit(code=2)
    return draft, target


def cli(
    json_path: Path | None = typer.Option(None, "--json", help="Also write the report as JSON."),
    draft: Path | None = typer.Option(None, help="Draft model dir (default: the demo pair)."),
    target: Path | None = typer.Option(None, help="Target model dir (default: the demo pair)."),
    prompts: int = typer.Option(16, min=1, help="Prompts of the workload to decode."),
    max_new_tokens: int = typer.Option(128, min=1, help="Tokens generated per prompt."),
    gamma: int = typer.Option(4, min=1, max=16, help="Constant speculation depth γ."),
    threads: int = typer.Option(
        1, min=1, help="torch threads for every method. Default 1: at demo-pair size a second "
        "thread costs more in synchronisation than it saves (measured: target forward 2.9 ms "
        "with 1 thread, 3.4 ms with 2)."),
    weight_layout: str = typer.Option(
        "column", help="CPU Linear weight layout: 'column' (the engine's default, see "
        "engine/layout.py) or 'row' (as transformers loads it), to measure what it changes."),
    kernels: str = typer.Option(
        "auto", help="CPU linears of >= 2 rows (verify, prefill): 'packed' (oneDNN weights "
        "packed at load, engine/packed.py), 'plain' (transformers' F.linear) or 'auto' (packed "
        "where a verify-shaped forward measures faster). transformers' own runs use plain "
        "kernels, as shipped; with packed ones its assisted generation also runs on ours."),
    proposer: str = typer.Option(
        "draft_model", help="What proposes the speculative tokens: 'draft_model' (the pair's "
        "draft) or 'ngram' (prompt lookup, no draft model; compared with transformers' "
        "prompt_lookup_num_tokens)."),
    workload: str = typer.Option(
        "heldout", help="'heldout': the pair's held-out prompts (demo: code completion; "
        "smollm2: chat prompts through the chat template and code completion, alternating, "
        "none distilled on); 'code-edit': prompts that contain the function being rewritten "
        "(output copies input)."),
    pair: str = typer.Option(
        "demo", "--pair", help="Which pair when --draft/--target are not given: 'demo' or a "
        "recipe's real pair ('smollm2': `guardian pair build --recipe smollm2`, built on first "
        "use)."),
) -> None:
    """Benchmark speculative vs target-only vs transformers assisted generation (one process)."""
    # Before torch loads: idle OpenMP workers sleep instead of spinning, so a busy neighbour
    # on a small shared CPU does not turn one method's run into a stall.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from engine.layout import WEIGHT_LAYOUTS
    from engine.packed import KERNELS
    from guardian.core.enums import PROPOSER_KINDS

    # Checked before a first-run demo-pair build, which takes minutes.
    for value, choices, hint in ((weight_layout, WEIGHT_LAYOUTS, "--weight-layout"),
                                 (kernels, (*KERNELS, "auto"), "--kernels"),
                                 (proposer, PROPOSER_KINDS, "--proposer"),
                                 (workload, WORKLOADS, "--workload"),
                                 (pair, PAIRS, "--pair")):
        if value not in choices:
            raise typer.BadParameter(f"{value!r} is not one of {', '.join(choices)}",
                                     param_hint=hint)
    pair_name = pair if draft is None else "dirs"
    draft, target = pair_dirs(draft, target, pair)
    report = run_engine_bench(draft, target, prompts=_workload(workload, prompts, target, pair),
                              max_new_tokens=max_new_tokens, gamma=gamma, threads=threads,
                              weight_layout=weight_layout, kernels=kernels, proposer=proposer,
                              workload=workload, pair_name=pair_name)
    _print_table(report)
    if json_path:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(report, indent=2) + "\n")
        typer.echo(f"wrote {json_path}")


def _workload(name: str, n: int, target: Path, pair: str = "demo") -> list[str]:
    """The workload's first `n` prompts, sized with the pair's own tokenizer where it matters
    (code-edit prompts hold a whole function, so a character estimate could overflow a small
    context window)."""
    from engine.demo_pair.corpus import code_edit_prompts, heldout_prompts

    if name == "heldout" and pair == "demo":
        return heldout_prompts(n)
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(target)
    try:
        if name == "heldout":
            from engine.recipes import recipe

            return recipe(pair).heldout_prompts(tok, n)
        return code_edit_prompts(n, count_tokens=lambda s: len(tok(s)["input_ids"]))
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--prompts") from exc


__all__ = ["PAIRS", "WORKLOADS", "MethodTotals", "cli", "pair_dirs", "run_engine_bench"]
