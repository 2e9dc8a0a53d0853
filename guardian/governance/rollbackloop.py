"""The rollback controller's background evaluation loop.

A background loop (`start`) evaluates every route's triggers each `evaluation_interval_s`,
and as soon as new evidence arrives (`observe` wakes it), so a fired trigger takes effect
within a fraction of a second (~0.1 s); its share of a core is bounded (`MAX_BUSY_SHARE`:
after a pass the loop rests 49 times the CPU time the pass took, and at least `MIN_REST_S`
or `evaluation_interval_s` if that is shorter), so at a high request rate it evaluates every
so many requests rather than after each one.

Owns `EvaluationLoop`, the part of `RollbackController` (`guardian.governance.rollback`,
which mixes it in and supplies `evaluate_all`, `_policy`, `_triggers` and the wake/stop events)
that runs the passes, and the two constants bounding it.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Self

from guardian.core.limits import MAX_WAIT_S

# The controller's logger: its records keep the name they had before the split.
logger = logging.getLogger("guardian.governance.rollback")

# The background loop's share of one core (and of the GIL, which serving needs too): after an
# evaluation pass that used d CPU-seconds, the next one waits at least d * (1/share - 1). With
# evidence arriving on every request, evaluating at once each time cost a proxying sidecar a
# quarter of its CPU (profiled: `guardian bench proxy`, 1 client).
MAX_BUSY_SHARE = 0.02
# ... and at least this long: a pass costs well under a millisecond with the drift statistics'
# running sums, and passes as often as the share allows (~40 a second at one client) each take
# the GIL from the event loop (`guardian bench proxy --baseline`: p50 +0.34 ms against the
# whole-window passes, which ran ~3 a second). A fired trigger still acts within ~0.1 s. (A
# policy's `evaluation_interval_s` below this caps the rest, as it caps the busy share's.)
MIN_REST_S = 0.1


class EvaluationLoop:
    """The background loop of `RollbackController` (which mixes this in)."""

    # --- background loop ----------------------------------------------------------------------
    def start(self) -> Self:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="rollback-controller", daemon=True)
            self._thread.start()
        return self

    def _loop(self) -> None:
        rest = 0.0
        while not self._stop.is_set():
            try:
                interval = min((self._triggers(r).evaluation_interval_s
                                for r in self._policy().routes), default=5.0)
            except Exception:  # never end the controller: rollbacks would stop, silently
                logger.exception("cannot read the evaluation interval; evaluating every 5 s")
                interval = 5.0
            # A wait past threading.TIMEOUT_MAX raises OverflowError in this thread (the
            # policy bounds the interval; this keeps the thread alive whatever it says).
            interval = min(interval, MAX_WAIT_S)
            if rest > 0.0 and self._stop.wait(min(rest, interval)):
                break
            self._wake.wait(max(0.0, interval - rest))
            self._wake.clear()
            if not self._stop.is_set():
                cpu0 = time.thread_time()
                self.evaluate_all()
                rest = max(MIN_REST_S,
                           (time.thread_time() - cpu0) * (1.0 / MAX_BUSY_SHARE - 1.0))

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

