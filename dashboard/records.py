"""Record-level and registry queries behind the dashboard: the audit explorer (request
search, one request's detail and tokens, `TEXT_COLUMNS`), the pair registry, the governance
log, policy loads / versions / usage and the known routes. (Split out of `dashboard.queries`,
which re-exports these names; same contract: the audit database and plain filter values in,
a DataFrame or plain values out, text selected only with `text=True`.)
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy import Engine

from dashboard.sql import G, R, S, _frame, _where, latency_expr, ttft_expr
from guardian.audit.models import ModelPair, RouteState
from guardian.audit.queries import get_request


# --- audit explorer -----------------------------------------------------------------------
def search_requests(db: Engine, since: datetime, until: datetime, routes: Sequence[str], *,
                    request_id: str | None = None, verdict: str | None = None,
                    limit: int = 200) -> pd.DataFrame:
    """Requests (newest first) with their latest shadow verdict; `request_id` ignores time."""
    latest = (sa.select(S.c.request_id, sa.func.max(S.c.created_at).label("at"))
              .group_by(S.c.request_id).subquery())
    sh = (sa.select(S.c.request_id, S.c.verdict)
          .join(latest, sa.and_(S.c.request_id == latest.c.request_id,
                                S.c.created_at == latest.c.at)).subquery())
    q = (sa.select(R.c.created_at, R.c.request_id, R.c.route, R.c.mode, R.c.served_path,
                   R.c.completion_tokens, (latency_expr).label("latency_s"), ttft_expr.label("ttft_s"),
                   R.c.acceptance_rate, R.c.finish_reason, R.c.fallback_reason, sh.c.verdict)
         .outerjoin(sh, sh.c.request_id == R.c.request_id)
         .order_by(R.c.created_at.desc()).limit(limit))
    if request_id:
        q = q.where(R.c.request_id == request_id.strip())
    else:
        q = q.where(*_where(R, since, until, routes))
    if verdict == "not shadowed":
        q = q.where(sh.c.verdict.is_(None))
    elif verdict:
        q = q.where(sh.c.verdict == verdict)
    df = _frame(db, q)
    if not df.empty:
        df["created_at"] = pd.to_datetime(df["created_at"], utc=True)
    return df


# What the caller sent or got back: the text, and token ids (which decode to it with the
# pair's public tokenizer) - and `params`, whose stop strings and logit biases are caller text.
TEXT_COLUMNS = {
    "audit_requests": ("prompt_text", "completion_text", "prompt_token_ids",
                       "completion_token_ids", "params"),
    "audit_tokens": ("token_id",),
}
_TOKEN_COLUMNS = ["source", "position", "token_id", "token_hash", "origin", "draft_prob",
                  "target_prob", "target_margin", "step", "gamma", "seq"]


def request_detail(db: Engine, request_id: str, *, text: bool) -> dict[str, Any] | None:
    """One request (the latest with this id) with its shadow comparisons and per-token rows
    (served and latest shadow): {'request', 'shadows', 'tokens'}; None if unknown. Without
    `text` the `TEXT_COLUMNS` are not selected."""
    rec = get_request(db, request_id, hidden=None if text else TEXT_COLUMNS)
    if rec is None:
        return None
    cols = [c for c in _TOKEN_COLUMNS if text or c not in TEXT_COLUMNS["audit_tokens"]]
    tokens = pd.DataFrame([{c: r.get(c) for c in cols} for r in rec.tokens + rec.shadow_tokens],
                          columns=cols)
    return {"request": rec.request, "shadows": rec.shadows,
            "tokens": tokens.sort_values(["source", "position"], kind="stable")
            .reset_index(drop=True)}


def request_tokens(db: Engine, request_id: str, *, text: bool = False) -> pd.DataFrame:
    """Per-token rows of one request, served and (latest) shadow, by position (token ids only
    with `text`)."""
    detail = request_detail(db, request_id, text=text)
    cols = [c for c in _TOKEN_COLUMNS if text or c not in TEXT_COLUMNS["audit_tokens"]]
    return pd.DataFrame(columns=cols) if detail is None else detail["tokens"]


# --- registry, governance, policy ---------------------------------------------------------
def table_frame(db: Engine, table: sa.Table, order_by: str) -> pd.DataFrame:
    return _frame(db, sa.select(table).order_by(table.c[order_by].desc()))


def model_pairs(db: Engine) -> pd.DataFrame:
    return table_frame(db, ModelPair.__table__, "updated_at")


def policy_loads(db: Engine, limit: int = 200) -> pd.DataFrame:
    """The policies the sidecar put in force, newest first: its `policy_loaded` governance
    events (written at start-up and on every hot reload; the audit store is their record)."""
    q = (sa.select(G.c.created_at.label("loaded_at"), G.c.policy_hash, G.c.actor.label("loaded_by"),
                   G.c.details).where(G.c.kind == "policy_loaded")
         .order_by(G.c.created_at.desc()).limit(limit))
    df = _frame(db, q)
    details = df.pop("details") if not df.empty else pd.Series(dtype=object)
    df["policy_file"] = [(d or {}).get("policy_file") or (d or {}).get("path")
                         if isinstance(d, dict) else None for d in details]
    if not df.empty:
        df["loaded_at"] = pd.to_datetime(df["loaded_at"], utc=True)
    return df


def governance(db: Engine, since: datetime, until: datetime, routes: Sequence[str],
               kinds: Sequence[str], limit: int = 1000) -> pd.DataFrame:
    """Governance-log events of `kinds` (route-less events always pass the route filter)."""
    w = [G.c.created_at >= since, G.c.created_at < until, G.c.kind.in_(list(kinds))]
    if routes:
        w.append(sa.or_(G.c.route.in_(list(routes)), G.c.route.is_(None)))
    q = (sa.select(G.c.created_at, G.c.kind, G.c.route, G.c.pair_hash, G.c.policy_hash, G.c.actor,
                   G.c.details, G.c.event_id).where(*w).order_by(G.c.created_at.desc()).limit(limit))
    df = _frame(db, q)
    if not df.empty:
        df["created_at"] = pd.to_datetime(df["created_at"], utc=True)
    return df


def policy_usage(db: Engine, since: datetime, until: datetime) -> pd.DataFrame:
    """Requests served under each policy hash in the window, with first and last use."""
    q = (sa.select(R.c.policy_hash, sa.func.count().label("requests"),
                   sa.func.min(R.c.created_at).label("first_seen"),
                   sa.func.max(R.c.created_at).label("last_seen"))
         .where(R.c.created_at >= since, R.c.created_at < until)
         .group_by(R.c.policy_hash).order_by(sa.desc("last_seen")))
    df = _frame(db, q)
    for c in ("first_seen", "last_seen"):
        if not df.empty:
            df[c] = pd.to_datetime(df[c], utc=True)
    return df


def known_routes(db: Engine) -> list[str]:
    """Routes seen in route state or in the last 30 days of requests."""
    with db.connect() as conn:
        since = conn.execute(sa.select(sa.func.max(R.c.created_at))).scalar()
        names = set(conn.execute(sa.select(RouteState.__table__.c.route)).scalars())
        if since is not None:
            if isinstance(since, str):  # SQLite without type info on aggregates
                since = datetime.fromisoformat(since)
            names |= set(conn.execute(sa.select(R.c.route).distinct()
                                      .where(R.c.created_at >= since - timedelta(days=30))).scalars())
    return sorted(names)


def policy_versions(db: Engine, limit: int = 200) -> pd.DataFrame:
    """Policy loads by the sidecars, newest first (`policy_loads`, migration 0004) with each
    policy's recorded content (`policy_versions`); empty when none was recorded (or the
    database predates 0004)."""
    from guardian.audit.models import PolicyLoad, PolicyVersion

    L, V = PolicyLoad.__table__, PolicyVersion.__table__
    cols = ["loaded_at", "policy_hash", "loaded_by", "policy_file", "previous_policy_hash",
            "content"]
    if not sa.inspect(db).has_table("policy_loads"):
        return pd.DataFrame(columns=cols)
    q = (sa.select(L.c.loaded_at, L.c.policy_hash, L.c.loaded_by, L.c.policy_file,
                   L.c.previous_policy_hash, V.c.content)
         .outerjoin(V, V.c.policy_hash == L.c.policy_hash)
         .order_by(L.c.loaded_at.desc(), L.c.id.desc()).limit(limit))
    df = _frame(db, q)
    if not df.empty:
        df["loaded_at"] = pd.to_datetime(df["loaded_at"], utc=True)
    return df[cols] if not df.empty else pd.DataFrame(columns=cols)
