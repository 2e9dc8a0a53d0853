"""Headroom (engine.batching): while one route's requests fill the batch, a request of a route
that holds no row joins beyond `max_batch` at once instead of waiting for a row; one row per
route, never more than `max_batch + headroom` rows, and none in arrival order (fifo)."""

from __future__ import annotations

import threading

import pytest

from engine.fairqueue import FairQueue


def test_pop_passes_over_skipped_routes_in_fair_order() -> None:
    q: FairQueue[str] = FairQueue()
    for i in range(3):
        q.push(f"a{i}", ("flood", "k"))
    q.push("b0", ("quiet", "k"))
    q.push("c0", ("other", "k"))
    assert q.routes_waiting() == {"flood", "quiet", "other"}
    assert q.pop(skip={"flood"}) == "b0"
    assert q.pop(skip={"flood", "quiet"}) == "c0"
    assert q.routes_waiting() == {"flood"}
    with pytest.raises(IndexError):
        q.pop(skip={"flood"})
    assert [q.pop() for _ in range(len(q))] == ["a0", "a1", "a2"]


def _run(llama_pair, *, headroom: int, fifo: bool = False):  # type: ignore[no-untyped-def]
    """Two flood rows hold a batch of 2 until released; then two more flood requests, two
    quiet ones and one of a third route wait. Returns the rows of each step and the order
    the requests finished in."""
    from engine.batching import BatchScheduler
    from engine.continuous import SequenceRequest
    from engine.loadaware import LoadAwareGamma
    from engine.sampling import SamplingParams

    gate = threading.Event()

    def hold(delta, traces) -> None:  # type: ignore[no-untyped-def]
        gate.wait(30)

    def req(on_text=None, n: int = 3) -> SequenceRequest:  # type: ignore[no-untyped-def]
        return SequenceRequest(prompt=[1, 2, 3], params=SamplingParams(temperature=0.0),
                               max_new_tokens=n, on_text=on_text)

    sched = BatchScheduler(llama_pair, max_batch=2, gamma=LoadAwareGamma(fixed={1: 0}),
                           fifo=fifo, headroom=headroom)
    sizes: list[int] = []
    step = sched._engine.step

    def counted():  # type: ignore[no-untyped-def]
        sizes.append(sched._engine.size)
        return step()

    sched._engine.step = counted  # type: ignore[method-assign]
    finished: list[str] = []
    lock = threading.Lock()

    def submit(name: str, tenant, **kw):  # type: ignore[no-untyped-def]
        f = sched.submit(req(**kw), tenant=tenant)
        f.add_done_callback(lambda _f: (lock.acquire(), finished.append(name), lock.release()))
        return f

    try:
        futures = [submit("flood-0", ("flood", "k"), on_text=hold, n=8),
                   submit("flood-1", ("flood", "k"), on_text=hold, n=8)]
        while sched.waiting or sched._engine.size < 2:
            gate.wait(0.001)
        futures += [submit("flood-2", ("flood", "k")), submit("flood-3", ("flood", "k")),
                    submit("quiet-0", ("quiet", "k")), submit("quiet-1", ("quiet", "k")),
                    submit("other-0", ("other", "k"))]
        gate.set()
        for f in futures:
            f.result(timeout=60)
    finally:
        gate.set()
        sched.shutdown()
    return sizes, finished


def test_quiet_routes_join_beyond_a_full_batch_one_row_each(llama_pair) -> None:  # type: ignore[no-untyped-def]
    sizes, finished = _run(llama_pair, headroom=2)
    assert max(sizes) == 4  # 2 flood rows + one quiet + one other, never more
    # The quiet and the other route's first requests finish before the held flood rows'
    # 8 tokens are done; the second quiet request waits its turn like any other.
    assert set(finished[:2]) == {"quiet-0", "other-0"}, finished
    assert finished.index("quiet-1") > finished.index("quiet-0")


def test_no_headroom_and_fifo_keep_max_batch(llama_pair) -> None:  # type: ignore[no-untyped-def]
    for kw in ({"headroom": 0}, {"headroom": 2, "fifo": True}):
        sizes, finished = _run(llama_pair, **kw)
        assert max(sizes) == 2, kw
        assert finished[:2] == ["flood-0", "flood-1"], (kw, finished)


def test_headroom_must_not_be_negative(llama_pair) -> None:  # type: ignore[no-untyped-def]
    from engine.batching import BatchScheduler

    with pytest.raises(ValueError, match="headroom"):
        BatchScheduler(llama_pair, max_batch=2, headroom=-1)
