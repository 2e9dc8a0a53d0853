"""`guardian bench clean`: the evaluator on clean traffic — false alarms of every verdict and
trigger over N requests of a correct engine.

Each request goes through the real serving core (`ServingCore.serve`, the local engine) and
the real shadow evaluator (`ShadowEvaluator.evaluate`, synchronously): greedy and sampled
(temperature, top-p, top-k), some with stop strings, some with penalties and logit_bias
(every `PENALTY_EVERY`-th), some with a response_format json_schema (every
`GRAMMAR_EVERY`-th: a grammar on both paths), half served speculatively with a
target-only shadow and half the other way round. Every audit event feeds a `RouteWindow`,
and after each request the registered triggers are evaluated on it, as the rollback
controller does. The report counts verdicts, correctness alarms (`divergence`,
`distribution_mismatch`, and per failed check), speed anomalies, near ties, the largest
logit disagreement the greedy comparisons measured (and TV the sampled ones did), and failing
evaluations per trigger (the drift triggers' statistics included) — on a correct engine every
alarm count should be 0.

The sampled checks' tolerances (`--distribution-tolerance`, `--drafter-tolerance`) default to
the fp32 ones; on bf16 (a GPU, or `--dtype bfloat16` on CPU) pass the ones `guardian bench
tolerance` measured there (`recommended_distribution_tolerance`,
`recommended_drafter_tolerance`), as `--near-tie-tolerance` takes `recommended_tolerance`.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import typer

from guardian.policy.tolerance import DEFAULT_DISTRIBUTION_TOLERANCE, DEFAULT_DRAFTER_TOLERANCE

STOPS = ["\n\n", ". ", "return", ":"]
PENALTY_EVERY, GRAMMAR_EVERY = 5, 7
PENALTIES = {"presence_penalty": 0.8, "frequency_penalty": 0.6, "repetition_penalty": 1.3,
             "logit_bias": ((11, 2.0),)}
RESPONSE_FORMAT = {"type": "json_schema", "json_schema": {"name": "row", "schema": {
    "type": "object", "additionalProperties": False, "required": ["name", "n"],
    "properties": {"name": {"type": "string", "maxLength": 12},
                   "n": {"type": "integer", "minimum": 0, "maximum": 999}}}}}


@dataclass
class CleanReport:
    requests: int = 0
    with_penalties: int = 0  # requests that carried penalties and logit_bias
    with_grammar: int = 0  # requests that carried a response_format (a grammar)
    verdicts: dict[str, int] = field(default_factory=dict)
    correctness_alarms: int = 0
    alarm_checks: dict[str, int] = field(default_factory=dict)  # alarms per failed check
    alarm_examples: list[dict[str, Any]] = field(default_factory=list)
    near_ties: int = 0
    speed_anomalies: dict[str, int] = field(default_factory=dict)
    max_logit_disagreement: float = 0.0
    max_logprob_disagreement: float = 0.0
    max_tv: float = 0.0  # the largest verifier-vs-re-score TV the sampled comparisons measured
    trigger_evaluations: int = 0
    trigger_failures: dict[str, int] = field(default_factory=dict)
    drift_min_p: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def plan(n: int, prompts: list[str], seed: int = 0) -> list[dict[str, Any]]:
    """n request specs: greedy/sampled alternating, top-p/top-k/stop strings mixed in."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        spec: dict[str, Any] = {"prompt": prompts[i % len(prompts)], "served_spec": i % 4 < 2}
        if i % 2:
            spec.update(temperature=rng.choice([0.7, 1.0]), top_p=rng.choice([1.0, 0.9]),
                        top_k=rng.choice([0, 40]), seed=rng.randrange(2**31))
        if i % 3 == 0:
            spec["stop"] = [rng.choice(STOPS)]
        if i % PENALTY_EVERY == PENALTY_EVERY - 1:
            spec["controls"] = dict(PENALTIES)
        if i % GRAMMAR_EVERY == GRAMMAR_EVERY - 1:
            spec["response_format"] = RESPONSE_FORMAT
        out.append(spec)
    return out


def _controls(spec: dict[str, Any]) -> dict[str, Any]:
    """A spec's sampling controls as the API builds them (guardian.api.surface)."""
    from guardian.api.surface import structure_of

    out = dict(spec.get("controls") or {})
    if "response_format" in spec:
        out["grammar"] = structure_of(spec["response_format"])
    return out


