"""Plain aggregate queries behind the dashboard: SQLAlchemy Core over the audit models.

Every function takes the audit database (`db`, a SQLAlchemy Engine) and plain filter values
and returns a pandas DataFrame or plain values, so `dashboard.data` can cache it with
`st.cache_data` and tests can call it directly.
Aggregation happens in SQL (time buckets, sums, percentiles on Postgres); no page ever loads
per-token rows except for the one request it shows. The per-token table is only read by
request id (index `ix_audit_tokens_request`), so pages stay fast however many tokens are stored.

What a request said is selected only when the caller may read it (`text=True`: compliance and
admin, see `dashboard.auth`): otherwise the `TEXT_COLUMNS` are left out of the SELECT itself,
so no cache, frame or page of a metadata-only session ever holds them.

Shared SQL pieces: `dashboard.sql`. Record-level and registry queries (audit explorer,
pairs, governance log, policies, known routes): `dashboard.records`, re-exported here.

Same SQL on SQLite and Postgres, except: time buckets (epoch arithmetic differs), floor, and
percentiles (Postgres `percentile_cont`; on SQLite the values of the window are fetched and
pandas computes the same linear-interpolation percentile).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy import Engine

from dashboard.drift import accepted_lengths
from dashboard.records import TEXT_COLUMNS as TEXT_COLUMNS
from dashboard.records import governance as governance
from dashboard.records import known_routes as known_routes
from dashboard.records import model_pairs as model_pairs
from dashboard.records import policy_loads as policy_loads
from dashboard.records import policy_usage as policy_usage
from dashboard.records import policy_versions as policy_versions
from dashboard.records import request_detail as request_detail
from dashboard.records import request_tokens as request_tokens
from dashboard.records import search_requests as search_requests
from dashboard.records import table_frame as table_frame
from dashboard.slo import SloTargets
from dashboard.sql import (
    QUANTILES,
    R,
    S,
    _frame,
    _pg,
    _to_ts,
    _where,
    bucket_expr,
    latency_expr,
    ttft_expr,
)
from engine import metrics


# --- SLOs ---------------------------------------------------------------------------------
def latency_series(db: Engine, since: datetime, until: datetime, routes: Sequence[str],
                   bucket_s: int) -> pd.DataFrame:
    """Per bucket: requests and p50/p95/p99 of end-to-end latency and ttft_expr (seconds).

    `bucket_s=0` gives one row for the whole window (bucket = `since`).
    """
    names = [f"{m}_p{round(q * 100)}" for m in ("latency", "ttft") for q in QUANTILES]
    b = (bucket_expr(db, R.c.created_at, bucket_s) if bucket_s
         else sa.literal(int(since.timestamp()), sa.BigInteger))
    where = _where(R, since, until, routes)
    if _pg(db):
        cols = [sa.func.percentile_cont(q).within_group(x).label(n)
                for x, m in ((latency_expr, "latency"), (ttft_expr, "ttft")) for q in QUANTILES
                for n in [f"{m}_p{round(q * 100)}"]]
        q = (sa.select(b.label("bucket"), sa.func.count().label("requests"), *cols)
             .where(*where).group_by(sa.text("1")).order_by(sa.text("1")))
        df = _frame(db, q)
    else:
        raw = _frame(db, sa.select(b.label("bucket"), latency_expr.label("latency"),
                                       ttft_expr.label("ttft")).where(*where))
        if raw.empty:
            df = pd.DataFrame(columns=["bucket", "requests", *names])
        else:
            g = raw.groupby("bucket")
            df = g.size().rename("requests").to_frame()
            for m in ("latency", "ttft"):
                for q in QUANTILES:
                    df[f"{m}_p{round(q * 100)}"] = g[m].quantile(q)
            df = df.reset_index()
    for n in names:
        df[n] = df[n].astype(float)
    return _to_ts(df)


def slo_window_counts(db: Engine, now: datetime, routes: Sequence[str], targets: SloTargets,
                      windows: Sequence[timedelta]) -> dict[timedelta, tuple[int, int]]:
    """(bad, total) requests in each trailing window ending at `now`, in one scan."""
    bad = sa.or_(latency_expr > targets.good_latency_s, ttft_expr > targets.good_ttft_s)
    cols: list[Any] = []
    for w in windows:
        inside = R.c.created_at >= now - w
        cols += [sa.func.coalesce(sa.func.sum(sa.case((sa.and_(inside, bad), 1), else_=0)), 0),
                 sa.func.coalesce(sa.func.sum(sa.case((inside, 1), else_=0)), 0)]
    q = sa.select(*cols).where(*_where(R, now - max(windows), now, routes))
    with db.connect() as conn:
        row = conn.execute(q).one()
    return {w: (int(row[2 * i]), int(row[2 * i + 1])) for i, w in enumerate(windows)}


def shadow_speed(db: Engine, since: datetime, until: datetime,
                 routes: Sequence[str]) -> dict[str, float]:
    """Engine seconds and tokens of target-only and speculative runs of the same shadowed
    requests (served path from the request's stats, the other from the shadow's)."""
    served_s, served_n = R.c.stats["total_time_s"].as_float(), R.c.stats["completion_tokens"].as_float()
    sh_s = S.c.stats[("shadow_stats", "total_time_s")].as_float()
    sh_n = S.c.stats[("shadow_stats", "completion_tokens")].as_float()
    q = (sa.select(S.c.shadow_path, sa.func.sum(served_s), sa.func.sum(served_n),
                   sa.func.sum(sh_s), sa.func.sum(sh_n), sa.func.count())
         .join(R, R.c.request_id == S.c.request_id)
         .where(*_where(S, since, until, routes), sh_s.is_not(None))
         .group_by(S.c.shadow_path))
    out = {"target_s": 0.0, "target_tokens": 0.0, "spec_s": 0.0, "spec_tokens": 0.0, "pairs": 0}
    with db.connect() as conn:
        for path, rs, rn, ss, sn, n in conn.execute(q):
            # shadow_path is the path that ran in shadow; the served one is the other.
            t, s = ((rs, rn), (ss, sn)) if path == "speculative" else ((ss, sn), (rs, rn))
            out["target_s"] += t[0] or 0.0
            out["target_tokens"] += t[1] or 0.0
            out["spec_s"] += s[0] or 0.0
            out["spec_tokens"] += s[1] or 0.0
            out["pairs"] += n
    return out


# --- acceptance & drift -------------------------------------------------------------------
def _counter_columns(stats: Any, *prefix: str) -> list[Any]:
    """The stored speculative counters of a stats JSON column (`engine.metrics.SpecCounters.
    from_stats` in SQL): records older than `proposed_tokens` / `judged_tokens` carry only
    `draft_tokens`, which stands in for both."""
    def key(name: str) -> Any:
        return stats[(*prefix, name) if prefix else name].as_float()

    legacy = key("draft_tokens")
    return [sa.func.coalesce(key("proposed_tokens"), legacy).label("proposed"),
            sa.func.coalesce(key("judged_tokens"), legacy).label("judged"),
            key("accepted").label("accepted"), key("steps").label("steps")]


COUNTERS = ("proposed", "judged", "accepted", "steps")


def acceptance_bins(db: Engine, since: datetime, until: datetime, routes: Sequence[str],
                    bucket_s: int) -> pd.DataFrame:
    """Per (bucket, route, pair_hash): speculative runs and their summed stored counters
    (proposed, judged, accepted, steps); ratios come from `engine.metrics` downstream.

    Speculative runs are served speculative requests plus speculative shadow runs (disjoint:
    a request served speculatively is shadowed target-only).
    """
    served = (sa.select(bucket_expr(db, R.c.created_at, bucket_s).label("bucket"),
                        R.c.route, R.c.pair_hash, *_counter_columns(R.c.stats))
              .where(*_where(R, since, until, routes), R.c.served_path == "speculative"))
    shadow = (sa.select(bucket_expr(db, S.c.created_at, bucket_s).label("bucket"),
                        S.c.route, S.c.pair_hash, *_counter_columns(S.c.stats, "shadow_stats"))
              .where(*_where(S, since, until, routes), S.c.shadow_path == "speculative"))
    u = sa.union_all(served, shadow).subquery()
    q = (sa.select(u.c.bucket, u.c.route, u.c.pair_hash, sa.func.count().label("runs"),
                   *[sa.func.coalesce(sa.func.sum(u.c[c]), 0).label(c) for c in COUNTERS])
         .group_by(u.c.bucket, u.c.route, u.c.pair_hash)
         .order_by(u.c.bucket))
    df = _frame(db, q)
    for c in COUNTERS:
        df[c] = df[c].astype(float)
    return _to_ts(df)


def _position_counters(db: Engine, since: datetime, until: datetime, routes: Sequence[str],
                       bucket_s: int) -> list[tuple[int, str, str, list[float], list[float]]]:
    """(bucket, route, pair, drafted_per_position, accepted_per_position) of speculative runs.

    JSON arrays are summed in Python: one small array per run, no per-token rows.
    """
    served = (sa.select(bucket_expr(db, R.c.created_at, bucket_s), R.c.route, R.c.pair_hash,
                        R.c.stats["drafted_per_position"], R.c.stats["accepted_per_position"])
              .where(*_where(R, since, until, routes), R.c.served_path == "speculative"))
    shadow = (sa.select(bucket_expr(db, S.c.created_at, bucket_s), S.c.route, S.c.pair_hash,
                        S.c.stats[("shadow_stats", "drafted_per_position")],
                        S.c.stats[("shadow_stats", "accepted_per_position")])
              .where(*_where(S, since, until, routes), S.c.shadow_path == "speculative"))
    with db.connect() as conn:
        return [(int(b), r, p, d or [], a or []) for q in (served, shadow)
                for b, r, p, d, a in conn.execute(q)]


def depth_by_load(db: Engine, since: datetime, until: datetime,
                  routes: Sequence[str]) -> pd.DataFrame:
    """Requests served speculatively by the continuously batched engine, by batch-size band:
    requests, mean depth per step (proposed draft tokens / steps: the load-aware cap at work)
    and mean output tokens per step. Rows without `batch_rows` (decoded alone) are left out."""
    q = (sa.select(R.c.route, R.c.stats["batch_rows"].as_float(),
                   R.c.stats["proposed_tokens"].as_float(), R.c.stats["steps"].as_float(),
                   R.c.stats["completion_tokens"].as_float())
         .where(*_where(R, since, until, routes), R.c.served_path == "speculative"))
    acc: dict[tuple[str, int], list[float]] = {}
    with db.connect() as conn:
        for route, rows, proposed, steps, tokens in conn.execute(q):
            if not rows or not steps:
                continue
            a = acc.setdefault((route, metrics.band_of(round(rows))), [0.0, 0.0, 0.0, 0.0])
            a[0] += 1
            a[1] += proposed or 0.0
            a[2] += steps
            a[3] += tokens or 0.0
    return pd.DataFrame(
        [{"route": r, "batch_size": b, "requests": int(n), "depth": p / st,
          "tokens_per_step": t / st} for (r, b), (n, p, st, t) in sorted(acc.items())],
        columns=["route", "batch_size", "requests", "depth", "tokens_per_step"])


def position_stats(db: Engine, since: datetime, until: datetime, routes: Sequence[str],
                   bucket_s: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One pass over the speculative runs' per-position counters, two results:

    * per (route, pair_hash, draft position): proposals, acceptances and their
      acceptance_rate (`engine.metrics`);
    * per (bucket, route, pair_hash, accepted length): speculative steps (the drift input).
    """
    sums: dict[tuple[str, str, int], list[float]] = {}
    hist: dict[tuple[int, str, str, int], float] = {}
    for b, route, pair, d, a in _position_counters(db, since, until, routes, bucket_s):
        for i, (di, ai) in enumerate(zip(d, a, strict=False)):
            acc = sums.setdefault((route, pair, i), [0.0, 0.0])
            acc[0] += di
            acc[1] += ai
        for length, n in accepted_lengths(d, a).items():
            key = (b, route, pair, length)
            hist[key] = hist.get(key, 0.0) + n
    per_position = pd.DataFrame(
        [{"route": r, "pair_hash": p, "position": i, "drafted": d, "accepted": a,
          "acceptance": metrics.acceptance_rate(a, d)} for (r, p, i), (d, a) in sorted(sums.items())],
        columns=["route", "pair_hash", "position", "drafted", "accepted", "acceptance"])
    lengths = pd.DataFrame([(*k, v) for k, v in sorted(hist.items())],
                           columns=["bucket", "route", "pair_hash", "length", "steps"])
    return per_position, _to_ts(lengths)


