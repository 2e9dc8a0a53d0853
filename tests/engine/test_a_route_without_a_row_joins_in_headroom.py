"""Headroom (engine.batching): while one route's requests fill the batch, a request of a route
that holds no row joins beyond `max_batch` at once instead of waiting for a row; one row per
route, never more than `max_batch + headroom` rows, and none in arrival order (fifo)."""

from __future__ import annotations

import pytest

from engine.fairqueue import FairQueue
from tests.support.batching import run_held


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
    flood, quiet, other = ("flood", "k"), ("quiet", "k"), ("other", "k")
    return run_held(llama_pair, [("flood-0", flood, 8), ("flood-1", flood, 8)],
                    [("flood-2", flood, 3), ("flood-3", flood, 3), ("quiet-0", quiet, 3),
                     ("quiet-1", quiet, 3), ("other-0", other, 3)],
                    max_batch=2, fifo=fifo, headroom=headroom)


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
