"""Recording a governance act in the audit trail before the act is reported done.

A rollback, re-enable, promotion, canary step, gate result, pair registration or policy load
changes what the replicas serve at once (the route state commits first: turning speculation
off never waits for the audit). Its audit record then used the asynchronous path, like a
served request's: a process killed in the next few milliseconds lost the record of who did
it, while the act stood. `record_act` makes the record durable (the writer's write-ahead log,
fsync'd, group-committed with other durable events; `AuditWriter.submit_durable`) before the
caller answers; a sink without durable submits (memory sinks in tests) gets a plain submit.
A record that cannot be made durable in `timeout_s` (a stalled disk, a full queue) is logged as
an error and left to the writer (a full queue declares it in the chain's gap record): the act
itself is never undone or refused for it.
"""

from __future__ import annotations

import logging
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from guardian.audit.events import AuditSink, GovernanceEvent

logger = logging.getLogger(__name__)

ACT_RECORD_TIMEOUT_S = 5.0


def record_act(sink: AuditSink, event: GovernanceEvent, *,
               timeout_s: float = ACT_RECORD_TIMEOUT_S) -> bool:
    """Submit `event` and wait until it is durable; True when it is (or the sink has no
    durable path), False when it could not be made durable in time (logged)."""
    durable: Any = getattr(sink, "submit_durable", None)
    if durable is None:
        sink.submit(event)
        return True
    try:
        durable(event).result(timeout=timeout_s)
        return True
    except FutureTimeout:
        logger.error("audit record of %s on route %s by %s not durable after %.0f s; it stays "
                     "queued (the act itself stands)", event.kind, event.route, event.actor,
                     timeout_s)
    except Exception as exc:  # AuditUnavailable: queue or spool full, disk error
        logger.error("audit record of %s on route %s by %s could not be made durable: %s (the "
                     "act itself stands)", event.kind, event.route, event.actor, exc)
    return False
