"""Judging the engine as it serves, on the Shadow page: stopping coverage per route (how the
judged speculative runs stopped, greedy and sampled: guardian.equivalence.stopcases) and the
`speculation_silent` flag (a route labelled speculative whose recent served requests proposed
no draft token or accepted none: guardian.governance.silent).

Queries first (pure, over the audit tables; JSON stats read in Python so SQLite and Postgres
agree), cached wrappers next, the rendering last.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy import Engine

from dashboard.sql import R, S, _where
from guardian.equivalence.stopcases import STOPPING_CASES

MAX_ROWS = 20_000  # rows read per query (newest first)
SILENT_WINDOW = 20  # served requests per route the flag looks at (triggers.silent_window)


def stopping_coverage(db: Engine, since: datetime, until: datetime,
                      routes: list[str]) -> pd.DataFrame:
    """Per route and decoding kind: judged verdicts by stopping case."""
    q = (sa.select(S.c.route, S.c.stats).where(*_where(S, since, until, routes))
         .order_by(S.c.created_at.desc()).limit(MAX_ROWS))
    counts: dict[tuple[str, str], dict[str, int]] = {}
    with db.connect() as conn:
        for route, stats in conn.execute(q):
            stats = stats or {}
            case = stats.get("stopping_case")
            kind = stats.get("decoding") or "greedy"
            row = counts.setdefault((route, kind), {c: 0 for c in (*STOPPING_CASES, "eos")})
            if case in row:
                row[case] += 1
    return pd.DataFrame([{"route": r, "kind": k, **v} for (r, k), v in sorted(counts.items())])


def silent_routes(db: Engine, routes: list[str], window: int = SILENT_WINDOW) -> pd.DataFrame:
    """Routes whose last `window` speculative-mode requests proposed (or accepted) nothing."""
    out = []
    with db.connect() as conn:
        names = routes or [r for (r,) in conn.execute(sa.select(R.c.route).distinct())]
        for route in names:
            rows = conn.execute(sa.select(R.c.stats, R.c.fallback_reason)
                                .where(R.c.route == route, R.c.mode == "speculative")
                                .order_by(R.c.created_at.desc()).limit(window)).all()
            if len(rows) < window:
                continue
            proposed = sum(int((s or {}).get("proposed_tokens",
                                             (s or {}).get("draft_tokens")) or 0) for s, _ in rows)
            accepted = sum(int((s or {}).get("accepted") or 0) for s, _ in rows)
            if proposed and accepted:
                continue
            capped = sum(int((s or {}).get("capped_steps") or 0) for s, _ in rows)
            shed = [f for _, f in rows if f]
            reason = ("depth_cap" if capped and not proposed
                      else str(shed[0]).split(":")[0] if shed else "unknown")
            out.append({"route": route, "kind": "proposes_nothing" if not proposed
                        else "accepts_nothing", "reason": reason, "requests": len(rows),
                        "proposed": proposed, "accepted": accepted})
    return pd.DataFrame(out)


def render_flags(url: str, flt: Any) -> None:
    """The `speculation_silent` warnings, at the top of the Shadow page."""
    import streamlit as st

    from dashboard import data
    from dashboard.plain import md

    @st.cache_data(ttl=data.CACHE_TTL_S, show_spinner=False)
    def silent(url: str, routes: tuple[str, ...]) -> Any:
        return silent_routes(data.db_for(url), list(routes))

    for r in silent(url, tuple(flt.routes)).to_dict("records"):
        st.warning(f"speculation_silent on route {md(r['route'])}: its last {r['requests']} "
                   f"speculative-mode requests {r['kind'].replace('_', ' ')} "
                   f"(reason: {md(r['reason'])}). It serves at target-only speed under a "
                   "speculative label.")


def render_coverage(url: str, flt: Any) -> None:
    """The stopping-coverage table, below the near-tie rates."""
    import streamlit as st

    from dashboard import data
    from dashboard.plain import cells

    @st.cache_data(ttl=data.CACHE_TTL_S, show_spinner=False)
    def coverage(url: str, since: datetime, until: datetime, routes: tuple[str, ...]) -> Any:
        return stopping_coverage(data.db_for(url), since, until, list(routes))

    st.subheader("Stopping coverage per route")
    cov = coverage(url, flt.since, flt.until, tuple(flt.routes))
    if cov.empty:
        st.caption("No judged verdict records a stopping case in this range yet.")
        return
    st.caption("Judged speculative runs by how they stopped: a stop string, an EOS accepted "
               "inside a draft block, max_tokens (the shadow's quota samples for each, per "
               "route, greedy and sampled).")
    st.dataframe(cells(cov), hide_index=True)
