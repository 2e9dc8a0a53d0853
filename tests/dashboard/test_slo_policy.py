"""SLO targets come from the policy's `slo:` section (validated), else documented defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboard.slo import SloTargets
from guardian.policy import PolicyError, load_policy


def _write(tmp_path: Path, slo: str) -> Path:
    path = tmp_path / "policy.yaml"
    path.write_text(f"version: 1\ndefault_route: default\n{slo}routes:\n  default: {{}}\n")
    return path


def test_dashboard_targets_follow_the_policy(tmp_path) -> None:
    policy = load_policy(_write(tmp_path, "slo:\n  latency_p95_s: 1.5\n  objective: 0.995\n"))
    targets = SloTargets.from_mapping(policy.model_dump(mode="json")["slo"])
    assert targets.latency_p95_s == 1.5 and targets.objective == 0.995
    assert targets.ttft_p95_s == SloTargets().ttft_p95_s  # unset fields keep the default


def test_default_policy_carries_the_documented_defaults() -> None:
    slo = load_policy().model_dump(mode="json")["slo"]
    assert SloTargets.from_mapping(slo) == SloTargets()


def test_an_impossible_objective_is_refused_with_its_field(tmp_path) -> None:
    with pytest.raises(PolicyError, match="objective"):
        load_policy(_write(tmp_path, "slo:\n  objective: 1.5\n"))
