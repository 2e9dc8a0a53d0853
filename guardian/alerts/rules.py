"""Prometheus recording and alerting rules, generated from a policy (`guardian alerts rules`).

Three groups, over the series the sidecar's `/metrics` exports (names: `guardian.observability.telemetry`):

1. **SLO burn rates** (the SRE workbook's multiwindow, multi-burn-rate alerts), from the
   policy's `slo:` section, per route. Three SLIs, each with the policy's `objective`:
   - latency: a request is good when its duration is within `good_latency_s`;
   - time to first token: good within `good_ttft_s`;
   - errors: a request is good when it did not fail (`guardian_requests_total{error_type}`)
     for a reason of the sidecar's: outcomes the caller caused (`CALLER_CAUSED`: it hung up,
     its own `X-Guardian-Deadline-Ms` passed, or it already held its `max_queue_per_key`)
     are not failures, or any inference key
     could page on-call at will (a 1 ms deadline fails every request it sends). A deadline
     passed because the sidecar was slow still shows, in the latency SLI.
   The latency thresholds are read off the histograms, so each is rounded UP to the next
   bucket boundary (`bucket_bound`; 2.5 s -> 2.56 s with the GenAI buckets): the rule's
   annotations name the bound actually used. Bad-ratio recording rules
   `guardian:slo_<sli>_bad_ratio:rate<w>` for the windows 5m 30m 1h 2h 6h 1d 3d, then:
   page when 2 % of the budget burns in 1 h (long 1h / short 5m) or 5 % in 6 h (6h / 30m);
   ticket when 10 % burns in 1 d (1d / 2h) or in 3 d (3d / 6h). Burn-rate factors are
   computed for the policy's `period_days` (14.4 / 6 / 3 / 1 for 30 days).
2. **Governance**: a route rolled back by a trigger (page), a trigger failing (warning), the
   analysis failing (warning), speculation silently stopped on a speculative route
   (`GuardianSpeculationSilent`, warning: guardian.governance.silent), a canary aborted
   (warning).
3. **Audit health**: the audit database not accepting writes (page), audit events lost or
   sealed records dropped / quarantined (page: `guardian_audit_dropped_events_total`,
   `guardian_audit_records_total`, exported by the audit writer), records spooled on local
   disk for long (ticket).

Plus recording rules for vLLM-style ratios over `vllm:spec_decode_*` (acceptance rate, mean
acceptance length), for dashboards.
"""

from __future__ import annotations

from typing import Any

import yaml

from guardian.observability.telemetry import DURATION_BUCKETS, TTFT_BUCKETS
from guardian.policy import Policy

WINDOWS = ("5m", "30m", "1h", "2h", "6h", "1d", "3d")
WINDOW_HOURS = {"5m": 5 / 60, "30m": 0.5, "1h": 1, "2h": 2, "6h": 6, "1d": 24, "3d": 72}
# (severity, long window, short window, share of the budget burnt over the long window)
BURN_ALERTS = (("page", "1h", "5m", 0.02), ("page", "6h", "30m", 0.05),
               ("ticket", "1d", "2h", 0.10), ("ticket", "3d", "6h", 0.10))

DURATION = "gen_ai_server_request_duration_seconds"
TTFT = "gen_ai_server_time_to_first_token_seconds"
REQUESTS = "guardian_requests_total"
# `error_type` values of outcomes the caller caused (guardian.observability.telemetry.error_kind).
CALLER_CAUSED = ("client_disconnected", "deadline_exceeded", "key_queue_full")


def bucket_bound(threshold: float, buckets: list[float]) -> float:
    """The smallest histogram bucket bound >= `threshold` (the SLI can only be read there)."""
    for b in buckets:
        if b >= threshold - 1e-12:
            return float(b)
    raise ValueError(f"SLO threshold {threshold} s is above the histogram's largest bucket "
                     f"{buckets[-1]} s")


def le(bound: float) -> str:
    return str(float(bound))  # how the exporter writes `le` (e.g. "2.56", "1.0")


def burn_factor(share: float, window: str, period_days: int) -> float:
    """Burn rate at which `share` of the period's budget is spent in `window`."""
    return round(share * period_days * 24 / WINDOW_HOURS[window], 4)


