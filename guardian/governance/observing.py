"""The audit sink that shows every event to the rollback controller.

Owns `ObservingSink`: wrapping the app's sink is how served and shadow results reach
`guardian.governance.rollback.RollbackController` without the serving path knowing about
governance.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from guardian.audit.events import AuditSink, GovernanceEvent, RequestEvent, ShadowEvent

if TYPE_CHECKING:
    from guardian.governance.rollback import RollbackController

# The controller's logger: its records keep the name they had before the split.
logger = logging.getLogger("guardian.governance.rollback")


class ObservingSink:
    """An AuditSink that forwards every event to `inner` and shows it to the controller.

    Wrapping the app's sink is how served and shadow results reach the rollback controller
    without the serving path knowing about governance; `observe` only appends, so the request
    path still never blocks.
    """

    def __init__(self, inner: AuditSink, controller: RollbackController) -> None:
        self.inner, self.controller = inner, controller

    def submit(self, event: RequestEvent | ShadowEvent | GovernanceEvent) -> None:
        self.inner.submit(event)
        try:
            self.controller.observe(event)
        except Exception:  # governance trouble must never fail a request
            logger.exception("rollback controller could not observe %s", type(event).__name__)

    def flush(self, timeout_s: float = 10.0) -> None:
        self.inner.flush(timeout_s)

    def close(self, timeout_s: float = 30.0) -> None:
        self.inner.close(timeout_s)

    def __getattr__(self, name: str) -> Any:
        # memory sinks expose `events` etc.; keep them reachable through the wrapper
        return getattr(self.inner, name)
