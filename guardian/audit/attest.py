"""Checking the database against published signed tree heads (`guardian audit verify`).

`verify_db(..., heads=read_heads(dir, trust))` walks the hash chains and hands every record's
recomputed hash to a `LeafLog`; `check_against_heads` then, per chain:

* rebuilds the Merkle tree (`merkle.Frontier`: the pruned prefix's compact range from
  `audit_merkle_prefix`, then the present records in seq order) and compares its root at the
  size of *every* signed head of the chain. A match at each head means consecutive heads are
  consistent (each is a prefix of the database's tree); the first head that differs bounds
  the first bad record: after the last matching head, at or before that head's `last_seq`;
* a chain holding fewer leaves than a head covers lost records (tail truncated, or a range
  deleted and covered by a forged `audit_gap`: declared losses inside a signed range are named);
* records after a `final` head are forged appends; after a non-final head older than
  `grace_s` they are *unattested* (a writer that crashed before its next head, or a forgery:
  both are reported as errors, a human decides); after a fresh head they are pending;
* a chain in the database with no signed head is unattested (forged from genesis, or written
  with heads switched off); a chain with heads but gone from the database was deleted;
* every prune anchor must match a Merkle prefix row and an `audit_prune` governance record
  (itself in an attested chain) - else the anchor was forged to hide deleted records;
* heads with bad signatures or untrusted keys are errors; two trusted heads of one chain
  with equal size and different roots are equivocation.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine

from guardian.audit.merkle import Frontier, record_leaf
from guardian.audit.models import CHAINED_TABLES, AuditGovernance, AuditMerklePrefix


class LeafLog:
    """Per chain: seqs and leaf hashes of the records, in the order the walk met them."""

    def __init__(self) -> None:
        self.seqs: dict[str, array[int]] = {}
        self.leaves: dict[str, list[bytes]] = {}

    def add(self, chain_id: str, seq: int, record_hash: str) -> None:
        if chain_id not in self.seqs:
            self.seqs[chain_id], self.leaves[chain_id] = array("q"), []
        self.seqs[chain_id].append(seq)
        self.leaves[chain_id].append(record_leaf(record_hash))


def load_prefixes(db: Engine) -> dict[str, tuple[Frontier, int]]:
    """Per chain: (compact range of its pruned leaves, last pruned seq) of the latest prune."""
    t = AuditMerklePrefix.__table__
    out: dict[str, tuple[Frontier, int]] = {}
    with db.connect() as conn:
        for cid, leaves, seq, peaks in conn.execute(
                sa.select(t.c.chain_id, t.c.leaves, t.c.seq, t.c.peaks).order_by(t.c.leaves)):
            out[cid] = (Frontier.from_json(int(leaves), list(peaks)), int(seq))
    return out


def aborted_prunes(conn: sa.Connection) -> set[tuple[str, str]]:
    """(chain id, event id) of the `audit_prune` records that an `audit_prune_aborted` record
    of the same chain says deleted nothing (`guardian audit prune` stopped before deleting):
    their anchors vouch for no deletion, whatever a later one did."""
    t = AuditGovernance.__table__
    out: set[tuple[str, str]] = set()
    for cid, details in conn.execute(sa.select(t.c.chain_id, t.c.details)
                                     .where(t.c.kind == "audit_prune_aborted")):
        named = details.get("prune_event_id") if isinstance(details, dict) else None
        if isinstance(named, str):
            out.add((str(cid), named))
    return out


def prune_records(conn: sa.Connection) -> Iterator[tuple[str, int, Any]]:
    """(chain id, seq, details) of every `audit_prune` record that was not aborted."""
    t = AuditGovernance.__table__
    aborted = aborted_prunes(conn)
    for cid, seq, event_id, details in conn.execute(
            sa.select(t.c.chain_id, t.c.seq, t.c.event_id, t.c.details)
            .where(t.c.kind == "audit_prune")):
        if (str(cid), str(event_id)) not in aborted:
            yield str(cid), int(seq), details


def load_prune_records(db: Engine) -> dict[str, set[tuple[int, str]]]:
    """(seq, hash) anchors declared by `audit_prune` governance records (not aborted ones),
    per pruned chain."""
    out: dict[str, set[tuple[int, str]]] = {}
    with db.connect() as conn:
        for _, _, details in prune_records(conn):
            # Not what a writer records (an edit, which the walk names): no anchor from it.
            anchors = details.get("anchors") if isinstance(details, dict) else None
            for cid, anchor in (anchors.items() if isinstance(anchors, dict) else ()):
                if isinstance(anchor, list) and len(anchor) == 2:
                    try:
                        out.setdefault(str(cid), set()).add((int(anchor[0]), str(anchor[1])))
                    except (TypeError, ValueError):
                        continue
    return out


def describe_seq(db: Engine, chain_id: str, seq: int) -> str:
    with db.connect() as conn:
        for table in CHAINED_TABLES.values():
            col = table.c.request_id if "request_id" in table.c else table.c.event_id
            row = conn.execute(sa.select(col).where(table.c.chain_id == chain_id,
                                                    table.c.seq == seq)).first()
            if row is not None:
                return f"{table.name} chain {chain_id} seq {seq} [{row[0]}]"
    return f"chain {chain_id} seq {seq} (not in the database)"


RECOVERED = "recovered-by:"  # a head's replica_id when a restart signed it (audit.recovery)


def recovered_by(replica: str, crashed_at: datetime) -> str:
    return f"{RECOVERED}{replica}@{crashed_at.isoformat(timespec='seconds')}"


def parse_recovered(replica_field: str) -> tuple[str, str] | None:
    """(replica, crash time) of a head signed at a restart, else None."""
    m = re.fullmatch(re.escape(RECOVERED) + r"(.*)@([^@]+)", replica_field)
    return (m.group(1), m.group(2)) if m else None


def _age_s(head: dict[str, Any], now: datetime) -> float:
    ts = datetime.fromisoformat(head["time"])
    return (now - (ts if ts.tzinfo else ts.replace(tzinfo=UTC))).total_seconds()


def check_against_heads(rep: Any, db: Engine, log: LeafLog,
                        heads: tuple[dict[str, list[dict[str, Any]]], list[str]],
                        anchors: dict[str, tuple[int, str]], *, grace_s: float = 60.0,
                        now: datetime | None = None) -> None:
    """Add errors/notes to `rep` (a `verify.VerifyReport`); see the module docstring."""
    per_chain, problems = heads
    now = now or datetime.now(UTC)
    errors: list[str] = list(problems)
    prefixes = load_prefixes(db)
    pruned_by = load_prune_records(db)
    for cid in sorted(set(per_chain) | set(log.seqs)):
        hs = per_chain.get(cid, [])
        seqs, leaves = log.seqs.get(cid, array("q")), log.leaves.get(cid, [])
        prefix, prefix_seq = prefixes.get(cid, (Frontier(), 0))
        anchor = anchors.get(cid)
        if not hs:
            first = seqs[0] if seqs else "?"
            errors.append(f"unattested chain: chain {cid} ({len(leaves)} records from seq "
                          f"{first}) has no signed head from a trusted replica key (forged "
                          "chain, or written with signed heads switched off)")
            continue
        if anchor is not None and anchor[0] != prefix_seq:
            errors.append(f"forged anchor: chain {cid} anchor at seq {anchor[0]} has no Merkle "
                          f"prefix recorded by `guardian audit prune` (records before it were "
                          "deleted)")
        elif anchor is not None and anchor not in pruned_by.get(cid, set()):
            errors.append(f"forged anchor: chain {cid} anchor at seq {anchor[0]} is not named "
                          "by any audit_prune governance record")
        _check_chain(errors, db, rep, cid, hs, seqs, leaves, prefix, now, grace_s)
    rep.errors[len(rep.errors):] = errors[: max(0, 40 - len(rep.errors))]


def _check_chain(errors: list[str], db: Engine, rep: Any, cid: str, hs: list[dict[str, Any]],
                 seqs: array[int], leaves: list[bytes], prefix: Frontier, now: datetime,
                 grace_s: float) -> None:
    p = prefix.size
    total = p + len(leaves)
    f = prefix.copy()
    roots: dict[int, str] = {}
    last_ok: dict[str, Any] | None = None
    for h in hs:
        size = int(h["size"])
        if size in roots and roots[size] != h["root"]:
            errors.append(f"equivocation: chain {cid} has two signed heads of size {size} "
                          "with different roots (a replica key is compromised or misused)")
            return
        roots[size] = h["root"]
        if size < p:
            continue  # pruned past this head: nothing left to compare
        if size > total:
            ok_seq = int(last_ok["last_seq"]) if last_ok else 0
            losses = _losses_in(rep, cid, ok_seq + 1, int(h["last_seq"]))
            tail = seqs[-1] if seqs else 0
            errors.append(f"deleted: chain {cid} holds {total} records, its signed head of "
                          f"{h['time']} covers {size} up to seq {h['last_seq']}: records "
                          f"after seq {ok_seq} (the last matching head) were deleted"
                          + (f"; {losses}" if losses else
                             f" (the chain now ends at seq {tail})"))
            return
        f.extend(leaves[f.size - p:size - p])
        if f.root().hex() != h["root"]:
            lo = int(last_ok["last_seq"]) + 1 if last_ok else (seqs[0] if seqs else 1)
            first_leaf = (int(last_ok["size"]) if last_ok else p) - p
            start = seqs[first_leaf] if first_leaf < len(seqs) else lo
            losses = _losses_in(rep, cid, lo - 1, int(h["last_seq"]))
            errors.append(f"rewritten: chain {cid} differs from its signed head of {h['time']} "
                          f"(size {size}, up to seq {h['last_seq']}): the first bad record is "
                          f"at or after {describe_seq(db, cid, start)} and at or before seq "
                          f"{h['last_seq']}" + (f"; {losses}" if losses else ""))
            return
        last_ok = h
    latest = hs[-1]
    recovered = parse_recovered(str(latest.get("replica_id", "")))
    if recovered is not None and len(hs) > 1:
        before = hs[-2]
        n = int(latest["size"]) - int(before["size"])
        if n > 0:
            rep.recovered.append(
                f"chain {cid}: {n} records after its head of {before['time']} (up to seq "
                f"{latest['last_seq']}) recovered after a crash at {recovered[1]}: signed at "
                f"the restart by {recovered[0]} ({latest['time']}), not by the writer that "
                "wrote them")
    rep.attested.append(f"chain {cid}: {int(latest['size'])} records match its signed head "
                        f"of {latest['time']} (key {latest['key_id']})")
    extra = total - int(latest["size"])
    if extra <= 0:
        return
    first = describe_seq(db, cid, seqs[int(latest["size"]) - p])
    what = f"{extra} records from {first} come after the"
    if latest.get("final"):
        errors.append(f"appended: {what} final signed head of the chain ({latest['time']}): "
                      "nothing may follow it (forged records)")
    elif _age_s(latest, now) > grace_s:
        errors.append(f"unattested: {what} latest signed head ({latest['time']}, "
                      f"{_age_s(latest, now):.0f}s old): appended by someone without the key, "
                      "or written by a writer that died before its next head")
    else:
        # Not "the next head will cover them": a killed writer signs no next head (its
        # restart does, `guardian.audit.recovery`), and verify cannot tell which it is.
        rep.pending.append(f"chain {cid}: {what} latest signed head ({latest['time']}, "
                           f"{_age_s(latest, now):.0f}s old): not attested yet - a running "
                           "writer signs them with its next head, a killed one's restart "
                           "does")


def _losses_in(rep: Any, cid: str, lo: int, hi: int) -> str:
    """Declared losses of `cid` overlapping seq lo..hi (a forged gap record hides deletions)."""
    hits = [d for d in rep.declared_losses if d.startswith(f"chain {cid} seq ")]
    hits = [d for d in hits
            if _overlap(d.split(" ")[3], lo, hi)]
    if not hits:
        return ""
    return ("records declared lost inside the signed range - the audit_gap record that "
            "declares them is forged: " + "; ".join(hits))


def _overlap(rng: str, lo: int, hi: int) -> bool:
    try:
        a, b = (int(x) for x in rng.split("-"))
    except ValueError:
        return False
    return a <= hi and b >= lo