def _bad_ratio(sli: str, w: str, bounds: dict[str, float]) -> str:
    if sli == "errors":
        caller = "|".join(CALLER_CAUSED)
        return (f'sum by (route) (rate({REQUESTS}{{error_type!="",error_type!~"{caller}"}}'
                f"[{w}]))\n"
                f"/\nsum by (route) (rate({REQUESTS}[{w}]))")
    metric = DURATION if sli == "latency" else TTFT
    return (f'1 - (\n  sum by (route) (rate({metric}_bucket{{le="{le(bounds[sli])}"}}[{w}]))\n'
            f"  /\n  sum by (route) (rate({metric}_count[{w}]))\n)")


def slo_groups(policy: Policy) -> list[dict[str, Any]]:
    slo = policy.slo
    budget = round(1 - slo.objective, 10)
    bounds = {"latency": bucket_bound(slo.good_latency_s, DURATION_BUCKETS),
              "ttft": bucket_bound(slo.good_ttft_s, TTFT_BUCKETS)}
    what = {"latency": f"request duration <= {bounds['latency']:g} s "
                       f"(policy good_latency_s {slo.good_latency_s:g})",
            "ttft": f"time to first token <= {bounds['ttft']:g} s "
                    f"(policy good_ttft_s {slo.good_ttft_s:g})",
            "errors": "request did not fail (a client that hung up or its own deadline "
                      "passing is not a failure)"}
    records = [{"record": f"guardian:slo_{sli}_bad_ratio:rate{w}", "expr": _bad_ratio(sli, w, bounds)}
               for sli in ("latency", "ttft", "errors") for w in WINDOWS]
    alerts = []
    for sli, title in (("latency", "Latency"), ("ttft", "Ttft"), ("errors", "Errors")):
        for severity in ("page", "ticket"):
            parts = []
            for sev, long_w, short_w, share in BURN_ALERTS:
                if sev != severity:
                    continue
                factor = burn_factor(share, long_w, slo.period_days)
                parts.append(f"(\n  guardian:slo_{sli}_bad_ratio:rate{long_w} > ({factor} * {budget})\n"
                             f"  and\n  guardian:slo_{sli}_bad_ratio:rate{short_w} > "
                             f"({factor} * {budget})\n)")
            alerts.append({
                "alert": f"Guardian{title}BudgetBurn",
                "expr": "\nor\n".join(parts),
                "labels": {"severity": severity, "slo": sli},
                "annotations": {
                    "summary": f"route {{{{ $labels.route }}}} burns its {sli} error budget "
                               f"({severity})",
                    "description": f"SLI: {what[sli]}; objective {slo.objective:g} over "
                                   f"{slo.period_days} days (budget {budget:g}). Windows: "
                                   + ", ".join(f"{lw}/{sw} at {burn_factor(sh, lw, slo.period_days)}x"
                                               for sv, lw, sw, sh in BURN_ALERTS if sv == severity)}})
    return [{"name": "spec-guardian-slo-recording", "rules": records},
            {"name": "spec-guardian-slo-alerts", "rules": alerts}]


def governance_group() -> dict[str, Any]:
    return {"name": "spec-guardian-governance", "rules": [
        {"alert": "GuardianRouteRolledBack", "expr": "guardian_route_rolled_back == 1",
         "labels": {"severity": "page"},
         "annotations": {"summary": "route {{ $labels.route }} was rolled back to target_only "
                                    "by a trigger",
                         "description": "Speculation is off on this route until someone "
                                        "re-enables it (guardian route enable). The rollback's "
                                        "evidence is in the audit log (guardian audit show)."}},
        {"alert": "GuardianTriggerFailing", "expr": "guardian_trigger_failing == 1", "for": "2m",
         "labels": {"severity": "warning"},
         "annotations": {"summary": "trigger {{ $labels.trigger }} fails on route "
                                    "{{ $labels.route }}",
                         "description": "It fires (rolls the route back) after its "
                                        "failure_limit consecutive failing evaluations."}},
        {"alert": "GuardianAnalysisFailing", "expr": 'guardian_analysis_verdict{verdict="fail"} == 1',
         "for": "5m", "labels": {"severity": "warning"},
         "annotations": {"summary": "analysis of route {{ $labels.route }} fails",
                         "description": "Rollout controllers reading /v1/analysis see `fail`."}},
        {"alert": "GuardianSpeculationSilent", "expr": "guardian_speculation_silent == 1",
         "labels": {"severity": "warning"},
         "annotations": {"summary": "route {{ $labels.route }} is labelled speculative but "
                                    "{{ $labels.kind }} (reason: {{ $labels.reason }})",
                         "description": "Its last triggers.silent_window served requests "
                                        "proposed no draft token, or accepted none: it serves "
                                        "at target-only speed under a speculative label. "
                                        "depth_cap: the batch's depth cap answers 0 "
                                        "(GET /admin/speculation); load_shed: the serving "
                                        "queue is deep; unsupported_proposer: the backend "
                                        "cannot speculate with the route's proposer."}},
        {"alert": "GuardianCanaryAborted", "expr": "guardian_canary_step == -1",
         "labels": {"severity": "warning"},
         "annotations": {"summary": "the canary of route {{ $labels.route }} was aborted",
                         "description": "guardian canary status shows who and why."}},
    ]}


