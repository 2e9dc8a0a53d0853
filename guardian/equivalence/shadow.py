"""Shadow evaluator: re-runs the *other* path on sampled requests and records a verdict.

Owns the bounded shadow queue, its worker thread(s), and turning engine outputs into
`ShadowEvent`s (the verdict logic itself is pure and lives in `guardian.equivalence.verdicts`).

Priority and bounds (decisions, not accidents):
- `offer_*` never blocks: when the queue (capacity from the app) is full the job is dropped
  and counted (`guardian.shadow.drops{reason="queue_full"}`).
- a worker starts a job only once the serving path has been idle (`ServingCore.idle`) for
  `idle_grace_s` (default 50 ms), and its
  engine call checks at every step (the engine's `on_text` callback) whether serving work
  arrived; if so it aborts (`reason="preempted"`) and the job is re-queued once, then dropped.
  Hence serving waits for at most one shadow engine step (a prefill, or gamma draft forwards
  plus one target forward), never a whole shadow generation. A mirror job (`/v1/shadow`)
  is one scoring forward, the same bound; where a token flip or an ending the primary's
  text cannot show (`_retokenized`, `_external_stopping`) needs the target's own greedy
  completion (a few tokens past the primary's, or up to its max_tokens for a short `length`
  answer; never past the context), that generation is preempted the same way.
- concurrency: `workers` threads (default 1) — on a small CPU more would only contend.

How a job is judged (the evidence each backend allows, the verdict checks in order) lives in
`guardian.equivalence.judging`, which also owns `ShadowJob` and `Preempted`.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections import deque
from datetime import UTC, datetime
from typing import Any

from opentelemetry import trace

from guardian.audit.events import AuditSink, ShadowEvent
from guardian.backends import OnText, Unsupported
from guardian.equivalence.batchshadow import BatchedReruns
from guardian.equivalence.judging import (
    NEAR_TIE_RATE_WINDOW,
    Preempted,
    ShadowJob,
    ShadowJudging,
)
from guardian.equivalence.quota import StoppingQuota
from guardian.equivalence.verdicts import AcceptanceWindow, PitWindow
from guardian.observability.telemetry import Telemetry
from guardian.policy import RoutePolicy
from guardian.serving.core import Served, ServingCore

__all__ = ["NEAR_TIE_RATE_WINDOW", "Preempted", "ShadowEvaluator", "ShadowJob"]

logger = logging.getLogger(__name__)


class ShadowEvaluator(ShadowJudging):
    """The bounded shadow queue and its workers (judging: `ShadowJudging`)."""
    def __init__(self, core: ServingCore, sink: AuditSink, telemetry: Telemetry, *,
                 capacity: int = 16, workers: int = 1, idle_grace_s: float = 0.05) -> None:
        self.idle_grace_s = idle_grace_s
        self.core, self.backend, self.sink, self.telemetry = core, core.backend, sink, telemetry
        self._queue: queue.Queue[ShadowJob | None] = queue.Queue(maxsize=capacity)
        self._windows: dict[tuple[str, str], AcceptanceWindow] = {}
        self._pit: dict[tuple[str, str], PitWindow] = {}
        self._greedy_recent: dict[tuple[str, str], deque[bool]] = {}
        self.dropped = 0
        self.completed = 0
        self.preempted = 0  # shadow runs aborted because serving work arrived
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._worker, name=f"shadow-{i}", daemon=True)
                         for i in range(workers)]
        # Speculative re-runs judged in shared batches (guardian.equivalence.batchshadow).
        self.batched = BatchedReruns(self)
        # Stopping cases judged per route, and the quota that samples for them (.quota).
        self.quota = StoppingQuota(self.backend.eos_token_ids)
        collector = getattr(telemetry, "governance", None)
        if collector is not None:
            collector.add(self.quota.gauge_rows)

    def start(self) -> None:
        for t in self._threads:
            t.start()

    # --- intake (request path: never blocks) -----------------------------------------------
    def offer_served(self, served: Served, route: RoutePolicy,
                     parent: trace.SpanContext | None = None) -> bool:
        return self.offer(ShadowJob(served.request, route, served.policy_hash, served.mode,
                                    served=served, parent=parent))

    def wants_for_quota(self, served: Served, route: RoutePolicy) -> bool:
        """A served request `sample_rate` did not pick that the stopping quota wants."""
        return self.quota.wants(served, route)

    def offer(self, job: ShadowJob) -> bool:
        if job.served is not None:
            self.batched.remember(job)
        try:
            self._queue.put_nowait(job)
            return True
        except queue.Full:
            self._drop(job, "queue_full")
            return False

    @property
    def depth(self) -> int:
        return self._queue.qsize()

    def _drop(self, job: ShadowJob, reason: str) -> None:
        self.dropped += 1
        self.telemetry.shadow_drops.add(1, {**self._labels(job), "reason": reason})
        logger.debug("dropped shadow job %s (%s)", job.request.request_id, reason)
        if not job.done.done():
            job.done.set_result(None)

    def _labels(self, job: ShadowJob) -> dict[str, str]:
        return {"route": job.request.route, "pair": self.backend.pair_hash[:12], "mode": job.mode}

    # --- worker -------------------------------------------------------------------------------
    def _worker(self) -> None:
        while not self._stop.is_set():
            job = self._queue.get()
            if job is None:
                return
            if not self._wait_for_quiet():
                return
            if self.batched.wants(job):
                together, others = self.batched.gather(job, self._queue)
                runs, mates = self.batched.rerun(together, self._preempt(True))
                for j, run in zip(together, runs, strict=True):
                    if not self._run_job(j, (run, len(together), mates)):
                        return
                for j in others:
                    if not self._run_job(j):
                        return
                continue
            if not self._run_job(job):
                return

    def _run_job(self, job: ShadowJob, rerun: tuple[Any, int, int] | None = None) -> bool:
        """Evaluate one job (`rerun`: its speculative re-run, already decoded in a batch,
        with the batch's judged rows and companions); False when shutting down."""
        try:
            event = self.evaluate(job, rerun=rerun)
            job.done.set_result(event)
        except Preempted:
            self.preempted += 1
            if self._stop.is_set():
                self._drop(job, "shutdown")
                return False
            job.attempts += 1
            if job.attempts > 1 or not self._requeue(job):
                self._drop(job, "preempted")
        except Unsupported as exc:  # the backend cannot give the evidence this job needs
            # Counted per route (drops{reason="unsupported"}); a log line per sampled
            # request would only repeat the same configuration fact.
            logger.debug("shadow job %s not evaluated: %s", job.request.request_id, exc)
            self._drop(job, "unsupported")
        except Exception as exc:  # one bad job must not kill the evaluator
            logger.exception("shadow evaluation failed for %s", job.request.request_id)
            # The waiter (`/v1/shadow` with wait) must see the failure, not a silent drop:
            # resolve with the exception before _drop would resolve it with None.
            if not job.done.done():
                job.done.set_exception(exc)
            self._drop(job, "error")
        return True

    def _wait_for_quiet(self) -> bool:
        """Block until serving has been idle for `idle_grace_s` (False: shutting down).

        The grace keeps shadow runs out of the millisecond gaps between back-to-back requests
        of busy clients, where they would only be preempted after slowing the next request.
        """
        while not self._stop.is_set():
            if not self.core.idle.wait(timeout=0.5):
                continue
            quiet_for = time.perf_counter() - self.core.last_served
            if quiet_for >= self.idle_grace_s and self.core.idle.is_set():
                return True
            time.sleep(max(0.001, self.idle_grace_s - quiet_for))
        return False

    def _requeue(self, job: ShadowJob) -> bool:
        try:
            self._queue.put_nowait(job)
            return True
        except queue.Full:
            return False

    def _check_preempt(self, _delta: str, _traces: list[Any]) -> None:
        if not self.core.idle.is_set() or self._stop.is_set():
            raise Preempted

    def _preempt(self, preemptible: bool) -> OnText | None:
        """The per-step callback that aborts a shadow generation when serving work arrives."""
        return self._check_preempt if preemptible else None

    # --- evaluation (sync; tests call it directly) ---------------------------------------
    def evaluate(self, job: ShadowJob, *, preemptible: bool = True,
                 rerun: tuple[Any, int, int] | None = None) -> ShadowEvent:
        ctx = trace.set_span_in_context(trace.NonRecordingSpan(job.parent)) if job.parent else None
        with self.telemetry.tracer.start_as_current_span("guardian.shadow", context=ctx, attributes={
                "guardian.request_id": job.request.request_id}) as span:
            started = time.perf_counter()
            if job.external_ids is not None:
                result, shadow_path, shadow_trace, stats = self._judge_external(job, preemptible)
            else:
                result, shadow_path, shadow_trace, stats = (
                    self._judge_served(job, preemptible) if rerun is None
                    else self._judge_served(job, preemptible, rerun))
            elapsed = time.perf_counter() - started
            span.set_attribute("guardian.verdict", result.verdict)
            span.set_attribute("guardian.shadow_path", shadow_path)
        event = ShadowEvent(
            request_id=job.request.request_id, created_at=datetime.now(UTC),
            route=job.request.route, pair_hash=self.backend.pair_hash,
            policy_hash=job.policy_hash, shadow_path=shadow_path, verdict=result.verdict,
            first_divergence_position=result.first_divergence_position,
            margin_at_divergence=result.margin_at_divergence,
            tolerance=(job.route.near_tie_tolerance if job.request.greedy
                       else job.route.distribution_tolerance),
            # When the judged request was served: evidence about a request served before a
            # route's re-enable is not fresh (guardian.governance.rollback).
            stats={**stats, **result.details,
                   "request_created_at": job.request.created_at.isoformat()},
            shadow_compute_time_s=elapsed, shadow_trace=shadow_trace)
        self.sink.submit(event)
        self.completed += 1
        # `source`: a mirror caller supplied the judged response (its verdicts count toward
        # rollback only where the policy trusts them; dashboards can tell them apart too).
        self.telemetry.verdicts.add(1, {**self._labels(job), "verdict": result.verdict,
                                        "shadow_path": shadow_path, "source": (
                                            "mirror" if job.external_ids is not None
                                            else "sidecar")})
        if result.verdict in ("divergence", "distribution_mismatch"):
            logger.warning("shadow verdict %s for %s on route %s at position %s (check %s)",
                           result.verdict, job.request.request_id, job.request.route,
                           result.first_divergence_position,
                           result.details.get("failed_check", "unnamed"))
        return event

    def shutdown(self, timeout_s: float = 5.0) -> None:
        self._stop.set()
        for _ in self._threads:
            with contextlib.suppress(queue.Full):
                self._queue.put_nowait(None)
        for t in self._threads:
            if t.is_alive():
                t.join(timeout=timeout_s)
