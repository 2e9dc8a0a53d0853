"""The dashboard's data layer: the read-only audit database, cached queries, derived frames.

Pages import only this module (and `dashboard.filters`) and only render what it returns.

* The database is `GUARDIAN_DATABASE_URL` (else the embedded SQLite file), opened read-only:
  Postgres sessions start with `default_transaction_read_only` (on top of the read-only role
  `guardian dashboard` recommends), SQLite connections with `PRAGMA query_only`.
* Query results are cached with `st.cache_data` for `CACHE_TTL_S`; filters reach the cache
  already rounded (see `dashboard.filters`) so a rerun within a minute hits it.
* The policy is the one IN FORCE: the newest load the sidecars recorded (`policy_loads` +
  `policy_versions`, written by `guardian.policy.loading.record_policy_load`), else the file
  this dashboard is configured with (`policy_in_force`). SLO targets come from its `slo:`
  section, drift thresholds from the default route's `triggers.drift` (what the rollback
  trigger uses), acceptance floors from each route's `triggers.acceptance.min_alpha`, the
  pool-hour price from `cost:`; else the documented defaults in `dashboard.slo` /
  `dashboard.drift`.
* Cost (SLIs M4, M5): SQL aggregates here (`cost_usage`, `paired_speed`), the arithmetic in
  `guardian.governance.cost` (`cost_figures`, `cost_trend`).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import pandas as pd
import streamlit as st
from sqlalchemy import Engine, event

from dashboard import queries
from dashboard.drift import DriftThresholds, scores
from dashboard.slo import ALERT_WINDOWS, AlertStatus, SloTargets, evaluate_alerts, speedup
from engine.metrics import SpecCounters
from guardian.core.db import DatabaseUnreachable, has_audit_schema
from guardian.governance.cost import Paired, Usage
from guardian.governance.cost import figures as cost_figures_of

log = logging.getLogger(__name__)

CACHE_TTL_S = 60
STATEMENT_TIMEOUT_MS = 15_000  # a runaway query must not hold a Postgres backend forever


class DashboardDataError(RuntimeError):
    """The database cannot be read; the message says what to do."""


def database_url() -> str:
    from guardian.settings import Settings

    # Built per call (cheap): the URL can change between tests and reruns.
    return Settings().resolved_database_url


def _read_only(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    if type(dbapi_conn).__module__.startswith("sqlite3"):
        cur.execute("PRAGMA query_only = ON")
    else:
        cur.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
        cur.execute(f"SET statement_timeout = {STATEMENT_TIMEOUT_MS}")
        dbapi_conn.commit()  # keep the settings: the pool rolls back what is left open
    cur.close()


@st.cache_resource(show_spinner=False)
def db_for(url: str) -> Engine:
    """The read-only audit database (a SQLAlchemy Engine) at `url`, one per process."""
    from guardian.core.db import make_engine

    db = make_engine(url, pool_size=4, max_overflow=4) if url.startswith("postgres") \
        else make_engine(url)
    event.listen(db, "connect", _read_only)
    return db


def get_db() -> Engine:
    """The read-only audit database, after checking the audit schema is there."""
    url = database_url()
    db = db_for(url)
    safe = db.url.render_as_string(hide_password=True)
    try:
        ok = has_audit_schema(db)
    except DatabaseUnreachable as exc:
        raise DashboardDataError(f"cannot open the audit database {safe}: {exc}. Check that it "
                                 "is running and GUARDIAN_DATABASE_URL is right.") from None
    if not ok:
        raise DashboardDataError(f"no audit schema in {safe}: run `guardian db upgrade` (and send "
                                 "traffic through the sidecar) first.")
    return db


def _db() -> Engine:
    return db_for(database_url())


# --- policy -------------------------------------------------------------------------------
def _parse_policy(text: str) -> tuple[Any, str | None]:
    """(Policy, None) from a recorded policy text (YAML or JSON), else (None, why)."""
    import yaml
    from pydantic import ValidationError

    from guardian.policy import Policy

    try:
        return Policy.model_validate(yaml.safe_load(text) or {}), None
    except (yaml.YAMLError, ValidationError, TypeError) as exc:
        return None, str(exc).splitlines()[0]


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def policy_in_force(url: str) -> dict[str, Any]:
    """The policy in force: the one the sidecars loaded last (`policy_loads` + its recorded
    content in `policy_versions`), else the file this dashboard is configured with.

    {'source' ('database' | 'file'), 'path', 'hash', 'yaml', 'policy' (dict), 'error',
    'loaded_at', 'loaded_by', 'file_hash' (this host's file), 'tampered' (the recorded content
    does not hash to its recorded hash: someone edited the table)}.
    """
    from guardian.policy import DEFAULT_POLICY_FILE, PolicyError, load_policy
    from guardian.settings import Settings

    path = Settings().policy_file or DEFAULT_POLICY_FILE
    try:
        file_policy, file_error = load_policy(path), None
    except PolicyError as exc:
        file_policy, file_error = None, str(exc)
    out: dict[str, Any] = {"source": "file", "path": str(path), "error": file_error,
                           "hash": file_policy.content_hash if file_policy else None,
                           "yaml": path.read_text() if file_policy else None,
                           "policy": file_policy.model_dump(mode="json") if file_policy else None,
                           "loaded_at": None, "loaded_by": None, "tampered": False,
                           "file_hash": file_policy.content_hash if file_policy else None}
    try:
        loads = queries.policy_versions(db_for(url), limit=1)
    except Exception as exc:  # the file still says something useful
        log.warning("cannot read policy versions: %s", exc)
        return out
    if loads.empty or not isinstance(loads.iloc[0]["content"], str):
        return out
    row = loads.iloc[0]
    policy, error = _parse_policy(row["content"])
    out.update(source="database", path=row["policy_file"], hash=row["policy_hash"],
               yaml=row["content"], loaded_at=row["loaded_at"], loaded_by=row["loaded_by"],
               policy=policy.model_dump(mode="json") if policy else None,
               error=None if policy else f"the recorded policy does not parse: {error}",
               tampered=policy is not None and policy.content_hash != row["policy_hash"])
    return out


def active_policy() -> dict[str, Any]:
    """`policy_in_force` of the configured database."""
    return policy_in_force(database_url())


def slo_targets() -> SloTargets:
    pol = active_policy().get("policy") or {}
    return SloTargets.from_mapping(pol.get("slo"))


def drift_thresholds() -> DriftThresholds:
    """The default route's `triggers.drift` (the rollback trigger's thresholds), else defaults."""
    pol = active_policy().get("policy") or {}
    route = (pol.get("routes") or {}).get(pol.get("default_route"), {})
    return DriftThresholds.from_trigger((route.get("triggers") or {}).get("drift"))


def acceptance_floors(routes: list[str]) -> dict[str, float]:
    """route -> its acceptance trigger's floor (`triggers.acceptance.min_alpha`) where enabled."""
    pol_routes = (active_policy().get("policy") or {}).get("routes") or {}
    out = {}
    for name in routes:
        acc = ((pol_routes.get(name) or {}).get("triggers") or {}).get("acceptance") or {}
        if acc.get("enabled", True) and acc.get("min_alpha") is not None:
            out[name] = float(acc["min_alpha"])
    return out