def audit_group() -> dict[str, Any]:
    return {"name": "spec-guardian-audit", "rules": [
        {"alert": "GuardianAuditDatabaseDown", "expr": "guardian_audit_db_up == 0", "for": "2m",
         "labels": {"severity": "page"},
         "annotations": {"summary": "the audit database does not accept writes",
                         "description": "Serving goes on; audit records are spooled on local "
                                        "disk ({{ $value }}) and replayed when it answers."}},
        {"alert": "GuardianAuditEventsLost",
         "expr": "sum by (reason) (increase(guardian_audit_dropped_events_total[10m])) > 0",
         "labels": {"severity": "page"},
         "annotations": {"summary": "audit events were lost ({{ $labels.reason }})",
                         "description": "{{ $value }} events in 10 minutes; each loss is "
                                        "declared in an audit_gap record (guardian audit "
                                        "verify)."}},
        {"alert": "GuardianAuditRecordsRejected",
         "expr": 'sum by (outcome) (increase(guardian_audit_records_total{outcome=~"dropped|'
                 'quarantined"}[10m])) > 0',
         "labels": {"severity": "page"},
         "annotations": {"summary": "sealed audit records were {{ $labels.outcome }}",
                         "description": "{{ $value }} records in 10 minutes."}},
        {"alert": "GuardianAuditSpoolBacklog", "expr": "guardian_audit_spool_bytes > 0",
         "for": "30m", "labels": {"severity": "ticket"},
         "annotations": {"summary": "audit records have waited on local disk for 30 minutes",
                         "description": "{{ $value }} bytes spooled; the disk may fill."}},
    ]}


def spec_decode_group() -> dict[str, Any]:
    acc = "vllm:spec_decode_num_accepted_tokens_total"
    return {"name": "spec-guardian-spec-decode", "rules": [
        {"record": "guardian:spec_decode_acceptance_rate:rate5m",
         "expr": f"sum by (route) (rate({acc}[5m]))\n/\n"
                 "sum by (route) (rate(vllm:spec_decode_num_draft_tokens_total[5m]))"},
        {"record": "guardian:spec_decode_mean_acceptance_length:rate5m",
         "expr": f"1 + sum by (route) (rate({acc}[5m]))\n/\n"
                 "sum by (route) (rate(vllm:spec_decode_num_drafts_total[5m]))"},
    ]}


def rules(policy: Policy) -> dict[str, Any]:
    return {"groups": [*slo_groups(policy), governance_group(), audit_group(),
                       spec_decode_group()]}


class _Literal(str):
    pass


def _literal(dumper: yaml.SafeDumper, data: _Literal) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|")


def render(policy: Policy) -> str:
    """The rules file as YAML (multi-line expressions as block scalars)."""
    doc = rules(policy)
    for group in doc["groups"]:
        for rule in group["rules"]:
            if "\n" in rule["expr"]:
                rule["expr"] = _Literal(rule["expr"])
    dumper = type("RulesDumper", (yaml.SafeDumper,), {})
    dumper.add_representer(_Literal, _literal)
    header = (f"# Generated by `guardian alerts rules` from policy {policy.content_hash[:12]};\n"
              "# regenerate when the policy's slo: section changes.\n")
    return header + yaml.dump(doc, Dumper=dumper, sort_keys=False, width=100)
