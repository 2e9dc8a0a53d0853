"""The engine thread of a batching local backend: continuous batching of concurrent requests.

`BatchScheduler` owns one `engine.continuous.ContinuousEngine` and the one thread that drives
it. Callers on any thread `submit` a request and wait on a Future; the engine thread, between
steps, lets waiting requests join (up to `max_batch` rows, in weighted fair order across routes
and callers: engine.fairqueue; beyond it, up to `headroom` rows more, each for a route that
holds no row), runs one step for every row at once, and resolves the Futures of the rows
that finished. So requests with
different prompts, lengths, sampling parameters, stop strings and proposers share forwards,
and each leaves as soon as it is done.

Headroom: rows of one route's flood tend to join together and, at the same `max_tokens`, to
leave together, so a request on another route that finds the batch full waits for a whole
cohort to finish - measured (`guardian bench fairness`), most of a quiet route's flooded
latency was that wait for a row. With `headroom` > 0 (fair order only) a waiting request
whose route holds no row and is not joining joins at once, beyond `max_batch`; the batch
never exceeds `max_batch + headroom` rows, and the rows beyond `max_batch` go one per route.

Streaming and cancellation are per row and unchanged for callers: a row's `on_text` runs on
the engine thread after each of its steps; if it raises (the serving core's cancellation
check, the shadow evaluator's preemption), that row alone leaves the batch at this step
boundary and its Future carries the exception. A request still waiting to join is checked
with its `check` callable before it joins.

A request that is cancelled while it still waits for a row leaves the queue at the next step
boundary (every waiting job's `check` runs between steps), so its caller, its route slot and
its audit record are not held until a row frees up.

If a step itself raises (an engine bug), every row of the batch fails with that error (the
serving core then re-runs them target-only, as for any speculative failure) and the engine
starts afresh; one row's own fault inside a step fails that row alone (engine.continuous).
A fault in the depth cap's learning is logged and ignored. Should the engine thread still end
unexpectedly, every row and waiting request fails with `EngineUnavailable` (the API's 503),
`alive` turns False and `submit` refuses at once: no caller waits forever on a dead thread.

The depth cap per batch size is `engine.capmodel.ModelledGamma` by default: goodput predicted
from step costs measured on the pair when the scheduler starts (before it serves; seconds on a
CPU the first time, then read from its cache) and the acceptance rate of every step.
`engine.loadaware.LoadAwareGamma` (tries each depth on live traffic, or a pinned table) is the
alternative.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from engine.capmodel import ModelledGamma
from engine.continuous import ContinuousEngine, Sequence, SequenceRequest
from engine.fairqueue import DEFAULT_TENANT, FairQueue
from engine.loadaware import LoadAwareGamma
from engine.loading import Pair

logger = logging.getLogger(__name__)

__all__ = ["BatchScheduler", "EngineUnavailable"]


class EngineUnavailable(RuntimeError):
    """The engine thread is gone (it died, or the sidecar is shutting down): nothing will
    serve this request here. The serving core answers it with a 503, never a 500."""

    no_fallback = True  # a target-only re-run would go to the same engine thread
    unavailable = True


@dataclass(slots=True)
class _Job:
    req: SequenceRequest
    check: Callable[[], None] | None
    tenant: tuple[str, str] = DEFAULT_TENANT  # (route, caller): whose turn it joins on
    weight: float = 1.0  # its route's share while others wait
    future: Future[Sequence] = field(default_factory=Future)
    queued_at: float = field(default_factory=time.perf_counter)


class BatchScheduler:
    """One engine thread, one shared batch of at most `max_batch` rows (+ `headroom`)."""

    def __init__(self, pair: Pair, *, max_batch: int = 16,
                 gamma: LoadAwareGamma | ModelledGamma | None = None, fifo: bool = False,
                 headroom: int = 0) -> None:
        """`gamma`: the depth cap (default ModelledGamma); a ModelledGamma without step
        costs is calibrated here, before the engine thread starts. `fifo`: join in arrival
        order instead of weighted fair order across routes and callers (engine.fairqueue).
        `headroom`: rows beyond `max_batch`, each for a route holding none (fair order only)."""
        if max_batch < 1:
            raise ValueError(f"max_batch must be >= 1, got {max_batch}")
        if headroom < 0:
            raise ValueError(f"headroom must be >= 0, got {headroom}")
        self.pair, self.max_batch = pair, max_batch
        self.headroom = 0 if fifo else headroom
        self.gamma = gamma if gamma is not None else ModelledGamma()
        if isinstance(self.gamma, ModelledGamma) and self.gamma.costs is None:
            try:
                self.gamma.calibrate(pair, max_batch)
            except Exception:  # serve anyway: uncalibrated, the cap speculates as asked
                logger.exception("measuring step costs for the speculation cap failed; "
                                 "speculative rows keep their own depth")
        self._engine = ContinuousEngine(pair, gamma_cap=self.gamma)
        self._jobs: dict[int, _Job] = {}  # id(Sequence) -> its job
        self.fifo = fifo
        self._waiting: FairQueue[_Job] = FairQueue(fifo=fifo)
        self._cv = threading.Condition()
        self._stop = False
        self._dead: BaseException | None = None  # why the engine thread ended unexpectedly
        self._in_hand: list[_Job] = []  # popped from the queue, not yet rows
        self._observe_failed = False  # the cap's learning raised once (logged once)
        self.steps = 0
        self._busy_since: float | None = None  # end of the previous step while rows remained
        self.batch_size = 0  # rows in the last step (for /metrics)
        self.peak = 0  # most rows in one step so far
        self._thread = threading.Thread(target=self._loop, name="engine-batch", daemon=True)
        self._thread.start()

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @property
    def alive(self) -> bool:
        """The engine thread is running (False once it died or was shut down)."""
        return self._thread.is_alive() and self._dead is None and not self._stop

    def submit(self, req: SequenceRequest, check: Callable[[], None] | None = None, *,
               tenant: tuple[str, str] = DEFAULT_TENANT, weight: float = 1.0,
               ) -> Future[Sequence]:
        """Queue a request to join the batch; the Future gets its finished Sequence.
        `tenant` (route, caller) and `weight` (the route's share) set its turn to join."""
        job = _Job(req, check, tenant, weight)
        with self._cv:
            if self._dead is not None:
                raise EngineUnavailable(f"the engine thread died ({self._dead!r}); the "
                                        "sidecar must be restarted")
            if self._stop:
                raise EngineUnavailable("the engine is shutting down")
            self._waiting.push(job, tenant, weight)
            self._cv.notify()
        return job.future

    def run(self, req: SequenceRequest, check: Callable[[], None] | None = None, *,
            tenant: tuple[str, str] = DEFAULT_TENANT, weight: float = 1.0) -> Sequence:
        """`submit` and wait (a serving worker thread blocks here, not the engine)."""
        seq = self.submit(req, check, tenant=tenant, weight=weight).result()
        if seq.error is not None:
            raise seq.error
        return seq

    def snapshot(self) -> dict[str, Any]:
        """What the engine is doing and the depth cap it learnt (GET /admin/speculation)."""
        from engine.loadaware import vllm_speculative_config

        table = self.gamma.table()
        out = {"batching": "continuous", "max_batch": self.max_batch,
               "fair_headroom": self.headroom, "batch_rows": self.batch_size,
               "waiting": self.waiting, "steps": self.steps,
               "peak_batch_rows": self.peak, "pinned": self.gamma.fixed is not None,
               "gamma_cap_by_batch_size": {str(b): g for b, g in table.items()},
               "goodput_tokens_per_s": {str(b): {str(g): round(v, 1) for g, v in row.items()}
                                        for b, row in self.gamma.goodput().items()},
               "vllm_speculative_config": vllm_speculative_config(table)}
        if isinstance(self.gamma, ModelledGamma):
            out["cap_model"] = self.gamma.describe()
        return out

    def gauge_rows(self) -> list[tuple[str, str, dict[str, str], float]]:
        """/metrics gauges (guardian.observability.telemetry.GovernanceCollector rows)."""
        rows: list[tuple[str, str, dict[str, str], float]] = [
            ("guardian_batch_rows", "Rows (requests) in the engine's shared batch at its last "
             "step.", {}, float(self.batch_size)),
            ("guardian_batch_waiting", "Requests waiting to join the engine's batch.", {},
             float(self.waiting))]
        for band, cap in self.gamma.table().items():
            rows.append(("guardian_speculation_gamma_cap", "Speculation depth cap in force "
                         "for batches from this size on (0: speculation off), chosen by "
                         "goodput.", {"batch_size": str(band)}, float(cap)))
        for band, row in self.gamma.goodput().items():
            for cap, rate in row.items():
                rows.append(("guardian_speculation_goodput_tokens_per_second", "Goodput "
                             "(tokens per second of the engine thread) by batch size and depth "
                             "cap that chose the cap: predicted from measured step costs and "
                             "acceptance (modelled cap) or measured over runs of steps.",
                             {"batch_size": str(band), "gamma_cap": str(cap)}, rate))
        return rows

    def shutdown(self, timeout_s: float = 10.0) -> None:
        with self._cv:
            self._stop = True
            self._cv.notify()
        self._thread.join(timeout_s)

    # the engine thread ---------------------------------------------------------------------
    def _loop(self) -> None:
        try:
            self._serve()
        except BaseException as exc:  # never leave a caller waiting on a dead thread
            logger.critical("the engine thread died; failing its requests", exc_info=True)
            err = EngineUnavailable(f"the engine thread died ({exc!r})")
            with self._cv:
                self._dead = exc
                for job in [*self._in_hand, *self._jobs.values(), *self._waiting]:
                    if not job.future.done():
                        job.future.set_exception(err)
                self._in_hand = []
                self._waiting.drain()
                self._jobs.clear()

    def _serve(self) -> None:
        while True:
            with self._cv:
                while not self._stop and not self._waiting and not self._engine.size:
                    self._cv.wait()
                if self._stop:
                    self._fail_all(EngineUnavailable("the engine shut down"))
                    return
                self._drop_cancelled()
                joining = self._in_hand = []
                while self._waiting and self._engine.size + len(joining) < self.max_batch:
                    joining.append(self._waiting.pop())
                if self.headroom and self._waiting:
                    self._join_headroom(joining)
            if joining and self._busy_since is None:
                # Busy from this join on: its prefill (and the first tokens it may give) is
                # part of the next step's goodput.
                self._busy_since = time.perf_counter()
            self._join(joining)
            self._in_hand = []
            if not self._engine.size:
                self._busy_since = None  # idle again: the wait until the next join is not work
                continue
            self.batch_size = self._engine.size
            self.peak = max(self.peak, self.batch_size)
            try:
                done = self._engine.step()
            except Exception as exc:  # an engine bug: fail this batch, keep serving
                logger.exception("a batched engine step failed; failing its %d rows",
                                 self._engine.size)
                self._fail_batch(exc)
                self._busy_since = None
                continue
            self.steps += 1
            now = time.perf_counter()
            info = self._engine.last_step
            if info and info.get("gamma_cap", -1) >= 0:
                # Goodput over the engine thread's whole time since the previous step: joins
                # (prefills) and the hand-back of finished rows included, so a depth whose
                # cost shows up around its steps rather than in them is not favoured.
                seconds = info["seconds"] if self._busy_since is None else now - self._busy_since
                try:
                    self.gamma.observe(int(info["size"]), int(info["gamma_cap"]),
                                       info["tokens"], max(seconds, info["seconds"]),
                                       accepted=int(info["accepted"]),
                                       judged=int(info["judged"]),
                                       switched=bool(info.get("switched")))
                except Exception:  # learning is advisory: its bug must not stop serving
                    logger.log(logging.DEBUG if self._observe_failed else logging.ERROR,
                               "the speculation cap failed to learn from a step",
                               exc_info=True)
                    self._observe_failed = True
            self._busy_since = now if self._engine.size else None
            for seq in done:
                job = self._jobs.pop(id(seq), None)
                if job is not None and not job.future.done():
                    job.future.set_result(seq)

    def _join_headroom(self, joining: list[_Job]) -> None:
        """(Under the lock.) Beyond `max_batch`: the next waiting job, in fair order, of each
        route that holds no row and has none joining, while the headroom lasts."""
        held = {job.tenant[0] for job in self._jobs.values()} | {j.tenant[0] for j in joining}
        room = self.max_batch + self.headroom - self._engine.size - len(joining)
        while room > 0 and self._waiting.routes_waiting() - held:
            job = self._waiting.pop(skip=held)
            joining.append(job)
            held.add(job.tenant[0])
            room -= 1

    def _drop_cancelled(self) -> None:
        """(Under the lock.) Waiting jobs whose client left or whose deadline passed leave the
        queue now, at this step boundary, instead of when a row frees up for them."""
        if not self._waiting or not any(j.check is not None for j in self._waiting):
            return

        def cancelled(job: _Job) -> bool:
            try:
                if job.check is not None:
                    job.check()
            except BaseException as exc:
                if not job.future.done():
                    job.future.set_exception(exc)
                return True
            return False

        self._waiting.remove_if(cancelled)

    def _join(self, jobs: list[_Job]) -> None:
        """Joiners are prefilled together (one forward per model); a cancelled or invalid
        one fails alone."""
        ready: list[tuple[_Job, Sequence]] = []
        for job in jobs:
            try:
                if job.check is not None:
                    job.check()  # cancelled while waiting: never starts
                ready.append((job, Sequence(self.pair, job.req)))
            except BaseException as exc:
                job.future.set_exception(exc)
        if not ready:
            return
        try:
            self._engine.join([seq for _, seq in ready])
        except Exception as exc:
            logger.exception("prefilling %d joining requests failed", len(ready))
            for job, _ in ready:
                job.future.set_exception(exc)
            self._fail_batch(exc)  # the caches may be half-extended
            return
        for job, seq in ready:
            # Its time (total, first token) counts from when it asked to join, as a client sees.
            seq.started = job.queued_at
            self._jobs[id(seq)] = job

    def _fail_batch(self, exc: BaseException) -> None:
        for job in self._jobs.values():
            if not job.future.done():
                job.future.set_exception(exc)
        self._jobs.clear()
        self._engine = ContinuousEngine(self.pair, gamma_cap=self.gamma)

    def _fail_all(self, exc: BaseException) -> None:
        self._fail_batch(exc)
        for job in self._waiting.drain():
            if not job.future.done():
                job.future.set_exception(exc)