# --- shadow equivalence -------------------------------------------------------------------
def verdict_series(db: Engine, since: datetime, until: datetime, routes: Sequence[str],
                   bucket_s: int) -> pd.DataFrame:
    b = bucket_expr(db, S.c.created_at, bucket_s).label("bucket")
    q = (sa.select(b, S.c.verdict, sa.func.count().label("n")).where(*_where(S, since, until, routes))
         .group_by(b, S.c.verdict).order_by(b))
    return _to_ts(_frame(db, q))


def near_tie_rates(db: Engine, since: datetime, until: datetime,
                   routes: Sequence[str]) -> pd.DataFrame:
    """Per route and pair: greedy shadow verdicts, proven near ties among them, and the rate
    (the near-tie trigger's quantity, guardian/governance/triggers/near_tie.py)."""
    greedy = ("match", "near_tie", "divergence")
    q = (sa.select(S.c.route, S.c.pair_hash, sa.func.count().label("greedy_verdicts"),
                   sa.func.sum(sa.case((S.c.verdict == "near_tie", 1), else_=0)).label("near_ties"))
         .where(*_where(S, since, until, routes), S.c.verdict.in_(greedy))
         .group_by(S.c.route, S.c.pair_hash).order_by(S.c.route))
    df = _frame(db, q)
    if not df.empty:
        df["near_ties"] = df["near_ties"].astype(int)
        df["near_tie_rate"] = df["near_ties"] / df["greedy_verdicts"]
    return df


