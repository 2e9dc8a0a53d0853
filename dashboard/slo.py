"""SLO arithmetic: targets, error budget and multiwindow, multi-burn-rate alerts.

Pure functions, no Streamlit and no database, so the alerting logic is unit-tested on its own.

Definitions (Google SRE workbook, ch. 5 "Alerting on SLOs"):

* an SLI event is a served request; it is *good* when its end-to-end latency is within
  `good_latency_s` and its time to first token within `good_ttft_s`;
* the SLO `objective` (e.g. 0.99) leaves an error budget of `1 - objective` bad requests;
* the burn rate over a window = (bad / total in that window) / (1 - objective): 1.0 spends the
  budget exactly over the SLO period, 14.4 spends 2 % of a 30-day budget in one hour;
* an alert fires only when BOTH its long and its short window burn faster than its threshold:
  the long window gives significance, the short one makes the alert stop soon after recovery.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import timedelta
from typing import Any, Literal

Severity = Literal["page", "ticket"]


@dataclass(frozen=True)
class SloTargets:
    """Latency/TTFT targets. Read from the policy's `slo:` section when it has one."""

    latency_p50_s: float = 1.0
    latency_p95_s: float = 2.5
    latency_p99_s: float = 5.0
    ttft_p50_s: float = 0.2
    ttft_p95_s: float = 0.5
    ttft_p99_s: float = 1.0
    # A request is "good" for the error budget when both hold (p95 targets by default:
    # tighter thresholds make the budget burn on tail noise, looser ones hide regressions).
    good_latency_s: float = 2.5
    good_ttft_s: float = 0.5
    objective: float = 0.99
    period_days: int = 30

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any] | None) -> SloTargets:
        """Targets from a policy's `slo` mapping; unknown keys are ignored, missing ones default."""
        if not raw:
            return cls()
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in raw.items() if k in names})

    @property
    def budget(self) -> float:
        """Fraction of requests allowed to be bad."""
        return 1.0 - self.objective


@dataclass(frozen=True)
class BurnRateRule:
    """One row of the SRE workbook's multiwindow, multi-burn-rate table."""

    severity: Severity
    long_window: timedelta
    short_window: timedelta
    burn_rate: float

    @property
    def budget_consumed(self) -> float:
        """Fraction of a 30-day budget spent when the long window burns at `burn_rate`."""
        return self.burn_rate * self.long_window / timedelta(days=30)

    @property
    def label(self) -> str:
        return f"{self.burn_rate:g}× over {_fmt(self.long_window)} and {_fmt(self.short_window)}"


# Exactly the table of issue #6 (SRE workbook, table 5-8 plus its 3× / 1 d ticket row).
BURN_RATE_RULES: tuple[BurnRateRule, ...] = (
    BurnRateRule("page", timedelta(hours=1), timedelta(minutes=5), 14.4),
    BurnRateRule("page", timedelta(hours=6), timedelta(minutes=30), 6.0),
    BurnRateRule("ticket", timedelta(days=1), timedelta(hours=2), 3.0),
    BurnRateRule("ticket", timedelta(days=3), timedelta(hours=6), 1.0),
)

ALERT_WINDOWS: tuple[timedelta, ...] = tuple(sorted(
    {w for r in BURN_RATE_RULES for w in (r.long_window, r.short_window)}))


def _fmt(w: timedelta) -> str:
    s = int(w.total_seconds())
    if s % 86400 == 0:
        return f"{s // 86400}d"
    if s % 3600 == 0:
        return f"{s // 3600}h"
    return f"{s // 60}m"


def burn_rate(bad: int, total: int, budget: float) -> float:
    """(bad / total) / budget; 0.0 for an empty window (no traffic burns no budget)."""
    if budget <= 0:
        raise ValueError("the SLO objective must be below 1.0 to leave an error budget")
    return (bad / total) / budget if total else 0.0


def error_budget_remaining(bad: int, total: int, budget: float) -> float:
    """Fraction of the period's error budget left (negative once overspent; 1.0 with no traffic)."""
    return 1.0 - burn_rate(bad, total, budget)


@dataclass(frozen=True)
class AlertStatus:
    rule: BurnRateRule
    long_burn: float
    short_burn: float
    long_total: int
    short_total: int

    @property
    def firing(self) -> bool:
        return self.long_burn >= self.rule.burn_rate and self.short_burn >= self.rule.burn_rate


def evaluate_alerts(window_counts: Mapping[timedelta, tuple[int, int]], budget: float,
                    rules: tuple[BurnRateRule, ...] = BURN_RATE_RULES) -> list[AlertStatus]:
    """Alert status of every rule from (bad, total) counts per trailing window."""
    out = []
    for rule in rules:
        lb, lt = window_counts.get(rule.long_window, (0, 0))
        sb, st = window_counts.get(rule.short_window, (0, 0))
        out.append(AlertStatus(rule, burn_rate(lb, lt, budget), burn_rate(sb, st, budget), lt, st))
    return out


def speedup(target_s: float, target_tokens: int, spec_s: float, spec_tokens: int) -> float | None:
    """Speculative over target-only: ratio of seconds per emitted token (None without data)."""
    if not (target_tokens and spec_tokens and target_s > 0 and spec_s > 0):
        return None
    return (target_s / target_tokens) / (spec_s / spec_tokens)


def percentile(values: list[float], q: float) -> float | None:
    """Linear-interpolation percentile (same as Postgres percentile_cont), q in [0, 1]."""
    if not values:
        return None
    xs = sorted(values)
    pos = q * (len(xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)
