"""Rolling windows of live evidence per route: what the triggers are evaluated on.

A `RouteWindow` keeps, for one route, the last `window_s` seconds (at most `window_max`
items per series) of:
- speculative runs (served or shadow): their stored counters (`engine.metrics.SpecCounters`:
  proposed / judged / accepted / steps), accepted length per step, emitted token ids;
- shadow verdicts, each with the principal behind it (`SIDECAR` for the sidecar's own shadow
  runs, the mirror key's `api-key:<name>` for mirrored traffic);
- latency samples of the served speculative path and of the target-only baseline (served
  target-only or shadow target-only runs of the same traffic).
plus a frozen *reference* for drift: the first `reference_size` steps/tokens seen after the
window was (re)armed.

Windows are fed from audit events (`observe_request`, `observe_shadow`), the same dataclasses
the audit store persists, so a window rebuilt from the database (`load_window`) equals the
one a replica built in memory.
"""

from __future__ import annotations

import copy
import logging
import time
from collections import Counter, deque
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.metrics import SpecCounters
from guardian.audit.events import RequestEvent, ShadowEvent
from guardian.governance.runningsums import Row, RunningSums

logger = logging.getLogger(__name__)

SIDECAR = "sidecar"  # the principal behind verdicts of the sidecar's own shadow runs
# Speculative requests kept, frozen, as the per-request drift reference (the chi2 drift
# statistic uses the first `triggers.drift.reference_requests` of them; the policy caps it here).
REFERENCE_REQUESTS_CAP = 200
# Running sums a window keeps (one per statistic and binning; a policy reload that changes the
# bins leaves the old ones behind until the next reset, or until this many: then all go).
MAX_RUNNING_SUMS = 8


def is_mirrored(stats: Mapping[str, Any]) -> bool:
    """A verdict on mirrored traffic (`/v1/shadow`): the judged response came from a caller."""
    return bool(stats.get("external"))


# Generations stopped by their client or deadline (`ServingCore._record_cancelled`): their
# counters are empty, their latency is recorded as 0.0 and their tokens are a prefix. Counted,
# a caller who hangs up on many streams would add zero-latency samples to whichever path
# served them (hiding a real slowdown of speculation, or faking one against the target-only
# baseline) and partial outputs to the drift windows. Requests an upstream pool failed or
# refused (`guardian.serving.recorder.audit_failure`, finish_reason `error`) are no evidence
# either: empty counters and no tokens would count toward a trigger's minimum sample.
PARTIAL_FINISH_REASONS = frozenset({"cancelled", "error"})


def is_partial(finish_reason: str | None) -> bool:
    return finish_reason in PARTIAL_FINISH_REASONS


def request_principal(params: Mapping[str, Any] | None) -> str:
    """The principal a served request's audit params record (`unattributed` without one)."""
    return str((params or {}).get("principal") or "unattributed")


def verdict_principal(stats: Mapping[str, Any]) -> str:
    if is_mirrored(stats):
        return str(stats.get("principal") or "api-key:unknown")
    return SIDECAR


