"""Canonical form, sealing and the chain walk, without a database."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from guardian.audit.chain import (
    CANON_COLUMNS,
    GENESIS,
    TOKEN_FLOATS,
    canonical_line,
    esc,
    fmt,
    fmt_token_float,
    json_safe,
    link,
)
from guardian.audit.rows import TOKEN_COLUMNS, SealedBatch, Sealer, copy_lines
from guardian.audit.testing import governance_event, request_event, shadow_event
from guardian.audit.verify import walk


def _records(batch: SealedBatch) -> list[tuple[str, dict]]:
    recs = [("audit_requests", r) for r in batch.requests]
    recs += [("audit_shadow", r) for r in batch.shadow]
    recs += [("audit_governance", r) for r in batch.governance]
    recs += [("audit_tokens", dict(zip(TOKEN_COLUMNS, t, strict=True))) for t in batch.token_rows]
    return sorted(recs, key=lambda r: r[1]["seq"])


def _sealed(n_requests: int = 3, tokens: int = 5) -> SealedBatch:
    sealer = Sealer("replica/abc", salt=b"k", copy_lines=False)
    events = []
    for i in range(n_requests):
        ev = request_event(tokens, request_id=f"r{i}", seed=i)
        events += [ev, shadow_event(ev.request_id, n_tokens=2)]
    return sealer.seal([*events, governance_event()])


@pytest.mark.parametrize("mode", ["full", "hashed", "redacted", "none"])
def test_hot_path_token_lines_equal_the_generic_canonical_form(mode: str) -> None:
    # Request id with tab/newline/backslash: escaping must keep lines parseable and distinct.
    ev = request_event(20, redaction=mode, request_id="we\tird\nid\\x")
    lines = list(copy_lines(Sealer("c/1", salt=b"k", copy_lines=True).seal([ev]).token_lines))
    rows = Sealer("c/1", salt=b"k", copy_lines=False).seal([ev]).token_rows
    assert len(lines) == len(rows) == 20
    for line, row in zip(lines, rows, strict=True):
        d = dict(zip(TOKEN_COLUMNS, row, strict=True))
        # Reference: the generic field-by-field canonical form.
        generic = "\t".join(fmt_token_float(d[c]) if c in TOKEN_FLOATS and d[c] is not None
                            else fmt(d[c]) for c in CANON_COLUMNS["audit_tokens"])
        assert canonical_line("audit_tokens", d) == generic
        assert line == f"{generic}\t{d['prev_hash']}\t{d['hash']}\n"
        assert line.count("\t") == len(TOKEN_COLUMNS) - 1
        assert link(d["prev_hash"], "audit_tokens", canonical_line("audit_tokens", d)) == d["hash"]


def test_escaping_is_injective() -> None:
    assert esc("a\tb") != esc("a\\tb")
    assert esc("a\\") + "\t" + esc("b") != esc("a") + "\t" + esc("\\b")


def test_seq_numbers_are_consecutive_across_tables_and_batches() -> None:
    sealer = Sealer("c/1", salt=b"k", copy_lines=False)
    b1 = sealer.seal([request_event(4)])
    b2 = sealer.seal([governance_event(), request_event(2)])
    assert (b1.first_seq, b1.last_seq, b2.first_seq, b2.last_seq) == (1, 5, 6, 9)
    assert b2.governance[0]["prev_hash"] == b1.token_rows[-1][-1]
    assert b1.requests[0]["prev_hash"] == GENESIS


def test_intact_chain_verifies() -> None:
    rep = walk(_records(_sealed()))
    assert rep.ok, rep.errors
    assert rep.records == 3 * (1 + 5 + 1 + 2) + 1


def test_edit_is_detected_and_named() -> None:
    recs = _records(_sealed())
    tok = next(r for t, r in recs if t == "audit_tokens" and r["request_id"] == "r1"
               and r["position"] == 3)
    tok["origin"] = "target"  # claim the target produced a drafted token
    rep = walk(recs)
    assert not rep.ok
    assert rep.first_error.startswith("edited: audit_tokens")
    assert f"seq {tok['seq']}" in rep.first_error and "r1 position 3" in rep.first_error


def test_deletion_is_detected() -> None:
    recs = _records(_sealed())
    gone = recs.pop(7)[1]
    rep = walk(recs)
    assert rep.first_error.startswith("deleted:") and f"seq {gone['seq']}-{gone['seq']}" in rep.first_error


def test_insertion_and_reordering_are_detected() -> None:
    recs = _records(_sealed())
    forged = dict(recs[4][1])
    rep = walk([*recs[:5], (recs[4][0], forged), *recs[5:]])
    assert rep.first_error.startswith("inserted or reordered:")
    recs = _records(_sealed())
    recs[3], recs[4] = recs[4], recs[3]
    assert not walk(recs).ok


def test_declared_gap_is_reported_as_loss_not_tampering() -> None:
    recs = _records(_sealed())
    del recs[2:4]
    rep = walk(recs, declared={"replica/abc": [(3, 4)]})
    assert rep.ok and rep.declared_losses


def test_spool_serialisation_round_trips_exactly() -> None:
    batch = _sealed()
    again = SealedBatch.from_json(batch.to_json())
    assert walk(_records(again)).ok
    assert again.token_rows == batch.token_rows


def test_json_safe_normalises_what_jsonb_would_change() -> None:
    assert json_safe({"a": float("nan"), "b": -0.0, "c": (1, 2), 3: "x"}) == {
        "a": None, "b": 0.0, "c": [1, 2], "3": "x"}


def test_naive_timestamps_are_rejected() -> None:
    ev = dataclasses.replace(request_event(1), created_at=datetime(2026, 1, 1))
    with pytest.raises(ValueError, match="timezone-aware"):
        Sealer("c", salt=b"k", copy_lines=True).seal([ev])
    assert datetime(2026, 1, 1, tzinfo=UTC)  # the fix the message asks for


def test_split_keeps_every_record_once_and_in_chain_order() -> None:
    batch = _sealed(n_requests=3, tokens=4)
    parts = batch.split()
    assert len(parts) == 3 * 2 + 1  # requests, shadows, one governance event
    merged = sorted((r for p in parts for r in _records(p)), key=lambda r: r[1]["seq"])
    assert [r[1]["seq"] for r in merged] == list(range(batch.first_seq, batch.last_seq + 1))
    assert walk(merged).ok
    assert [p.first_seq for p in parts][1:] == [p.last_seq + 1 for p in parts][:-1]