def flagged_shadows(db: Engine, since: datetime, until: datetime, routes: Sequence[str],
                    verdicts: Sequence[str], limit: int = 500) -> pd.DataFrame:
    q = (sa.select(S.c.created_at, S.c.request_id, S.c.route, S.c.verdict, S.c.shadow_path,
                   S.c.first_divergence_position, S.c.margin_at_divergence, S.c.tolerance,
                   S.c.pair_hash)
         .where(*_where(S, since, until, routes), S.c.verdict.in_(list(verdicts)))
         .order_by(S.c.created_at.desc()).limit(limit))
    df = _frame(db, q)
    if not df.empty:
        df["created_at"] = pd.to_datetime(df["created_at"], utc=True)
    return df


# --- cost (SLIs M4, M5; the arithmetic is guardian.governance.cost) -----------------------
def cost_usage(db: Engine, since: datetime, until: datetime, routes: Sequence[str],
               bucket_s: int) -> pd.DataFrame:
    """Per (bucket, route, pair_hash, served_path): requests, output tokens, target forwards
    and engine seconds of the served requests. Forwards: the engine's `target_forwards`, else
    steps + 1 (speculative: verify forwards + prefill), else one per output token."""
    stats = R.c.stats
    forwards = sa.func.coalesce(
        stats["target_forwards"].as_float(),
        sa.case((R.c.served_path == "speculative", stats["steps"].as_float() + 1),
                else_=sa.cast(R.c.completion_tokens, sa.Float)))
    seconds = sa.func.coalesce(stats["total_time_s"].as_float(), R.c.compute_time_s)
    # A speculative answer whose pool reported neither forwards nor steps (an upstream pool
    # without counters) has no forward count: counted apart, never as 0 forwards.
    known = forwards.isnot(None)
    b = bucket_expr(db, R.c.created_at, bucket_s).label("bucket")
    q = (sa.select(b, R.c.route, R.c.pair_hash, R.c.served_path,
                   sa.func.count().label("requests"),
                   sa.func.coalesce(sa.func.sum(R.c.completion_tokens), 0).label("output_tokens"),
                   sa.func.coalesce(sa.func.sum(forwards), 0).label("target_forwards"),
                   sa.func.coalesce(sa.func.sum(seconds), 0).label("seconds"),
                   sa.func.coalesce(sa.func.sum(sa.case((known, 1), else_=0)), 0)
                   .label("forward_requests"),
                   sa.func.coalesce(sa.func.sum(sa.case((known, R.c.completion_tokens),
                                                        else_=0)), 0).label("forward_tokens"))
         .where(*_where(R, since, until, routes))
         .group_by(b, R.c.route, R.c.pair_hash, R.c.served_path).order_by(b))
    df = _frame(db, q)
    df["forward_requests"] = df["forward_requests"].astype(int)
    for c in ("output_tokens", "target_forwards", "seconds", "forward_tokens"):
        df[c] = df[c].astype(float)
    return _to_ts(df)