def run_clean(backend: Any, prompts: list[str], n: int, *, max_tokens: int = 48,
              proposer: str = "draft_model", progress: bool = False,
              policy_overrides: dict[str, Any] | None = None) -> CleanReport:
    from rich.progress import Progress

    from guardian.audit import MemorySink
    from guardian.audit.events import RequestEvent, ShadowEvent
    from guardian.equivalence.shadow import ShadowEvaluator, ShadowJob
    from guardian.governance.triggers import evaluate_triggers
    from guardian.governance.triggers.drift import evaluate_accepted_lengths, evaluate_tokens
    from guardian.governance.windows import RouteWindow
    from guardian.observability.telemetry import Telemetry
    from guardian.policy import Policy, RoutePolicy, ShadowPolicy
    from guardian.serving.core import GenerationRequest, ServingCore

    route_kw: dict[str, Any] = {"proposer": proposer, **(policy_overrides or {})}
    routes = {mode: RoutePolicy(mode=mode, shadow=ShadowPolicy(sample_rate=1.0,
                                                                max_new_tokens=max_tokens),
                                **route_kw) for mode in ("speculative", "target_only")}
    policy = Policy(routes=routes, default_route="speculative")
    sink, telemetry = MemorySink(), Telemetry("clean-bench")
    core = ServingCore(backend, policy, sink, telemetry)
    evaluator = ShadowEvaluator(core, sink, telemetry)
    window = RouteWindow("clean", reference_size=policy.routes["speculative"].triggers.drift.reference_size)
    triggers = policy.routes["speculative"].triggers
    report = CleanReport()
    verdicts: Counter = Counter()
    anomalies: Counter = Counter()
    failures: Counter = Counter()
    checks: Counter = Counter()
    seen = 0

    async def serve(req: GenerationRequest) -> Any:
        return await core.serve(req)

    with Progress(disable=not progress, transient=True) as bar:
        task = bar.add_task("clean requests", total=n)
        for spec in plan(n, prompts):
            route_name = "speculative" if spec["served_spec"] else "target_only"
            req = GenerationRequest(
                endpoint="completions", route=route_name, model=backend.model_name,
                prompt_text=spec["prompt"], prompt_ids=backend.encode(spec["prompt"]),
                max_tokens=max_tokens, temperature=spec.get("temperature", 0.0),
                top_p=spec.get("top_p", 1.0), top_k=spec.get("top_k", 0), seed=spec.get("seed"),
                stop=spec.get("stop"), controls=_controls(spec),
                passthrough=({"response_format": spec["response_format"]}
                             if "response_format" in spec else {}))
            served = asyncio.run(serve(req))
            route = policy.routes[route_name]
            event = evaluator.evaluate(ShadowJob(req, route, served.policy_hash, served.mode,
                                                 served=served), preemptible=False)
            report.requests += 1
            report.with_penalties += "controls" in spec
            report.with_grammar += "response_format" in spec
            verdicts[event.verdict] += 1
            stats = event.stats
            for name in stats.get("speed_anomalies", []):
                anomalies[name] += 1
            report.max_logit_disagreement = max(report.max_logit_disagreement,
                                                float(stats.get("logit_disagreement", 0.0)))
            report.max_logprob_disagreement = max(report.max_logprob_disagreement,
                                                  float(stats.get("logprob_disagreement", 0.0)))
            report.max_tv = max(report.max_tv, float(stats.get("max_tv", 0.0)))
            if event.verdict in ("divergence", "distribution_mismatch"):
                report.correctness_alarms += 1
                checks[str(stats.get("failed_check", "unnamed"))] += 1
                if len(report.alarm_examples) < 5:
                    report.alarm_examples.append({
                        "request": spec, "verdict": event.verdict,
                        "failed_check": stats.get("failed_check"),
                        "position": event.first_divergence_position})
            # feed the window as the rollback controller would (audit events)
            for ev in sink.events[seen:]:
                if isinstance(ev, RequestEvent):
                    window.observe_request(ev)
                elif isinstance(ev, ShadowEvent):
                    window.observe_shadow(ev)
            seen = len(sink.events)
            measured = evaluate_triggers(window, triggers)
            # the earlier drift rule on the same window, for comparison (issue 11)
            old_rule = triggers.drift.model_copy(update={"statistic": "js_psi"})
            for name, fn in (("drift_tokens_js_psi", evaluate_tokens),
                             ("drift_acceptance_js_psi", evaluate_accepted_lengths)):
                if fn(window, old_rule).outcome == "fail":
                    failures[name] += 1
            report.trigger_evaluations += 1
            for name, m in measured.items():
                if m.outcome == "fail":
                    failures[name] += 1
                if name.startswith("drift") and m.value is not None:
                    report.drift_min_p[name] = min(report.drift_min_p.get(name, 1.0), m.value)
            bar.advance(task)
    evaluator.shutdown(0.1)
    report.verdicts = dict(verdicts)
    report.alarm_checks = dict(checks)
    report.near_ties = verdicts.get("near_tie", 0)
    # The silent-speculation watch over the served requests, in order, as the rollback
    # controller feeds it: each episode it starts on this clean traffic is a false alarm.
    from guardian.governance.silent import SilentSpeculationWatch

    watch = SilentSpeculationWatch(lambda: policy)
    for e in list(sink.events):
        if isinstance(e, RequestEvent):
            before = bool(watch.status(e.route))
            watch.observe(e)
            if not before and watch.status(e.route):
                anomalies["speculation_silent"] += 1
    anomalies.setdefault("speculation_silent", 0)
    report.speed_anomalies = dict(anomalies)
    report.trigger_failures = {name: failures.get(name, 0) for name in sorted(
        set(failures) | {"divergence", "near_tie", "drift_tokens", "drift_acceptance"})}
    return report


