"""The SQL building blocks the dashboard's queries share: the audit tables (`R`, `S`, `T`,
`G`), the dialect-specific time bucket, the window filter, the latency / TTFT expressions and
running a query into a DataFrame. (Split out of `dashboard.queries`; see its docstring for
the dialect differences.)
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy import Engine

from guardian.audit.models import AuditGovernance, AuditRequest, AuditShadow, AuditToken

R, S, T, G = (AuditRequest.__table__, AuditShadow.__table__, AuditToken.__table__,
              AuditGovernance.__table__)
QUANTILES = (0.5, 0.95, 0.99)


def _pg(db: Engine) -> bool:
    return db.dialect.name == "postgresql"


def bucket_expr(db: Engine, col: Any, seconds: int) -> Any:
    """Epoch seconds of the start of `col`'s time bucket (integer on both dialects)."""
    if _pg(db):
        return sa.cast(sa.func.floor(sa.extract("epoch", col) / seconds) * seconds, sa.BigInteger)
    # SQLite stores UTC as 'YYYY-MM-DD HH:MM:SS[.ffffff]'; integer division floors (epoch >= 0).
    return (sa.cast(sa.func.strftime("%s", col), sa.Integer) // seconds) * seconds


def _to_ts(df: pd.DataFrame, col: str = "bucket") -> pd.DataFrame:
    if not df.empty:
        df[col] = pd.to_datetime(df[col].astype("int64"), unit="s", utc=True)
    return df


def _frame(db: Engine, q: Any) -> pd.DataFrame:
    with db.connect() as conn:
        res = conn.execute(q)
        return pd.DataFrame(res.fetchall(), columns=list(res.keys()))


def _where(t: sa.Table, since: datetime, until: datetime, routes: Sequence[str]) -> list[Any]:
    w = [t.c.created_at >= since, t.c.created_at < until]
    if routes:
        w.append(t.c.route.in_(list(routes)))
    return w


latency_expr = (R.c.queue_time_s + R.c.compute_time_s)
ttft_expr = (R.c.queue_time_s + R.c.time_to_first_token_s)
