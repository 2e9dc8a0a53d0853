"""The order in which waiting requests join the shared batch (engine.fairqueue): weighted fair
across routes, turns across callers, oldest first within a caller, no credit saved while idle."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.fairqueue import FairQueue
from tests.support.batching import run_held


def drain(q: FairQueue) -> list:
    return [q.pop() for _ in range(len(q))]


def test_a_quiet_route_joins_next_not_behind_a_flood() -> None:
    q: FairQueue[str] = FairQueue()
    for i in range(10):
        q.push(f"a{i}", ("flood", "k"))
    q.push("b0", ("quiet", "k"))
    assert drain(q)[:3] == ["a0", "b0", "a1"]


def test_fifo_keeps_arrival_order() -> None:
    q: FairQueue[str] = FairQueue(fifo=True)
    for i in range(10):
        q.push(f"a{i}", ("flood", "k"))
    q.push("b0", ("quiet", "k"))
    assert drain(q)[-1] == "b0"


def test_weights_share_the_rows_in_proportion() -> None:
    q: FairQueue[str] = FairQueue()
    for i in range(300):
        q.push(f"a{i}", ("a", ""), weight=2.0)
        q.push(f"b{i}", ("b", ""), weight=1.0)
    first = Counter(x[0] for x in drain(q)[:150])
    assert first == {"a": 100, "b": 50}


def test_callers_of_one_route_take_turns() -> None:
    q: FairQueue[str] = FairQueue()
    for i in range(5):
        q.push(f"x{i}", ("r", "greedy-key"))
    q.push("y0", ("r", "other-key"))
    assert drain(q)[:3] == ["x0", "y0", "x1"]


def test_an_idle_route_saves_no_credit() -> None:
    q: FairQueue[str] = FairQueue()
    for i in range(50):  # route a is served alone for a while
        q.push(f"a{i}", ("a", ""))
        assert q.pop() == f"a{i}"
    for i in range(10):
        q.push(f"a{50 + i}", ("a", ""))
        q.push(f"b{i}", ("b", ""))
    order = [x[0] for x in drain(q)]
    assert order[:6] in (list("ababab"), list("bababa"))


def test_cancelled_requests_leave_and_counts_stay_right() -> None:
    q: FairQueue[str] = FairQueue()
    for i in range(4):
        q.push(f"a{i}", ("a", "k"))
    q.push("b0", ("b", "k"))
    q.remove_if(lambda x: x in ("a1", "b0"))
    assert len(q) == 3
    assert drain(q) == ["a0", "a2", "a3"]
    assert not q
    with pytest.raises(IndexError):
        q.pop()


def test_a_weight_must_be_positive() -> None:
    with pytest.raises(ValueError, match="weight"):
        FairQueue().push("x", ("a", ""), weight=0.0)


@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("xy")), max_size=60))
def test_every_request_joins_once_and_each_callers_in_order(arrivals) -> None:  # type: ignore[no-untyped-def]
    q: FairQueue[tuple[str, str, int]] = FairQueue()
    for i, (route, caller) in enumerate(arrivals):
        q.push((route, caller, i), (route, caller), weight=1.0 + (route == "a"))
    out = drain(q)
    assert sorted(out, key=lambda t: t[2]) == [(r, c, i) for i, (r, c) in enumerate(arrivals)]
    for tenant in {(r, c) for r, c in arrivals}:
        seq = [i for r, c, i in out if (r, c) == tenant]
        assert seq == sorted(seq)


@pytest.mark.parametrize("fifo", [False, True])
def test_the_scheduler_lets_a_quiet_route_join_before_a_flood(llama_pair, fifo) -> None:  # type: ignore[no-untyped-def]
    """One row, held by the flood's first request; five more flood requests, then one quiet
    one, wait. Fair joins finish the quiet request next; arrival order finishes it last."""
    _, finished = run_held(llama_pair, [("flood-0", ("flood", "k"), 3)],
                           [(f"flood-{i}", ("flood", "k"), 3) for i in range(1, 6)]
                           + [("quiet", ("quiet", "k"), 3)], max_batch=1, fifo=fifo)
    assert finished.index("quiet") == (6 if fifo else 1)
