"""Promotion gate: a golden prompt set run speculatively and judged by the shadow evaluator.

Every golden prompt (`guardian.governance.golden`) is served speculatively through a
`ServingCore` (the serving path of `guardian serve`) and judged by a synchronous
`ShadowEvaluator`: the same re-run on the target-only path and the same checks as shadowed
live traffic (greedy equivalence with proven near ties, stopping, per-token sampled checks,
acceptance against the recorded q — whatever guardian.equivalence.shadow /
guardian.equivalence.verdicts check), with the gate policy's tolerances. The gate's checks
over the results are `guardian.governance.gatechecks`; the report they go into is
`guardian.governance.gatereport`.

Runs through the serving-backend contract (guardian.backends), never the engine directly:
greedy prompts need a backend that speculates with the route's proposer; sampled prompts also
need `full_distributions` (the gate refuses up front, `Unsupported`, rather than pass a check
it could not run). This module owns the run: the judge, `check_backend` and `run_gate`.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from guardian.backends import BackendRequest, ServingBackend, Unsupported
from guardian.core.enums import ProposerKind
from guardian.equivalence.stopcases import stopping_case
from guardian.governance.gatebatch import engine_summary, run_batched
from guardian.governance.gatechecks import (
    PASSING_VERDICTS,
    batched_check,
    evaluate_gate,
    stopping_counts,
)
from guardian.governance.gatecoverage import run_coverage_draws
from guardian.governance.gatereport import GateReport, PromptResult, _num
from guardian.governance.golden import GoldenPrompt
from guardian.policy import GatePolicy

logger = logging.getLogger(__name__)


@dataclass(slots=True)
class _Judge:
    """The shadow evaluator's checks, run synchronously on one golden prompt at a time.

    The gate serves each prompt speculatively through a `ServingCore` (as `guardian serve`
    does) and hands the served result to a `ShadowEvaluator`, which re-runs it target-only
    and judges it exactly as it judges shadowed live traffic: the same verdict functions,
    the same evidence, tolerances from the gate policy.
    """

    core: Any
    evaluator: Any
    route: Any  # RoutePolicy
    route_name: str
    policy_hash: str

    @classmethod
    def open(cls, backend: ServingBackend, gate: GatePolicy, *, route: str, policy_hash: str,
             proposer: ProposerKind, max_new: int) -> _Judge:
        from guardian.audit.memory import MemorySink
        from guardian.equivalence.shadow import ShadowEvaluator
        from guardian.observability.telemetry import Telemetry
        from guardian.policy import GammaPolicy, Policy, RoutePolicy, ShadowPolicy
        from guardian.serving.core import ServingCore

        route_policy = RoutePolicy(
            mode="speculative", proposer=proposer,
            shadow=ShadowPolicy(sample_rate=1.0, max_new_tokens=max_new),
            gamma=GammaPolicy(initial=gate.gamma, max=max(gate.gamma, 8)),
            near_tie_tolerance=gate.near_tie_tolerance,
            distribution_tolerance=gate.distribution_tolerance)
        sink, telemetry = MemorySink(), Telemetry()
        core = ServingCore(backend, Policy(default_route=route, routes={route: route_policy}),
                           sink, telemetry)
        evaluator = ShadowEvaluator(core, sink, telemetry)  # never started: evaluate() is sync
        return cls(core, evaluator, route_policy, route, policy_hash)

    def close(self) -> None:
        self.core.shutdown()
        self.evaluator.sink.close()
        self.evaluator.telemetry.shutdown()

    def run(self, backend: ServingBackend, gp: GoldenPrompt, gate: GatePolicy,
            max_new: int) -> PromptResult:
        return self.judge(backend, gp, gate, self.serve(backend, gp, max_new))

    def serve(self, backend: ServingBackend, gp: GoldenPrompt, max_new: int,
              phase: str = "alone") -> Any:
        """Serve one golden prompt speculatively (thread-safe: the batched phase serves a
        batch's prompts at once, so the serving engine decodes them in one batch)."""
        from guardian.serving.core import GenerationRequest, Served

        sampled = gp.temperature > 0
        suffix = "" if phase == "alone" else f"-{phase}"
        req = GenerationRequest(
            endpoint="completions", route=self.route_name, model=backend.model_name,
            prompt_text=gp.prompt, prompt_ids=backend.encode(gp.prompt), max_tokens=max_new,
            temperature=gp.temperature, top_p=gp.top_p, top_k=gp.top_k,
            seed=gp.seed if sampled else None, stop=list(gp.stop) or None,
            request_id=f"gate-{gp.id}{suffix}")
        evidence = sampled and backend.capabilities.full_distributions
        t0 = time.perf_counter()
        result, verifier = self.core.run_backend(req, self.route, True, None, evidence=evidence)
        t_spec = time.perf_counter() - t0
        return Served(req, result, "speculative", "speculative", None, 0.0, t_spec,
                      self.policy_hash, True, verifier)

    def judge(self, backend: ServingBackend, gp: GoldenPrompt, gate: GatePolicy, served: Any,
              phase: str = "alone") -> PromptResult:
        """The shadow evaluator's verdict on one served golden prompt."""
        from guardian.equivalence.shadow import ShadowJob
        from guardian.serving.provenance import declared_lossy

        req, result, t_spec = served.request, served.result, served.compute_time_s
        lossy = declared_lossy(result)
        if lossy is not None:  # recorded as such; no gate passes a lossy acceptance rule
            c = result.counters
            return PromptResult(
                gp.id if phase == "alone" else f"{gp.id}@{phase}", gp.temperature,
                "divergence", False,
                f"the speculative path declares a lossy acceptance rule ({lossy}): its output "
                "is not the target's distribution, whatever the tokens say",
                0, len(result.token_ids), 0.0, t_spec, c.proposed, c.accepted, judged=c.judged,
                check="lossy_acceptance", stop=list(gp.stop), top_p=gp.top_p, top_k=gp.top_k,
                finish_reason=result.finish_reason, phase=phase)
        t1 = time.perf_counter()
        event = self.evaluator.evaluate(ShadowJob(req, self.route, self.policy_hash,
                                                  "speculative", served=served),
                                        preemptible=False)
        shadow_stats = (event.stats or {}).get("shadow_stats") or {}
        # The target-only run's own engine time (the shadow's wall time also scores).
        t_target = float(shadow_stats.get("total_time_s") or (time.perf_counter() - t1))
        t_spec = float(result.stats.get("total_time_s") or t_spec)
        ref_ids = [t.token_id for t in event.shadow_trace or []]
        c = result.counters
        return PromptResult(
            gp.id if phase == "alone" else f"{gp.id}@{phase}", gp.temperature, event.verdict,
            event.verdict in PASSING_VERDICTS,
            _explain(backend, event, ref_ids, list(result.token_ids), gate),
            len(ref_ids), len(result.token_ids), t_target, t_spec, c.proposed, c.accepted,
            first_divergence_position=event.first_divergence_position,
            margin_at_divergence=event.margin_at_divergence,
            max_tv=_float((event.stats or {}).get("max_tv")), judged=c.judged,
            check=_failed_check(event), stop=list(gp.stop), top_p=gp.top_p, top_k=gp.top_k,
            finish_reason=result.finish_reason, phase=phase,
            batch_rows_max=int(result.stats.get("batch_rows_max") or 0),
            shared_spec_steps=int(result.stats.get("shared_spec_steps") or 0),
            depths=sorted({int(t.gamma) for t in result.trace}),
            stopping=stopping_case(result.token_ids, result.finish_reason, result.trace,
                                   eos_token_ids=backend.eos_token_ids,
                                   stop=gp.stop, max_tokens=req.max_tokens))


def _float(x: object) -> float | None:
    return float(x) if isinstance(x, int | float) else None


def _failed_check(event: Any) -> str | None:
    stats = event.stats or {}
    for key in ("failed_check", "check_failed", "reason"):
        if isinstance(stats.get(key), str):
            return stats[key]
    return "length_mismatch" if stats.get("length_mismatch") else None


def _explain(backend: ServingBackend, event: Any, ref: list[int], spec: list[int],
             gate: GatePolicy) -> str:
    verdict, pos = event.verdict, event.first_divergence_position
    check = _failed_check(event)
    if verdict == "match":
        return f"identical {len(ref)} tokens"
    if verdict == "distribution_ok":
        tv = _float((event.stats or {}).get("max_tv"))
        return ("verifier distributions equal target-only's"
                + (f" (max TV {tv:.2g})" if tv is not None else ""))
    if verdict in ("divergence", "near_tie") and pos is not None:
        def show(ids: list[int]) -> str:
            return "end of output" if pos >= len(ids) else f"{backend.decode([ids[pos]])!r} (id {ids[pos]})"

        cmp = "<" if verdict == "near_tie" else ">="
        margin = ("" if event.margin_at_divergence is None else
                  f"; target top-2 margin {_num(event.margin_at_divergence)} {cmp} tolerance "
                  f"{gate.near_tie_tolerance}")
        return (f"{verdict} at position {pos}: target-only emitted {show(ref)}, speculative "
                f"emitted {show(spec)}{margin}" + (f" [{check}]" if check else ""))
    where = "" if pos is None else f" at position {pos}"
    return f"{verdict}{where}" + (f": check {check}" if check else "")



def check_backend(backend: ServingBackend, prompts: list[GoldenPrompt],
                  proposer: ProposerKind = "draft_model") -> None:
    """Raise `Unsupported` unless the backend can run every check the golden set needs."""
    if not backend.capabilities.supports(proposer):
        raise Unsupported(f"the {backend.kind!r} backend cannot speculate with proposer "
                          f"{proposer!r}; the gate compares speculative with target-only decoding")
    if any(gp.temperature > 0 for gp in prompts) and not backend.capabilities.full_distributions:
        raise Unsupported(f"the {backend.kind!r} backend has no full distributions, so the "
                          "sampled prompts of this golden set cannot be checked; use greedy "
                          "prompts only, or gate the pair on the local engine")


def run_gate(backend: ServingBackend, prompts: list[GoldenPrompt], gate: GatePolicy, *,
             policy_hash: str, route: str, golden_file: str | Path = "",
             on_prompt: Callable[[PromptResult], None] | None = None,
             proposer: ProposerKind = "draft_model") -> GateReport:
    """Run every golden prompt on both paths and evaluate the gate policy."""
    check_backend(backend, prompts, proposer)
    # One throwaway generation: first-call overhead (lazy init, allocator) must not be billed
    # to whichever path runs first.
    backend.generate(BackendRequest(prompt_ids=backend.encode(prompts[0].prompt),
                                    max_new_tokens=2, speculative=True, proposer=proposer,
                                    gamma=gate.gamma))
    longest = max(gp.max_tokens or gate.max_new_tokens for gp in prompts)
    judge = _Judge.open(backend, gate, route=route, policy_hash=policy_hash, proposer=proposer,
                        max_new=longest)
    results: list[PromptResult] = []
    try:
        for gp in prompts:
            r = judge.run(backend, gp, gate, gp.max_tokens or gate.max_new_tokens)
            results.append(r)
            if on_prompt is not None:
                on_prompt(r)
        # The same prompts in shared batches of the serving engine (guardian.governance.gatebatch)
        results += run_batched(judge, backend, prompts, gate,
                               lambda gp: gp.max_tokens or gate.max_new_tokens, on_prompt)
        # More seeds of the sampled prompts while a sampled stopping case is short
        results += run_coverage_draws(judge, backend, prompts, results, gate,
                                      lambda gp: gp.max_tokens or gate.max_new_tokens,
                                      on_prompt)
    finally:
        judge.close()
    engine = engine_summary(backend, results)
    checks = evaluate_gate(results, gate)
    checks.insert(2, batched_check(engine, results, gate))
    # A near_tie is allowed up to the limit: mark those prompts as passing with the reason.
    if next(c for c in checks if c.name == "greedy_equivalence").outcome == "pass":
        for r in results:
            if r.verdict == "near_tie":
                r.passed = True
    golden = Path(golden_file) if golden_file else None
    digest = hashlib.sha256(golden.read_bytes()).hexdigest() if golden and golden.is_file() else ""
    return GateReport(pair_hash=backend.pair_hash, policy_hash=policy_hash, route=route,
                      gate=gate.model_dump(mode="json"), golden_file=str(golden_file),
                      golden_sha256=digest, created_at=datetime.now(UTC).isoformat(),
                      prompts=results, checks=checks,
                      passed=all(c.outcome != "fail" for c in checks),
                      pair=asdict(backend.identity), runtime=runtime_settings(),
                      engine=engine, stopping=stopping_counts(results))


def runtime_settings() -> dict[str, Any]:
    """The thread and wait settings timings depend on (recorded in the report)."""
    import os
    import sys

    threads = None
    if "torch" in sys.modules:
        threads = sys.modules["torch"].get_num_threads()
    return {"omp_wait_policy": os.environ.get("OMP_WAIT_POLICY"), "torch_threads": threads}
