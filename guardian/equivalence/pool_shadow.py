"""Shadow across pools: a sampled request served by one pool is re-sent to the route's other
pool and the two answers are judged with the project's verdicts.

Greedy requests: `guardian.equivalence.verdicts.greedy_verdict` over the two token sequences (tokens as
the upstream names them: ids when it sends them, else their text), with the target-only
pool's top-2 logprob margins as the near-tie evidence.

Sampled requests: two samples differ by design, so what top-k logprobs allow is checked: at
every position of the common prefix (and the first position after it) both pools report the
top-k of the *same* target distribution — speculative decoding must not change it — so the
total variation restricted to the reported tokens is a lower bound of the true distance;
above `distribution_tolerance` is a certain `distribution_mismatch`. The details say what was
checked (`topk_tv_lower_bound`, positions) and what was not (`mass_outside_top_k`,
`beyond_common_prefix`, `acceptance_vs_expectation`: no draft distributions from a pool).

Load: a bounded queue and, per pool, at most `shadow_concurrency` shadow requests in flight;
beyond either, the job is shed (counted, logged at debug) — shadow traffic never queues
behind itself and never takes a serving slot (its own threads, not the serving executor).
Wired by guardian.app for GUARDIAN_BACKEND=upstream (`ServingCore.shadow`).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import queue
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from guardian.audit.events import ShadowEvent
from guardian.backends import BackendResult, TraceToken
from guardian.equivalence.verdicts import (
    VerdictResult,
    first_difference,
    greedy_verdict,
    tool_calls_of,
)
from guardian.serving.core import stats_dict

if TYPE_CHECKING:
    from guardian.audit.events import AuditSink
    from guardian.policy import RoutePolicy
    from guardian.serving.core import GenerationRequest, Served, ServingCore

logger = logging.getLogger(__name__)

__all__ = ["PoolShadow", "judge_greedy", "judge_sampled", "judge_text",
           "topk_tv_lower_bound"]


def _keys(trace: Sequence[TraceToken], ids: Sequence[int]) -> list[Any]:
    """Comparable token keys: ids when known, else the token text."""
    if trace and all(t.token_id >= 0 for t in trace):
        return [t.token_id for t in trace]
    if trace:
        return [t.token if t.token is not None else t.token_id for t in trace]
    return list(ids)


def judge_text(served: BackendResult, shadow: BackendResult) -> VerdictResult:
    """Two greedy answers compared by their text, where one came without token rows (a pool
    answers no logprobs to some requests: llama.cpp to a streamed one with tools, see
    guardian.backends.upstream.wire.request_body). Token against no token would be a
    divergence at position 0 that is not one. Equal texts match (the shadow's a prefix of
    the served one where the shadow stopped at its cap); else a divergence at the first
    differing character. Tool calls are judged beside it (`surface_checks`)."""
    a, b = served.text, shadow.text
    details: dict[str, Any] = {"compared": "text", "compared_chars": min(len(a), len(b)),
                               "unchecked": ["tokens", "near_tie_margin"]}
    if a == b or (shadow.finish_reason == "length" and a.startswith(b)):
        return VerdictResult("match", details=details)
    first = first_difference(a, b)
    details.update(compared_chars=first, first_differing_char=first,
                   served_text=a[first:first + 40], shadow_text=b[first:first + 40])
    return VerdictResult("divergence", details=details)


def judge_greedy(served: BackendResult, shadow: BackendResult, served_speculative: bool,
                 tolerance: float, cap: int) -> VerdictResult:
    if not (served.trace or served.token_ids) or not (shadow.trace or shadow.token_ids):
        return judge_text(served, shadow)
    a, b = _keys(served.trace, served.token_ids)[:cap], _keys(shadow.trace, shadow.token_ids)[:cap]
    interned: dict[Any, int] = {}
    ids_a = [interned.setdefault(k, len(interned)) for k in a]
    ids_b = [interned.setdefault(k, len(interned)) for k in b]
    ref, spec = (shadow, served) if served_speculative else (served, shadow)
    margins = [t.target_margin for t in ref.trace]
    margins += [t.target_margin for t in spec.trace[len(margins):]]
    result = greedy_verdict(ids_a, ids_b, margins, tolerance)
    for key in ("served_token", "shadow_token"):  # interned ints mean nothing to a reader
        v = result.details.get(key)
        if v is not None:
            result.details[key] = next(k for k, i in interned.items() if i == v)
    if not (served.trace and shadow.trace):
        result.details["unchecked"] = ["near_tie_margin"]
    return result


def topk_tv_lower_bound(a: Sequence[Any], b: Sequence[Any]) -> float | None:
    """A lower bound of the total variation between two distributions of which only the top-k
    (token, logprob) are known: a token missing from one list has at most that list's
    smallest reported probability there. None when a side reports nothing."""
    if not a or not b:
        return None
    pa = {x.token: math.exp(x.logprob) for x in a}
    pb = {x.token: math.exp(x.logprob) for x in b}
    floor_a, floor_b = min(pa.values()), min(pb.values())
    diff = 0.0
    for tok in pa.keys() | pb.keys():
        if tok in pa and tok in pb:
            diff += abs(pa[tok] - pb[tok])
        elif tok in pa:
            diff += max(0.0, pa[tok] - floor_b)
        else:
            diff += max(0.0, pb[tok] - floor_a)
    return diff / 2


def judge_sampled(served: BackendResult, shadow: BackendResult, tolerance: float,
                  cap: int) -> VerdictResult:
    a, b = served.trace[:cap], shadow.trace[:cap]
    ka, kb = _keys(a, []), _keys(b, [])
    common = next((i for i in range(min(len(ka), len(kb))) if ka[i] != kb[i]),
                  min(len(ka), len(kb)))
    checkable = min(common + 1, len(a), len(b))  # the first differing position shares a prefix
    bounds = [topk_tv_lower_bound(a[i].top_logprobs, b[i].top_logprobs) for i in range(checkable)]
    known = [(i, x) for i, x in enumerate(bounds) if x is not None]
    details: dict[str, Any] = {
        "checks": ["topk_tv_lower_bound"], "checked_positions": len(known),
        "common_prefix": common, "top_k": min((len(t.top_logprobs) for t in a + b), default=0),
        "unchecked": ["mass_outside_top_k", "beyond_common_prefix",
                      "acceptance_vs_expectation"]}
    if not known:
        details["unchecked"].insert(0, "topk_tv_lower_bound")
        return VerdictResult("distribution_ok", details=details)
    worst_i, worst = max(known, key=lambda p: p[1])
    details["max_tv_lower_bound"] = worst
    if worst > tolerance:
        return VerdictResult("distribution_mismatch", worst_i, a[worst_i].target_margin,
                             details=details)
    return VerdictResult("distribution_ok", details=details)


# What a shadow row keeps of the speculative run's stats: its counters and their ratios
# (absent / None where the pool does not report them, guardian.serving.core.stats_dict).
_COUNTER_STATS = ("proposed_tokens", "judged_tokens", "accepted", "steps", "unreported",
                  "acceptance_rate", "alpha", "mean_acceptance_length")


def _run_stats(result: BackendResult) -> dict[str, Any]:
    """The shadow run as the rollback windows read it (`shadow_stats`): its counters when it
    speculated, its timings (a target-only run is the latency trigger's baseline)."""
    stats = {k: v for k, v in stats_dict(result).items() if k in _COUNTER_STATS}
    stats.update(total_time_s=result.timings.total_s,
                 time_to_first_token_s=result.timings.time_to_first_token_s,
                 completion_tokens=len(result.token_ids))
    if result.stats.get("latency_unreported"):
        stats["latency_unreported"] = True
    return stats


def surface_checks(result: VerdictResult, req: Any, served: BackendResult,
                   shadow: BackendResult) -> VerdictResult:
    """What the request surface adds to a pool verdict: on greedy routes the two answers'
    tool calls must be structurally equal (name, parsed arguments; else a `divergence`); and
    every control that was on is listed as unchecked — a pool's answer carries no evidence
    that it honoured a penalty, a logit bias or a schema (no silent `match`). So is the
    `usage` the pool counted (what the client is shown, guardian.api.generation.usage):
    engines differ on whether a stop string's or an EOS's tokens count, so the token rows a
    pool returns do not prove its count."""
    on = sorted({*req.sampling.controls(), *(k for k in req.passthrough if k != "messages")})
    unchecked = [f"honoured:{name}" for name in on]
    if isinstance(served.stats.get("upstream_usage"), dict):
        unchecked.append("usage")
    if unchecked:
        result.details["unchecked"] = [*result.details.get("unchecked", []), *unchecked]
    a, b = tool_calls_of(served), tool_calls_of(shadow)
    if not (a or b):
        return result
    result.details["tool_calls_compared"] = req.greedy
    if not req.greedy:
        result.details["unchecked"] = [*result.details.get("unchecked", []), "tool_calls"]
    elif a != b and result.verdict in ("match", "near_tie"):
        result.details["tool_calls_differ"] = {"served": a[:8], "shadow": b[:8]}
        return dataclasses.replace(result, verdict="divergence")
    return result


@dataclass(slots=True)
class _Job:
    served: Served
    route: RoutePolicy


@dataclass(slots=True)
class MirrorJob:
    """A mirrored request (`/v1/shadow`): the primary's text, judged against the target-only
    pool (guardian.equivalence.pool_mirror); `done` gets the ShadowEvent (or the error)."""

    request: GenerationRequest
    route: RoutePolicy
    policy_hash: str
    text: str
    finish_reason: str | None
    done: Future[ShadowEvent | None] = field(default_factory=Future)


class PoolShadow:
    """Re-sends sampled requests to the other pool and records the verdicts."""

    def __init__(self, core: ServingCore, sink: AuditSink, *, capacity: int = 64,
                 workers: int = 4) -> None:
        self.core, self.sink = core, sink
        self._queue: queue.Queue[_Job | MirrorJob | None] = queue.Queue(capacity)
        self._inflight: dict[str, int] = {}
        self._lock = threading.Lock()
        self.shed = self.completed = self.failed = 0
        self._threads = [threading.Thread(target=self._worker, name=f"pool-shadow-{i}",
                                          daemon=True) for i in range(workers)]
        for t in self._threads:
            t.start()

    def offer_served(self, served: Served, route: RoutePolicy, parent: Any = None) -> bool:
        if route.upstream is None:
            return False
        try:
            self._queue.put_nowait(_Job(served, route))
            return True
        except queue.Full:
            self._shed(served, "queue_full")
            return False

    def _labels(self, served: Served) -> dict[str, str]:
        """The shadow series' labels, as guardian.equivalence.shadow gives them."""
        return {"route": served.request.route, "pair": self.core.backend.pair_hash[:12],
                "mode": served.served_path}

    def _shed(self, served: Served, why: str) -> None:
        self.shed += 1
        self.core.telemetry.shadow_drops.add(1, {**self._labels(served), "reason": why})
        logger.debug("shed pool shadow of %s (%s)", served.request.request_id, why)

    def _acquire(self, pool: Any) -> bool:
        key = pool.model_dump_json()
        with self._lock:
            n = self._inflight.get(key, 0)
            if n >= pool.shadow_concurrency:
                return False
            self._inflight[key] = n + 1
            return True

    def _release(self, pool: Any) -> None:
        key = pool.model_dump_json()
        with self._lock:
            self._inflight[key] -= 1

    def offer_mirror(self, job: MirrorJob) -> bool:
        """Queue a mirrored request (never blocks); False: the queue is full (dropped)."""
        try:
            self._queue.put_nowait(job)
            return True
        except queue.Full:
            self.shed += 1
            return False

    def _worker(self) -> None:
        while (job := self._queue.get()) is not None:
            if isinstance(job, MirrorJob):
                try:
                    job.done.set_result(self.evaluate_mirror(job))
                except Exception as exc:  # the mirror caller is told "failed", never a 500
                    self.failed += 1
                    logger.warning("pool mirror of %s failed: %r", job.request.request_id, exc)
                    job.done.set_exception(exc)
                continue
            try:
                self.evaluate(job.served, job.route)
            except Exception as exc:  # a shadow failure must never reach serving
                self.failed += 1
                logger.warning("pool shadow of %s failed: %r", job.served.request.request_id, exc)

    def evaluate_mirror(self, job: MirrorJob) -> ShadowEvent | None:
        """The target-only pool on the mirrored request, its answer walked along the
        primary's text (`pool_mirror.judge_text`); the verdict recorded (None: shed)."""
        from guardian.equivalence.pool_mirror import judge_text

        req, route = job.request, job.route
        pools = route.upstream
        assert pools is not None
        if not self._acquire(pools.target_only):
            self.shed += 1
            return None
        cap = min(req.max_tokens or route.shadow.max_new_tokens, route.shadow.max_new_tokens)
        started = time.perf_counter()
        try:
            target, _ = self.core.run_backend(req, route, False, None, max_new_tokens=cap)
        finally:
            self._release(pools.target_only)
        result = judge_text(target, job.text, route.near_tie_tolerance, cap, job.finish_reason)
        event = ShadowEvent(
            request_id=req.request_id, created_at=req.created_at, route=req.route,
            pair_hash=self.core.backend.pair_hash, policy_hash=job.policy_hash,
            shadow_path="target_only", verdict=result.verdict,
            first_divergence_position=result.first_divergence_position,
            margin_at_divergence=result.margin_at_divergence,
            tolerance=route.near_tie_tolerance,
            stats={"shadow_pool": "target_only", "compared_cap": cap, "source": "mirror",
                   "external": True, "principal": req.principal, "shadow_stats": _run_stats(target),
                   **result.details, "request_created_at": req.created_at.isoformat()},
            shadow_compute_time_s=time.perf_counter() - started,
            shadow_trace=list(target.trace), redaction=route.redaction)
        self.sink.submit(event)
        self.completed += 1
        self.core.telemetry.verdicts.add(1, {"route": req.route,
                                             "pair": self.core.backend.pair_hash[:12],
                                             "mode": route.mode, "verdict": result.verdict,
                                             "shadow_path": "target_only", "source": "mirror"})
        return event

    def evaluate(self, served: Served, route: RoutePolicy) -> ShadowEvent | None:
        """Run the other pool on the served request and record the verdict (None: shed)."""
        served_spec = served.served_path == "speculative"
        pools = route.upstream
        assert pools is not None
        other = pools.target_only if served_spec else pools.speculative
        if not self._acquire(other):
            self._shed(served, "pool_busy")
            return None
        req = served.request
        cap = min(len(served.result.trace) or req.max_tokens or route.shadow.max_new_tokens,
                  route.shadow.max_new_tokens)
        started = time.perf_counter()
        try:
            shadow, _ = self.core.run_backend(req, route, not served_spec, None,
                                              max_new_tokens=cap)
        finally:
            self._release(other)
        elapsed = time.perf_counter() - started
        if req.greedy:
            result = judge_greedy(served.result, shadow, served_spec, route.near_tie_tolerance,
                                  cap)
            tolerance = route.near_tie_tolerance
        else:
            result = judge_sampled(served.result, shadow, route.distribution_tolerance, cap)
            tolerance = route.distribution_tolerance
        result = surface_checks(result, req, served.result, shadow)
        spec = served.result if served_spec else shadow
        event = ShadowEvent(
            request_id=req.request_id, created_at=req.created_at, route=req.route,
            pair_hash=self.core.backend.pair_hash, policy_hash=served.policy_hash,
            shadow_path="target_only" if served_spec else "speculative",
            verdict=result.verdict, first_divergence_position=result.first_divergence_position,
            margin_at_divergence=result.margin_at_divergence, tolerance=tolerance,
            stats={"shadow_pool": shadow.stats.get("upstream_pool"), "compared_cap": cap,
                   **{k: v for k, v in stats_dict(spec).items() if k in _COUNTER_STATS},
                   "shadow_stats": _run_stats(shadow), **result.details,
                   "request_created_at": req.created_at.isoformat()},
            shadow_compute_time_s=elapsed, shadow_trace=list(shadow.trace),
            redaction=route.redaction)
        self.sink.submit(event)
        self.completed += 1
        # /metrics: the same series as the local engine's shadow (alert rules read them)
        self.core.telemetry.verdicts.add(1, {**self._labels(served), "verdict": result.verdict,
                                             "shadow_path": event.shadow_path,
                                             "source": "sidecar"})
        if result.verdict in ("divergence", "distribution_mismatch"):
            logger.warning("pool shadow verdict %s for %s on route %s at position %s",
                           result.verdict, req.request_id, req.route,
                           result.first_divergence_position)
        return event

    def close(self) -> None:
        for _ in self._threads:
            try:
                self._queue.put_nowait(None)
            except queue.Full:
                break
