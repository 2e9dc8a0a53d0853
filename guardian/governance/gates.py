"""Promotion gate: a golden prompt set run speculatively and judged by the shadow evaluator.

Every golden prompt is served speculatively through a `ServingCore` (the serving path of
`guardian serve`) and judged by a synchronous `ShadowEvaluator`: the same re-run on the
target-only path and the same checks as shadowed live traffic (greedy equivalence with proven
near ties, stopping, per-token sampled checks, acceptance against the recorded q — whatever
guardian.equivalence.shadow / guardian.equivalence.verdicts check), with the gate policy's
tolerances. Golden lines
may carry stop strings, top-p and top-k; the shipped set has stop-string prompts, prompts
whose completion ends with EOS, and sampled prompts with top-p and top-k.

Checks (GatePolicy):
- greedy_equivalence: every greedy prompt's verdict is `match`, or `near_tie` (at most
  `max_near_ties` of them); any other verdict fails;
- sampled_distribution: every sampled prompt's verdict is `distribution_ok`;
- min_alpha over all speculative runs (engine.metrics: accepted / judged; acceptance_rate =
  accepted / proposed reported beside it);
- min_speedup: Σ target-only time / Σ speculative time over the greedy prompts, with a 95 %
  bootstrap interval and the median per-prompt ratio beside it; the totals and the median
  must both reach the floor — a disagreement fails (`speedup_check`).

Runs through the serving-backend contract (guardian.backends), never the engine directly:
greedy prompts need a backend that speculates with the route's proposer; sampled prompts also
need `full_distributions` (the gate refuses up front, `Unsupported`, rather than pass a check
it could not run).

The report binds the result to the exact pair hash and policy hash and records the thread /
wait settings its timings were taken with; it is written as JSON (machines, promotion) and
Markdown (people), each failing prompt explained in words.
"""

from __future__ import annotations

import hashlib
import json
import logging
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.metrics import SpecCounters
from guardian.backends import BackendRequest, ServingBackend, Unsupported
from guardian.core.enums import ProposerKind
from guardian.core.fileio import read_small
from guardian.equivalence.stopcases import (
    KINDS,
    STOPPING_CASES,
    empty_counts,
    shortfall,
    stopping_case,
)
from guardian.governance.checks import Check
from guardian.governance.gatebatch import engine_summary, run_batched
from guardian.policy import GatePolicy

logger = logging.getLogger(__name__)

REPORT_VERSION = 1

# A prompt passes on these verdicts; near_tie passes up to the policy's allowance; any other
# verdict (divergence, distribution_mismatch, a stopping or per-token failure) fails it.
PASSING_VERDICTS = frozenset({"match", "distribution_ok"})


class GoldenError(ValueError):
    """A golden file that cannot be used; the message names the file, line and field."""


@dataclass(frozen=True, slots=True)
class GoldenPrompt:
    id: str
    prompt: str
    max_tokens: int | None = None
    temperature: float = 0.0
    seed: int = 0
    top_p: float = 1.0
    top_k: int = 0
    stop: tuple[str, ...] = ()


_GOLDEN_FIELDS = {"id", "prompt", "max_tokens", "temperature", "seed", "top_p", "top_k", "stop"}


GOLDEN_FILE_LIMIT = 64 << 20  # a golden set is prompts, not a corpus: a wrong path stops here


