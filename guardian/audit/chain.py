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

Totality (every value a caller can send can be sealed, and the stored value is what was
hashed). Postgres TEXT/JSONB reject NUL and unpaired UTF-16 surrogates (which JSON's
`"\\ud800"` escape produces), so such strings are stored in an escaped form:

    storable_text(s) = s                                            if s is "plain"
                     = U+FDD0 + s.encode("unicode_escape").decode()   otherwise

A string is plain when it has no NUL, no lone surrogate and does not start with U+FDD0 (a
Unicode noncharacter). The map is injective (escaped and plain values never coincide) and
`decode_text` inverts it; plain strings - every record valid before this rule - are stored and
hashed exactly as before. Inside JSON values the same rule applies to strings and keys;
non-finite floats (NaN, +-inf, which JSON cannot hold) are recorded as null, and floats of
magnitude >= 1e16 as the equal integer (JSONB would hand `1e+16` back as an integer).
Non-finite floats in float *columns* keep their token (`nan`, `inf`, `-inf`; float8 stores
them). SQLite stores NaN as NULL and -0.0 as 0.0, so there the writer records a NaN draft
probability as NULL and -0.0 as 0.0 before sealing; a NaN in a NOT NULL float column cannot
be stored in SQLite at all: that event is quarantined and named in an `audit_gap` record.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
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
    # Most values hold none of the four (a JSON list of token ids): four scans in C cost a
    # fraction of translate(), which looks every character up in the mapping.
    # translate() returns an exact str for a str subclass too (whose __format__ / __str__
    # could print anything into a line): the fast path is for exact strs only.
    if type(s) is not str or "\\" in s or "\t" in s or "\n" in s or "\r" in s:
        return s.translate(_ESC)
    return s


def fmt_ts(ts: datetime) -> str:
    # SQLite hands back naive datetimes; everything we store is UTC.
    ts = ts.replace(tzinfo=UTC) if ts.tzinfo is None else ts.astimezone(UTC)
    return ts.isoformat(timespec="microseconds")


# One encoder for every call: json.dumps with options builds a JSONEncoder per call.
_CANONICAL_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                                   allow_nan=False)


def canonical_json(value: Any) -> str:
    return _CANONICAL_JSON.encode(value)


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
    # surrogatepass: identical bytes for every valid string; a lone surrogate (never stored,
    # see storable_text) must still hash instead of raising.
    return hashlib.sha256(f"{prev_hash}\n{table}\t{line}".encode("utf-8", "surrogatepass")
                          ).hexdigest()


ESCAPE_MARK = "\ufdd0"  # a noncharacter: opens the escaped form of a non-plain string
# NUL, any surrogate code point (in a Python str a surrogate is always unpaired), or the mark.
_NOT_PLAIN = re.compile("[\x00\ud800-\udfff]|^\ufdd0")


def is_plain(s: str) -> bool:
    """True when Postgres TEXT/JSONB can store `s` as is and it is not an escaped form."""
    return _NOT_PLAIN.search(s) is None


def storable_text(s: str) -> str:
    """The stored (and hashed) form of a string: itself when plain, else U+FDD0 + its
    Python `unicode_escape` form (ASCII; backslash escaped too, so injective; surrogates are
    kept one by one - JSON's escapes would merge a "pair" of lone ones). `decode_text` inverts
    it."""
    if _NOT_PLAIN.search(s) is None:
        return s
    return ESCAPE_MARK + s.encode("unicode_escape").decode("ascii")


def decode_text(stored: str) -> str:
    """The original string of a stored value (inverse of `storable_text`)."""
    if stored.startswith(ESCAPE_MARK):
        try:
            return stored[1:].encode("ascii").decode("unicode_escape")
        except UnicodeError:
            pass  # not an escaped form (never produced by storable_text)
    return stored


def clean_text(s: str) -> str:
    """Make a string storable before it is hashed, so the stored, hashed and verified values
    are the same (see `storable_text`; NUL used to become U+FFFD, which lost information)."""
    return storable_text(s)


def json_safe(value: Any) -> Any:
    """Make a value survive JSON/JSONB round trips bit-exactly (needed for re-hashing).

    NaN/inf are not JSON (recorded as null); -0.0 comes back from JSONB as 0 and, inside a
    JSON value, floats of magnitude >= 1e16 as integers (JSONB prints numerics without an
    exponent), so both are normalised here, before hashing; strings and keys go through
    `storable_text`; tuples become lists; unknown objects become their str(). A bare float
    (a float column, also passed through here) keeps its magnitude: float8 holds it exactly.
    """
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return 0.0 if value == 0 else value
    return _json_value(value)


def _json_value(value: Any) -> Any:
    if isinstance(value, str):
        return storable_text(value)
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        if abs(value) >= 1e16:  # integral already (> 2**53): the equal int survives JSONB
            return int(value)
        return 0.0 if value == 0 else value
    if isinstance(value, dict):
        return {storable_text(str(k)): _json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    if hasattr(value, "item"):  # numpy / torch scalars
        return _json_value(value.item())
    return storable_text(str(value))
