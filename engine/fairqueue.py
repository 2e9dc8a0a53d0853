"""Weighted fair order of the requests waiting to join the shared batch (engine.batching).

A first-come-first-served queue lets one route's flood stand in front of every other route:
a request on a quiet route waits for every flooding request queued before it to get a row
(measured: 0.35 s -> 4.8 s mean on a quiet route while another route flooded inside its own
admission bound). Here the waiting requests are grouped by tenant, two levels deep: a route,
then the caller (API key principal) within it.

Routes are served by start-time fair queuing: each route carries a virtual tag, the route
with the smallest tag gives the next joiner and its tag grows by 1 / weight, so over any
backlogged spell routes get rows in proportion to their weights (default equal). A route
that was idle re-enters at the current virtual time, never with credit saved up while idle.
Within a route, callers take turns (round robin), each caller's requests oldest first.
`fifo=True` keeps the old order (the fairness benchmark's baseline).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")

DEFAULT_TENANT = ("", "")


@dataclass(slots=True)
class _Route(Generic[T]):
    weight: float
    tag: float = 0.0  # virtual start tag of this route's next joiner
    callers: dict[str, deque[T]] = field(default_factory=dict)
    turn: deque[str] = field(default_factory=deque)  # callers with waiting requests, in turn

    def __len__(self) -> int:
        return sum(len(q) for q in self.callers.values())


class FairQueue(Generic[T]):
    """Waiting items by (route, caller); `pop` gives the next one in weighted fair order."""

    def __init__(self, *, fifo: bool = False) -> None:
        self.fifo = fifo
        self._order: deque[T] = deque()  # fifo mode only
        self._routes: dict[str, _Route[T]] = {}
        self._now = 0.0  # virtual time: the tag of the last route served
        self._size = 0

    def __len__(self) -> int:
        return len(self._order) if self.fifo else self._size

    def __bool__(self) -> bool:
        return len(self) > 0

    def __iter__(self) -> Iterator[T]:
        if self.fifo:
            yield from self._order
            return
        for route in self._routes.values():
            for q in route.callers.values():
                yield from q

    def push(self, item: T, tenant: tuple[str, str] = DEFAULT_TENANT, weight: float = 1.0) -> None:
        if self.fifo:
            self._order.append(item)
            return
        if not weight > 0:
            raise ValueError(f"a route's weight must be > 0, got {weight}")
        name, caller = tenant
        route = self._routes.get(name)
        if route is None:
            route = self._routes[name] = _Route(weight, tag=self._now)
        elif not len(route):  # back from idle: no credit for the time it was away
            route.tag = max(route.tag, self._now)
        route.weight = weight  # the policy in force when it last asked
        q = route.callers.get(caller)
        if q is None:
            q = route.callers[caller] = deque()
        if not q:
            route.turn.append(caller)
        q.append(item)
        self._size += 1

    def routes_waiting(self) -> set[str]:
        """The routes with a waiting item (fair order only; fifo has no routes)."""
        return {name for name, r in self._routes.items() if r.turn}

    def pop(self, skip: Collection[str] = ()) -> T:
        """The next item in fair order; `skip`: routes passed over (a headroom row is for a
        route holding none: engine.batching)."""
        if self.fifo:
            return self._order.popleft()
        backlogged = [(r.tag, i, r) for i, (name, r) in enumerate(self._routes.items())
                      if r.turn and name not in skip]
        if not backlogged:
            raise IndexError("pop from an empty FairQueue")
        tag, _, route = min(backlogged, key=lambda x: (x[0], x[1]))
        self._now = tag
        route.tag = tag + 1.0 / route.weight
        caller = route.turn.popleft()
        q = route.callers[caller]
        item = q.popleft()
        if q:
            route.turn.append(caller)
        else:
            del route.callers[caller]
        self._size -= 1
        return item

    def remove_if(self, drop: Callable[[T], bool]) -> None:
        """Take out every waiting item `drop` says to (a cancelled request leaving the queue)."""
        if self.fifo:
            self._order = deque(x for x in self._order if not drop(x))
            return
        for route in self._routes.values():
            for caller in list(route.callers):
                q = deque(x for x in route.callers[caller] if not drop(x))
                self._size -= len(route.callers[caller]) - len(q)
                if q:
                    route.callers[caller] = q
                else:
                    del route.callers[caller]
                    route.turn.remove(caller)

    def drain(self) -> list[T]:
        """Every waiting item, the queue left empty (shutdown, a dead engine thread)."""
        items = list(self)
        self._order.clear()
        for route in self._routes.values():
            route.callers.clear()
            route.turn.clear()
        self._size = 0
        return items
