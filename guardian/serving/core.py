"""The serving path: route resolution, mode, speculative fallback and load shedding.

Owns `ServingCore`, which runs every served generation through the serving-backend contract
(`guardian.backends`: plain request/result values, never a tensor) and hands sampled requests
to the shadow evaluator. The local engine runs on ONE engine thread: either this core's one
worker (one request at a time), or, with continuous batching (`GUARDIAN_BATCHING=continuous`,
engine.batching), the backend's own engine thread, where concurrent requests share every
forward and join and leave at step boundaries.

Priority: the shadow worker only starts a generation while no serving job is queued or
running, and aborts its own generation at the next engine step once one arrives (see
`guardian.equivalence.shadow`); with continuous batching its generation is a row of the same batch and
leaves it at that step boundary. So serving is delayed by shadow work by at most ONE engine step of a
shadow run (one prefill, or gamma draft forwards + one target forward) — never a whole
shadow generation.

Mode per request: the route's mode from the policy, unless a governance action (rollback,
re-enable, promotion) set one in the database; `resolver` (guardian.governance.routestate.
ModeResolver, attached by the app) answers from an in-memory copy refreshed every 0.5 s, so a
rollback on any replica applies here within ~1 s and costs a dict lookup per request.

Degrading safely: a speculative run that raises is re-run target-only and recorded with
`fallback_reason`; when the serving queue is at the route's `load_shed_queue_depth`,
speculation is skipped (`fallback_reason="load_shed"`); a route whose proposer the backend
cannot speculate with is served target-only (`fallback_reason="unsupported_proposer"`).

Admission (`guardian.serving.admission`): a route admits at most `max_queue` requests at once; one
more gets 429 with `Retry-After`. A request whose client hangs up or whose deadline passes
stops within one engine step (or before it starts, if still queued) and is audited with
finish_reason `cancelled`.

Every ratio of speculative counters (acceptance rate, alpha, mean acceptance length) comes
from engine.metrics via `BackendResult.counters` (`stats_dict`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Any, cast

from guardian.audit.events import AuditSink
from guardian.backends import (
    BackendResult,
    OnText,
    ServingBackend,
)
from guardian.backends.base import AsyncServingBackend
from guardian.core.errors import ServingError
from guardian.observability.telemetry import Telemetry, genai_labels, now_ns
from guardian.policy import Policy, RoutePolicy
from guardian.serving.admission import Admission, Cancelled, QueueFull
from guardian.serving.fallback import Stream, may_fall_back, reason_of
from guardian.serving.recorder import RequestRecorder
from guardian.serving.request import (  # noqa: F401  (importable from here, as before)
    GenerationRequest,
    RouteChoice,
    RouteReason,
    Served,
)
from guardian.serving.results import (
    prompt_tokens,
    stats_dict,
    time_per_output_token,
)
from guardian.serving.routing import Routing
from guardian.serving.slot import _Slot, await_job

logger = logging.getLogger(__name__)

__all__ = ["GenerationRequest", "OnText", "RouteChoice", "Served", "ServingCore", "ServingError",
           "stats_dict"]

async def _await_durable(request_id: str, durable: Future[None], timeout: float) -> None:
    """`audit.durability: sync`: hold the response (a stream's final chunk) until the audit
    record is durable; a record that cannot be made durable is a 503, never an unaudited 200."""
    try:
        await asyncio.wait_for(asyncio.wrap_future(durable), timeout)
    except Exception as exc:
        reason = "timed out" if isinstance(exc, TimeoutError) else str(exc) or type(exc).__name__
        raise ServingError(503, f"the audit record of {request_id} could not be made durable "
                           f"({reason}); this route answers only once it is. Retry later.",
                           code="audit_unavailable", type_="service_unavailable") from exc


# The counters each derived ratio needs: a ratio over a counter the backend did not report
# (an upstream pool's `unreported`) is None, never 0.
# --- the core -----------------------------------------------------------------------------
class ServingCore(Routing):
    """Serves requests on one engine thread; samples shadow work; records audit + telemetry."""

    def __init__(self, backend: ServingBackend, policy: Policy, sink: AuditSink,
                 telemetry: Telemetry, *, replica_id: str | None = None,
                 rng: random.Random | None = None) -> None:
        self.backend, self.sink, self.telemetry = backend, sink, telemetry
        self.policy = policy
        self.replica_id = replica_id
        self._rng = rng or random.Random()
        # A batching backend (engine.batching) runs every request on its own engine thread;
        # the workers here only wait for their row, so one per row the batch can hold (plus
        # those queued to join). Otherwise this one worker IS the engine thread.
        batcher = backend.batcher
        self.batch_rows = batcher.max_batch if batcher is not None else 0
        workers = 4 * self.batch_rows + 8 if batcher is not None else 1
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="engine-serve")
        self._lock = threading.Lock()
        self._pending = 0  # serving jobs admitted and not finished (queued + running)
        self.idle = threading.Event()  # set while no serving job is pending: shadow may run
        self.idle.set()
        self.last_served = 0.0  # perf_counter() when the last serving job finished
        self.shadow: Any = None  # guardian.equivalence.shadow.ShadowEvaluator, attached by the app
        self.resolver: Any = None  # guardian.governance.routestate.ModeResolver, ditto
        self.admission = Admission()
        self.recorder = RequestRecorder(self)  # every request's audit event
        self.admission.parallel = max(1, self.batch_rows)

    @property
    def policy(self) -> Policy:
        return self._policy

    @policy.setter
    def policy(self, policy: Policy) -> None:
        # Swapped whole (never mutated), so the engine thread always sees a consistent
        # policy; the hash is computed once per policy, not per request.
        self._policy, self.policy_hash = policy, policy.content_hash


    @property
    def queue_depth(self) -> int:
        return self._pending

    def _admit(self) -> int:
        with self._lock:
            depth = self._pending
            self._pending += 1
            self.idle.clear()
            return depth

    def _release(self) -> None:
        with self._lock:
            self._pending -= 1
            self.last_served = time.perf_counter()
            if self._pending == 0:
                self.idle.set()


    async def serve(self, req: GenerationRequest, on_text: OnText | None = None) -> Served:
        try:
            route = self.route_policy(req.route, req.sticky_key or f"r:{req.request_id}")
        except BaseException:
            if req.admitted:  # a stream's slot, taken by `precheck`, must not leak
                req.admitted = False
                self.admission.release(req.route, principal=req.principal, keyed=req.keyed)
            raise
        policy_hash = self.policy_hash
        if not req.admitted:  # a stream took its slot before its response started
            self._admit_to_route(req, route)
        depth = self._admit()
        # The route slot and the pending count, released exactly once whatever happens: by
        # the job when it ends, or here if it never ran (an error before it started, a job
        # cancelled before it began): a leaked slot would keep the route full for good.
        slot = _Slot(self, req)
        try:
            if self.batch_rows:  # only requests beyond the shared batch wait
                depth = max(0, depth - self.batch_rows)
            want_spec = route.mode == "speculative"
            unsupported = want_spec and not self.backend.capabilities.supports(route.proposer)
            shed = want_spec and not unsupported and depth >= route.load_shed_queue_depth
            reason = "unsupported_proposer" if unsupported else "load_shed" if shed else None
            sampled = route.mode != "off" and self._rng.random() < route.shadow.sample_rate
            # A sampled (non-greedy) shadow check needs the distributions the served
            # speculative run used; only backends with full distributions can keep them.
            evidence = (sampled and not req.greedy
                        and self.backend.capabilities.full_distributions)
            enqueued = time.perf_counter()
            t0_ns = now_ns()
            labels = {"route": req.route, "pair": self.backend.pair_hash[:12],
                      "mode": route.mode, **genai_labels(req.endpoint, req.model)}
        except BaseException:
            slot.release()
            raise
        with self.telemetry.request_span(req.endpoint, req.model, {
                "guardian.request_id": req.request_id, "guardian.route": req.route,
                "guardian.mode": route.mode}) as span:
            try:
                try:
                    if self.backend.capabilities.asynchronous:
                        job = asyncio.ensure_future(self._arun(
                            req, route, want_spec and reason is None, reason, on_text,
                            enqueued, slot))
                    else:
                        job = asyncio.get_running_loop().run_in_executor(
                            self._executor, self._run, req, route,
                            want_spec and reason is None, reason, evidence, on_text,
                            enqueued, slot)
                except BaseException:
                    slot.release()
                    raise
                # A job cancelled before it began never runs its own release.
                job.add_done_callback(lambda f: f.cancelled() and slot.release())

                def late(f: asyncio.Future[Served]) -> None:
                    # The awaiter went away just after the job had ended with a result:
                    # nobody answers or records it now, so audit it as cancelled.
                    if not f.cancelled() and f.exception() is None:
                        self.recorder.abandoned(req, route, f.result(), enqueued)

                served = await self._await_job(job, req, slot, late)
            except BaseException as exc:
                self.telemetry.record_request(labels, duration_s=time.perf_counter() - enqueued,
                                              ttft_s=0, tpot_s=0, prompt_tokens=len(req.prompt_ids),
                                              completion_tokens=0, result=None, speculative=False,
                                              error_type=type(exc).__name__, error=exc)
                raise
            served.mode, served.policy_hash, served.shadow_sampled = route.mode, policy_hash, sampled
            result = served.result
            span.set_attribute("guardian.served_path", served.served_path)
            span.set_attribute("gen_ai.usage.input_tokens", len(result.prompt_token_ids))
            span.set_attribute("gen_ai.usage.output_tokens", len(result.token_ids))
            if served.fallback_reason:  # its code only: the rest is exception text
                span.set_attribute("guardian.fallback_reason",
                                   served.fallback_reason.split(":")[0])
            self.telemetry.engine_child_spans(span, t0_ns + int(served.queue_time_s * 1e9), result,
                                              served.served_path == "speculative")
            durable = self.recorder.served(served, route)
            if sampled and self.shadow is not None:
                self.shadow.offer_served(served, route, span.get_span_context())
            elif self.shadow is not None and getattr(self.shadow, "wants_for_quota",
                                                     lambda *_: False)(served, route):
                # its stopping case is below the route's quota (guardian.equivalence.quota)
                self.shadow.offer_served(served, route, span.get_span_context())
            if durable is not None:
                try:
                    await _await_durable(req.request_id, durable, getattr(
                        getattr(self.sink, "cfg", None), "sync_timeout_s", 10.0))
                except ServingError as exc:  # answered 503: counted as the failure it is
                    self._record_telemetry(served, labels, error=exc)
                    raise
            self._record_telemetry(served, labels)
        return served

    def precheck(self, req: GenerationRequest) -> None:
        """Take the request's route slot now, or answer 429 now (a stream calls this before
        its response starts, then starts `serve` at once, which releases the slot)."""
        route = self.route_policy(req.route, req.sticky_key or f"r:{req.request_id}")
        self._admit_to_route(req, route)
        req.admitted = True

    def _admit_to_route(self, req: GenerationRequest, route: RoutePolicy) -> None:
        """The route's bounded queue: 429 with Retry-After when it is full, or when the
        caller already holds its `max_queue_per_key` share of it."""
        try:
            req.keyed = self.admission.admit(req.route, route.max_queue, req.principal,
                                             route.max_queue_per_key)
        except QueueFull as exc:
            code = "key_queue_full" if exc.per_key else "queue_full"
            self.telemetry.requests.add(1, {"route": req.route, "mode": route.mode,
                                            "pair": self.backend.pair_hash[:12],
                                            "error.type": code})
            held = (f"Your API key has {exc.limit} requests in flight on route {req.route!r}, "
                    "its limit per key" if exc.per_key else
                    f"Route {req.route!r} is at its limit of {exc.limit} requests in flight")
            raise ServingError(
                429, f"{held}; retry after {exc.retry_after_s} s.", code=code,
                type_="rate_limit_error", headers={"Retry-After": str(exc.retry_after_s)},
            ) from None

    _await_job = staticmethod(await_job)

    def _run(self, req: GenerationRequest, route: RoutePolicy, speculative: bool,
             reason: str | None, evidence: bool, on_text: OnText | None,
             enqueued: float, slot: _Slot) -> Served:
        """Engine thread: the speculative attempt, then target-only on failure."""
        started = time.perf_counter()
        measured: float | None = None  # only a whole generation teaches the service time
        try:
            req.cancel.check()  # the client left, or the deadline passed, while queued
            served = self._attempt(req, route, speculative, reason, evidence, on_text, enqueued)
            measured = time.perf_counter() - started
            if not slot.finish():
                # Its awaiter answered 504/499 before this ended (the last check passed just
                # before the cancel): nobody records it now, so audit it here as cancelled.
                self.recorder.abandoned(req, route, served, enqueued)
            return served
        except Cancelled as exc:
            self.recorder.cancelled(req, route, exc, enqueued, started)
            raise
        finally:
            # Released here, not by the awaiting coroutine: the job is done only when the
            # engine thread is free again (a cancelled await must not wake the shadow early).
            # A cancelled or failed run is not a service time: a flood of requests that hang
            # up at once would otherwise talk Retry-After down to 1 s.
            slot.release(measured)

    async def _arun(self, req: GenerationRequest, route: RoutePolicy, speculative: bool,
                    reason: str | None, on_text: OnText | None, enqueued: float,
                    slot: _Slot) -> Served:
        """An async backend (`agenerate`: upstream pools) served on the event loop, with no
        worker-thread hop; the fallback rule of `_attempt` (guardian.serving.fallback)."""
        started = time.perf_counter()
        path = "speculative" if speculative else "target_only"
        stream = Stream(req.cancel.check, on_text)  # a streamed answer stops when its client leaves
        result: BackendResult | None = None
        hook: Callable[[], None] | None = None
        agenerate = cast(AsyncServingBackend, self.backend).agenerate  # capabilities.asynchronous
        try:
            # The upstream call never checks the token while it waits: a client that leaves
            # (or a deadline) cancels this task itself. Hooked here, inside the try, so a
            # cancel can only land where it is recorded and the slot released below.
            task, loop = asyncio.current_task(), asyncio.get_running_loop()
            if task is not None:
                hook = partial(loop.call_soon_threadsafe, task.cancel)
                req.cancel.on_cancel(hook)
            req.cancel.check()  # the client left, or the deadline passed, before the call
            if speculative:
                try:
                    result = await agenerate(
                        self.backend_request(req, route, True, check=req.cancel.check),
                        stream.first() if on_text else None)
                except Cancelled:
                    raise
                except Exception as exc:
                    if not may_fall_back(exc):
                        raise
                    # An upstream fault's detail (hosts, ports) to the log only: the reason
                    # is also shown to the client (`spec_guardian.fallback_reason`).
                    detail = getattr(exc, "detail", None)
                    logger.warning("speculative serving failed for %s, serving target-only: %r%s",
                                   req.request_id, exc, f" [{detail}]" if detail else "")
                    reason = reason_of(exc)
            if result is None:
                path = "target_only"
                result = await agenerate(
                    self.backend_request(req, route, False, check=req.cancel.check),
                    stream.retry() if on_text else None)
                stream.finish()
        except (Cancelled, asyncio.CancelledError) as exc:
            why = req.cancel.reason or (exc.reason if isinstance(exc, Cancelled) else None)
            if why is None:  # cancelled by the loop itself (shutdown): not a request's cancel
                raise
            cancelled = Cancelled(why)
            cancelled.partial = (path, stream.text, list(stream.emitted))  # type: ignore[attr-defined]
            self.recorder.cancelled(req, route, cancelled, enqueued, started)
            raise cancelled from None
        finally:
            if hook is not None:
                req.cancel.discard(hook)
            slot.release(None if result is None else time.perf_counter() - started)
        served = Served(req, result, route.mode, "speculative" if speculative and reason is None
                        else "target_only", reason, started - enqueued,
                        time.perf_counter() - started, "", False, route=route)
        if not slot.finish():  # answered 504/499 already (see _run)
            self.recorder.abandoned(req, route, served, enqueued)
        return served

    def _attempt(self, req: GenerationRequest, route: RoutePolicy, speculative: bool,
                 reason: str | None, evidence: bool, on_text: OnText | None,
                 enqueued: float) -> Served:
        """Engine thread: the speculative attempt, then target-only when it fails (the rule
        and the stream it continues: guardian.serving.fallback)."""
        started = time.perf_counter()
        stream = Stream(req.cancel.check, on_text)
        path = "speculative" if speculative else "target_only"
        result, kept = None, None
        try:
            if speculative:
                try:
                    result, kept = self.run_backend(req, route, True, stream.first(),
                                                    evidence=evidence, check=req.cancel.check)
                except Cancelled:
                    raise
                except Exception as exc:  # the engine's bug must not become the user's error
                    if not may_fall_back(exc):  # e.g. an upstream pool without failover
                        raise
                    logger.warning("speculative decoding failed for %s, serving target-only: %r",
                                   req.request_id, exc)
                    reason = reason_of(exc)
            if result is None:
                path = "target_only"
                result, _ = self.run_backend(req, route, False, stream.retry(),
                                             check=req.cancel.check)
                stream.finish()
        except Cancelled as exc:
            exc.partial = (path, stream.text, list(stream.emitted))  # type: ignore[attr-defined]
            raise
        compute = time.perf_counter() - started
        return Served(req, result, route.mode, "speculative" if speculative and reason is None
                      else "target_only", reason, started - enqueued, compute, "", False,
                      evidence=kept, route=route)

    @staticmethod
    def _tpot(result: BackendResult) -> float:
        return time_per_output_token(result)

    def _record_telemetry(self, served: Served, labels: dict[str, str], *,
                          error: ServingError | None = None) -> None:
        """The request's metrics, once its answer is settled: a `sync` route's request whose
        record could not be made durable was answered 503, and counts as that failure."""
        req, result = served.request, served.result
        if served.fallback_reason:
            self.telemetry.fallbacks.add(1, {**labels, "reason": served.fallback_reason.split(":")[0]})
        self.telemetry.record_request(
            labels, duration_s=served.queue_time_s + served.compute_time_s,
            ttft_s=served.queue_time_s + result.timings.time_to_first_token_s,
            tpot_s=self._tpot(result), prompt_tokens=prompt_tokens(req, result),
            completion_tokens=len(result.token_ids), result=result,
            speculative=served.served_path == "speculative",
            error_type=None if error is None else type(error).__name__, error=error)

    def shutdown(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
        self.backend.shutdown()
