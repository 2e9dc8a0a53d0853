"""`guardian alerts rules`: the generated rules pass `promtool check rules`, and
`promtool test rules` shows they fire (and stay quiet) where they should."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from guardian.alerts.rules import bucket_bound, burn_factor, render, rules
from guardian.observability.telemetry import DURATION_BUCKETS, TTFT_BUCKETS
from guardian.policy import Policy, SloPolicy

PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(PROMTOOL is None, reason="promtool not installed "
                                    "(Debian package `prometheus`; .ci/run installs it)")


def test_burn_factors_are_the_sre_workbook_ones_for_30_days() -> None:
    assert [burn_factor(s, w, 30) for s, w in ((0.02, "1h"), (0.05, "6h"), (0.1, "1d"),
                                               (0.1, "3d"))] == [14.4, 6.0, 3.0, 1.0]
    assert burn_factor(0.02, "1h", 7) == pytest.approx(3.36)


def test_thresholds_round_up_to_a_bucket_bound() -> None:
    assert bucket_bound(2.5, DURATION_BUCKETS) == 2.56
    assert bucket_bound(0.5, TTFT_BUCKETS) == 0.5
    with pytest.raises(ValueError, match="above the histogram"):
        bucket_bound(1000, DURATION_BUCKETS)


def test_rules_follow_the_policy_slo() -> None:
    policy = Policy(slo=SloPolicy(objective=0.999, good_latency_s=1.0, period_days=7))
    text = "\n".join(r["expr"] for g in rules(policy)["groups"] for r in g["rules"])
    assert 'le="1.28"' in text and "0.001" in text and "3.36" in text


@needs_promtool
def test_promtool_checks_the_generated_rules(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text(render(Policy()))
    out = subprocess.run([PROMTOOL, "check", "rules", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "SUCCESS" in out.stdout


def _annotations(rule: dict, labels: dict[str, str]) -> dict[str, str]:
    out = {}
    for k, v in rule.get("annotations", {}).items():
        for name, value in labels.items():
            v = v.replace("{{ $labels." + name + " }}", value)
        out[k] = v
    return out


def _rule(doc: dict, name: str, severity: str | None = None) -> dict:
    return next(r for g in doc["groups"] for r in g["rules"] if r.get("alert") == name
                and (severity is None or r["labels"]["severity"] == severity))


@needs_promtool
def test_promtool_unit_tests_fire_where_they_should(tmp_path: Path) -> None:
    policy = Policy()
    doc = rules(policy)
    (tmp_path / "rules.yaml").write_text(render(policy))
    page, ticket = (_rule(doc, "GuardianLatencyBudgetBurn", s) for s in ("page", "ticket"))
    rolled, failing = _rule(doc, "GuardianRouteRolledBack"), _rule(doc, "GuardianTriggerFailing")
    route = {"route": "default"}

    def alert(rule: dict, **labels: str) -> dict:
        return {"exp_labels": {**rule["labels"], **labels},
                "exp_annotations": _annotations(rule, labels)}

    tests = {
        "rule_files": ["rules.yaml"],
        "evaluation_interval": "1m",
        "tests": [{
            "interval": "1m",
            "input_series": [
                # half the requests slower than 2.56 s: the latency budget burns 50x
                {"series": 'gen_ai_server_request_duration_seconds_bucket{route="default",le="2.56"}',
                 "values": "0+50x120"},
                {"series": 'gen_ai_server_request_duration_seconds_count{route="default"}',
                 "values": "0+100x120"},
                # every first token in time, no errors: those budgets do not burn
                {"series": 'gen_ai_server_time_to_first_token_seconds_bucket{route="default",le="0.5"}',
                 "values": "0+100x120"},
                {"series": 'gen_ai_server_time_to_first_token_seconds_count{route="default"}',
                 "values": "0+100x120"},
                {"series": 'guardian_requests_total{route="default"}', "values": "0+100x120"},
                {"series": 'guardian_requests_total{route="default",error_type="TimeoutError"}',
                 "values": "0+0x120"},
                {"series": 'guardian_route_rolled_back{route="default"}', "values": "0x10 1x30"},
                {"series": 'guardian_trigger_failing{route="default",trigger="acceptance"}',
                 "values": "0x5 1x30"},
                {"series": "guardian_audit_db_up", "values": "1x5 0x30"},
            ],
            "alert_rule_test": [
                {"eval_time": "70m", "alertname": "GuardianLatencyBudgetBurn",
                 "exp_alerts": [alert(page, **route), alert(ticket, **route)]},
                {"eval_time": "70m", "alertname": "GuardianTtftBudgetBurn", "exp_alerts": []},
                {"eval_time": "70m", "alertname": "GuardianErrorsBudgetBurn", "exp_alerts": []},
                {"eval_time": "5m", "alertname": "GuardianRouteRolledBack", "exp_alerts": []},
                {"eval_time": "15m", "alertname": "GuardianRouteRolledBack",
                 "exp_alerts": [alert(rolled, **route)]},
                {"eval_time": "7m", "alertname": "GuardianTriggerFailing", "exp_alerts": []},
                {"eval_time": "10m", "alertname": "GuardianTriggerFailing",
                 "exp_alerts": [alert(failing, trigger="acceptance", **route)]},
                {"eval_time": "6m", "alertname": "GuardianAuditDatabaseDown", "exp_alerts": []},
                {"eval_time": "10m", "alertname": "GuardianAuditDatabaseDown",
                 "exp_alerts": [{"exp_labels": {"severity": "page"}, "exp_annotations": {
                     "summary": "the audit database does not accept writes",
                     "description": "Serving goes on; audit records are spooled on local "
                                    "disk (0) and replayed when it answers."}}]},
            ],
        }],
    }
    (tmp_path / "rules_test.yaml").write_text(yaml.safe_dump(tests, sort_keys=False))
    out = subprocess.run([PROMTOOL, "test", "rules", "rules_test.yaml"], cwd=tmp_path,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "SUCCESS" in out.stdout


def test_cli_writes_rules_and_refuses_a_bad_policy_in_one_line(tmp_path: Path) -> None:
    probe = ("import sys\nfrom guardian.cli import main\nsys.argv=['guardian',*sys.argv[1:]]\n"
             "code=0\ntry:\n    main()\nexcept SystemExit as e:\n    code=e.code or 0\n"
             "print('EXIT=%s' % code)\nprint('HEAVY=' + ','.join(m for m in ('torch', "
             "'transformers') if m in sys.modules))\n")
    out = tmp_path / "r.yaml"
    ok = subprocess.run([sys.executable, "-c", probe, "alerts", "rules", "-o", str(out)],
                        capture_output=True, text=True, timeout=120)
    assert "EXIT=0" in ok.stdout and "HEAVY=\n" in ok.stdout + "\n", ok.stdout + ok.stderr
    assert yaml.safe_load(out.read_text())["groups"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("slo: {good_latency_s: 5000}\n")
    r = subprocess.run([sys.executable, "-c", probe, "alerts", "rules", "--policy", str(bad)],
                       capture_output=True, text=True, timeout=120)
    assert "EXIT=2" in r.stdout and "Traceback" not in r.stderr
    assert "above the histogram" in r.stderr and len(r.stderr.strip().splitlines()) == 1


@needs_promtool
def test_errors_budget_burns_for_the_sidecars_faults_not_the_callers(tmp_path: Path) -> None:
    """An inference key that sends 1 ms deadlines (every request 504 deadline_exceeded) or
    hangs up on every request must not page on-call; an upstream refusing must. Before, the
    errors SLI counted any `error_type`: both caller-caused outcomes paged."""
    doc = rules(Policy())
    (tmp_path / "rules.yaml").write_text(render(Policy()))
    page, ticket = (_rule(doc, "GuardianErrorsBudgetBurn", s) for s in ("page", "ticket"))

    def case(route: str, error_type: str) -> list[dict]:
        return [{"series": f'guardian_requests_total{{route="{route}"}}', "values": "0+50x120"},
                {"series": f'guardian_requests_total{{route="{route}",error_type="{error_type}"}}',
                 "values": "0+50x120"}]

    def alert(rule: dict, route: str) -> dict:
        return {"exp_labels": {**rule["labels"], "route": route},
                "exp_annotations": _annotations(rule, {"route": route})}

    tests = {"rule_files": ["rules.yaml"], "evaluation_interval": "1m", "tests": [{
        "interval": "1m",
        "input_series": [*case("deadline", "deadline_exceeded"),
                         *case("hangup", "client_disconnected"),
                         *case("fault", "upstream_refused")],
        "alert_rule_test": [{"eval_time": "70m", "alertname": "GuardianErrorsBudgetBurn",
                             "exp_alerts": [alert(page, "fault"), alert(ticket, "fault")]}],
    }]}
    (tmp_path / "rules_test.yaml").write_text(yaml.safe_dump(tests, sort_keys=False))
    out = subprocess.run([PROMTOOL, "test", "rules", "rules_test.yaml"], cwd=tmp_path,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