def paired_speed(db: Engine, since: datetime, until: datetime, routes: Sequence[str],
                 bucket_s: int) -> pd.DataFrame:
    """`shadow_speed` per (bucket, route, pair_hash): engine seconds and tokens of the
    target-only and speculative runs of the same shadowed requests."""
    served_s, served_n = R.c.stats["total_time_s"].as_float(), R.c.stats["completion_tokens"].as_float()
    sh_s = S.c.stats[("shadow_stats", "total_time_s")].as_float()
    sh_n = S.c.stats[("shadow_stats", "completion_tokens")].as_float()
    b = bucket_expr(db, S.c.created_at, bucket_s).label("bucket")
    q = (sa.select(b, S.c.route, S.c.pair_hash, S.c.shadow_path,
                   sa.func.sum(served_s).label("rs"), sa.func.sum(served_n).label("rn"),
                   sa.func.sum(sh_s).label("ss"), sa.func.sum(sh_n).label("sn"),
                   sa.func.count().label("n"))
         .join(R, R.c.request_id == S.c.request_id)
         .where(*_where(S, since, until, routes), sh_s.is_not(None), served_s.is_not(None))
         .group_by(b, S.c.route, S.c.pair_hash, S.c.shadow_path))
    cols = ["bucket", "route", "pair_hash", "pairs", "target_s", "target_tokens", "spec_s",
            "spec_tokens"]
    rows: dict[tuple[Any, str, str], list[float]] = {}
    with db.connect() as conn:
        for bk, route, pair, path, rs, rn, ss, sn, n in conn.execute(q):
            t, s = ((rs, rn), (ss, sn)) if path == "speculative" else ((ss, sn), (rs, rn))
            acc = rows.setdefault((bk, route, pair), [0.0] * 5)
            for i, v in enumerate((n, t[0], t[1], s[0], s[1])):
                acc[i] += float(v or 0.0)
    df = pd.DataFrame([(*k, *v) for k, v in sorted(rows.items())], columns=cols)
    return _to_ts(df)


def slo_good_series(db: Engine, since: datetime, until: datetime, routes: Sequence[str],
                    targets: SloTargets, bucket_s: int) -> pd.DataFrame:
    """Per bucket: requests and those within the SLO (latency and TTFT both good)."""
    good = sa.and_(latency_expr <= targets.good_latency_s, ttft_expr <= targets.good_ttft_s)
    b = bucket_expr(db, R.c.created_at, bucket_s).label("bucket")
    q = (sa.select(b, sa.func.count().label("requests"),
                   sa.func.coalesce(sa.func.sum(sa.case((good, 1), else_=0)), 0).label("good"))
         .where(*_where(R, since, until, routes)).group_by(b).order_by(b))
    return _to_ts(_frame(db, q))

