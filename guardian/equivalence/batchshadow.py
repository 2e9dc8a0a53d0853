"""Shadow re-runs judged under batching: the speculative re-runs of several jobs (and replays
of recently judged requests) decoded together in the serving engine's shared batch.

Why: once a route serves target-only (a rollback, a canary's other share), the shadow's
speculative re-run is the only speculative decoding left, and run one at a time in an idle
engine it is alone in its batch, where a fault that needs a shared batch (another row's
accepted count, the mask over a row's holes) cannot show: ~90 clean verdicts in a row while
the fault was still there. So a job whose re-run is speculative is run with up to
`shadow.batch_rows - 1` others: further such jobs from the queue first, then *companions* —
replays of the requests the shadow judged last on the route (their prompts, lengths,
sampling parameters and stop strings: the composition of sampled served traffic), decoded
speculatively beside it and not judged. Every row is released at once, so the engine joins
them in one batch; each keeps the shadow's preemption check (serving work arriving aborts
the rows at the next step). Only for backends that batch (`backend.batcher`).

`batch_record` is what every verdict records about the batch its speculative run decoded in
(`stats["batch"]`): the engine, the most rows at one step, the mean, the steps it proposed at
beside other rows, and the depths its steps ran at.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

logger = logging.getLogger(__name__)

COMPANION_MEMORY = 32  # recently judged requests kept per route as companions


def batches(backend: Any) -> bool:
    return backend.batcher is not None


def batch_record(result: Any, backend: Any, *, judged_together: int = 1,
                 companions: int = 0) -> dict[str, Any]:
    """The batch a speculative result decoded in (the verdict's `stats["batch"]`)."""
    stats = getattr(result, "stats", None) or {}
    return {"engine": "continuous" if batches(backend) else "request",
            "rows_max": int(stats.get("batch_rows_max") or 0),
            "rows_mean": round(float(stats.get("batch_rows") or 0.0), 3),
            "shared_spec_steps": int(stats.get("shared_spec_steps") or 0),
            "depths": sorted({int(t.gamma) for t in getattr(result, "trace", ()) or ()}),
            "judged_together": judged_together, "companions": companions}


class BatchedReruns:
    """Companion memory and the concurrent re-runs (one per evaluator)."""

    def __init__(self, evaluator: Any) -> None:
        self.evaluator = evaluator
        self._recent: dict[str, deque[tuple[Any, Any]]] = {}
        self._lock = threading.Lock()

    def remember(self, job: Any) -> None:
        """Keep the job's request as a future companion on its route."""
        with self._lock:
            ring = self._recent.setdefault(job.request.route, deque(maxlen=COMPANION_MEMORY))
            ring.append((job.request, job.route))

    def wants(self, job: Any) -> bool:
        """A served job whose re-run is speculative, on a batching backend, batch_rows > 1."""
        return (job.served is not None and job.external_ids is None
                and job.served.served_path == "target_only"
                and job.route.shadow.batch_rows > 1 and batches(self.evaluator.backend))

    def gather(self, job: Any, jobs: queue.Queue[Any]) -> tuple[list[Any], list[Any]]:
        """(jobs to re-run together with `job`, other jobs taken from the queue on the way)."""
        together, others = [job], []
        while len(together) < job.route.shadow.batch_rows:
            try:
                nxt = jobs.get_nowait()
            except queue.Empty:
                break
            if nxt is None:  # shutdown marker: put it back for the worker
                jobs.put_nowait(None)
                break
            (together if self.wants(nxt) else others).append(nxt)
        return together, others

    def companions(self, route: str, n: int, exclude: set[str]) -> list[tuple[Any, Any]]:
        with self._lock:
            ring = list(self._recent.get(route, ()))
        picked = [(r, p) for r, p in reversed(ring) if r.request_id not in exclude]
        return picked[:n]

    def rerun(self, jobs: list[Any], preempt: Callable[[str, list[Any]], None] | None,
              ) -> tuple[list[Any], int]:
        """Each job's speculative re-run (a (result, evidence) pair or the exception it
        raised), decoded in one batch with companions -> (outcomes, companions run)."""
        ev = self.evaluator
        first = jobs[0]
        room = first.route.shadow.batch_rows - len(jobs)
        mates = self.companions(first.request.route, room,
                                {j.request.request_id for j in jobs}) if room > 0 else []
        rows: list[Callable[[], Any]] = []
        for job in jobs:
            req, route = job.request, job.route
            cap = min(req.max_tokens, route.shadow.max_new_tokens)
            evidence = not req.greedy and ev.backend.capabilities.full_distributions
            rows.append(lambda req=req, route=route, cap=cap, evidence=evidence:
                        ev.core.run_backend(req, route, True, preempt, max_new_tokens=cap,
                                            evidence=evidence))
        for req, route in mates:
            cap = min(req.max_tokens, route.shadow.max_new_tokens)
            rows.append(lambda req=req, route=route, cap=cap:
                        ev.core.run_backend(req, route, True, preempt, max_new_tokens=cap))
        outs: list[Any] = [None] * len(rows)
        barrier = threading.Barrier(len(rows))

        def one(k: int) -> None:
            try:
                barrier.wait()
                outs[k] = rows[k]()
            except BaseException as exc:  # handed to the job's own handling
                outs[k] = exc

        threads = [threading.Thread(target=one, args=(k,), name=f"shadow-row-{k}", daemon=True)
                   for k in range(len(rows))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return outs[: len(jobs)], len(mates)