def load_golden(path: str | Path) -> list[GoldenPrompt]:
    """Read a JSONL golden set: one {"id", "prompt", ["max_tokens", "temperature", "seed",
    "top_p", "top_k", "stop"]} a line."""
    path = Path(path)
    try:
        lines = read_small(path, GOLDEN_FILE_LIMIT).decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise GoldenError(f"cannot read golden file {path}: not UTF-8 text (byte {exc.start})"
                          ) from None
    except OSError as exc:
        raise GoldenError(f"cannot read golden file {path}: {exc.strerror}") from exc
    prompts: list[GoldenPrompt] = []
    seen: set[str] = set()
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        where = f"{path}:{n}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise GoldenError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from exc
        if not isinstance(raw, dict):
            raise GoldenError(f"{where}: each line must be a JSON object with at least \"prompt\"")
        unknown = set(raw) - _GOLDEN_FIELDS
        if unknown:
            raise GoldenError(f"{where}: unknown field(s) {sorted(unknown)}; "
                              f"allowed: {sorted(_GOLDEN_FIELDS)}")
        prompt = raw.get("prompt")
        if not isinstance(prompt, str) or not prompt:
            raise GoldenError(f"{where}: field \"prompt\" must be a non-empty string")
        pid = str(raw.get("id", f"line-{n}"))
        if pid in seen:
            raise GoldenError(f"{where}: duplicate id {pid!r}; ids name prompts in the report")
        seen.add(pid)
        max_tokens, temperature, seed = raw.get("max_tokens"), raw.get("temperature", 0.0), raw.get("seed", 0)
        if max_tokens is not None and (not isinstance(max_tokens, int) or max_tokens < 1):
            raise GoldenError(f"{where}: field \"max_tokens\" must be a positive integer, got {max_tokens!r}")
        if not isinstance(temperature, int | float) or temperature < 0:
            raise GoldenError(f"{where}: field \"temperature\" must be a number >= 0, got {temperature!r}")
        if not isinstance(seed, int):
            raise GoldenError(f"{where}: field \"seed\" must be an integer, got {seed!r}")
        top_p, top_k, stop = raw.get("top_p", 1.0), raw.get("top_k", 0), raw.get("stop", [])
        if not isinstance(top_p, int | float) or isinstance(top_p, bool) or not 0 < top_p <= 1:
            raise GoldenError(f"{where}: field \"top_p\" must be a number in (0, 1], got {top_p!r}")
        if not isinstance(top_k, int) or isinstance(top_k, bool) or top_k < 0:
            raise GoldenError(f"{where}: field \"top_k\" must be an integer >= 0, got {top_k!r}")
        if isinstance(stop, str):
            stop = [stop]
        if not isinstance(stop, list) or not all(isinstance(x, str) and x for x in stop):
            raise GoldenError(f"{where}: field \"stop\" must be a non-empty string or a list of "
                              f"them, got {stop!r}")
        if temperature == 0 and (top_p != 1.0 or top_k != 0):
            raise GoldenError(f"{where}: top_p/top_k apply to sampled prompts; give a "
                              "temperature > 0 too")
        prompts.append(GoldenPrompt(pid, prompt, max_tokens, float(temperature), seed,
                                    float(top_p), top_k, tuple(stop)))
    if not prompts:
        raise GoldenError(f"golden file {path} holds no prompts; add JSON lines like "
                          '{"id": "add", "prompt": "def add(a, b):"}')
    return prompts


@dataclass(slots=True)
class PromptResult:
    id: str
    temperature: float
    verdict: str  # the shadow evaluator's verdict (guardian.core.enums.Verdict)
    passed: bool
    explanation: str
    target_tokens: int
    speculative_tokens: int
    target_time_s: float
    speculative_time_s: float
    drafted: int  # draft tokens proposed
    accepted: int  # draft tokens accepted
    first_divergence_position: int | None = None
    margin_at_divergence: float | None = None
    max_tv: float | None = None
    judged: int | None = None  # draft positions judged (None in reports written before it)
    check: str | None = None  # the evaluator's check that failed, when it names one
    stop: list[str] = field(default_factory=list)
    top_p: float = 1.0
    top_k: int = 0
    finish_reason: str | None = None
    # Where it was judged: "alone", or "<batch phase>" (guardian.governance.gatebatch) with
    # the most rows its shared batch had at one step and the depths its steps ran at.
    phase: str = "alone"
    batch_rows_max: int = 0
    shared_spec_steps: int = 0  # its steps that proposed draft tokens beside other rows
    depths: list[int] = field(default_factory=list)
    stopping: str | None = None  # guardian.equivalence.stopcases.stopping_case

    @property
    def counters(self) -> SpecCounters:
        judged = self.drafted if self.judged is None else self.judged
        return SpecCounters(proposed=self.drafted, judged=judged, accepted=self.accepted)


