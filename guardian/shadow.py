"""Shadow evaluator: re-runs the *other* path on sampled requests and records a verdict.

Owns the bounded shadow queue, its worker thread(s), and turning engine outputs into
`ShadowEvent`s (the verdict logic itself is pure and lives in `guardian.verdicts`).

Priority and bounds (decisions, not accidents):
- `offer_*` never blocks: when the queue (capacity from the app) is full the job is dropped
  and counted (`guardian.shadow.drops{reason="queue_full"}`).
- a worker starts a job only once the serving path has been idle (`ServingCore.idle`) for
  `idle_grace_s` (default 50 ms), and its
  engine call checks at every step (the engine's `on_text` callback) whether serving work
  arrived; if so it aborts (`reason="preempted"`) and the job is re-queued once, then dropped.
  Hence serving waits for at most one shadow engine step (a prefill, or gamma draft forwards
  plus one target forward), never a whole shadow generation. A mirror job (`/v1/shadow`)
  is one scoring forward, the same bound.
- concurrency: `workers` threads (default 1) — on a small CPU more would only contend.

Evidence (decisions, not accidents): the evaluator judges with what the backend's
capabilities allow and records the rest under `stats["unchecked"]`. Greedy needs only token
ids (and the trace's target margins to tell a near_tie). Sampled decoding needs full
distributions (`full_distributions`) for the verifier-vs-target-only check and a draft model
for the acceptance test; without them it checks what the trace shows (every emitted token
has p(x) > 0, every resampled token p(x) > q(x)). Mirror traffic needs `scores_completions`.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from opentelemetry import trace

from guardian.audit.events import AuditSink, ShadowEvent
from guardian.backends import BackendResult, Distributions, Unsupported
from guardian.enums import DecodePath
from guardian.policy import RoutePolicy
from guardian.serving import GenerationRequest, Served, ServingCore, stats_dict
from guardian.telemetry import Telemetry
from guardian.verdicts import (
    AcceptanceWindow,
    VerdictResult,
    drafted_observations,
    greedy_verdict,
    sampled_verdict,
    support_verdict,
    trace_verdict,
)

logger = logging.getLogger(__name__)


class Preempted(Exception):
    """Raised inside a shadow engine call when serving work arrives."""


@dataclass(slots=True)
class ShadowJob:
    request: GenerationRequest
    route: RoutePolicy
    policy_hash: str
    mode: str
    served: Served | None = None  # served here
    external_ids: list[int] | None = None  # primary completion produced elsewhere (/v1/shadow)
    parent: trace.SpanContext | None = None
    attempts: int = 0
    done: Future[ShadowEvent | None] = field(default_factory=Future)


class ShadowEvaluator:
    def __init__(self, core: ServingCore, sink: AuditSink, telemetry: Telemetry, *,
                 capacity: int = 16, workers: int = 1, idle_grace_s: float = 0.05) -> None:
        self.idle_grace_s = idle_grace_s
        self.core, self.backend, self.sink, self.telemetry = core, core.backend, sink, telemetry
        self._queue: queue.Queue[ShadowJob | None] = queue.Queue(maxsize=capacity)
        self._windows: dict[tuple[str, str], AcceptanceWindow] = {}
        self.dropped = 0
        self.completed = 0
        self.preempted = 0  # shadow runs aborted because serving work arrived
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._worker, name=f"shadow-{i}", daemon=True)
                         for i in range(workers)]

    def start(self) -> None:
        for t in self._threads:
            t.start()

    # --- intake (request path: never blocks) -----------------------------------------------
    def offer_served(self, served: Served, route: RoutePolicy,
                     parent: trace.SpanContext | None = None) -> bool:
        return self.offer(ShadowJob(served.request, route, served.policy_hash, served.mode,
                                    served=served, parent=parent))

    def offer(self, job: ShadowJob) -> bool:
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
            try:
                event = self.evaluate(job)
                job.done.set_result(event)
            except Preempted:
                self.preempted += 1
                if self._stop.is_set():
                    self._drop(job, "shutdown")
                    return
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

    # --- evaluation (sync; tests call it directly) ---------------------------------------
    def evaluate(self, job: ShadowJob, *, preemptible: bool = True) -> ShadowEvent:
        ctx = trace.set_span_in_context(trace.NonRecordingSpan(job.parent)) if job.parent else None
        with self.telemetry.tracer.start_as_current_span("guardian.shadow", context=ctx, attributes={
                "guardian.request_id": job.request.request_id}) as span:
            started = time.perf_counter()
            if job.external_ids is not None:
                result, shadow_path, shadow_trace, stats = self._judge_external(job)
            else:
                result, shadow_path, shadow_trace, stats = self._judge_served(job, preemptible)
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
            stats={**stats, **result.details}, shadow_compute_time_s=elapsed,
            shadow_trace=shadow_trace)
        self.sink.submit(event)
        self.completed += 1
        self.telemetry.verdicts.add(1, {**self._labels(job), "verdict": result.verdict,
                                        "shadow_path": shadow_path})
        if result.verdict in ("divergence", "distribution_mismatch"):
            logger.warning("shadow verdict %s for %s on route %s at position %s",
                           result.verdict, job.request.request_id, job.request.route,
                           result.first_divergence_position)
        return event

    def _judge_served(self, job: ShadowJob, preemptible: bool,
                      ) -> tuple[VerdictResult, DecodePath, list, dict]:
        assert job.served is not None
        req, served, route = job.request, job.served, job.route
        caps = self.backend.capabilities
        shadow_spec = served.served_path == "target_only"
        if shadow_spec and not caps.supports(route.proposer):
            raise Unsupported(f"the {self.backend.kind!r} backend cannot speculate with "
                              f"{route.proposer!r}; there is no speculative path to compare")
        cap = min(req.max_tokens, route.shadow.max_new_tokens)
        want_evidence = shadow_spec and not req.greedy and caps.full_distributions
        shadow, shadow_evidence = self.core.run_backend(
            req, route, shadow_spec, self._check_preempt if preemptible else None,
            max_new_tokens=cap, evidence=want_evidence)
        spec, ref = (shadow, served.result) if shadow_spec else (served.result, shadow)
        verifier = shadow_evidence if shadow_spec else served.evidence
        stats: dict[str, Any] = {"shadow_stats": stats_dict(shadow), "compared_cap": cap,
                                 # what the audit row's acceptance columns come from
                                 **spec.counters.as_dict()}
        path: DecodePath = "speculative" if shadow_spec else "target_only"
        if req.greedy:
            served_ids, shadow_ids = served.result.token_ids[:cap], shadow.token_ids[:cap]
            # Target-only margins are the reference; past its end use the verifier's.
            margins = [t.target_margin for t in ref.trace]
            margins += [t.target_margin for t in spec.trace[len(margins):]]
            return (greedy_verdict(served_ids, shadow_ids, margins, route.near_tie_tolerance),
                    path, list(shadow.trace), stats)
        ids = spec.token_ids[:cap]
        if verifier is None and caps.full_distributions:
            raise RuntimeError("speculative run did not record target distributions")
        if verifier is None:
            # No full distributions from this backend: judge what the trace shows and say
            # which checks could not run.
            result = trace_verdict(spec.trace[: len(ids)])
            unchecked = ["verifier_distribution", "acceptance_vs_expectation"]
            if not spec.trace:
                unchecked.append("trace_support")
            result.details["unchecked"] = unchecked
            return result, path, list(shadow.trace), stats
        verifier_p = verifier.head(len(ids))
        reference = self.backend.target_distributions(req.prompt_ids, ids, req.sampling)
        window = self._window_update(job, spec, ids, verifier_p)
        return (sampled_verdict(verifier_p.probs, reference.head(len(ids)).probs,
                                route.distribution_tolerance, window, route.acceptance_z),
                path, list(shadow.trace), stats)

    def _window_update(self, job: ShadowJob, spec: BackendResult, ids: list[int],
                       verifier_p: Distributions) -> AcceptanceWindow | None:
        req = job.request
        if job.route.proposer != "draft_model":
            # For a point-mass proposal the expectation is sum_x min(p, δ_x) = p(x) for the
            # proposed x, but the trace does not record x where it was rejected (it records
            # the resampled token), so the expectation cannot be formed from it yet: the
            # acceptance test reports "unavailable" rather than guess.
            return None
        q = self.backend.draft_distributions(req.prompt_ids, ids, req.sampling)
        if q is None:
            return None
        key = (req.route, self.backend.pair_hash)
        window = self._windows.setdefault(key, AcceptanceWindow(job.route.acceptance_window))
        origins = [t.origin for t in spec.trace[: len(ids)]]
        window.extend(drafted_observations(origins, verifier_p.probs, q.head(len(ids)).probs))
        return window

    def _judge_external(self, job: ShadowJob,
                        ) -> tuple[VerdictResult, DecodePath, list, dict]:
        """A primary response produced elsewhere, judged against the target at its prefixes.

        greedy: every primary token must be the target's argmax at its prefix (a flip where
        the margin is below tolerance is a near_tie). sampled: without the primary's own
        verifier distributions only a support check is possible — every primary token must
        have non-zero probability under the target's processed distribution.
        """
        req, ids = job.request, job.external_ids or []
        if not self.backend.capabilities.scores_completions:
            raise Unsupported(f"the {self.backend.kind!r} backend cannot score a completion "
                              "it did not produce; mirror traffic cannot be judged")
        score = self.backend.score_target(req.prompt_ids, ids, req.sampling)
        # `principal`: the mirror key that supplied the response (rollback evidence names it)
        stats: dict[str, Any] = {"external": True, "principal": req.principal,
                                 "completion_tokens": len(ids)}
        if req.greedy:
            result = greedy_verdict(ids, score.argmax_ids, score.margins or [],
                                    job.route.near_tie_tolerance)
            if score.margins is None:
                result.details["unchecked"] = ["near_tie_margin"]
            return result, "target_only", [], stats
        stats["check"] = "support"
        if score.token_probs is None:
            stats["unchecked"] = ["support"]
            return VerdictResult("distribution_ok", None, None, stats), "target_only", [], stats
        result = support_verdict(score.token_probs)
        return (VerdictResult(result.verdict, result.first_divergence_position, None, stats),
                "target_only", [], stats)

    def shutdown(self, timeout_s: float = 5.0) -> None:
        self._stop.set()
        for _ in self._threads:
            with contextlib.suppress(queue.Full):
                self._queue.put_nowait(None)
        for t in self._threads:
            if t.is_alive():
                t.join(timeout=timeout_s)
