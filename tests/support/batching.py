"""A BatchScheduler whose first rows are held in the batch until every later request has
queued: the join order and batch sizes that follow show how waiting requests get rows
(engine.fairqueue, engine.batching's headroom)."""

from __future__ import annotations

import threading
from typing import Any

Arrival = tuple[str, tuple[str, str], int]  # (name, (route, caller), max_new_tokens)


def run_held(pair: Any, held: list[Arrival], then: list[Arrival], **scheduler: Any
             ) -> tuple[list[int], list[str]]:
    """`held` join first and stay (their text callback blocks) until `then` have all queued;
    -> (rows of each step, the names in the order they finished). `scheduler`: the
    BatchScheduler's keywords (max_batch, fifo, headroom); depth 0 (target-only) throughout."""
    from engine.batching import BatchScheduler
    from engine.continuous import SequenceRequest
    from engine.loadaware import LoadAwareGamma
    from engine.sampling import SamplingParams

    gate = threading.Event()

    def hold(delta, traces) -> None:  # type: ignore[no-untyped-def]
        gate.wait(30)

    sched = BatchScheduler(pair, gamma=LoadAwareGamma(fixed={1: 0}), **scheduler)
    sizes: list[int] = []
    step = sched._engine.step

    def counted():  # type: ignore[no-untyped-def]
        sizes.append(sched._engine.size)
        return step()

    sched._engine.step = counted  # type: ignore[method-assign]
    finished: list[str] = []
    lock = threading.Lock()

    def submit(arrival: Arrival, on_text=None):  # type: ignore[no-untyped-def]
        name, tenant, n = arrival
        f = sched.submit(SequenceRequest(prompt=[1, 2, 3], params=SamplingParams(temperature=0.0),
                                         max_new_tokens=n, on_text=on_text), tenant=tenant)

        def done(_f) -> None:  # type: ignore[no-untyped-def]
            with lock:
                finished.append(name)

        f.add_done_callback(done)
        return f

    try:
        futures = [submit(a, hold) for a in held]
        while sched.waiting or sched._engine.size < len(held):  # until the held have rows
            gate.wait(0.001)
        futures += [submit(a) for a in then]
        gate.set()
        for f in futures:
            f.result(timeout=60)
    finally:
        gate.set()
        sched.shutdown()
    return sizes, finished