# --- cached queries -----------------------------------------------------------------------
Routes = tuple[str, ...]


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def known_routes(url: str) -> list[str]:
    return queries.known_routes(db_for(url))


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def latency_series(url: str, since: datetime, until: datetime, routes: Routes,
                   bucket_s: int) -> pd.DataFrame:
    return queries.latency_series(db_for(url), since, until, routes, bucket_s)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def slo_window_counts(url: str, now: datetime, routes: Routes,
                      targets: SloTargets) -> dict[timedelta, tuple[int, int]]:
    windows = (*ALERT_WINDOWS, timedelta(days=targets.period_days))
    return queries.slo_window_counts(db_for(url), now, routes, targets, windows)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def shadow_speed(url: str, since: datetime, until: datetime, routes: Routes) -> dict[str, float]:
    return queries.shadow_speed(db_for(url), since, until, routes)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def acceptance_bins(url: str, since: datetime, until: datetime, routes: Routes,
                    bucket_s: int) -> pd.DataFrame:
    return queries.acceptance_bins(db_for(url), since, until, routes, bucket_s)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def position_stats(url: str, since: datetime, until: datetime, routes: Routes,
                   bucket_s: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(acceptance per draft position, accepted-length histogram per bucket)."""
    return queries.position_stats(db_for(url), since, until, routes, bucket_s)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def depth_by_load(url: str, since: datetime, until: datetime, routes: Routes) -> pd.DataFrame:
    """Speculation depth per step by batch-size band (continuous batching)."""
    return queries.depth_by_load(db_for(url), since, until, routes)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def verdict_series(url: str, since: datetime, until: datetime, routes: Routes,
                   bucket_s: int) -> pd.DataFrame:
    return queries.verdict_series(db_for(url), since, until, routes, bucket_s)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def near_tie_rates(url: str, since: datetime, until: datetime, routes: Routes) -> pd.DataFrame:
    return queries.near_tie_rates(db_for(url), since, until, routes)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def flagged_shadows(url: str, since: datetime, until: datetime, routes: Routes) -> pd.DataFrame:
    return queries.flagged_shadows(db_for(url), since, until, routes,
                                   ("divergence", "near_tie", "distribution_mismatch"))


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def recent_shadows(url: str, since: datetime, until: datetime, routes: Routes) -> pd.DataFrame:
    """The 50 newest shadow comparisons of any verdict (to pick one to look at)."""
    return queries.flagged_shadows(db_for(url), since, until, routes,
                                   ("match", "near_tie", "divergence", "distribution_ok",
                                    "distribution_mismatch"), limit=50)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def search_requests(url: str, since: datetime, until: datetime, routes: Routes,
                    request_id: str | None, verdict: str | None) -> pd.DataFrame:
    return queries.search_requests(db_for(url), since, until, routes,
                                   request_id=request_id, verdict=verdict)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def request_record(url: str, request_id: str, *, text: bool) -> dict[str, Any] | None:
    """{'request', 'shadows', 'tokens'} of one request; prompt / completion text (decoded from
    its stored form), token ids and params only with `text` (compliance / admin): otherwise
    they are never selected. `text` is part of the cache key, so the two views never mix."""
    from guardian.audit.chain import decode_text

    rec = queries.request_detail(db_for(url), request_id, text=text)
    if rec is not None and text:
        req = rec["request"]
        for name in ("prompt_text", "completion_text"):
            if isinstance(req.get(name), str):
                req[name] = decode_text(req[name])  # hostile values are stored escaped
    return rec


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def model_pairs(url: str) -> pd.DataFrame:
    """The pair registry (route modes: `routes_now`, which applies the policy too)."""
    return queries.model_pairs(db_for(url))


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def routes_now(url: str) -> pd.DataFrame:
    """Every route of the policy file or the route-state table, with the mode in force and
    why: `guardian.governance.modes.effective_mode`, the answer serving and `guardian route
    status` give (for the pair of each route's newest request)."""
    from guardian.governance.canarystate import canaries_of
    from guardian.governance.gatecheck import modes_in_force
    from guardian.governance.routestate import RouteStateStore
    from guardian.policy import DEFAULT_POLICY_FILE, PolicyError, load_policy
    from guardian.settings import Settings

    cols = ["route", "mode", "source", "why", "policy_mode", "db_mode", "pair_hash", "updated_by",
            "version"]
    db = db_for(url)
    store = RouteStateStore(db)
    states = store.all()
    try:
        # The policy in force (recorded by the sidecars), else this host's file.
        active = policy_in_force(url)
        policy = _parse_policy(active["yaml"])[0] if active["source"] == "database" else None
        if policy is None:
            policy = load_policy(Settings().policy_file or DEFAULT_POLICY_FILE)
    except PolicyError as exc:
        return pd.DataFrame([{"route": name, "mode": None, "db_mode": st_.mode,
                              "why": f"policy file invalid, so the mode in force is unknown: {exc}",
                              "pair_hash": st_.pair_hash, "updated_by": st_.updated_by,
                              "version": st_.version, "policy_mode": None}
                             for name, st_ in sorted(states.items())], columns=cols)
    decisions = modes_in_force(db, policy, states, pair_hash=store.serving_pair,
                               canaries=canaries_of(db))
    rows = []
    for name, d in decisions.items():
        route, st_ = policy.routes.get(name), states.get(name)
        rows.append({"route": name, "mode": d.mode, "source": d.source, "why": d.reason,
                     "policy_mode": route.mode if route else None,
                     "db_mode": st_.mode if st_ else None,
                     "pair_hash": st_.pair_hash if st_ else None,
                     "updated_by": st_.updated_by if st_ else None,
                     "version": st_.version if st_ else None})
    return pd.DataFrame(rows, columns=cols)


def shown_mode(row: Any) -> str:
    """A `routes_now` row's mode as on-call should read it: a running canary is a share of
    the route's requests ("canary 25%"), not the whole route."""
    if row["source"] == "canary":
        return str(row["why"]).split(" of requests")[0].replace("canary: ", "canary ")
    return row["mode"] if isinstance(row["mode"], str) else "not served"


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def governance(url: str, since: datetime, until: datetime, routes: Routes,
               kinds: tuple[str, ...]) -> pd.DataFrame:
    return queries.governance(db_for(url), since, until, routes, kinds)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def policy_history(url: str, since: datetime, until: datetime) -> dict[str, pd.DataFrame]:
    db = db_for(url)
    return {"versions": queries.policy_versions(db).drop(columns=["content"]),
            "events": queries.policy_loads(db),
            "usage": queries.policy_usage(db, since, until)}


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def cost_usage(url: str, since: datetime, until: datetime, routes: Routes,
               bucket_s: int) -> pd.DataFrame:
    return queries.cost_usage(db_for(url), since, until, routes, bucket_s)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def paired_speed(url: str, since: datetime, until: datetime, routes: Routes,
                 bucket_s: int) -> pd.DataFrame:
    return queries.paired_speed(db_for(url), since, until, routes, bucket_s)


@st.cache_data(ttl=CACHE_TTL_S, show_spinner=False)
def slo_good_series(url: str, since: datetime, until: datetime, routes: Routes,
                    targets: SloTargets, bucket_s: int) -> pd.DataFrame:
    return queries.slo_good_series(db_for(url), since, until, routes, targets, bucket_s)


ROUTE_ACTS = ("rollback", "reenable", "promotion")


def open_rollbacks(routes: pd.DataFrame, acts: pd.DataFrame) -> list[dict[str, Any]]:
    """Active incidents from route state: routes whose newest governance act is a rollback
    and that still do not serve speculatively. `routes`: `routes_now`; `acts`: `governance`
    rows of ROUTE_ACTS, newest first. One dict per route: route, mode, at, by, fired, reason."""
    out = []
    if acts.empty or routes.empty:
        return out
    modes = {r["route"]: shown_mode(r) for r in routes.to_dict("records")}  # never NaN
    for route, rows in acts.dropna(subset=["route"]).groupby("route", sort=True):
        last = rows.sort_values("created_at").iloc[-1]
        if last["kind"] != "rollback" or modes.get(route) == "speculative":
            continue
        details = last["details"] if isinstance(last["details"], dict) else {}
        out.append({"route": route, "mode": modes.get(route), "at": last["created_at"],
                    "by": last["actor"], "fired": list(details.get("fired") or []),
                    "reason": details.get("reason") or ""})
    return out


# --- not cached: actions ------------------------------------------------------------------
def verify_chains() -> Any:
    """Walk every hash chain (`guardian audit verify`); returns a VerifyReport."""
    from guardian.audit.verify import verify_db

    return verify_db(_db())


class TextNotAllowed(PermissionError):
    """The session's role may not read prompt / completion text."""


def export_records(since: datetime | None, until: datetime | None, route: str | None,
                   request_id: str | None, fmt: str, *, text: bool) -> tuple[bytes, int]:
    """An offline-verifiable export (`guardian audit export`) of the filtered records.

    Only with `text` (compliance / admin): the records are verified against their hashes,
    which cover the text, so an export cannot leave the text out and stay verifiable.
    """
    if not text:
        raise TextNotAllowed("exports hold prompt and completion text: compliance and admin "
                             "keys only")
    import tempfile
    from pathlib import Path

    from guardian.audit.export import export
    from guardian.audit.queries import iter_chained

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"audit.{fmt}"
        n = export(iter_chained(_db(), since=since, until=until, route=route,
                                request_id=request_id), path, fmt)  # type: ignore[arg-type]
        return path.read_bytes(), n


# --- derived frames (pure pandas over cached results) -------------------------------------
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


def pool_price() -> tuple[float | None, str]:
    """(price of a pool-hour, currency) from the policy's `cost:` section; (None, "") without."""
    cost = (active_policy().get("policy") or {}).get("cost") or {}
    return (float(cost["pool_hour"]), str(cost.get("currency") or "")) if cost else (None, "")


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