@dataclass(slots=True)
class GateReport:
    pair_hash: str
    policy_hash: str
    route: str
    gate: dict[str, Any]
    golden_file: str
    golden_sha256: str
    created_at: str
    prompts: list[PromptResult]
    checks: list[Check]
    passed: bool
    pair: dict[str, Any] = field(default_factory=dict)
    # OpenMP wait policy and torch threads the timings were taken with (as `guardian serve`)
    runtime: dict[str, Any] = field(default_factory=dict)
    version: int = REPORT_VERSION
    # The engine it judged (request-level or continuous, max batch, depth policy) and per
    # phase the batch rows and depths (guardian.governance.gatebatch.engine_summary).
    engine: dict[str, Any] = field(default_factory=dict)
    # {greedy|sampled: {stop_string|eos_in_block|max_tokens|eos: judged completions}}
    stopping: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def failing_prompts(self) -> list[PromptResult]:
        return [p for p in self.prompts if not p.passed]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GateReport:
        d = dict(d)
        d["prompts"] = [PromptResult(**p) for p in d.get("prompts", [])]
        d["checks"] = [Check(**c) for c in d.get("checks", [])]
        return cls(**d)

    def to_markdown(self) -> str:
        lines = [f"# Gate report: {'PASS' if self.passed else 'FAIL'}", "",
                 f"- pair: `{self.pair_hash}`", f"- policy: `{self.policy_hash}` (route `{self.route}`)",
                 f"- golden set: `{self.golden_file}` (sha256 `{self.golden_sha256[:16]}`, "
                 f"{len(self.prompts)} prompts)", f"- created: {self.created_at}", "",
                 "| check | outcome | value | threshold | detail |", "| --- | --- | --- | --- | --- |"]
        for c in self.checks:
            lines.append(f"| {c.name} | {c.outcome} | {_num(c.value)} | {_num(c.threshold)} | {c.detail} |")
        if self.engine:
            e = self.engine
            lines += ["", "## Engine judged", "",
                      f"- engine: {e.get('engine')} (max batch {e.get('max_batch')}, depth "
                      f"policy {e.get('depth_policy', '-')})", "",
                      "| phase | prompts | most rows in one batch | depths | speculated in a "
                      "shared batch |", "| --- | --- | --- | --- | --- |"]
            for name, ph in (e.get("phases") or {}).items():
                lines.append(f"| {name} | {ph['prompts']} | {ph['batch_rows_max']} | "
                             f"{', '.join(map(str, ph['depths']))} | {ph['speculated_in_batch']} |")
        if self.stopping:
            cases = list(next(iter(self.stopping.values())))
            lines += ["", "## Stopping judged", "", "| kind | " + " | ".join(cases) + " |",
                      "| --- |" + " --- |" * len(cases)]
            for kind, row in self.stopping.items():
                lines.append(f"| {kind} | " + " | ".join(str(row[c]) for c in cases) + " |")
        lines += ["", "## Prompts", "",
                  "| id | verdict | tokens | α | stopping | rows | target s | speculative s |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- |"]
        for p in self.prompts:
            lines.append(f"| {p.id} | {p.verdict} | {p.speculative_tokens} | {p.counters.alpha:.2f} | "
                         f"{p.stopping or ''} | {p.batch_rows_max or 1} | "
                         f"{p.target_time_s:.3f} | {p.speculative_time_s:.3f} |")
        failing = self.failing_prompts
        if failing:
            lines += ["", "## Failing prompts", ""]
            lines += [f"- **{p.id}**: {p.explanation}" for p in failing]
        return "\n".join(lines) + "\n"

    def write(self, directory: str | Path) -> tuple[Path, Path]:
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        stem = f"gate-{self.pair_hash[:12]}-{self.policy_hash[:12]}"
        json_path, md_path = directory / f"{stem}.json", directory / f"{stem}.md"
        json_path.write_text(json.dumps(self.to_dict(), indent=2) + "\n")
        md_path.write_text(self.to_markdown())
        return json_path, md_path


def _num(x: float | None) -> str:
    return "" if x is None else f"{x:.4g}"


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
    batched = [r for r in results if r.phase != "alone"]
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
