"""One admitted request's hold on its route and the core, and how its awaiter waits for its job.

`_Slot`: the route's admission slot plus a place in the serving core's pending count, given
back exactly once; it also settles who owns the outcome (the job, or an awaiter that gave up).
`await_job`: the engine job's result, with the request's deadline and its client's cancel
applied (guardian.serving.core.ServingCore awaits every job through it).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Literal, Protocol

from guardian.core.errors import ServingError
from guardian.serving.admission import Admission, Cancelled
from guardian.serving.request import GenerationRequest, Served


class _Core(Protocol):
    """What a slot gives back to (guardian.serving.core.ServingCore)."""

    admission: Admission

    def _release(self) -> None: ...


class _Slot:
    """What one admitted request holds: its route's admission slot and a place in the serving
    core's pending count. `release` gives both back once, however many exit paths call it."""

    __slots__ = ("_core", "_done", "_keyed", "_lock", "_outcome", "_principal", "_route")

    def __init__(self, core: _Core, req: GenerationRequest) -> None:
        self._core, self._route = core, req.route
        self._principal, self._keyed = req.principal, req.keyed
        self._lock = threading.Lock()
        self._done = False
        self._outcome: str | None = None  # "finished" (job) or "abandoned" (awaiter): first wins

    def finish(self) -> bool:
        """The job has its result: True if its awaiter will answer it (not abandoned)."""
        with self._lock:
            self._outcome = self._outcome or "finished"
            return self._outcome == "finished"

    def abandon(self) -> bool:
        """The awaiter gives up (deadline, or it was cancelled): True unless the job had
        already finished (then its result is on its way and must be used)."""
        with self._lock:
            self._outcome = self._outcome or "abandoned"
            return self._outcome == "abandoned"

    def release(self, service_s: float | None = None) -> bool:
        with self._lock:
            if self._done:
                return False
            self._done = True
        self._core._release()
        self._core.admission.release(self._route, service_s, principal=self._principal,
                                     keyed=self._keyed)
        return True



async def await_job(job: asyncio.Future[Served], req: GenerationRequest, slot: _Slot,
                     late: Callable[[asyncio.Future[Served]], None]) -> Served:
    """The engine job's result; at the request's deadline, cancel it and answer 504 now
    (a queued job then ends, audited as cancelled, when the engine thread reaches it).

    The job is never cancelled by its awaiter going away: an executor job cancelled before
    a worker picked it up would never run, so never release its route slot nor be
    audited. A cancelled awaiter cancels the request's token instead (the job stops at
    its next check). Who owns the outcome is settled once (`_Slot.abandon` / `finish`):
    a job that ends after its awaiter gave up audits itself as cancelled; one that had
    already ended is answered (deadline) or audited by `late` (awaiter cancelled)."""
    job.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved once

    def abandon(reason: Literal["client_disconnected", "deadline_exceeded"]) -> bool:
        if not slot.abandon():
            return False  # the job has its result already: only the hop here remains
        req.cancel.cancel(reason)
        if isinstance(job, asyncio.Task):  # an async backend's call: stop it now
            job.cancel()
        return True

    try:
        if req.cancel.deadline is None:
            return await asyncio.shield(job)
        left = req.cancel.deadline - time.monotonic()
        done, _ = await asyncio.wait({job}, timeout=max(0.0, left))
        if not done and abandon("deadline_exceeded"):
            raise Cancelled("deadline_exceeded")
        return await asyncio.shield(job)
    except asyncio.CancelledError:
        if not abandon("client_disconnected"):  # it had its result: nobody records it
            job.add_done_callback(late)
        raise
    except Cancelled as exc:
        if exc.reason == "deadline_exceeded":
            raise ServingError(504, "The request's deadline (X-Guardian-Deadline-Ms) passed "
                               "before its generation finished; it was cancelled.",
                               code="deadline_exceeded", type_="timeout_error") from None
        raise ServingError(499, "The client closed the request; its generation was "
                           "cancelled.", code="client_closed_request") from None
    except Exception as exc:
        if not getattr(exc, "unavailable", False):
            raise
        # The local engine's thread is gone (engine.batching.EngineUnavailable): a 503
        # the client can act on, not a 500 (`/readyz` should say so as well).
        raise ServingError(503, "The sidecar's engine is not running; retry on another "
                           "replica.", code="engine_unavailable",
                           type_="service_unavailable") from None
