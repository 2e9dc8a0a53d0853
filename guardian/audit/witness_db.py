"""Witnessing from the database: `guardian witness submit` and `guardian audit verify
--policy`, which read a chain's whole tree back (`guardian.audit.proofs.tree_of`).

Kept apart from `guardian.audit.witnessing` (the protocol and the quorum), which the head
publisher uses on the sidecar's own threads without the database.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine

from guardian.audit.checkpoints import read_checkpoints
from guardian.audit.notes import NoteError
from guardian.audit.policy import Policy
from guardian.audit.proofs import tree_of
from guardian.audit.witnessing import (
    Outcome,
    cosigners,
    witness_checkpoint,
    witnessed_size,
)


def witness_chain(db: Engine, chain_dir: Path, chain_id: str, policy: Policy) -> list[Outcome]:
    """Submit the chain's latest checkpoint to each witness with a URL (module docstring)."""
    cps = read_checkpoints(chain_dir)
    if not cps:
        return [Outcome(w.name, False, "no checkpoint published") for w in policy.witnesses.values()]
    tree, _, _prefix = tree_of(db, chain_id)
    return witness_checkpoint(chain_dir, cps[-1], tree, policy)


def check_witnessed(db: Engine, heads_dir: Path, chains: list[str], policy: Policy
                    ) -> tuple[list[str], list[str]]:
    """(one report line per chain, errors) for `guardian audit verify --policy`: each
    chain's witnessed size, its checkpoint signed by a log key of the policy (when it lists
    logs) and matched by the database's tree - a witnessed root the database no longer has
    is tampering the witnesses can prove."""
    from guardian.audit.heads import chain_dirname
    from guardian.audit.notes import open_note

    lines: list[str] = []
    errors: list[str] = []
    for cid in chains:
        d = heads_dir / chain_dirname(cid)
        size = witnessed_size(d, policy)
        cps = read_checkpoints(d)
        latest = cps[-1].size if cps else 0
        if size is None:
            lines.append(f"chain {cid}: not witnessed (no checkpoint cosigned by quorum "
                         f"{policy.quorum}; latest checkpoint size {latest})")
            continue
        cp = next(c for c in reversed(cps) if c.size == size and policy.satisfied(
            cosigners(d, c.size, c.root, c.note[:c.note.index("\n\n") + 1], policy)))
        if policy.log_keys:
            try:
                open_note(cp.note, policy.log_keys)
            except NoteError as exc:
                errors.append(f"witnessed checkpoint of chain {cid} (size {size}) is not signed "
                              f"by a log of the policy: {exc}")
                continue
        tree, _, prefix = tree_of(db, cid)
        if size >= prefix.size and (size > tree.size or tree.root(size).hex() != cp.root):
            errors.append(f"chain {cid} does not match its witnessed checkpoint of size "
                          f"{size}: records covered by the witnesses were changed or deleted")
            continue
        lines.append(f"chain {cid}: witnessed up to size {size} of {latest} (quorum "
                     f"{policy.quorum})")
    return lines, errors
