"""`MemorySink`: an in-memory `AuditSink` for tests of producers (sidecar, shadow, gates)."""

from __future__ import annotations

import threading

from guardian.audit.events import GovernanceEvent, RequestEvent, ShadowEvent


class MemorySink:
    """Keeps every submitted event in order; `closed` tells whether `close()` was called."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.events: list[RequestEvent | ShadowEvent | GovernanceEvent] = []
        self.closed = False

    def submit(self, event: RequestEvent | ShadowEvent | GovernanceEvent) -> None:
        if self.closed:
            raise RuntimeError("MemorySink is closed")
        with self._lock:
            self.events.append(event)

    def flush(self, timeout_s: float = 10.0) -> None:
        return None

    def close(self, timeout_s: float = 30.0) -> None:
        self.closed = True

    @property
    def requests(self) -> list[RequestEvent]:
        return [e for e in self.events if isinstance(e, RequestEvent)]

    @property
    def shadows(self) -> list[ShadowEvent]:
        return [e for e in self.events if isinstance(e, ShadowEvent)]

    @property
    def governance(self) -> list[GovernanceEvent]:
        return [e for e in self.events if isinstance(e, GovernanceEvent)]
