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

A process killed between the state change and the record left an act that stood with nothing
naming it. `act_intent` closes that: the act's event id goes to the writer's intent log
before the state changes (`AuditWriter.expect_act`), so the next start declares it lost
(`audit_gap`, `crash_recovery`) unless its record is in the database; an act that did not
take effect (refused, a version conflict) is noted as such and declares nothing.

Each record says how the act came in (`details.origin`, from `ACT_ORIGIN`): over the API, the
key's id and role and the client address (as uvicorn reports it: behind a trusted proxy,
loopback by default, the `X-Forwarded-For` address); from the CLI, the operating-system account (its
uid, not $LOGNAME), the host and the key's id. An actor name alone did not tell a genuine
on-call rollback from one made with a keys file of one's own that reuses the name.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from guardian.audit.events import AuditSink, GovernanceEvent

logger = logging.getLogger(__name__)

ACT_RECORD_TIMEOUT_S = 5.0

# How the acts in this context came in (set by the API's key check and the CLI's); copied to
# worker threads with the context (asyncio.to_thread).
ACT_ORIGIN: ContextVar[dict[str, Any] | None] = ContextVar("act_origin", default=None)


def record_act(sink: AuditSink, event: GovernanceEvent, *,
               timeout_s: float = ACT_RECORD_TIMEOUT_S) -> bool:
    """Submit `event` and wait until it is durable; True when it is (or the sink has no
    durable path), False when it could not be made durable in time (logged)."""
    origin = ACT_ORIGIN.get()
    if origin is not None and "origin" not in event.details:
        event.details = {**event.details, "origin": origin}
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


class ActIntent:
    """An act under way: the id its record will carry; `took_effect()` once the state
    changed (an act that leaves without it is noted as not done)."""

    __slots__ = ("effective", "event_id")

    def __init__(self) -> None:
        self.event_id = f"gov-{uuid.uuid4().hex}"
        self.effective = False

    def took_effect(self) -> None:
        self.effective = True


@contextmanager
def act_intent(sink: AuditSink) -> Iterator[ActIntent]:
    """Around an act that changes state and then `record_act`s under `intent.event_id`."""
    intent = ActIntent()
    expect: Any = getattr(sink, "expect_act", None)
    if expect is None:  # no intent log (memory sinks)
        yield intent
        return
    expect(intent.event_id)
    try:
        yield intent
    finally:
        sink.settle_act(intent.event_id, took_effect=intent.effective)  # type: ignore[attr-defined]
