"""Failed dashboard logins, counted per client address and per attempted key, process-wide.

The login form's delay used to count failures in `st.session_state`: a new browser session
(a reload without the cookie, a script) started again at no delay. `LoginBackoff` keeps the
counts in the dashboard process instead, under two names per failure: the client's address
(guessing many keys from one place) and the attempted key's digest (one key tried from many
places). The delay follows the larger count. A count is forgotten `forget_after_s` after its
last failure; at most `max_entries` names are kept (the oldest go first), so a flood of
addresses cannot grow memory without bound. A successful login clears the key's count, not
the address's: a valid key does not buy its holder fresh guesses at other keys.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

FORGET_AFTER_S = 900.0
MAX_ENTRIES = 10_000


class LoginBackoff:
    def __init__(self, *, forget_after_s: float = FORGET_AFTER_S, max_entries: int = MAX_ENTRIES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.forget_after_s, self.max_entries, self.clock = forget_after_s, max_entries, clock
        self._counts: OrderedDict[str, tuple[int, float]] = OrderedDict()  # name -> (n, last)
        self._lock = threading.Lock()

    @staticmethod
    def _names(address: str | None, key: str) -> tuple[str, str]:
        digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        return f"addr:{address or 'unknown'}", f"key:{digest}"

    def _count(self, name: str, now: float) -> int:
        n, last = self._counts.get(name, (0, now))
        return 0 if now - last > self.forget_after_s else n

    def failed(self, address: str | None, key: str) -> int:
        """Record a failed login; the failure count the delay is taken from (1 for a first)."""
        now = self.clock()
        with self._lock:
            counts = []
            for name in self._names(address, key):
                n = self._count(name, now) + 1
                self._counts[name] = (n, now)
                self._counts.move_to_end(name)
                counts.append(n)
            while len(self._counts) > self.max_entries:
                self._counts.popitem(last=False)
            return max(counts)

    def succeeded(self, key: str) -> None:
        with self._lock:
            self._counts.pop(self._names(None, key)[1], None)

    def clear(self) -> None:
        with self._lock:
            self._counts.clear()


BACKOFF = LoginBackoff()  # one per dashboard process: every session's failures count
