"""The promotion gate over a route's upstream pools (`guardian gate --upstream`).

Each golden prompt goes to the route's `speculative` pool and to its `target_only` pool
(greedy, the golden max_tokens) and the two answers are judged as the pool shadow judges live
traffic (`guardian.equivalence.pool_shadow.judge_greedy`: token ids or texts, the target-only
pool's top-2 margins as near-tie evidence). The report has the local gate's shape and checks
(`guardian.governance.gatechecks.evaluate_gate`), with what pools cannot give said so:
- sampled golden prompts are refused (a pool returns no full distributions);
- alpha needs judged draft positions, which llama.cpp and vLLM do not report per request:
  the gate then checks acceptance_rate (accepted / proposed), a lower bound of alpha, against
  `min_alpha`, and the check's detail says so;
- timings are each pool's own answer time (llama.cpp's, measured by the sidecar).

The upstream pair (what the report, the registry and the mode resolver bind to) is the
sidecar's `UpstreamBackend.pair_hash`: `upstream-` + sha256 of the sorted distinct model names
of every route's pools (guardian.backends.upstream.backend._identity). Pools answer under
names, not weight hashes; where they are (their URLs) is in the policy, whose hash the report
carries too, so a pool moved to another server needs a new gate run.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from guardian.backends import Unsupported
from guardian.governance.gatechecks import PASSING_VERDICTS, evaluate_gate
from guardian.governance.gatereport import GateReport, PromptResult
from guardian.governance.golden import GoldenPrompt

if TYPE_CHECKING:
    from guardian.backends.upstream.backend import UpstreamBackend
    from guardian.policy import GatePolicy, Policy

logger = logging.getLogger(__name__)


def run_pool_gate(backend: UpstreamBackend, policy: Policy, route: str,
                  prompts: list[GoldenPrompt], *, golden_file: str | Path = "",
                  on_prompt: Callable[[PromptResult], None] | None = None) -> GateReport:
    """Run every golden prompt on the route's two pools and evaluate its gate policy."""
    from guardian.audit.memory import MemorySink
    from guardian.equivalence.pool_shadow import judge_greedy
    from guardian.observability.telemetry import Telemetry
    from guardian.serving.core import GenerationRequest, ServingCore

    route_policy = policy.route(route)
    if route_policy.upstream is None:
        raise Unsupported(f"route {route!r} has no upstream pools (routes.{route}.upstream)")
    if any(gp.temperature > 0 for gp in prompts):
        raise Unsupported("an upstream pool returns no full distributions, so sampled golden "
                          "prompts cannot be checked; gate pools with greedy prompts")
    gate: GatePolicy = route_policy.gate
    core = ServingCore(backend, policy, MemorySink(), Telemetry())
    results: list[PromptResult] = []
    try:
        for i, gp in enumerate(prompts):
            n = gp.max_tokens or gate.max_new_tokens
            req = GenerationRequest(endpoint="completions", route=route, model=backend.model_name,
                                    prompt_text=gp.prompt, prompt_ids=[], max_tokens=n,
                                    temperature=0.0, stop=list(gp.stop) or None,
                                    request_id=f"gate-{gp.id}")
            if i == 0:  # first-call costs (connections, the pools' caches) billed to neither
                for speculative in (True, False):
                    core.run_backend(req, route_policy, speculative, None, max_new_tokens=2)
            spec, _ = core.run_backend(req, route_policy, True, None)
            ref, _ = core.run_backend(req, route_policy, False, None)
            verdict = judge_greedy(spec, ref, True, gate.near_tie_tolerance, n)
            c = spec.counters
            passed = verdict.verdict in PASSING_VERDICTS
            explanation = ("identical to the target-only pool" if passed else
                           f"{verdict.verdict} at token {verdict.first_divergence_position}: "
                           f"speculative {verdict.details.get('served_token')!r} vs target-only "
                           f"{verdict.details.get('shadow_token')!r}")
            r = PromptResult(
                gp.id, 0.0, verdict.verdict, passed, explanation, len(ref.token_ids),
                len(spec.token_ids), ref.timings.total_s, spec.timings.total_s, c.proposed,
                c.accepted, first_divergence_position=verdict.first_divergence_position,
                margin_at_divergence=verdict.margin_at_divergence,
                judged=None if "judged_tokens" in (spec.stats.get("unreported") or ())
                else c.judged, stop=list(gp.stop), finish_reason=spec.finish_reason)
            results.append(r)
            if on_prompt is not None:
                on_prompt(r)
    finally:
        core.shutdown()
    checks = evaluate_gate(results, gate)
    if any(r.judged is None for r in results):
        check = next(c for c in checks if c.name == "min_alpha")
        check.detail = ("judged draft positions not reported by the pool: acceptance_rate "
                        "(accepted / proposed, a lower bound of alpha) checked; " + check.detail)
    if next(c for c in checks if c.name == "greedy_equivalence").outcome == "pass":
        for r in results:
            if r.verdict == "near_tie":
                r.passed = True
    golden = Path(golden_file) if golden_file else None
    digest = hashlib.sha256(golden.read_bytes()).hexdigest() if golden and golden.is_file() else ""
    pools = route_policy.upstream
    return GateReport(
        pair_hash=backend.pair_hash, policy_hash=policy.content_hash, route=route,
        gate=gate.model_dump(mode="json"), golden_file=str(golden_file), golden_sha256=digest,
        created_at=datetime.now(UTC).isoformat(), prompts=results, checks=checks,
        passed=all(c.outcome != "fail" for c in checks),
        pair={**asdict(backend.identity), "upstream": {
            "speculative": {"model": pools.speculative.model, "url": pools.speculative.url},
            "target_only": {"model": pools.target_only.model, "url": pools.target_only.url}}},
        runtime={"backend": "upstream"})
