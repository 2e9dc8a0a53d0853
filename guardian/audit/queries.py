"""Read helpers shared by the CLI (`guardian audit show/export`) and the dashboard.

Plain functions over an Engine returning plain dicts (no ORM objects escape), so callers can
cache them (e.g. `st.cache_data`) and tests can compare them. Timestamps come back UTC-aware
on both dialects.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine

from guardian.audit.models import AuditGovernance, AuditRequest, AuditShadow, AuditToken

R, T, S, G = (AuditRequest.__table__, AuditToken.__table__, AuditShadow.__table__,
              AuditGovernance.__table__)


def _row(r: sa.Row[Any]) -> dict[str, Any]:
    d = dict(r._mapping)
    ts = d.get("created_at")
    if isinstance(ts, datetime) and ts.tzinfo is None:
        d["created_at"] = ts.replace(tzinfo=UTC)  # SQLite drops the zone; we store UTC
    return d


@dataclass
class RequestRecord:
    request: dict[str, Any]
    tokens: list[dict[str, Any]]  # served path, by position
    shadow_tokens: list[dict[str, Any]]
    shadows: list[dict[str, Any]]  # shadow comparisons (usually 0 or 1)

    @property
    def verdict(self) -> str | None:
        return self.shadows[-1]["verdict"] if self.shadows else None


# table name -> columns a query leaves out of its SELECT (see `get_request`).
Hidden = Mapping[str, Sequence[str]]


def _columns(table: sa.Table, hidden: Hidden | None) -> list[Any]:
    leave_out = (hidden or {}).get(table.name, ())
    return [c for c in table.c if c.name not in leave_out]


def _tokens_of(conn: sa.Connection, parent: sa.Row[Any],
               hidden: Hidden | None = None) -> list[dict[str, Any]]:
    """The token records that follow `parent` (a request or shadow row) in its chain.

    They are its next `trace_len` seqs with the parent's created_at, so the primary key
    (chain_id, seq, created_at) finds them - and on Postgres, only one partition is read.
    """
    if not parent.trace_len:
        return []
    q = sa.select(*_columns(T, hidden)).where(T.c.chain_id == parent.chain_id,
                           T.c.seq.between(parent.seq + 1, parent.seq + parent.trace_len),
                           T.c.created_at == parent.created_at).order_by(T.c.seq)
    return [_row(r) for r in conn.execute(q)]


def get_request(db: Engine, request_id: str, *, hidden: Hidden | None = None
                ) -> RequestRecord | None:
    """A request with its per-token rows and shadow verdict; None if unknown.

    If the id was recorded more than once (a client reusing ids), the latest wins. `hidden`
    (table name -> columns) leaves columns out of the SELECTs themselves, so a caller that
    may not see them never holds them (the dashboard's metadata-only roles).
    """
    with db.connect() as conn:
        req = conn.execute(sa.select(*_columns(R, hidden)).where(R.c.request_id == request_id)
                           .order_by(R.c.created_at.desc())).first()
        if req is None:
            return None
        shadow_rows = conn.execute(sa.select(*_columns(S, hidden))
                                   .where(S.c.request_id == request_id)
                                   .order_by(S.c.created_at)).all()
        tokens = _tokens_of(conn, req, hidden)
        shadow_tokens = [t for s in shadow_rows[-1:] for t in _tokens_of(conn, s, hidden)]
        return RequestRecord(_row(req), tokens, shadow_tokens, [_row(s) for s in shadow_rows])


def _conditions(table: sa.Table, *, since: datetime | None = None,
                until: datetime | None = None, **equals: Any) -> list[Any]:
    """created_at in [since, until) and `column == value` for each given value (None = no
    filter), as a list of WHERE clauses."""
    where: list[Any] = []
    if since is not None:
        where.append(table.c.created_at >= since)
    if until is not None:
        where.append(table.c.created_at < until)
    where += [table.c[column] == value for column, value in equals.items() if value is not None]
    return where


def _narrowed(q: sa.Select, table: sa.Table, *, since: datetime | None = None,
              until: datetime | None = None, limit: int | None = None, **equals: Any) -> sa.Select:
    """`q` restricted by `_conditions`, newest first, at most `limit` rows."""
    q = q.where(*_conditions(table, since=since, until=until, **equals))
    q = q.order_by(table.c.created_at.desc())
    return q.limit(limit) if limit is not None else q


def _rows(db: Engine, q: sa.Select) -> list[dict[str, Any]]:
    with db.connect() as conn:
        return [_row(r) for r in conn.execute(q)]


def list_requests(db: Engine, *, since: datetime | None = None, until: datetime | None = None,
                  route: str | None = None, verdict: str | None = None,
                  pair_hash: str | None = None, limit: int | None = 1000) -> list[dict[str, Any]]:
    """Requests (newest first) with their latest shadow verdict (None if not shadowed)."""
    latest = (sa.select(S.c.request_id, sa.func.max(S.c.seq).label("seq"), S.c.chain_id)
              .group_by(S.c.request_id, S.c.chain_id).subquery())
    sh = sa.select(S.c.request_id, S.c.verdict, S.c.first_divergence_position,
                   S.c.margin_at_divergence).join(
        latest, sa.and_(S.c.chain_id == latest.c.chain_id, S.c.seq == latest.c.seq)).subquery()
    q = (sa.select(*[c for c in R.c if c.name not in ("prompt_token_ids", "completion_token_ids")],
                   sh.c.verdict, sh.c.first_divergence_position, sh.c.margin_at_divergence)
         .outerjoin(sh, sh.c.request_id == R.c.request_id))
    if verdict is not None:  # the verdict lives on the joined shadow row, not on R
        q = q.where(sh.c.verdict == verdict)
    return _rows(db, _narrowed(q, R, since=since, until=until, limit=limit, route=route,
                                   pair_hash=pair_hash))


def list_shadows(db: Engine, *, since: datetime | None = None, until: datetime | None = None,
                 route: str | None = None, verdict: str | None = None,
                 limit: int | None = 10_000) -> list[dict[str, Any]]:
    return _rows(db, _narrowed(sa.select(S), S, since=since, until=until, limit=limit,
                                   route=route, verdict=verdict))


def governance_events(db: Engine, *, kind: str | None = None, route: str | None = None,
                      since: datetime | None = None, limit: int | None = 1000
                      ) -> list[dict[str, Any]]:
    """Governance log (gate results, rollbacks, promotions, decisions...), newest first."""
    return _rows(db, _narrowed(sa.select(G), G, since=since, limit=limit, kind=kind,
                                   route=route))


def iter_chained(db: Engine, *, since: datetime | None = None, until: datetime | None = None,
                 route: str | None = None, request_id: str | None = None
                 ) -> Iterator[tuple[str, dict[str, Any]]]:
    """(table, row) of every chained record matching the filters, by (chain_id, seq).

    Requests match on time/route/id; their tokens and shadow comparisons come with them;
    governance records match on time/route (none when filtering by request id).
    """
    import heapq

    def stream(t: sa.Table, where: list[Any]) -> Iterator[tuple[str, dict[str, Any]]]:
        with db.connect().execution_options(stream_results=True, yield_per=5000) as conn:
            for r in conn.execute(sa.select(t).where(*where).order_by(t.c.chain_id, t.c.seq)):
                yield t.name, _row(r)

    req_where = _conditions(R, since=since, until=until, route=route, request_id=request_id)
    ids = sa.select(R.c.request_id).where(*req_where).scalar_subquery()
    shadow_where = [S.c.request_id.in_(ids)]

    def tokens_after(parent: sa.Table, where: list[Any]) -> Iterator[tuple[str, dict[str, Any]]]:
        # Tokens of the selected parents: the trace_len seqs after each (see _tokens_of).
        p = sa.select(parent.c.chain_id, parent.c.seq, parent.c.trace_len,
                      parent.c.created_at).where(*where).subquery()
        q = (sa.select(T).join(p, sa.and_(T.c.chain_id == p.c.chain_id,
                                          T.c.created_at == p.c.created_at,
                                          T.c.seq > p.c.seq, T.c.seq <= p.c.seq + p.c.trace_len))
             .order_by(T.c.chain_id, T.c.seq))
        with db.connect().execution_options(stream_results=True, yield_per=5000) as conn:
            for r in conn.execute(q):
                yield T.name, _row(r)

    served = tokens_after(R, req_where)
    shadowed = tokens_after(S, shadow_where)
    streams = [stream(R, req_where), served, stream(S, shadow_where), shadowed]
    if request_id is None:
        streams.append(stream(G, _conditions(G, since=since, until=until, route=route)))
    yield from heapq.merge(*streams, key=lambda r: (r[1]["chain_id"], r[1]["seq"]))


def chain_hashes(db: Engine, chain_id: str) -> list[tuple[int, str]]:
    """(seq, stored hash) of every record of one chain, by seq (its Merkle leaves)."""
    out: list[tuple[int, str]] = []
    with db.connect() as conn:
        for t in (R, T, S, G):
            out += [(int(s), h) for s, h in conn.execute(
                sa.select(t.c.seq, t.c.hash).where(t.c.chain_id == chain_id))]
    out.sort()
    return out


def find_records(db: Engine, request_id: str) -> list[tuple[str, dict[str, Any]]]:
    """(table, row) of the request and shadow records of `request_id`, oldest first."""
    out: list[tuple[str, dict[str, Any]]] = []
    with db.connect() as conn:
        for t in (R, S):
            out += [(t.name, _row(r)) for r in conn.execute(
                sa.select(t).where(t.c.request_id == request_id))]
    return sorted(out, key=lambda r: (r[1]["created_at"], r[1]["seq"]))
