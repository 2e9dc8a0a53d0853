"""Gate reports: what a promotion gate (`guardian.governance.gates`) found, per prompt and check.

The report binds the result to the exact pair hash and policy hash and records the thread /
wait settings its timings were taken with; it is written as JSON (machines, promotion) and
Markdown (people), each failing prompt explained in words. Owns `PromptResult` (one judged
golden prompt), `GateReport` (its JSON round trip and Markdown rendering) and `REPORT_VERSION`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from engine.metrics import SpecCounters
from guardian.governance.checks import Check

REPORT_VERSION = 1


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
    # Where it was judged: "alone", "<batch phase>" (guardian.governance.gatebatch) with
    # the most rows its shared batch had at one step and the depths its steps ran at, or
    # "coverage" (a further seed of a sampled prompt: guardian.governance.gatecoverage).
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
