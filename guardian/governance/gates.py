"""Promotion gate: a golden prompt set run target-only and speculatively, judged by policy.

Checks (GatePolicy):
- greedy equivalence: every greedy prompt's speculative output is token-identical to
  target-only (`match`), or flips only where the target's top-2 margin is below tolerance
  (`near_tie`, at most `max_near_ties` of them);
- sampled distributions: for prompts with temperature > 0, the target distribution the
  verifier used at every emitted position equals target-only's at the same prefix (max
  total-variation distance within `distribution_tolerance`);
- minimum acceptance rate over all speculative runs (engine.metrics: accepted / proposed draft
  tokens, vLLM's definition; alpha = accepted / judged is reported beside it);
- minimum measured speedup: median over the greedy prompts of target-only time / speculative
  time (same tokens on both sides, so each ratio is like-for-like).

Runs through the serving-backend contract (guardian.backends), never the engine directly:
greedy prompts need a backend that speculates with the route's proposer; sampled prompts also
need `full_distributions` (the gate refuses up front, `Unsupported`, rather than pass a check
it could not run).

The report binds the result to the exact pair hash and policy hash; it is written as JSON
(machines, promotion) and Markdown (people), each failing prompt explained in words.
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
from guardian.backends import BackendRequest, BackendResult, Sampling, ServingBackend, Unsupported
from guardian.enums import ProposerKind
from guardian.policy import GatePolicy
from guardian.verdicts import greedy_verdict, total_variation

logger = logging.getLogger(__name__)

REPORT_VERSION = 1


class GoldenError(ValueError):
    """A golden file that cannot be used; the message names the file, line and field."""


@dataclass(frozen=True, slots=True)
class GoldenPrompt:
    id: str
    prompt: str
    max_tokens: int | None = None
    temperature: float = 0.0
    seed: int = 0


_GOLDEN_FIELDS = {"id", "prompt", "max_tokens", "temperature", "seed"}


def load_golden(path: str | Path) -> list[GoldenPrompt]:
    """Read a JSONL golden set: one {"id", "prompt", ["max_tokens", "temperature", "seed"]} a line."""
    path = Path(path)
    try:
        lines = path.read_text().splitlines()
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
        prompts.append(GoldenPrompt(pid, prompt, max_tokens, float(temperature), seed))
    if not prompts:
        raise GoldenError(f"golden file {path} holds no prompts; add JSON lines like "
                          '{"id": "add", "prompt": "def add(a, b):"}')
    return prompts


@dataclass(slots=True)
class PromptResult:
    id: str
    temperature: float
    verdict: str  # match | near_tie | divergence | distribution_ok | distribution_mismatch
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

    @property
    def counters(self) -> SpecCounters:
        judged = self.drafted if self.judged is None else self.judged
        return SpecCounters(proposed=self.drafted, judged=judged, accepted=self.accepted)


@dataclass(slots=True)
class Check:
    name: str
    outcome: str  # pass | fail | skipped
    value: float | None
    threshold: float | None
    detail: str


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
    version: int = REPORT_VERSION

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
        lines += ["", "## Prompts", "", "| id | verdict | tokens | α | target s | speculative s |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for p in self.prompts:
            lines.append(f"| {p.id} | {p.verdict} | {p.speculative_tokens} | {p.counters.alpha:.2f} | "
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


def _request(backend: ServingBackend, gp: GoldenPrompt, gate: GatePolicy, max_new: int, *,
             speculative: bool, proposer: ProposerKind) -> BackendRequest:
    seed = gp.seed if gp.temperature > 0 else None
    return BackendRequest(prompt_ids=backend.encode(gp.prompt), max_new_tokens=max_new,
                          speculative=speculative, sampling=Sampling(temperature=gp.temperature),
                          seed=seed, proposer=proposer, gamma=gate.gamma)


def _counts(spec: BackendResult) -> dict[str, int]:
    c = spec.counters
    return {"drafted": c.proposed, "accepted": c.accepted, "judged": c.judged}


def _greedy(backend: ServingBackend, gp: GoldenPrompt, gate: GatePolicy, max_new: int,
            proposer: ProposerKind) -> PromptResult:
    ref_req = _request(backend, gp, gate, max_new, speculative=False, proposer=proposer)
    spec_req = _request(backend, gp, gate, max_new, speculative=True, proposer=proposer)
    t0 = time.perf_counter()
    ref = backend.generate(ref_req)
    t1 = time.perf_counter()
    spec = backend.generate(spec_req)
    t2 = time.perf_counter()
    margins = [t.target_margin for t in ref.trace] + [t.target_margin for t in spec.trace[len(ref.trace):]]
    v = greedy_verdict(ref.token_ids, spec.token_ids, margins, gate.near_tie_tolerance)
    if v.verdict == "match":
        why = f"identical {len(ref.token_ids)} tokens"
    else:
        pos = v.first_divergence_position or 0
        want = ref.token_ids[pos] if pos < len(ref.token_ids) else None
        got = spec.token_ids[pos] if pos < len(spec.token_ids) else None

        def show(t: int | None) -> str:
            return "end of output" if t is None else f"{backend.decode([t])!r} (id {t})"

        cmp = "<" if v.verdict == "near_tie" else ">="
        why = (f"{v.verdict} at position {pos}: target-only emitted {show(want)}, speculative "
               f"emitted {show(got)}; target top-2 margin {_num(v.margin_at_divergence)} {cmp} "
               f"tolerance {gate.near_tie_tolerance}")
    return PromptResult(gp.id, 0.0, v.verdict, v.verdict == "match", why, len(ref.token_ids),
                        len(spec.token_ids), t1 - t0, t2 - t1,
                        first_divergence_position=v.first_divergence_position,
                        margin_at_divergence=v.margin_at_divergence, **_counts(spec))


def _sampled(backend: ServingBackend, gp: GoldenPrompt, gate: GatePolicy, max_new: int,
             proposer: ProposerKind) -> PromptResult:
    ref_req = _request(backend, gp, gate, max_new, speculative=False, proposer=proposer)
    spec_req = _request(backend, gp, gate, max_new, speculative=True, proposer=proposer)
    t0 = time.perf_counter()
    ref = backend.generate(ref_req)
    t1 = time.perf_counter()
    spec, verifier = backend.generate_with_evidence(spec_req)
    t2 = time.perf_counter()
    tv = None
    if spec.token_ids:
        reference = backend.target_distributions(spec.prompt_token_ids, spec.token_ids,
                                                 spec_req.sampling)
        tv = total_variation(verifier.probs, reference.probs)
    max_tv = float(tv.max()) if tv is not None and tv.numel() else 0.0
    ok = max_tv <= gate.distribution_tolerance
    if ok:
        why = f"verifier distributions equal target-only's (max TV {max_tv:.2g})"
    else:
        assert tv is not None
        pos = int((tv > gate.distribution_tolerance).nonzero()[0])
        why = (f"distribution_mismatch at position {pos}: the verifier's target distribution is "
               f"{float(tv[pos]):.3g} (TV) from target-only's at the same prefix, above "
               f"tolerance {gate.distribution_tolerance}")
    return PromptResult(gp.id, gp.temperature, "distribution_ok" if ok else "distribution_mismatch",
                        ok, why, len(ref.token_ids), len(spec.token_ids), t1 - t0, t2 - t1,
                        max_tv=max_tv, **_counts(spec))


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
    results: list[PromptResult] = []
    for gp in prompts:
        max_new = gp.max_tokens or gate.max_new_tokens
        run = _greedy if gp.temperature == 0 else _sampled
        r = run(backend, gp, gate, max_new, proposer)
        results.append(r)
        if on_prompt is not None:
            on_prompt(r)
    checks = evaluate_gate(results, gate)
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
                      pair=asdict(backend.identity))


def evaluate_gate(results: list[PromptResult], gate: GatePolicy) -> list[Check]:
    """The gate checks over per-prompt results (pure: tested without an engine)."""
    greedy = [r for r in results if r.temperature == 0]
    sampled = [r for r in results if r.temperature > 0]
    divergences = [r.id for r in greedy if r.verdict == "divergence"]
    ties = [r.id for r in greedy if r.verdict == "near_tie"]
    eq_fail = bool(divergences) or len(ties) > gate.max_near_ties
    checks = [Check("greedy_equivalence", "skipped" if not greedy else ("fail" if eq_fail else "pass"),
                    float(len(divergences) + len(ties)), float(gate.max_near_ties),
                    f"{len(greedy) - len(divergences) - len(ties)} match, {len(ties)} near_tie "
                    f"(allowed {gate.max_near_ties}), {len(divergences)} divergence"
                    + (f": {', '.join(divergences + ties)}" if eq_fail else ""))]
    bad = [r.id for r in sampled if r.verdict == "distribution_mismatch"]
    worst = max((r.max_tv or 0.0 for r in sampled), default=None)
    checks.append(Check("sampled_distribution", "skipped" if not sampled else ("fail" if bad else "pass"),
                        worst, gate.distribution_tolerance,
                        "no sampled prompts in the golden set" if not sampled
                        else f"{len(sampled) - len(bad)}/{len(sampled)} within tolerance"
                        + (f"; failing: {', '.join(bad)}" if bad else "")))
    total = SpecCounters.total(r.counters for r in results)
    checks.append(Check("min_alpha", "fail" if total.alpha < gate.min_alpha else "pass",
                        total.alpha, gate.min_alpha,
                        f"{total.accepted}/{total.judged} judged draft positions accepted "
                        f"(acceptance_rate {total.acceptance_rate:.3f} of {total.proposed} "
                        "proposed)"))
    timed = [r for r in greedy if r.speculative_time_s > 0]
    if timed:
        # Median of per-prompt ratios: one prompt hit by a scheduling stall on a shared machine
        # must not decide the gate either way (a sum ratio is dominated by the worst stall).
        ratios = sorted(r.target_time_s / r.speculative_time_s for r in timed)
        speedup = statistics.median(ratios)
        t_target, t_spec = sum(r.target_time_s for r in timed), sum(r.speculative_time_s for r in timed)
        checks.append(Check("min_speedup", "fail" if speedup < gate.min_speedup else "pass", speedup,
                            gate.min_speedup, f"median of {len(ratios)} per-prompt ratios "
                            f"(range {ratios[0]:.2f}-{ratios[-1]:.2f}); totals target-only "
                            f"{t_target:.3f} s vs speculative {t_spec:.3f} s"))
    else:
        checks.append(Check("min_speedup", "skipped", None, gate.min_speedup, "no greedy prompts timed"))
    return checks
