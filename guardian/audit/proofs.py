"""`guardian audit prove REQUEST_ID`: inclusion proofs of a request's records in a signed head.

The proof (format `guardian-audit-proof/v1`) holds, per record (the request row, and its
shadow row if any): chain, table, seq, canonical line, prev_hash and hash (so the verifier
re-hashes the content), the leaf index among the chain's present records, the tree size and
the RFC 9162 audit path; plus the signed head it is checked against. `guardian.audit.proofcheck`
checks it offline. Before printing, the database's tree is compared with the head: a database
that no longer matches its head gets an error, not a proof.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from guardian.audit.attest import load_prefixes
from guardian.audit.chain import canonical_line, link
from guardian.audit.heads import latest_head
from guardian.audit.merkle import Frontier, Tree, record_leaf
from guardian.audit.proofcheck import CONSISTENCY_FORMAT, PROOF_FORMAT
from guardian.audit.proofcheck import head_problem as head_problem  # re-exported (CLI)
from guardian.audit.queries import chain_hashes, find_records


class ProveError(RuntimeError):
    """No proof can be given (the message says why and what to do)."""


def tree_of(db: Engine, chain_id: str) -> tuple[Tree, list[tuple[int, str]], Frontier]:
    prefix, pruned_seq = load_prefixes(db).get(chain_id, (Frontier(), 0))
    present = [(s, h) for s, h in chain_hashes(db, chain_id) if s > pruned_seq]
    return Tree([record_leaf(h) for _, h in present], prefix), present, prefix


def prove_consistency(db: Engine, old: dict[str, Any], heads_dir: Path,
                      new: dict[str, Any] | None = None) -> dict[str, Any]:
    """RFC 9162 consistency proof that the chain's latest (or `new`) signed head extends the
    `old` head a party kept; built from the database, refused if it matches neither."""
    chain_id = old["chain_id"]
    new = new or latest_head(heads_dir, chain_id)
    if new is None:
        raise ProveError(f"no signed head for chain {chain_id} in {heads_dir}")
    if new["chain_id"] != chain_id:
        raise ProveError(f"the new head is for chain {new['chain_id']}, the old one for "
                         f"{chain_id}")
    tree, _present, prefix = tree_of(db, chain_id)
    size1, size2 = int(old["size"]), int(new["size"])
    if size1 > size2:
        raise ProveError(f"the old head (size {size1}) is newer than the new one ({size2})")
    if size1 < prefix.size:
        raise ProveError(f"the old head (size {size1}) predates the prune of chain {chain_id}")
    if size2 > tree.size or tree.root(size2).hex() != new["root"]:
        raise ProveError(f"chain {chain_id} no longer matches its signed head of {new['time']}"
                         "; run `guardian audit verify`")
    # Proving from an old head this log never had would hand out a proof that fails offline.
    if tree.root(size1).hex() != old["root"]:
        raise ProveError(f"the old head (size {size1}, {old['time']}) does not match chain "
                         f"{chain_id} in the database: its root differs (an edited head, or "
                         "history rewritten since); run `guardian audit verify`")
    return {"format": CONSISTENCY_FORMAT, "old": old, "new": new,
            "proof": [p.hex() for p in tree.consistency(size1, size2)]}


def prove_request(db: Engine, request_id: str, heads_dir: Path,
                  head: dict[str, Any] | None = None) -> dict[str, Any]:
    records = find_records(db, request_id)
    if not records:
        raise ProveError(f"no request with id {request_id!r} in the audit store")
    chain_id = records[-1][1]["chain_id"]
    records = [r for r in records if r[1]["chain_id"] == chain_id]
    head = head or latest_head(heads_dir, chain_id)
    if head is None:
        raise ProveError(f"no signed head for chain {chain_id} in {heads_dir}; heads are "
                         "published every GUARDIAN_AUDIT_HEADS_EVERY records / "
                         "GUARDIAN_AUDIT_HEADS_INTERVAL_S seconds")
    if head["chain_id"] != chain_id:
        raise ProveError(f"the head is for chain {head['chain_id']}, the request is in "
                         f"{chain_id}")
    tree, present, prefix = tree_of(db, chain_id)
    size = int(head["size"])
    if size > tree.size:
        raise ProveError(f"chain {chain_id} holds {tree.size} records, its signed head "
                         f"{size}: records were deleted; run `guardian audit verify`")
    if size <= prefix.size:
        raise ProveError(f"the head (size {size}) predates the prune of chain {chain_id}; "
                         "use a later head")
    if tree.root(size).hex() != head["root"]:
        raise ProveError(f"chain {chain_id} no longer matches its signed head of {head['time']}"
                         "; run `guardian audit verify`")
    index = {s: prefix.size + i for i, (s, _) in enumerate(present)}
    out = []
    for table, row in records:
        if link(row["prev_hash"], table, canonical_line(table, row)) != row["hash"]:
            raise ProveError(f"{table} chain {chain_id} seq {row['seq']} was edited (its content "
                             "does not match its hash); run `guardian audit verify`")
        i = index.get(row["seq"])
        if i is None:  # at or below the chain's prune anchor: not a leaf of the present tree
            raise ProveError(f"{table} chain {chain_id} seq {row['seq']} is not among the "
                             "chain's records after its prune anchor; run `guardian audit "
                             "verify`")
        if i >= size:
            raise ProveError(f"{table} seq {row['seq']} is newer than the signed head of chain "
                             f"{chain_id} (size {size}); retry after the next head")
        out.append({"chain_id": chain_id, "table": table, "seq": row["seq"],
                    "request_id": row["request_id"], "line": canonical_line(table, row),
                    "prev_hash": row["prev_hash"], "hash": row["hash"], "leaf_index": i,
                    "tree_size": size, "path": [p.hex() for p in tree.inclusion(i, size)]})
    return {"format": PROOF_FORMAT, "head": head, "records": out}