def cli(
    requests: int = typer.Option(200, min=1, help="Clean requests to send."),
    max_tokens: int = typer.Option(48, min=1, help="max_tokens per request."),
    proposer: str = typer.Option("draft_model", help="draft_model or ngram."),
    json_path: Path | None = typer.Option(None, "--json", help="Also write the report as JSON."),
    draft: Path | None = typer.Option(None, help="Draft model dir (default: the demo pair)."),
    target: Path | None = typer.Option(None, help="Target model dir (default: the demo pair)."),
    near_tie_tolerance: float | None = typer.Option(
        None, min=0.0, help="The routes' near_tie_tolerance (default: the one measured for the "
        "engine's dtype/device in guardian/policy/tolerance.py, else the policy default)."),
    distribution_tolerance: float = typer.Option(
        DEFAULT_DISTRIBUTION_TOLERANCE, min=0.0, max=1.0,
        help="The routes' distribution_tolerance: the largest total variation between the "
        "verifier's and a re-scored target distribution (default: the fp32 one; on bf16 use "
        "`guardian bench tolerance`'s recommended_distribution_tolerance)."),
    drafter_tolerance: float = typer.Option(
        DEFAULT_DRAFTER_TOLERANCE, min=0.0, max=1.0,
        help="The routes' drafter_tolerance: the largest recorded-vs-re-scored draft |Δq| "
        "before `drafter_inconsistent` (default: the fp32 one; on bf16 use the bench's "
        "recommended_drafter_tolerance)."),
    device: str | None = typer.Option(None, help="cpu / cuda (default: the engine's choice)."),
    dtype: str | None = typer.Option(
        None, help="Model dtype: bfloat16, float16 or float32 (default: the engine's, bf16 on "
        "CUDA, fp32 on CPU; bfloat16 on CPU reproduces bf16 rounding noise without a GPU)."),
    half_logits: bool = typer.Option(
        False, "--half-logits", help="Keep the output projection in the model's half "
        "precision (the engine runs it in float32: engine/head.py), to compare."),
) -> None:
    """Run clean traffic through serving + shadow; count false alarms of every check."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from guardian.cli.options import device_option, dtype_option
    from guardian.core.enums import PROPOSER_KINDS

    if proposer not in PROPOSER_KINDS:
        raise typer.BadParameter(f"{proposer!r} is not one of {', '.join(PROPOSER_KINDS)}",
                                 param_hint="--proposer")
    for value, hint in ((distribution_tolerance, "--distribution-tolerance"),
                        (drafter_tolerance, "--drafter-tolerance")):
        if value <= 0.0:  # the route fields are > 0: a TV or |Δq| of 0 is not promised
            raise typer.BadParameter(f"must be > 0, got {value:g}", param_hint=hint)
    dtype, device = dtype_option(dtype), device_option(device)
    from engine.demo_pair.corpus import heldout_prompts
    from guardian.backends.local import LocalEngineBackend
    from guardian.devtools.benchmarks.engine_bench import pair_dirs
    from guardian.policy.tolerance import DEFAULT_NEAR_TIE_TOLERANCE, default_tolerance

    draft, target = pair_dirs(draft, target)
    backend = LocalEngineBackend.load(draft, target, device=device, dtype=dtype,
                                      fp32_logits=not half_logits)
    if near_tie_tolerance is None:
        near_tie_tolerance = default_tolerance(backend.dtype, backend.device.split(":")[0])
        if near_tie_tolerance is None:
            near_tie_tolerance = DEFAULT_NEAR_TIE_TOLERANCE
            typer.secho(f"warning: no tolerance measured for {backend.dtype}/{backend.device}; "
                        f"using the policy default {near_tie_tolerance:g} (run `guardian bench "
                        "tolerance` there)", fg=typer.colors.YELLOW, err=True)
    typer.echo(f"pair on {backend.device}/{backend.dtype}, near_tie_tolerance "
               f"{near_tie_tolerance:g}, distribution_tolerance {distribution_tolerance:g}, "
               f"drafter_tolerance {drafter_tolerance:g}")
    report = run_clean(backend, heldout_prompts(64), requests, max_tokens=max_tokens,
                       proposer=proposer, progress=True,
                       policy_overrides={"near_tie_tolerance": near_tie_tolerance,
                                         "distribution_tolerance": distribution_tolerance,
                                         "drafter_tolerance": drafter_tolerance})
    for k, v in report.as_dict().items():
        typer.echo(f"{k:26} {v}")
    if json_path:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(report.as_dict(), indent=2) + "\n")
        typer.echo(f"wrote {json_path}")


__all__ = ["CleanReport", "cli", "plan", "run_clean"]
