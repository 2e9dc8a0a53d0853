"""Policy files: errors point at file:line and field, examples validate, hot reload keeps the
last good policy."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.cli import policy as policy_cli
from guardian.policy import PolicyError, PolicyReloader, load_policy_file

REPO = Path(__file__).resolve().parents[3]
GOOD = """version: 1
default_route: default
routes:
  default:
    mode: speculative
    triggers:
      acceptance: {min_alpha: 0.4}
"""


@pytest.mark.parametrize("path", sorted((REPO / "policies").rglob("*.yaml")), ids=lambda p: p.name)
def test_shipped_policies_validate(path: Path) -> None:
    policy = load_policy_file(path)
    assert len(policy.content_hash) == 64


def test_example_routes_differ_in_risk_appetite() -> None:
    policy = load_policy_file(REPO / "policies/examples/compliance-and-creative.yaml")
    strict = policy.route("compliance")
    relaxed = policy.route("creative")
    assert strict.triggers.cooldown_s > relaxed.triggers.cooldown_s
    assert strict.gate.min_alpha > relaxed.gate.min_alpha
    assert policy.route("compliance").shadow.sample_rate == 1.0


def test_errors_name_file_line_field_and_what_is_allowed(tmp_path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD.replace("mode: speculative", "mode: fast")
                   .replace("{min_alpha: 0.4}", "{min_alpha: 0.4, min_rte: 1}"))
    with pytest.raises(PolicyError) as err:
        load_policy_file(bad)
    msg = str(err.value)
    assert f"{bad}:5: routes.default.mode:" in msg and "'target_only', 'speculative' or 'off'" in msg
    assert f"{bad}:7: routes.default.triggers.acceptance.min_rte: unknown field; allowed:" in msg
    assert "min_alpha" in msg.split("min_rte")[-1]


def test_yaml_syntax_error_names_the_line(tmp_path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text("version: 1\nroutes:\n  default: [unclosed\n")
    with pytest.raises(PolicyError, match=r"broken\.yaml:\d+: not valid YAML"):
        load_policy_file(bad)


def test_validate_command_exit_codes(tmp_path) -> None:
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text(GOOD)
    bad.write_text(GOOD.replace("0.4", "4"))
    runner = CliRunner()
    assert runner.invoke(policy_cli.app, ["validate", str(good)]).exit_code == 0
    out = runner.invoke(policy_cli.app, ["validate", str(bad)])
    assert out.exit_code == 2 and "bad.yaml:7" in out.output and "less than or equal to 1" in out.output


def test_reload_on_file_change_refuses_invalid_and_keeps_last_good(tmp_path, sink) -> None:
    path = tmp_path / "policy.yaml"
    path.write_text(GOOD)
    applied = []
    reloader = PolicyReloader(path, applied.append, sink=sink, interval_s=0.05).start()
    try:
        first = reloader.policy.content_hash
        path.write_text(GOOD.replace("0.4", "7"))  # invalid: refused, last good stays
        _wait(lambda: reloader.last_error is not None)
        assert reloader.policy.content_hash == first and not applied
        refusal = next(e for e in sink.governance if e.kind == "policy_decision")
        assert refusal.details["action"] == "reload_refused" and refusal.details["kept_policy_hash"] == first
        path.write_text(GOOD.replace("0.4", "0.5"))  # valid: applied without a restart
        _wait(lambda: bool(applied))
        assert applied[0].content_hash == reloader.policy.content_hash != first
        assert applied[0].route("default").triggers.acceptance.min_alpha == 0.5
        assert reloader.reload(actor="api-key:ops") == (False, "unchanged")
    finally:
        reloader.stop()


def _wait(pred, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_drafter_tolerance_is_a_validated_route_field_that_keeps_old_hashes(tmp_path) -> None:
    """`drafter_tolerance` (the |Δq| before the speed anomaly `drafter_inconsistent`; bf16
    routes set it from `guardian bench tolerance`): default today's 1e-3, validated like
    `distribution_tolerance`, and left out of the hash at its default."""
    path = tmp_path / "p.yaml"
    path.write_text(GOOD)
    before = load_policy_file(path)
    assert before.route("default").drafter_tolerance == 1e-3
    path.write_text(GOOD + "    drafter_tolerance: 0.001\n")
    assert load_policy_file(path).content_hash == before.content_hash
    path.write_text(GOOD + "    drafter_tolerance: 0.6\n    distribution_tolerance: 0.4\n")
    bf16 = load_policy_file(path)
    assert (bf16.route("default").drafter_tolerance, bf16.route("default").distribution_tolerance
            ) == (0.6, 0.4)
    assert bf16.content_hash != before.content_hash
    for bad in ("0", "1.5", "-0.1"):
        path.write_text(GOOD + f"    drafter_tolerance: {bad}\n")
        with pytest.raises(PolicyError, match=r"routes\.default\.drafter_tolerance"):
            load_policy_file(path)