@dataclass(frozen=True, slots=True)
class SpecSample:
    t: float
    counters: SpecCounters
    accepted_lengths: Counter  # accepted draft tokens per step -> number of steps
    token_ids: tuple[int, ...]
    # Who sent the request (`api-key:<name>`; the sidecar for its own shadow runs): a
    # rollback names how much of its evidence each principal supplied.
    principal: str = SIDECAR
    # Derived values the drift trigger computes once per sample instead of at every
    # evaluation (guardian.governance.triggers.drift.sample_shares).
    memo: dict = field(default_factory=dict, compare=False, repr=False)
    # The order its window received it in (strictly increasing, never reused, resets
    # included): running sums over the window fold in and take out samples by it.
    seq: int = field(default=0, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class VerdictSample:
    t: float
    verdict: str
    request_id: str
    position: int | None
    margin: float | None
    tolerance: float
    principal: str = SIDECAR


def accepted_lengths(stats: Mapping[str, Any]) -> Counter:
    """Steps by number of accepted draft tokens, from the per-position counters.

    Acceptance is a prefix (position i is only accepted if 0..i-1 were), so the number of
    steps that accepted at least k+1 tokens is `accepted_per_position[k]`, and the steps that
    drafted at all is `drafted_per_position[0]`.
    """
    acc = list(stats.get("accepted_per_position") or [])
    drafted = list(stats.get("drafted_per_position") or [])
    if not drafted:
        return Counter()
    out: Counter = Counter()
    at_least = [drafted[0], *acc, 0]
    for k in range(len(at_least) - 1):
        n = at_least[k] - at_least[k + 1]
        if n > 0:
            out[k] = n
    return out


def _tpot(stats: Mapping[str, Any]) -> float | None:
    n = int(stats.get("completion_tokens") or 0)
    if n < 2 or stats.get("latency_unreported"):  # a whole upstream answer: no per-token time
        return None
    return (float(stats.get("total_time_s", 0.0)) - float(stats.get("time_to_first_token_s", 0.0))) / (n - 1)


@dataclass
class RouteWindow:
    route: str
    window_s: float = 300.0
    window_max: int = 2048
    reference_size: int = 200
    clock: Callable[[], float] = time.monotonic
    spec: deque[SpecSample] = field(init=False)
    verdicts: deque[VerdictSample] = field(init=False)
    served_latency: deque[tuple[float, float]] = field(init=False)
    baseline_latency: deque[tuple[float, float]] = field(init=False)
    reference_steps: Counter = field(init=False)
    reference_tokens: Counter = field(init=False)
    reference_samples: list[SpecSample] = field(init=False)
    version: int = field(init=False, default=0)  # bumped on every new observation
    # Running sums over `spec` (guardian.governance.runningsums), by what they sum; shared
    # with every snapshot, replaced on reset.
    running: dict[Hashable, RunningSums[SpecSample]] = field(init=False, compare=False, repr=False)
    _seq: int = field(init=False, default=0, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget all evidence and the drift reference (after a re-enable or promotion)."""
        self.spec = deque(maxlen=self.window_max)
        self.verdicts = deque(maxlen=self.window_max)
        self.served_latency = deque(maxlen=self.window_max)
        self.baseline_latency = deque(maxlen=self.window_max)
        self.reference_steps, self.reference_tokens = Counter(), Counter()
        self.reference_samples = []  # the first requests, frozen (never pruned)
        self.running = {}
        self.version += 1

    # --- feeding ---------------------------------------------------------------------------
    def add_spec(self, stats: Mapping[str, Any], token_ids: list[int], t: float | None = None,
                 principal: str = SIDECAR) -> None:
        t = self.clock() if t is None else t
        lengths = accepted_lengths(stats)
        sample = SpecSample(t, SpecCounters.from_stats(stats), lengths, tuple(token_ids),
                            principal, seq=self._seq)
        self._seq += 1
        # The reference fills first; drift is measured on what comes after it.
        if sum(self.reference_steps.values()) < self.reference_size:
            self.reference_steps.update(lengths)
        if sum(self.reference_tokens.values()) < self.reference_size:
            self.reference_tokens.update(token_ids)
        if len(self.reference_samples) < REFERENCE_REQUESTS_CAP:
            self.reference_samples.append(sample)
        self.spec.append(sample)
        self.version += 1

    def add_verdict(self, verdict: str, request_id: str, position: int | None = None,
                    margin: float | None = None, tolerance: float = 0.0, t: float | None = None,
                    principal: str = SIDECAR) -> None:
        self.verdicts.append(VerdictSample(self.clock() if t is None else t, verdict, request_id,
                                           position, margin, tolerance, principal))
        self.version += 1

    def add_latency(self, path: str, seconds: float, t: float | None = None) -> None:
        series = self.served_latency if path == "speculative" else self.baseline_latency
        series.append((self.clock() if t is None else t, seconds))
        self.version += 1

    def observe_request(self, event: RequestEvent, metric: str = "time_per_output_token_s",
                        t: float | None = None) -> None:
        """A served request: speculative evidence and a latency sample of its path. A
        generation its client (or deadline) cancelled is no evidence (`is_partial`)."""
        if is_partial(event.finish_reason):
            return
        if event.served_path == "speculative":
            self.add_spec(event.stats, event.completion_token_ids, t,
                          request_principal(event.params))
        if event.served_path in ("speculative", "target_only") and len(event.completion_token_ids) > 1 \
                and not event.stats.get("latency_unreported"):
            value = (event.time_per_output_token_s if metric == "time_per_output_token_s"
                     else event.compute_time_s)
            self.add_latency(event.served_path, value, t)

    def observe_shadow(self, event: ShadowEvent, metric: str = "time_per_output_token_s",
                       t: float | None = None) -> None:
        """A shadow verdict; its run is speculative evidence or a target-only baseline sample."""
        self.add_verdict(event.verdict, event.request_id, event.first_divergence_position,
                         event.margin_at_divergence, event.tolerance, t,
                         verdict_principal(event.stats))
        shadow_stats = event.stats.get("shadow_stats") or {}
        if event.shadow_path == "speculative" and shadow_stats:
            self.add_spec(shadow_stats, [tr.token_id for tr in event.shadow_trace], t,
                          verdict_principal(event.stats))
        elif event.shadow_path == "target_only" and shadow_stats:
            value = (_tpot(shadow_stats) if metric == "time_per_output_token_s"
                     else float(shadow_stats.get("total_time_s", 0.0)))
            if value is not None:
                self.add_latency("target_only", value, t)

    # --- reading -----------------------------------------------------------------------------
    def snapshot(self) -> RouteWindow:
        """A copy to measure while the original keeps taking observations (its series and the
        reference are copied; the samples themselves are immutable and shared, and so are the
        running sums: they move forward with whichever snapshot is read last)."""
        w = copy.copy(self)
        w.spec = deque(self.spec, maxlen=self.window_max)
        w.verdicts = deque(self.verdicts, maxlen=self.window_max)
        w.served_latency = deque(self.served_latency, maxlen=self.window_max)
        w.baseline_latency = deque(self.baseline_latency, maxlen=self.window_max)
        w.reference_steps, w.reference_tokens = Counter(self.reference_steps), Counter(self.reference_tokens)
        w.reference_samples = list(self.reference_samples)
        return w

    def prune(self, now: float | None = None) -> None:
        cutoff = (self.clock() if now is None else now) - self.window_s
        for series in (self.spec, self.verdicts, self.served_latency, self.baseline_latency):
            while series and _t(series[0]) < cutoff:
                series.popleft()

    def counters(self) -> SpecCounters:
        """The speculative counters summed over the window (ratios: `engine.metrics`), from
        exact running sums of Python integers (an upstream may report counters up to 2**53
        and beyond, where float sums would round)."""
        total = self.running_sums("counters", _counter_row, 4, exact=True).read(self.spec, 0).total
        return SpecCounters(*(int(x) for x in total))

    def current_steps(self) -> Counter:
        out: Counter = Counter()
        for s in self.spec:
            out.update(s.accepted_lengths)
        return out

    def drift_reference(self, reference_requests: int) -> tuple[list[SpecSample], int]:
        """The per-request drift statistic's reference, the first `reference_requests`
        requests seen since the last reset, and the sequence number its current side starts
        at: the window's requests after the reference (it is never compared with itself)."""
        reference = self.reference_samples[:reference_requests]
        return reference, (reference[-1].seq + 1 if reference else 0)

    def running_sums(self, key: Hashable, row_of: Callable[[SpecSample], Row], width: int, *,
                     exact: bool = False) -> RunningSums[SpecSample]:
        """The window's running sums of `row_of` (one per `key`, created on first use;
        `exact`: `RunningSums`' integer sums)."""
        sums = self.running.get(key)
        if sums is None:
            if len(self.running) >= MAX_RUNNING_SUMS:  # sums of policies no longer in force
                self.running.clear()
            sums = self.running.setdefault(key, RunningSums(row_of, width, exact=exact))
        return sums

    def spec_principals(self) -> Counter:
        """Speculative samples in the window (acceptance and drift evidence) per principal."""
        return Counter(s.principal for s in self.spec)

    def current_tokens(self) -> Counter:
        out: Counter = Counter()
        for s in self.spec:
            out.update(s.token_ids)
        return out


def _counter_row(sample: SpecSample) -> Row:
    import numpy as np

    c = sample.counters
    return np.array([c.proposed, c.judged, c.accepted, c.steps], dtype=object), 1


def _t(item: Any) -> float:
    return item.t if hasattr(item, "t") else item[0]


def load_window(db: Any, route: str, *, window_s: float, window_max: int = 2048,
                reference_size: int = 200, metric: str = "time_per_output_token_s",
                pair_hash: str | None = None, mirror_evidence: bool = False) -> RouteWindow:
    """Rebuild a route's window from the audit database (every replica's traffic).

    Verdicts on mirrored traffic are left out unless `mirror_evidence` (the route's
    `triggers.mirror_evidence`), as the live controller does.

    Rows are replayed in time order with their age mapped onto this process's monotonic clock,
    so pruning behaves as for a live window.
    """
    import sqlalchemy as sa

    from guardian.audit.models import AuditRequest, AuditShadow

    since = datetime.now(UTC) - timedelta(seconds=window_s)
    window = RouteWindow(route, window_s, window_max, reference_size)
    now_wall, now_mono = datetime.now(UTC), time.monotonic()
    req_q = sa.select(AuditRequest).where(AuditRequest.route == route, AuditRequest.created_at >= since)
    sh_q = sa.select(AuditShadow).where(AuditShadow.route == route, AuditShadow.created_at >= since)
    if pair_hash:
        req_q = req_q.where(AuditRequest.pair_hash == pair_hash)
        sh_q = sh_q.where(AuditShadow.pair_hash == pair_hash)
    with db.connect() as conn:
        reqs = conn.execute(req_q.order_by(AuditRequest.created_at).limit(window_max)).mappings().all()
        shadows = conn.execute(sh_q.order_by(AuditShadow.created_at).limit(window_max)).mappings().all()

    def mono(ts: datetime) -> float:
        ts = ts if ts.tzinfo else ts.replace(tzinfo=UTC)
        return now_mono - (now_wall - ts).total_seconds()

    for r in reqs:
        if is_partial(r["finish_reason"]):
            continue
        t = mono(r["created_at"])
        if r["served_path"] == "speculative":
            window.add_spec(r["stats"] or {}, list(r["completion_token_ids"] or []), t,
                            request_principal(r["params"]))
        if r["served_path"] in ("speculative", "target_only") and (r["completion_tokens"] or 0) > 1:
            value = r[metric if metric == "time_per_output_token_s" else "compute_time_s"]
            window.add_latency(r["served_path"], float(value), t)
    for s in shadows:
        t = mono(s["created_at"])
        if is_mirrored(s["stats"] or {}) and not mirror_evidence:
            continue
        window.add_verdict(s["verdict"], s["request_id"], s["first_divergence_position"],
                           s["margin_at_divergence"], s["tolerance"], t,
                           verdict_principal(s["stats"] or {}))
        shadow_stats = (s["stats"] or {}).get("shadow_stats") or {}
        if s["shadow_path"] == "speculative" and shadow_stats:
            window.add_spec(shadow_stats, [], t, verdict_principal(s["stats"] or {}))
        elif s["shadow_path"] == "target_only" and shadow_stats:
            value = (_tpot(shadow_stats) if metric == "time_per_output_token_s"
                     else shadow_stats.get("total_time_s"))
            if value is not None:
                window.add_latency("target_only", float(value), t)
    return window
