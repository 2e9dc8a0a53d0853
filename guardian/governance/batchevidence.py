"""Evidence gathered under batching: what a re-enable, a canary step or a passing analysis
needs on a route served by a batching engine.

A fault that needs a shared batch is invisible to a speculative run decoded alone; after a
rollback caused by one, the shadow's re-runs judged alone came back clean while the fault was
still there. So on a route whose verdicts say its engine batches (`stats["batch"]["engine"]
== "continuous"`, guardian.equivalence.batchshadow.batch_record), speculation may come back
only on `triggers.min_batched_evidence` clean verdicts judged *in a shared batch* (the
speculative run proposed draft tokens at a step it shared with another row) about requests
served since the rollback (or re-enable) — and after the last correctness failure among them:
while the fault is there, failures keep coming and the clean run never gets long enough.
Routes whose engine decodes one request at a time are not held to it (there is no batch).

Two readers of the same rule: `BatchedTally` (in memory, per route since its last reset:
the rollback controller's analysis and canary steps) and `reenable_refusal` (from the audit
database, since the rollback: every re-enable path, CLI, admin API, controller).
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

FAILING = frozenset({"divergence", "distribution_mismatch"})
MAX_ROWS_READ = 20_000  # shadow rows read for one re-enable (newest first)


def batch_of(stats: dict[str, Any] | None) -> dict[str, Any]:
    value = (stats or {}).get("batch")
    return value if isinstance(value, dict) else {}


def judged_in_batch(stats: dict[str, Any] | None) -> bool:
    """The verdict's speculative run proposed at a step shared with another row."""
    return int(batch_of(stats).get("shared_spec_steps") or 0) > 0


def batching_engine(stats: dict[str, Any] | None) -> bool:
    return batch_of(stats).get("engine") == "continuous"


@dataclass(slots=True)
class _Counts:
    batching: bool = False  # some verdict came from a batching engine
    batched: int = 0  # clean verdicts judged in a shared batch since the last failure
    failing: int = 0  # correctness failures (any batch)


class BatchedTally:
    """Per route since its last reset: verdicts judged in a shared batch, failures."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, _Counts] = {}

    def observe(self, route: str, verdict: str, stats: dict[str, Any] | None) -> None:
        with self._lock:
            c = self._counts.setdefault(route, _Counts())
            c.batching = c.batching or batching_engine(stats)
            if verdict in FAILING:
                c.failing += 1
                c.batched = 0
            elif judged_in_batch(stats):
                c.batched += 1

    def reset(self, route: str) -> None:
        with self._lock:
            old = self._counts.get(route)
            # The engine does not change at a reset: keep knowing that it batches.
            self._counts[route] = _Counts(batching=bool(old and old.batching))

    def shortfall(self, route: str, minimum: int) -> str | None:
        """Why the route's evidence since its reset is not enough (None: it is)."""
        with self._lock:
            c = self._counts.get(route) or _Counts()
        if minimum <= 0 or not c.batching or c.batched >= minimum:
            return None
        after = " after the last failing verdict" if c.failing else " since the last reset"
        return (f"{c.batched} of {minimum} clean verdicts judged in a shared batch{after} "
                "(triggers.min_batched_evidence)")

    def as_dict(self, route: str) -> dict[str, Any]:
        with self._lock:
            c = self._counts.get(route) or _Counts()
        return {"batching_engine": c.batching, "batched_verdicts": c.batched,
                "failing_verdicts": c.failing}


def _served_at(stats: dict[str, Any] | None, created_at: datetime) -> datetime:
    stamped = (stats or {}).get("request_created_at")
    at = created_at
    if isinstance(stamped, str):
        with contextlib.suppress(ValueError):
            at = datetime.fromisoformat(stamped)
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def evidence_since(db: sa.Engine, route: str, pair_hash: str | None,
                   since: datetime) -> dict[str, Any]:
    """Counts over the audit DB's shadow verdicts on `route` (and pair) about requests served
    since `since`: batched (judged in a shared batch, not failing), failing, and whether any
    verdict of the route came from a batching engine."""
    from guardian.audit.models import AuditShadow

    t = AuditShadow.__table__
    since = since if since.tzinfo else since.replace(tzinfo=UTC)
    query = sa.select(t.c.verdict, t.c.stats, t.c.created_at).where(t.c.route == route)
    if pair_hash:
        query = query.where(t.c.pair_hash == pair_hash)
    query = query.order_by(t.c.created_at.desc()).limit(MAX_ROWS_READ)
    out = {"batching_engine": False, "batched": 0, "failing": 0, "since": since.isoformat()}
    with db.connect() as conn:  # newest first: clean batched verdicts until the last failure
        for verdict, stats, created in conn.execute(query):
            out["batching_engine"] = out["batching_engine"] or batching_engine(stats)
            if _served_at(stats, created) < since:
                continue
            if verdict in FAILING:
                out["failing"] += 1
            elif judged_in_batch(stats) and not out["failing"]:
                out["batched"] += 1
    return out


def reenable_refusal(db: sa.Engine | None, route: str, pair_hash: str | None, state: Any,
                     minimum: int) -> tuple[str | None, dict[str, Any]]:
    """(why a re-enable of `route` is refused for its batched evidence, or None; the counts).

    Applies after a trigger's rollback (`state.updated_by` "trigger:..."), from its time."""
    if db is None or state is None or minimum <= 0 or state.mode == "speculative" \
            or not str(state.updated_by).startswith("trigger:"):
        return None, {}
    counts = evidence_since(db, route, pair_hash, state.updated_at)
    counts["required"] = minimum
    if not counts["batching_engine"]:
        return None, counts
    if counts["failing"] and counts["batched"] < minimum:
        return (f"{counts['failing']} shadow verdict(s) about requests served since the "
                f"rollback ({counts['since']}) are correctness failures, the last followed by "
                f"only {counts['batched']} of the {minimum} clean verdicts judged in a shared "
                "batch a re-enable needs: the fault is still there. Fix the engine (or the "
                "pair) and let the shadow judge it again."), counts
    if counts["batched"] < minimum:
        return (f"only {counts['batched']} of the {minimum} shadow verdicts a re-enable needs "
                f"were judged in a shared batch since the rollback ({counts['since']}); a "
                "fault that needs a batch cannot show alone. Let the shadow judge more "
                "traffic (shadow.batch_rows > 1), or lower triggers.min_batched_evidence."), \
            counts
    return None, counts
