"""Running sums of per-request vectors over a route window: what the drift statistic reads at
every rollback-controller pass, kept up to date by folding in only the requests that entered
the window and taking out those that left it since the last read.

Re-summing the whole window instead (2,048 requests: a share vector each, stacked, summed)
made a controller pass cost ~12 ms of CPU in the serving process, holding the GIL, against
under 1 ms now (`python -m guardian.governance.bench` times both; issue 15, docs/benchmarks/governance.md).
A read costs O(bins) plus O(requests in and out since the last read).

`Sums` is the statistic's input on one side: count, outcomes, and per-bin sum and sum of
squares of the requests' share vectors; the mean and the between-request variance follow from
those (`Sums.moments`). `Sums.of(rows)` computes them directly; `RunningSums.read` keeps them for
"the window's requests from sequence number `cutoff` on" (the current side of the drift test:
the window after its frozen reference).

Floating-point sums that add and remove rows drift by rounding: each step errs by at most
~1e-16 of the sum (rows are shares in [0, 1], a window at most a few thousand), so after a
billion requests the error is ~1e-9 of a sum; the sums are zeroed exactly whenever the side
empties. The property test in tests/guardian/governance/test_runningsums.py compares the drift
statistic read from them with the whole-window computation after random traffic, eviction,
pruning, resets, policy changes and stale snapshots.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    import numpy as np


class Sequenced(Protocol):
    seq: int  # the order a window received its samples in (strictly increasing)


Row = tuple["np.ndarray", int]  # (a request's vector, its number of outcomes; 0: left out)
S = TypeVar("S", bound=Sequenced)


@dataclass(frozen=True, slots=True)
class Sums:
    count: int  # requests with at least one outcome
    outcomes: int  # their outcomes, summed
    total: np.ndarray  # per-bin sum of the requests' vectors
    squares: np.ndarray  # per-bin sum of their squares

    @classmethod
    def of(cls, rows: Iterable[Row], width: int, dtype: Any = None) -> Sums:
        """The sums over `rows` directly (requests with no outcome left out; `dtype` of the
        zeros when there are none: float64 by default)."""
        import numpy as np

        kept = [(row, n) for row, n in rows if n]
        if not kept:
            return cls(0, 0, np.zeros(width, dtype=dtype), np.zeros(width, dtype=dtype))
        stacked = np.stack([row for row, _ in kept])
        return cls(len(kept), sum(n for _, n in kept), stacked.sum(axis=0),
                   np.square(stacked).sum(axis=0))

    def moments(self) -> tuple[np.ndarray, np.ndarray]:
        """(mean vector, between-request variance per bin, ddof 1; needs count >= 2).
        The variance is clipped at zero: rounding can leave sum of squares a hair under
        sum² / n for a bin every request shares equally."""
        import numpy as np

        mean = self.total / self.count
        var = (self.squares - self.total * mean) / (self.count - 1)
        return mean, np.maximum(var, 0.0)


class RunningSums(Generic[S]):
    """`Sums` of `row_of(sample)` over the samples of a window from sequence number `cutoff`
    on, brought up to date at each `read` with what entered and left the window since.

    One instance serves a window and every snapshot of it (`RouteWindow.snapshot` shares its
    `running` dict): reads may come from several threads (under a lock) and a read of a
    snapshot older than the last one read is answered directly, without rewinding the sums.
    A different `cutoff` (a reset, or a policy with another reference size) starts over.

    `exact`: rows of Python integers summed as such (numpy object arrays), for counters that
    may not stay below 2**53, where float64 sums stop being exact: one request with a huge
    counter would otherwise leave a rounding error in the sums after it left the window.
    """

    def __init__(self, row_of: Callable[[S], Row], width: int, *, exact: bool = False) -> None:
        import numpy as np

        self._row_of, self._width = row_of, width
        self._dtype = object if exact else np.float64
        self._lock = threading.Lock()
        self._cutoff: int | None = None
        self._first = -1  # lowest sequence number of the last read
        self._last = -1  # highest sequence number taken into account
        self._rows: deque[tuple[int, np.ndarray, int]] = deque()  # (seq, row, n) in the sums
        self._count = self._outcomes = 0
        self._total = np.zeros(width, dtype=self._dtype)
        self._squares = np.zeros(width, dtype=self._dtype)

    def read(self, samples: Sequence[S], cutoff: int) -> Sums:
        """The sums over the `samples` (a window's series, oldest first) with seq >= cutoff.

        The new rows are computed before any state changes: a row function that raises
        leaves the sums as they were (the next read folds the same requests in)."""
        if not samples:
            return self._direct(())
        with self._lock:
            restart = cutoff != self._cutoff
            if not restart and (samples[0].seq < self._first or samples[-1].seq < self._last):
                # a snapshot older than the last one read: answered without rewinding
                return self._direct(s for s in samples if s.seq >= cutoff)
            last = cutoff - 1 if restart else self._last
            fresh = []
            for s in reversed(samples):
                if s.seq <= last:
                    break
                fresh.append(s)
            rows = [(s.seq, *self._row_of(s)) for s in reversed(fresh) if s.seq >= cutoff]
            if restart:
                self._clear()
                self._cutoff = cutoff
            self._first, self._last = samples[0].seq, max(last, samples[-1].seq)
            while self._rows and self._rows[0][0] < self._first:
                _, row, n = self._rows.popleft()
                self._take(row, n, -1)
            if not self._rows:
                self._clear()  # exact zeros: no rounding carried over
            for seq, row, n in rows:
                if n:
                    self._rows.append((seq, row, n))
                    self._take(row, n, 1)
            return Sums(self._count, self._outcomes, self._total.copy(), self._squares.copy())

    def _direct(self, samples: Iterable[S]) -> Sums:
        return Sums.of((self._row_of(s) for s in samples), self._width, self._dtype)

    def _take(self, row: np.ndarray, n: int, sign: int) -> None:
        self._count += sign
        self._outcomes += sign * n
        if sign > 0:
            self._total += row
            self._squares += row * row
        else:
            self._total -= row
            self._squares -= row * row

    def _clear(self) -> None:
        self._rows.clear()
        self._count = self._outcomes = 0
        self._total[:] = 0
        self._squares[:] = 0
