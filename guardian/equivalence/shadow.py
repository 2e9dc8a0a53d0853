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

Evidence (decisions, not accidents): the evaluator judges with what the backend's
capabilities allow and records the rest under `stats["unchecked"]`. Greedy needs token ids
and the traces' evidence (top-2 ids and logits, log-probs) to prove a near tie
(`guardian.equivalence.verdicts.judge_greedy`). Every judged completion's stopping is checked
(`stopping_verdict`). Sampled decoding always gets the per-token checks from the trace and the
acceptance expectation the engine recorded (never a re-scored q); with full distributions
also the verifier-vs-target-only TV check and the per-origin PIT goodness-of-fit
(`PitWindow`, per route and pair). A clean draft re-score is used only to tell a drafter
inconsistent with itself (|Δq| above the route's `drafter_tolerance`), a speed anomaly
(`details.speed_anomalies`, never a correctness verdict). Both tolerances (TV:
`distribution_tolerance`) default to fp32 noise; a bf16 route sets them from
`guardian bench tolerance`. Mirror traffic needs `scores_completions`.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from opentelemetry import trace

from guardian.audit.events import AuditSink, ShadowEvent
from guardian.backends import BackendResult, OnText, Unsupported
from guardian.core.enums import DecodePath
from guardian.equivalence.batchshadow import BatchedReruns, batch_record
from guardian.equivalence.quota import StoppingQuota
from guardian.equivalence.verdicts import (
    MIN_WINDOW_FOR_ACCEPTANCE_TEST,
    PIT_ALPHA,
    PIT_MIN_SAMPLE,
    AcceptanceWindow,
    PathOutput,
    PitWindow,
    VerdictResult,
    judge_external_greedy,
    judge_greedy,
    recorded_observations,
    reported_probability_verdict,
    sampled_trace_verdict,
    sampled_verdict,
    speed_anomalies,
    stopping_verdict,
    support_verdict,
)
from guardian.observability.telemetry import Telemetry
from guardian.policy import RoutePolicy
from guardian.serving.core import GenerationRequest, Served, ServingCore, stats_dict

logger = logging.getLogger(__name__)


# Greedy verdicts the near-tie rate gauge is taken over, per route and pair.
NEAR_TIE_RATE_WINDOW = 500


def _with(result: VerdictResult, details: dict[str, Any]) -> VerdictResult:
    """`result` with `details` underneath its own (its failed check and position win)."""
    return VerdictResult(result.verdict, result.first_divergence_position,
                         result.margin_at_divergence, {**details, **result.details})


def _acceptance_off(window: AcceptanceWindow, z: float) -> str | None:
    """Sampled acceptances more than `z` standard deviations above or below Σ min(p, q) from
    the q the proposer recorded: the acceptance rule does not accept with min(1, p/q) for
    that q, so the output distribution is not p. (With the recorded q a merely worse drafter
    lowers Σ min(p, q) itself, not acceptance relative to it: a drafter that disagrees with a
    clean re-score is the speed-only `drafter_inconsistent`.)"""
    if len(window) < MIN_WINDOW_FOR_ACCEPTANCE_TEST:
        return None
    value = window.summary()["acceptance_z"]
    if value is None:
        return None
    return "above" if value > z else "below" if value < -z else None


def _speed(result: VerdictResult, anomalies: dict[str, Any], evaluator: ShadowEvaluator,
           job: ShadowJob) -> VerdictResult:
    """Attach speed-only anomalies (never a correctness verdict) and count them."""
    result.details["speed_anomalies"] = sorted(anomalies)
    if anomalies:
        result.details["speed_anomaly_details"] = anomalies
        counter = getattr(evaluator.telemetry, "speed_anomalies", None)
        for name in anomalies:
            if counter is not None:
                counter.add(1, {**evaluator._labels(job), "anomaly": name})
        logger.info("speed anomaly on route %s (%s): %s", job.request.route,
                    job.request.request_id, ", ".join(sorted(anomalies)))
    return result


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
    external_finish_reason: str | None = None  # the primary's own finish reason, if given
    external_text: str | None = None  # the primary's completion text as the mirror sent it
    external_max_tokens: int | None = None  # the mirrored request's max_tokens (None: unset)
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

    def _judge_served(self, job: ShadowJob, preemptible: bool,
                      rerun: tuple[Any, int, int] | None = None,
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
        together, mates = 1, 0
        if rerun is not None:  # decoded already, in a shared batch (BatchedReruns)
            outcome, together, mates = rerun
            if isinstance(outcome, BaseException):
                raise outcome
            shadow, shadow_evidence = outcome
        else:
            shadow, shadow_evidence = self.core.run_backend(
                req, route, shadow_spec, self._preempt(preemptible),
                max_new_tokens=cap, evidence=want_evidence)
        spec, ref = (shadow, served.result) if shadow_spec else (served.result, shadow)
        verifier = shadow_evidence if shadow_spec else served.evidence
        stats: dict[str, Any] = {"shadow_stats": stats_dict(shadow), "compared_cap": cap,
                                 # what the audit row's acceptance columns come from
                                 **spec.counters.as_dict(),
                                 # the batch the judged speculative run decoded in
                                 "batch": batch_record(spec, self.backend,
                                                       judged_together=together,
                                                       companions=mates)}
        case = self.quota.case_of(spec, req)
        stats["stopping_case"] = case
        stats["decoding"] = "greedy" if req.greedy else "sampled"
        self.quota.judged(req.route, req.greedy, case)
        if not served.shadow_sampled:
            stats["sampled_for"] = "stopping_quota"
        path: DecodePath = "speculative" if shadow_spec else "target_only"
        # Both paths were cut at the cap (the served one may have gone on): their lengths
        # and finish reasons say nothing, only the tokens up to the cap are compared.
        truncated = cap < req.max_tokens and min(len(served.result.token_ids),
                                                 len(shadow.token_ids)) >= cap
        stopping = self._stopping(req, served, shadow, cap)
        if req.greedy:
            result = judge_greedy(
                PathOutput(spec.token_ids[:cap], spec.trace[:cap], spec.finish_reason, truncated),
                PathOutput(ref.token_ids[:cap], ref.trace[:cap], ref.finish_reason, truncated),
                route.near_tie_tolerance)
            if stopping is not None and result.verdict != "divergence":
                result = _with(stopping, result.details)
            self._near_tie_rate(job, result.verdict)
            anomalies = speed_anomalies(spec.trace[:cap], greedy=True,
                                        rescored_q=self._rescored_q(job, spec, cap),
                                        drafter_tolerance=route.drafter_tolerance)
            return _speed(result, anomalies, self, job), path, list(shadow.trace), stats
        ids = spec.token_ids[:cap]
        if verifier is None and caps.full_distributions and served.shadow_sampled:
            raise RuntimeError("speculative run did not record target distributions")
        trace_result = sampled_trace_verdict(spec.trace[: len(ids)])
        window = self._window_update(job, spec, ids)
        anomalies = speed_anomalies(spec.trace[: len(ids)], greedy=False,
                                    rescored_q=self._rescored_q(job, spec, cap),
                                    drafter_tolerance=route.drafter_tolerance)
        if verifier is None:
            # No full distributions from this backend: judge what the trace shows and say
            # which checks could not run.
            result = stopping or trace_result
            unchecked = ["verifier_distribution", "goodness_of_fit"]
            if window is None:
                unchecked.append("acceptance_vs_expectation")
            if not spec.trace:
                unchecked.append("trace_support")
            result.details["unchecked"] = unchecked
            return _speed(result, anomalies, self, job), path, list(shadow.trace), stats
        verifier_p = verifier.head(len(ids))
        reference = self.backend.target_distributions(req.prompt_ids, ids, req.sampling)
        ref_p = reference.head(len(ids)).probs
        tv = sampled_verdict(verifier_p.probs, ref_p, route.distribution_tolerance, None)
        shown = reported_probability_verdict(spec.trace[: len(ids)], ids, ref_p,
                                             route.distribution_tolerance)
        pit = self._pit_update(job, spec, ids, ref_p, verifier_p.draft_probs)
        details = {**tv.details, **trace_result.details, "goodness_of_fit": pit,
                   "pit_alpha": PIT_ALPHA, "pit_min_sample": PIT_MIN_SAMPLE}
        if window is not None:
            details.update(window.summary())
            details["acceptance_test"] = ("decisive" if len(window) >= MIN_WINDOW_FOR_ACCEPTANCE_TEST
                                          else "window_too_small")
            details["acceptance_expectation"] = "recorded_q"
        failed_fit = next((o for o, r in pit.items() if r["outcome"] == "fail"), None)
        off = None if window is None else _acceptance_off(window, route.acceptance_z)
        if stopping is not None:
            result = _with(stopping, details)
        elif trace_result.verdict == "distribution_mismatch":
            result = _with(trace_result, details)
        elif tv.verdict == "distribution_mismatch":
            result = VerdictResult("distribution_mismatch", tv.first_divergence_position, None,
                                   {**details, "failed_check": "verifier_distribution"})
        elif shown is not None:  # the verifier's p is right, what the client is shown is not
            result = VerdictResult("distribution_mismatch", shown[0], None,
                                   {**details, "failed_check": "reported_logprob",
                                    "reported_probability": shown[1],
                                    "rescored_probability": shown[2]})
        elif failed_fit is not None:
            result = VerdictResult("distribution_mismatch", None, None,
                                   {**details, "failed_check": f"pit_{failed_fit}"})
        elif off is not None:
            result = VerdictResult("distribution_mismatch", None, None,
                                   {**details, "failed_check": f"acceptance_{off}_expectation"})
        else:
            result = VerdictResult("distribution_ok", None, None, details)
        return _speed(result, anomalies, self, job), path, list(shadow.trace), stats

    def _stopping(self, req: GenerationRequest, served: Served, shadow: BackendResult,
                  cap: int) -> VerdictResult | None:
        """How each judged completion ended, checked on its own (EOS last, stop strings,
        max_tokens): the first violation as a verdict, or None."""
        eos = self.backend.eos_token_ids
        for name, res, limit in ((served.served_path, served.result, req.max_tokens),
                                 ("shadow", shadow, cap)):
            bad = stopping_verdict(res.token_ids, res.finish_reason, eos_token_ids=eos,
                                   stop=req.stop, max_tokens=limit, decode=self.backend.decode,
                                   greedy=req.greedy, path=name)
            if bad is not None:
                return bad
        return None

    def _rescored_q(self, job: ShadowJob, spec: BackendResult, cap: int) -> list[float] | None:
        """q(proposed token) at each position from a clean draft re-score: only to tell a
        drafter inconsistent with itself (a speed anomaly), never for an expectation."""
        req = job.request
        if job.route.proposer != "draft_model" or not self.backend.capabilities.full_distributions:
            return None
        trace = spec.trace[:cap]
        if not any(getattr(t, "proposed_q", None) is not None for t in trace):
            return None
        ids = spec.token_ids[:cap]
        q = self.backend.draft_distributions(req.prompt_ids, ids, req.sampling)
        if q is None:
            return None
        out = [0.0] * len(ids)
        for t in trace:
            if getattr(t, "proposed_token", None) is not None and t.position < len(q):
                out[t.position] = float(q.probs[t.position][t.proposed_token])
        return out

    def _window_update(self, job: ShadowJob, spec: BackendResult, ids: list[int],
                       ) -> AcceptanceWindow | None:
        """The route's acceptance window, extended with this run's judged proposals and the
        expectation the engine recorded for each (Σ min(p, q) with the q it sampled from;
        n-gram: p of the proposal) — never a re-scored q."""
        req = job.request
        observations = recorded_observations(spec.trace[: len(ids)])
        if not observations:
            return None
        key = (req.route, self.backend.pair_hash)
        window = self._windows.setdefault(key, AcceptanceWindow(job.route.acceptance_window))
        window.extend(observations)
        return window

    def _pit_update(self, job: ShadowJob, spec: BackendResult, ids: list[int], ref_p: Any,
                    recorded_q: Any) -> dict[str, dict[str, Any]]:
        key = (job.request.route, self.backend.pair_hash)
        window = self._pit.setdefault(key, PitWindow())
        trace = spec.trace[: len(ids)]
        window.add([t.origin for t in trace], ids, ref_p, recorded_q,
                   [getattr(t, "proposed_token", None) for t in trace])
        return window.evaluate()

    def _near_tie_rate(self, job: ShadowJob, verdict: str) -> None:
        key = (job.request.route, self.backend.pair_hash)
        recent = self._greedy_recent.setdefault(key, deque(maxlen=NEAR_TIE_RATE_WINDOW))
        recent.append(verdict == "near_tie")
        gauge = getattr(self.telemetry, "near_tie_rate", None)
        if gauge is not None:
            gauge.set(sum(recent) / len(recent), self._labels(job))

    def _judge_external(self, job: ShadowJob, preemptible: bool = True,
                        ) -> tuple[VerdictResult, DecodePath, list, dict]:
        """A primary response produced elsewhere, judged against the target at its prefixes.

        greedy: every primary token must be the target's argmax at its prefix; a flip is a
        near_tie only when the primary's token is the target's runner-up within the tolerance
        (one-sided proof: the primary's logits are unknown). sampled: every primary token must
        have non-zero probability under the target's processed distribution. Both: how the
        completion ended (EOS last, stop strings, max_tokens).
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
            result = judge_external_greedy(ids, score.argmax_ids, score.margins,
                                           getattr(score, "runner_up_ids", None),
                                           job.route.near_tie_tolerance)
            if score.margins is None:
                result.details["unchecked"] = ["near_tie_margin"]
            if result.verdict == "divergence":
                result = self._retokenized(job, ids, result, preemptible)
            stopping = None if result.verdict == "divergence" else \
                self._external_stopping(job, ids, preemptible)
            if stopping is not None:
                result = _with(stopping, result.details)
            return result, "target_only", [], stats
        stopping = self._external_stopping(job, ids, preemptible)
        stats["check"] = "support"
        if stopping is not None and stopping.details.get("unconfirmed_ending"):
            # A sample cannot be re-drawn: an ending its text does not show is not checked.
            stats["unchecked"] = ["stopping_cause"]
            stopping = None
        if score.token_probs is None:
            stats["unchecked"] = [*stats.get("unchecked", []), "support"]
            return VerdictResult("distribution_ok", None, None, stats), "target_only", [], stats
        result = support_verdict(score.token_probs)
        if stopping is not None and result.verdict != "distribution_mismatch":
            return _with(stopping, stats), "target_only", [], stats
        return (VerdictResult(result.verdict, result.first_divergence_position, None, stats),
                "target_only", [], stats)

    def _external_stopping(self, job: ShadowJob, ids: list[int], preemptible: bool = True,
                           ) -> VerdictResult | None:
        """How the primary ended, as a verdict (None: correctly).

        The primary's text is an OpenAI-compatible answer: it never holds the EOS that ended
        it, and is cut *before* the stop string that did, so its text alone cannot show why a
        `stop` completion stopped (nor, re-encoded, exactly how many tokens it had). Those
        endings are confirmed against the target's own greedy completion of the request (same
        stop strings, the request's max_tokens): it must end the same way with the same text.
        Unconfirmed endings carry `details["unconfirmed_ending"]` (sampled: unchecked)."""
        req, finish, limit = job.request, job.external_finish_reason, job.external_max_tokens
        eos = self.backend.eos_token_ids
        bad = stopping_verdict(ids, finish, eos_token_ids=eos, stop=req.stop, max_tokens=limit,
                               decode=self.backend.decode, greedy=req.greedy, path="external")
        check = None if bad is None else bad.details.get("failed_check")
        unseen = (check in ("stop_without_cause", "max_tokens")
                  or (bad is None and finish == "stop" and not ids)
                  or (bad is None and finish == "length" and limit is not None
                      and len(ids) < limit))
        if not unseen:
            return bad
        bad = bad or VerdictResult(
            "divergence" if req.greedy else "distribution_mismatch", len(ids), None,
            {"failed_check": "stop_without_cause" if finish == "stop" else "max_tokens",
             "path": "external", "checks": ["stopping"], "finish_reason": finish,
             "completion_tokens": len(ids)})
        if not req.greedy:
            if check != "max_tokens":  # re-encoded past the limit stays a mismatch
                bad.details["unconfirmed_ending"] = True
            return bad
        text = job.external_text if job.external_text is not None else self.backend.decode(ids)
        stops = [s for s in (req.stop or ()) if s]
        slack = len(ids) + 8 + max((len(self.backend.encode(s, prompt=False)) for s in stops),
                                   default=0)
        # A `length` answer may also have met the end of the context (as vLLM answers it).
        n = limit if finish == "length" and limit is not None else min(slack, limit or slack)
        n = min(n, self.backend.max_context - len(req.prompt_ids))
        if n < 1:
            return bad
        own, _ = self.core.run_backend(req, job.route, False, self._preempt(preemptible),
                                       max_new_tokens=n)
        if own.text == text and (finish is None or own.finish_reason == finish):
            return None
        bad.details.update({"target_finish_reason": own.finish_reason,
                            "target_completion_tokens": len(own.token_ids)})
        return bad

    def _retokenized(self, job: ShadowJob, ids: list[int], result: VerdictResult,
                     preemptible: bool = True) -> VerdictResult:
        """A mirrored primary's text is re-encoded here, and the same text can split into
        other tokens than the target would emit one at a time. Before calling a token flip a
        divergence, compare text: the target's own greedy continuation (target-only, a few
        tokens longer) must start with the primary's text; then the flip was tokenization,
        and the verdict is `match` (`compared: text`)."""
        req = job.request
        primary = self.backend.decode(ids)
        room = self.backend.max_context - len(req.prompt_ids) - 1
        if not primary or room < 1:
            return result
        own, _ = self.core.run_backend(req, job.route, False, self._preempt(preemptible),
                                       max_new_tokens=min(room, len(ids) + 8))
        if own.text.startswith(primary) or self.backend.decode(own.token_ids).startswith(primary):
            return VerdictResult("match", None, None, {
                **result.details, "compared": "text", "retokenized": True,
                "token_flip_at": result.first_divergence_position})
        return result

    def shutdown(self, timeout_s: float = 5.0) -> None:
        self._stop.set()
        for _ in self._threads:
            with contextlib.suppress(queue.Full):
                self._queue.put_nowait(None)
        for t in self._threads:
            if t.is_alive():
                t.join(timeout=timeout_s)
