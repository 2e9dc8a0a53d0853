"""Derived frames of the dashboard: pure pandas (and `engine.metrics` /
`guardian.governance.cost` arithmetic) over the cached query results, no database access.
(Split out of `dashboard.data`, which re-exports these names.)
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pandas as pd

from dashboard.drift import DriftThresholds, scores
from dashboard.slo import AlertStatus, SloTargets, evaluate_alerts, speedup
from engine.metrics import SpecCounters
from guardian.governance.cost import Paired, Usage
from guardian.governance.cost import figures as cost_figures_of


def counters(row: Any) -> SpecCounters:
    """The summed stored counters of one `acceptance_bins` row (or of a column sum)."""
    return SpecCounters(proposed=int(row["proposed"]), judged=int(row["judged"]),
                        accepted=int(row["accepted"]), steps=int(row["steps"]))


def acceptance_series(bins: pd.DataFrame) -> pd.DataFrame:
    """Per bucket: acceptance_rate (accepted / proposed), alpha (accepted / judged) and mean
    acceptance length (1 + accepted / steps) of the summed counters, from `engine.metrics`;
    None where the bucket has no denominator (nothing to plot, not a rate of 0)."""
    cols = ["bucket", "route", "pair_hash", "runs", "acceptance_rate", "alpha",
            "mean_acceptance_length"]
    if bins.empty:
        return pd.DataFrame(columns=cols)
    g = bins.copy()
    c = [counters(row) for _, row in g.iterrows()]
    g["acceptance_rate"] = [x.acceptance_rate if x.proposed else None for x in c]
    g["alpha"] = [x.alpha if x.judged else None for x in c]
    g["mean_acceptance_length"] = [x.mean_acceptance_length if x.steps else None for x in c]
    return g[cols]


def drift_series(hist: pd.DataFrame, thresholds: DriftThresholds) -> pd.DataFrame:
    """JS divergence and PSI of each bucket's accepted-length histogram vs the reference.

    Per route · pair, the reference window is the earliest buckets of the range holding
    `reference_size` steps (like the trigger's "first steps after (re-)enabling"); later
    buckets with at least `min_samples` steps are scored against it.
    """
    cols = ["bucket", "route", "pair_hash", "steps", "js_divergence", "psi", "reference"]
    out: list[dict[str, Any]] = []
    for (route, pair), grp in hist.groupby(["route", "pair_hash"]):
        ref: dict[int, float] = {}
        for b, rows in grp.groupby("bucket"):
            counts = dict(zip(rows["length"].astype(int), rows["steps"], strict=True))
            n = float(sum(counts.values()))
            row = {"bucket": b, "route": route, "pair_hash": pair, "steps": n,
                   "js_divergence": None, "psi": None, "reference": False}
            if sum(ref.values()) < thresholds.reference_size:
                for k, v in counts.items():
                    ref[k] = ref.get(k, 0.0) + v
                row["reference"] = True
            elif n >= thresholds.min_samples:
                row["js_divergence"], row["psi"] = scores(ref, counts)
            out.append(row)
    return pd.DataFrame(out, columns=cols)



def _usage(rows: pd.DataFrame, path: str) -> Usage:
    part = rows[rows["served_path"] == path]
    known = part["forward_requests"] if "forward_requests" in part else part["requests"]
    tokens = part["forward_tokens"] if "forward_tokens" in part else part["output_tokens"]
    return Usage(int(part["requests"].sum()), float(part["output_tokens"].sum()),
                 float(part["target_forwards"].sum()), float(part["seconds"].sum()),
                 int(known.sum()), float(tokens.sum()))


def _paired(rows: pd.DataFrame) -> Paired:
    return Paired(int(rows["pairs"].sum()), float(rows["target_s"].sum()),
                  float(rows["target_tokens"].sum()), float(rows["spec_s"].sum()),
                  float(rows["spec_tokens"].sum()))


def cost_figures(usage: pd.DataFrame, paired: pd.DataFrame, pool_hour: float | None,
                 keys: tuple[str, ...] = ("route", "pair_hash")) -> pd.DataFrame:
    """`guardian.governance.cost.figures` per group of `keys` (() = one row for all)."""
    cols = [*keys, "requests", "spec_requests", "forwards_per_request",
            "baseline_forwards_per_request", "forwards_saved", "seconds_per_token",
            "baseline_seconds_per_token", "cost_per_token", "baseline_cost_per_token",
            "speedup", "spend", "saving"]
    if usage.empty:
        return pd.DataFrame(columns=cols)
    groups = usage.groupby(list(keys)) if keys else [((), usage)]
    out = []
    for key, rows in groups:
        key = key if isinstance(key, tuple) else (key,)
        sel = paired
        for k, v in zip(keys, key, strict=True):
            sel = sel[sel[k] == v] if not sel.empty else sel
        f = cost_figures_of(_usage(rows, "speculative"), _usage(rows, "target_only"),
                            _paired(sel) if not sel.empty else Paired(), pool_hour)
        out.append({**dict(zip(keys, key, strict=True)), "requests": f.requests,
                    "spec_requests": f.spec_requests,
                    "forwards_per_request": f.forwards_per_request,
                    "baseline_forwards_per_request": f.baseline_forwards_per_request,
                    "forwards_saved": f.forwards_saved, "seconds_per_token": f.seconds_per_token,
                    "baseline_seconds_per_token": f.baseline_seconds_per_token,
                    "cost_per_token": f.cost_per_token,
                    "baseline_cost_per_token": f.baseline_cost_per_token, "speedup": f.speedup,
                    "spend": f.spend, "saving": f.saving})
    return pd.DataFrame(out, columns=cols)


def cost_trend(usage: pd.DataFrame, paired: pd.DataFrame, pool_hour: float | None) -> pd.DataFrame:
    """Per bucket: cost (or pool-seconds without a price) per 1,000 output tokens as served and
    for target-only decoding (shadow-measured), long format: bucket, series, value."""
    per_bucket = cost_figures(usage, paired, pool_hour, keys=("bucket",))
    price = pool_hour if pool_hour is not None else 3600.0  # pool-seconds without a price
    rows = []
    for _, r in per_bucket.iterrows():
        for name, col in (("as served", "seconds_per_token"),
                          ("target-only baseline", "baseline_seconds_per_token")):
            if r[col] is not None and pd.notna(r[col]):
                rows.append({"bucket": r["bucket"], "series": name,
                             "value": float(r[col]) * price / 3600.0 * 1000.0})
    return pd.DataFrame(rows, columns=["bucket", "series", "value"])


def slo_alerts(counts: dict[timedelta, tuple[int, int]], targets: SloTargets) -> list[AlertStatus]:
    return evaluate_alerts(counts, targets.budget)


def speedup_from(speed: dict[str, float]) -> float | None:
    return speedup(speed["target_s"], int(speed["target_tokens"]), speed["spec_s"],
                   int(speed["spec_tokens"]))


def speedup_delta(gain: float | None) -> str | None:
    """A speedup's delta for `st.metric`: "+12% vs target-only" (faster: green) or "-6% vs
    target-only" (speculation slower than the target alone: red). A bare "0.94x" did not say
    that it is a slowdown."""
    if gain is None or pd.isna(gain):
        return None
    return f"{gain - 1.0:+.0%} vs target-only"


def saving_of(saving: object, seconds_per_token: object, baseline_seconds_per_token: object
              ) -> float | None:
    """The saving vs target-only: `cost.figures`' (None without a pool-hour price), else the
    same ratio from seconds per output token, which the price cancels out of:
    1 - served s/token / target-only s/token."""
    if saving is not None and not pd.isna(saving):
        return float(saving)
    if (seconds_per_token is None or baseline_seconds_per_token is None
            or pd.isna(seconds_per_token) or pd.isna(baseline_seconds_per_token)
            or not baseline_seconds_per_token):
        return None
    return 1.0 - float(seconds_per_token) / float(baseline_seconds_per_token)


def side_by_side(tokens: pd.DataFrame, served_path: str, shadow_path: str, cap: int,
                 first_difference: int | None) -> pd.DataFrame:
    """Served and shadow tokens as rows "target-only" / "speculative", up to the shadow cap.

    Columns: path, position, token (id, else hash prefix, else "·"), origin, differs. Tokens are
    compared where both paths stored ids; the audit store keeps shadow tokens without ids, so
    otherwise `differs` marks the positions from the verdict's first difference on.
    """
    cols = ["path", "position", "token", "origin", "differs"]
    if tokens.empty:
        return pd.DataFrame(columns=cols)
    label = {"target_only": "target-only", "speculative": "speculative", "external": "external"}
    df = tokens[tokens["position"] < cap].copy()
    df["path"] = df["source"].map({"served": label.get(served_path, served_path),
                                   "shadow": label.get(shadow_path, shadow_path)})
    # No token_id column for a metadata-only session (dashboard.auth): hashes or "·" only.
    ids = df["token_id"] if "token_id" in df else pd.Series(None, index=df.index, dtype=object)
    df["token"] = [str(int(i)) if pd.notna(i) else (h[:6] if isinstance(h, str) else "·")
                   for i, h in zip(ids, df["token_hash"], strict=True)]
    known = df[df["token"] != "·"].pivot_table(index="position", columns="source", values="token",
                                               aggfunc="first")
    if {"served", "shadow"} <= set(known.columns):
        differ = known["served"] != known["shadow"]
        df["differs"] = df["position"].map(differ).fillna(True).astype(bool)
    else:
        df["differs"] = (df["position"] >= first_difference) if first_difference is not None \
            else False
    order = {"target-only": 0, "speculative": 1}
    df = df.sort_values(["path", "position"], key=lambda s: s.map(order) if s.name == "path" else s)
    return df[cols].reset_index(drop=True)


def evidence_frame(evidence: dict[str, Any]) -> pd.DataFrame:
    """A rollback's evidence (trigger name -> measurement dict) as one row per measurement."""
    rows = [{"trigger": name, "measurement": m.get("name"), "outcome": m.get("outcome"),
             "value": m.get("value"), "threshold": m.get("threshold"), "samples": m.get("samples")}
            for name, m in evidence.items() if isinstance(m, dict)]
    return pd.DataFrame(rows)


def drift_firings(rollbacks: pd.DataFrame) -> pd.DataFrame:
    """The drift measurements in rollback evidence, newest first: at, route, trigger,
    statistic (the measurement's name), value / threshold (what the trigger compared), js /
    max_js and psi / max_psi where the measurement reports them, samples, fired (the trigger
    is among those that fired). Read by shape (`name`, `value`, `threshold`, `details`), so a
    new drift statistic shows up without a dashboard change."""
    cols = ["at", "route", "trigger", "statistic", "fired", "outcome", "value", "threshold",
            "js", "max_js", "psi", "max_psi", "samples"]
    rows = []
    for _, ev in rollbacks.iterrows():
        details = ev["details"] if isinstance(ev["details"], dict) else {}
        fired = set(details.get("fired") or [])
        for trigger, m in (details.get("evidence") or {}).items():
            if not isinstance(m, dict) or not (str(trigger).startswith("drift")
                                               or str(m.get("name", "")).endswith("drift")):
                continue
            d = m.get("details") if isinstance(m.get("details"), dict) else {}
            rows.append({"at": ev["created_at"], "route": ev["route"], "trigger": trigger,
                         "statistic": m.get("name") or trigger, "fired": trigger in fired,
                         "outcome": m.get("outcome"), "value": m.get("value"),
                         "threshold": m.get("threshold"), "js": d.get("js_bits"),
                         "max_js": m.get("threshold") if "js_bits" in d else None,
                         "psi": d.get("psi"), "max_psi": d.get("max_psi"),
                         "samples": m.get("samples")})
    df = pd.DataFrame(rows, columns=cols)
    return df.sort_values("at", ascending=False, kind="stable") if not df.empty else df


def label_groups(df: pd.DataFrame) -> pd.DataFrame:
    """Adds `group` = "route · pair…" (the legend of per-route, per-pair charts)."""
    df = df.copy()
    df["group"] = df["route"] + " · " + df["pair_hash"].map(short_hash)
    return df


def short_hash(h: object, n: int = 12) -> str:
    """A hash's first `n` characters; "—" for None / NaN / "" (pandas turns None into NaN)."""
    if not isinstance(h, str) or not h:
        return "—"
    return h if len(h) <= n else h[:n] + "…"
