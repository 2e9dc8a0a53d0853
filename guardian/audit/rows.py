"""Event -> rows mapping and sealing (redaction + seq numbers + hash links).

A `Sealer` owns one chain. `seal(events)` turns a batch of events into a `SealedBatch`:

* `RequestEvent` -> one `audit_requests` row + one `audit_tokens` row per `TokenTrace`
  (`source='served'`, `created_at` = the request's, so a request's tokens share a partition);
* `ShadowEvent`  -> one `audit_shadow` row + its `shadow_trace` as `source='shadow'` tokens;
* `GovernanceEvent` -> one `audit_governance` row.

Acceptance columns (`acceptance_rate`, `mean_acceptance_length` of `audit_requests` and
`audit_shadow`) are derived from the counters in the event's stats through
`engine.metrics.SpecCounters` — never computed here by hand. `acceptance_rate` is vLLM's
accepted / proposed draft tokens (before the Seams change it was accepted / judged positions,
which is now `alpha`, kept in the stats JSON). Records whose stats hold no counters (mirrored
requests) get NULL. The stats JSON itself keeps the raw counters, hash-covered.

Rows get consecutive `seq` numbers in that order and are hashed as they are built. Per-token
rows are kept as finished COPY text (canonical line + prev_hash + hash per line; one str per
trace, `token_lines`) for Postgres, or as tuples for SQLite. A sealed batch is immutable: it
is written to the DB or the spool as is, and its idempotency key is (chain_id, first_seq).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from operator import index
from typing import Any

from engine.metrics import SpecCounters
from guardian.audit import redaction
from guardian.audit.chain import (
    CANON_COLUMNS,
    GENESIS,
    canonical_line,
    clean_text,
    esc,
    fmt_ts,
    json_safe,
)
from guardian.audit.events import GovernanceEvent, RequestEvent, ShadowEvent
from guardian.audit.native import seal_tokens

Event = RequestEvent | ShadowEvent | GovernanceEvent

TOKEN_COLUMNS: tuple[str, ...] = (*CANON_COLUMNS["audit_tokens"], "prev_hash", "hash")
NULL = "\\N"  # COPY text NULL
_SEQ = TOKEN_COLUMNS.index("seq")
_ORIGINS = frozenset({"accepted", "resampled", "bonus", "target", "upstream"})


@dataclass(slots=True)
class SealedBatch:
    chain_id: str
    first_seq: int
    last_seq: int
    requests: list[dict[str, Any]] = field(default_factory=list)
    shadow: list[dict[str, Any]] = field(default_factory=list)
    governance: list[dict[str, Any]] = field(default_factory=list)
    # Postgres: the COPY text, each item one or more whole lines (one str per trace; the
    # spool of an older version holds one per line): `copy_lines` reads them line by line.
    token_lines: list[str] = field(default_factory=list)
    token_rows: list[tuple[Any, ...]] = field(default_factory=list)  # SQLite: TOKEN_COLUMNS tuples
    request_ids: list[str] = field(default_factory=list)  # for loss reports
    # RFC 6962 leaf hashes of the token records, in order, when the C sealer made them (saves
    # the head publisher re-hashing); None otherwise, and after a split or a spool round trip.
    token_leaves: list[bytes] | None = None

    @property
    def n_rows(self) -> int:
        return self.last_seq - self.first_seq + 1

    def split(self) -> list[SealedBatch]:
        """One batch per event (a parent record with the tokens that follow it), so one
        unwritable event does not take the others down with it."""
        parents = sorted([("requests", r) for r in self.requests]
                         + [("shadow", r) for r in self.shadow]
                         + [("governance", r) for r in self.governance],
                         key=lambda p: p[1]["seq"])
        parts: list[SealedBatch] = []
        for i, (kind, row) in enumerate(parents):
            last = parents[i + 1][1]["seq"] - 1 if i + 1 < len(parents) else self.last_seq
            part = SealedBatch(self.chain_id, row["seq"], last)
            getattr(part, kind).append(row)
            if kind == "requests":
                part.request_ids.append(row["request_id"])
            part.token_lines = [x for x in copy_lines(self.token_lines)
                                if row["seq"] < int(x.split("\t", 5)[_SEQ]) <= last]
            part.token_rows = [t for t in self.token_rows if row["seq"] < t[_SEQ] <= last]
            parts.append(part)
        return parts

    def to_json(self) -> str:
        def enc(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return [{**r, "created_at": fmt_ts(r["created_at"])} for r in rows]

        token_rows = [[fmt_ts(v) if isinstance(v, datetime) else v for v in t]
                      for t in self.token_rows]
        return json.dumps({
            "chain_id": self.chain_id, "first_seq": self.first_seq, "last_seq": self.last_seq,
            "requests": enc(self.requests), "shadow": enc(self.shadow),
            "governance": enc(self.governance), "token_lines": self.token_lines,
            "token_rows": token_rows, "request_ids": self.request_ids,
        }, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> SealedBatch:
        d = json.loads(text)

        def dec(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return [{**r, "created_at": datetime.fromisoformat(r["created_at"])} for r in rows]

        ts_idx = TOKEN_COLUMNS.index("created_at")
        token_rows = [tuple(datetime.fromisoformat(v) if i == ts_idx else v
                            for i, v in enumerate(t)) for t in d["token_rows"]]
        return cls(d["chain_id"], d["first_seq"], d["last_seq"], dec(d["requests"]),
                   dec(d["shadow"]), dec(d["governance"]), d["token_lines"], token_rows,
                   d["request_ids"])


def copy_lines(texts: list[str]) -> Iterator[str]:
    """The COPY lines (each ending in a newline) of a batch's `token_lines` texts."""
    for text in texts:
        lines = text.split("\n")
        for line in lines[:-1]:  # a text ends in a newline: the last piece is empty
            yield line + "\n"


