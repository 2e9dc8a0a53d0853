"""A batch the database rejects is declared lost in the pending `audit_gap` record together
with the tickets of its events (guardian.audit.writer.ledger.Ledger.declare): whenever the
sealer takes the gap record, it takes them too. Declared first and ticketed after, a gap
taken in between left the tickets behind an empty record, never done, and `close` waited
for them to its timeout (seen once in the fast tier: a 60 s pytest timeout)."""

from __future__ import annotations

import dataclasses
import time

from guardian.audit.testing import request_event

TOKENS = 8


def test_a_gap_taken_at_the_declaration_carries_its_events(sqlite_url: str, make_writer,
                                                             tmp_path) -> None:  # type: ignore[no-untyped-def]
    from guardian.audit import upgrade

    upgrade(sqlite_url)
    w = make_writer(sqlite_url, spool_dir=tmp_path / "spool", batch_events=50,
                    flush_interval_s=0.05)
    ledger = w._ledger
    taken: list[tuple[object, list[int]]] = []
    declare = ledger.declare

    def declare_then_seal_at_once(*args, **kw):  # type: ignore[no-untyped-def]
        # The sealer's own loop taking the pending gap right after the DB thread declared
        # the loss: the earliest moment it can. Its record is taken as durable here.
        declare(*args, **kw)
        gap, tickets = ledger.gap_event()
        taken.append((gap, tickets))
        ledger.mark_done(tickets)

    ledger.declare = declare_then_seal_at_once  # type: ignore[method-assign]
    bad = request_event(TOKENS, request_id="poison")
    bad.trace[2] = dataclasses.replace(bad.trace[2], target_prob=float("nan"))  # NULL: refused
    for i in range(6):
        w.submit(bad if i == 3 else request_event(TOKENS, request_id=f"g{i}"))
    t0 = time.monotonic()
    assert w.wait_durable(10.0), "the rejected batch's events were never done"
    assert time.monotonic() - t0 < 10.0
    assert taken and all(gap is not None and tickets for gap, tickets in taken), taken
    assert any("poison" in gap.details["request_ids"] for gap, _ in taken)  # type: ignore[attr-defined]
    w.close(timeout_s=10)
