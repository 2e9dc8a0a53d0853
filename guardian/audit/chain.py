"""Hash chain: canonical serialisation of chained rows and the link rule.

Every writer incarnation owns one chain (`chain_id` = replica id + random incarnation id) and
numbers its records `seq` = 1, 2, ... across all four chained tables. A record's link is

    hash = SHA-256( prev_hash || "\\n" || table_tag || "\\t" || canonical(row) )

with `prev_hash` = the previous record's hash (64 zeros for seq 1). One chain per writer means
concurrent writers and replicas never contend for a shared head; verification walks every
chain independently (`guardian.audit.verify`).

Canonical serialisation is the Postgres COPY text format of a *frozen* column list per table
(`CANON_COLUMNS`; columns added later are not covered, so old records stay verifiable):
fields joined by TAB, NULL as `\\N`, strings with backslash/tab/newline/CR escaped (injective),
ints in decimal, floats as `repr` (shortest round-trip, exact through float8/REAL; per-token
probabilities/margins as "%.9g", see `TOKEN_FLOATS`), timestamps
as UTC ISO-8601 with microseconds, JSON as sorted compact JSON. The writer reuses the line it
hashed as the COPY payload, so hashing costs one pass over the data.
"""

from __future__ import annotations

import hashlib
import json
import math
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

GENESIS = "0" * 64

CANON_COLUMNS: dict[str, tuple[str, ...]] = {
    "audit_tokens": (
        "chain_id", "request_id", "created_at", "source", "seq", "position", "token_id",
        "token_hash", "origin", "draft_prob", "target_prob", "target_margin", "step", "gamma",
    ),
    "audit_requests": (
        "chain_id", "seq", "request_id", "created_at", "route", "mode", "served_path", "endpoint",
        "pair_hash", "policy_hash", "redaction", "prompt_text", "completion_text", "prompt_hash",
        "completion_hash", "prompt_token_ids", "completion_token_ids", "prompt_tokens",
        "completion_tokens", "finish_reason", "params", "queue_time_s", "compute_time_s",
        "time_to_first_token_s", "time_per_output_token_s", "acceptance_rate",
        "mean_acceptance_length", "stats", "fallback_reason", "replica_id", "trace_len",
    ),
    "audit_shadow": (
        "chain_id", "seq", "request_id", "created_at", "route", "pair_hash", "policy_hash",
        "shadow_path", "verdict", "first_divergence_position", "margin_at_divergence",
        "tolerance", "acceptance_rate", "mean_acceptance_length", "stats",
        "shadow_compute_time_s", "trace_len",
    ),
    "audit_governance": (
        "chain_id", "seq", "event_id", "created_at", "kind", "route", "pair_hash",
        "policy_hash", "actor", "details",
    ),
}

_ESC = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def esc(s: str) -> str:
    """COPY-text escape of a string (also what makes the canonical form injective)."""
    return s.translate(_ESC)


def fmt_ts(ts: datetime) -> str:
    # SQLite hands back naive datetimes; everything we store is UTC.
    ts = ts.replace(tzinfo=UTC) if ts.tzinfo is None else ts.astimezone(UTC)
    return ts.isoformat(timespec="microseconds")


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def fmt(value: Any) -> str:
    """One field in canonical (= COPY text) form."""
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return esc(value)
    if isinstance(value, datetime):
        return fmt_ts(value)
    if isinstance(value, dict | list):
        return esc(canonical_json(value))
    raise TypeError(f"cannot canonicalise {type(value).__name__}")


# Per-token floats are stored rounded to 9 significant digits: the engine's probabilities come
# from float32 (~7 digits), and "%.9g" is idempotent through float8 and half the cost of repr
# in the hot loop. Everything else keeps exact repr.
TOKEN_FLOATS = frozenset({"draft_prob", "target_prob", "target_margin"})


def fmt_token_float(value: float) -> str:
    return f"{value:.9g}"


_NULL = "\\N"


@lru_cache(maxsize=4096)
def _token_prefix(chain_id: str, request_id: str, created_at: datetime, source: str) -> str:
    # A request's tokens share these four fields: format them once (verify's hot path).
    return f"{esc(chain_id)}\t{esc(request_id)}\t{fmt_ts(created_at)}\t{esc(source)}\t"


def token_line(r: dict[str, Any]) -> str:
    """canonical_line for audit_tokens, written out for speed (same output)."""
    tid, th, dp = r["token_id"], r["token_hash"], r["draft_prob"]
    return (f"{_token_prefix(r['chain_id'], r['request_id'], r['created_at'], r['source'])}"
            f"{r['seq']}\t{r['position']}\t{_NULL if tid is None else tid}\t"
            f"{_NULL if th is None else esc(th)}\t{esc(r['origin'])}\t"
            f"{_NULL if dp is None else format(dp, '.9g')}\t{r['target_prob']:.9g}\t"
            f"{r['target_margin']:.9g}\t{r['step']}\t{r['gamma']}")


def canonical_line(table: str, row: dict[str, Any]) -> str:
    if table == "audit_tokens":
        return token_line(row)
    return "\t".join(fmt(row[c]) for c in CANON_COLUMNS[table])


def link(prev_hash: str, table: str, line: str) -> str:
    return hashlib.sha256(f"{prev_hash}\n{table}\t{line}".encode()).hexdigest()


def clean_text(s: str) -> str:
    """Postgres text/JSONB cannot hold NUL; a model can emit it. Replace it before hashing, so
    the stored, hashed and verified values are the same."""
    return s.replace("\x00", "\ufffd") if "\x00" in s else s


def json_safe(value: Any) -> Any:
    """Make a value survive JSON/JSONB round trips bit-exactly (needed for re-hashing).

    NaN/inf are not JSON and -0.0 comes back from JSONB as 0, so they are normalised here,
    before hashing; NUL in strings is replaced; tuples become lists; unknown objects become
    their str().
    """
    if isinstance(value, str):
        return clean_text(value)
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return 0.0 if value == 0 else value
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    if hasattr(value, "item"):  # numpy / torch scalars
        return json_safe(value.item())
    return str(value)