def _utc(ts: datetime) -> datetime:
    if ts.tzinfo is None:
        raise ValueError("audit event created_at must be timezone-aware (UTC)")
    return ts.astimezone(UTC)


def _f(x: Any) -> float | None:
    return None if x is None else float(x)


# Stats keys that hold speculative counters (what SpecCounters.from_stats reads).
_COUNTER_KEYS = frozenset({"proposed_tokens", "judged_tokens", "draft_tokens", "accepted", "steps"})


def _rates(stats: dict[str, Any]) -> tuple[float | None, float | None]:
    """(acceptance_rate, mean_acceptance_length) columns from the stats' counters."""
    if not _COUNTER_KEYS & stats.keys():
        return None, None
    counters = SpecCounters.from_stats(stats)
    return json_safe(counters.acceptance_rate), json_safe(counters.mean_acceptance_length)


class Sealer:
    """Assigns seq numbers and hash links for one chain; not thread-safe (one writer thread)."""

    def __init__(self, chain_id: str, *, salt: bytes, copy_lines: bool,
                 next_seq: int = 1, prev_hash: str = GENESIS) -> None:
        self.chain_id = clean_text(chain_id)
        self._key = hashlib.blake2b(salt).digest()  # keyed BLAKE2b accepts <= 64-byte keys
        self._copy_lines = copy_lines
        # The C loop (guardian.audit._seal) makes COPY lines only; SQLite's row tuples and
        # GUARDIAN_AUDIT_PURE_PYTHON=1 take the Python loop below (the reference).
        self._native = copy_lines and seal_tokens is not None
        self._seq = next_seq
        self._prev = prev_hash

    @property
    def head(self) -> tuple[int, str]:
        """(last seq, last hash) of this chain."""
        return self._seq - 1, self._prev

    def seal(self, events: list[Event]) -> SealedBatch:
        batch = SealedBatch(self.chain_id, self._seq, self._seq - 1,
                            token_leaves=[] if self._native else None)
        for ev in events:
            if isinstance(ev, RequestEvent):
                self._request(batch, ev)
            elif isinstance(ev, ShadowEvent):
                self._shadow(batch, ev)
            elif isinstance(ev, GovernanceEvent):
                self._chain_row(batch.governance, "audit_governance", {
                    "event_id": ev.event_id, "created_at": _utc(ev.created_at), "kind": ev.kind,
                    "route": ev.route, "pair_hash": ev.pair_hash, "policy_hash": ev.policy_hash,
                    "actor": ev.actor, "details": json_safe(ev.details)})
            else:
                raise TypeError(f"not an audit event: {type(ev).__name__}")
        batch.last_seq = self._seq - 1
        return batch

    def _chain_row(self, out: list[dict[str, Any]], table: str, row: dict[str, Any]) -> None:
        for k, v in row.items():
            if isinstance(v, str):
                row[k] = clean_text(v)
        row["chain_id"], row["seq"], row["prev_hash"] = self.chain_id, self._seq, self._prev
        row["hash"] = self._prev = hashlib.sha256(
            f"{self._prev}\n{table}\t{canonical_line(table, row)}".encode()).hexdigest()
        self._seq += 1
        out.append(row)

    def _request(self, batch: SealedBatch, ev: RequestEvent) -> None:
        redaction_level = redaction.check_redaction(ev.redaction)
        created = _utc(ev.created_at)
        prompt, prompt_h = redaction.redact_text(redaction_level, self._key, ev.prompt_text)
        completion, completion_h = redaction.redact_text(redaction_level, self._key, ev.completion_text)
        stats = json_safe(ev.stats)
        rate, mal = _rates(stats)
        full = redaction_level == "full"
        self._chain_row(batch.requests, "audit_requests", {
            "request_id": ev.request_id, "created_at": created, "route": ev.route,
            "mode": ev.mode, "served_path": ev.served_path, "endpoint": ev.endpoint,
            "pair_hash": ev.pair_hash, "policy_hash": ev.policy_hash, "redaction": redaction_level,
            "prompt_text": prompt, "completion_text": completion, "prompt_hash": prompt_h,
            "completion_hash": completion_h,
            "prompt_token_ids": [int(t) for t in ev.prompt_token_ids] if full else None,
            "completion_token_ids": [int(t) for t in ev.completion_token_ids] if full else None,
            "prompt_tokens": (len(ev.prompt_token_ids) if ev.prompt_tokens is None
                              else int(ev.prompt_tokens)),
            "completion_tokens": len(ev.completion_token_ids),
            "finish_reason": ev.finish_reason,
            "params": json_safe(redaction.redact_params(redaction_level, ev.params)),
            "queue_time_s": float(ev.queue_time_s), "compute_time_s": float(ev.compute_time_s),
            "time_to_first_token_s": float(ev.time_to_first_token_s),
            "time_per_output_token_s": float(ev.time_per_output_token_s),
            "acceptance_rate": rate, "mean_acceptance_length": mal, "stats": stats,
            "fallback_reason": ev.fallback_reason, "replica_id": ev.replica_id,
            "trace_len": len(ev.trace)})
        batch.request_ids.append(ev.request_id)
        self._tokens(batch, ev.request_id, created, "served", redaction_level, ev.trace)

    def _shadow(self, batch: SealedBatch, ev: ShadowEvent) -> None:
        stats = json_safe(ev.stats)
        rate, mal = _rates(stats)
        created = _utc(ev.created_at)
        self._chain_row(batch.shadow, "audit_shadow", {
            "request_id": ev.request_id, "created_at": created, "route": ev.route,
            "pair_hash": ev.pair_hash, "policy_hash": ev.policy_hash,
            "shadow_path": ev.shadow_path, "verdict": ev.verdict,
            "first_divergence_position": ev.first_divergence_position,
            "margin_at_divergence": json_safe(_f(ev.margin_at_divergence)),
            "tolerance": float(ev.tolerance), "acceptance_rate": rate,
            "mean_acceptance_length": mal, "stats": stats,
            "shadow_compute_time_s": float(ev.shadow_compute_time_s),
            "trace_len": len(ev.shadow_trace)})
        # Shadow tokens follow the route's redaction like the served tokens, so a `full`
        # route can be compared token by token; producers that don't say get metadata only.
        self._tokens(batch, ev.request_id, created, "shadow", redaction.check_redaction(ev.redaction),
                     ev.shadow_trace)

    def _tokens(self, batch: SealedBatch, request_id: str, created: datetime, source: str,
                redaction_level: str, trace: list[Any]) -> None:
        """The hot loop: one %-format and one SHA-256 per emitted token (in C when
        `guardian.audit.native` has the extension: same lines, plus the Merkle leaves).

        Must produce exactly `chain.canonical_line("audit_tokens", row)` (a test checks it):
        "%.9g" is `format(x, ".9g")` and "%s" of an int is `str(int)`, as in the f-string
        of `chain.token_line`; %-formatting one tuple costs a third less than an f-string
        with three format specs (the per-row Python work is what bounds `guardian bench
        audit`'s production / raw COPY ratio on a 2-core machine).
        """
        request_id = clean_text(request_id)
        prefix = f"{esc(self.chain_id)}\t{esc(request_id)}\t{fmt_ts(created)}\t{source}\t"
        full, hashed = redaction_level == "full", redaction_level == "hashed"
        if self._native and batch.token_leaves is not None and self._seq + len(trace) < 2**63:
            hashes = ([self._token_hash(request_id, source, t) for t in trace] if hashed
                      else None)
            text, leaves, self._prev, self._seq = seal_tokens(  # type: ignore[misc]
                prefix, self._seq, self._prev, trace, 1 if full else 2 if hashed else 0, hashes)
            if text:
                batch.token_lines.append(text)
            batch.token_leaves += leaves
            return
        sha256 = hashlib.sha256
        seq, prev = self._seq, self._prev
        copy_text = self._copy_lines
        lines: list[str] = []  # the trace's COPY lines: one str, as the C loop makes it
        out = lines.append if copy_text else batch.token_rows.append
        tag = "\naudit_tokens\t"
        for t in trace:
            origin = t.origin
            if type(origin) is not str or origin not in _ORIGINS:
                raise ValueError(f"unknown token origin {origin!r}")
            tid: int | None = None
            th: str | None = None
            if full:
                tid = int(t.token_id)
            elif hashed:
                th = self._token_hash(request_id, source, t)
            # Integer columns hold integers: anything else must convert exactly (index), so
            # no str() of a foreign object can reach the COPY text (a tab, a newline, "\.").
            pos, step, gamma = t.position, t.step, t.gamma
            if type(pos) is not int or type(step) is not int or type(gamma) is not int:
                pos, step, gamma = index(pos), index(step), index(gamma)
            dp = t.draft_prob
            line = prefix + ((_LINE_DP % (seq, pos, NULL if tid is None else tid,
                                          NULL if th is None else th, origin, dp,
                                          t.target_prob, t.target_margin, step, gamma))
                             if dp is not None else
                             (_LINE_NO_DP % (seq, pos, NULL if tid is None else tid,
                                             NULL if th is None else th, origin,
                                             t.target_prob, t.target_margin, step, gamma)))
            h = sha256(f"{prev}{tag}{line}".encode()).hexdigest()
            if copy_text:
                out(f"{line}\t{prev}\t{h}\n")
            else:
                # Store exactly what was hashed (the rounded floats).
                f = line.rsplit("\t", 5)
                out((self.chain_id, request_id, created, source, seq, pos, tid, th,
                     origin, None if dp is None else float(f[1]), float(f[2]), float(f[3]),
                     step, gamma, prev, h))
            prev = h
            seq += 1
        if lines:
            batch.token_lines.append("".join(lines))
        self._seq, self._prev = seq, prev


    def _token_hash(self, request_id: str, source: str, t: Any) -> str:
        """`hashed` redaction: keyed hash of the token id, bound to request and position."""
        return hashlib.blake2b(f"{request_id}\x1f{source}\x1f{t.position}\x1f{t.token_id}"
                               .encode(), key=self._key, digest_size=32).hexdigest()


# seq, position, token_id, token_hash, origin, [draft_prob,] target_prob, target_margin,
# step, gamma (after the request's four-field prefix)
_LINE_DP = "%s\t%s\t%s\t%s\t%s\t%.9g\t%.9g\t%.9g\t%s\t%s"
_LINE_NO_DP = "%s\t%s\t%s\t%s\t%s\t\\N\t%.9g\t%.9g\t%s\t%s"
