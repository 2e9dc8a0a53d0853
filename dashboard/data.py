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
* Split by concern, all re-exported here (pages still import only this module): the
  connection (`dashboard.connection`), the policy in force (`dashboard.policyview`) and the
  derived frames (`dashboard.frames`); this module keeps the cached queries and the actions.
* Cost (SLIs M4, M5): SQL aggregates here (`cost_usage`, `paired_speed`), the arithmetic in
  `guardian.governance.cost` (`cost_figures`, `cost_trend`).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import pandas as pd
import streamlit as st

from dashboard import queries
from dashboard.connection import CACHE_TTL_S as CACHE_TTL_S
from dashboard.connection import STATEMENT_TIMEOUT_MS as STATEMENT_TIMEOUT_MS
from dashboard.connection import DashboardDataError as DashboardDataError
from dashboard.connection import _db, db_for
from dashboard.connection import database_url as database_url
from dashboard.connection import get_db as get_db
from dashboard.frames import acceptance_series as acceptance_series
from dashboard.frames import cost_figures as cost_figures
from dashboard.frames import cost_trend as cost_trend
from dashboard.frames import counters as counters
from dashboard.frames import drift_firings as drift_firings
from dashboard.frames import drift_series as drift_series
from dashboard.frames import evidence_frame as evidence_frame
from dashboard.frames import label_groups as label_groups
from dashboard.frames import saving_of as saving_of
from dashboard.frames import short_hash as short_hash
from dashboard.frames import side_by_side as side_by_side
from dashboard.frames import slo_alerts as slo_alerts
from dashboard.frames import speedup_delta as speedup_delta
from dashboard.frames import speedup_from as speedup_from
from dashboard.policyview import _parse_policy, policy_in_force
from dashboard.policyview import acceptance_floors as acceptance_floors
from dashboard.policyview import active_policy as active_policy
from dashboard.policyview import drift_thresholds as drift_thresholds
from dashboard.policyview import pool_price as pool_price
from dashboard.policyview import slo_targets as slo_targets
from dashboard.slo import ALERT_WINDOWS, SloTargets

log = logging.getLogger(__name__)


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

