"""Adopting unattested chains: sign a `final` head over chains nobody attests yet, after a
human has reviewed them (`guardian audit adopt`).

Kept apart from `guardian.audit.attest` (the checks) because adopting first runs the whole
verification (`guardian.audit.verify`, which uses those checks) and builds trees with
`guardian.audit.proofs`.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from guardian.audit.checkpoints import log_name, publish_checkpoint
from guardian.audit.heads import chain_dirname, make_head, read_heads
from guardian.audit.proofs import tree_of
from guardian.audit.signing import Signer
from guardian.audit.verify import verify_db


def adopt_chains(db: Engine, heads_dir: Path, trust: dict[str, Any], signer: Signer,
                 replica: str, chains: list[str] | None = None) -> tuple[list[str], list[str]]:
    """Sign a `final` head over chains nobody attests yet: chains written before signed heads
    existed (an upgraded database), or the unattested tail of a writer that died before its
    next head, once a human has reviewed it. Only chains whose sole problem is being
    unattested are adopted: the hash chain must verify and every existing head must still
    match. Returns (adopted, refused with the reason)."""
    wanted, refused = adoptable(db, heads_dir, trust, chains)
    return sign_final_heads(db, heads_dir, wanted, signer, replica), refused


def adoptable(db: Engine, heads_dir: Path, trust: dict[str, Any],
              chains: list[str] | None = None) -> tuple[list[str], list[str]]:
    """(chains that may be adopted, refused with the reason), after verifying the database
    against the heads: `chains`, or by default every chain reported as unattested."""
    rep = verify_db(db, heads=read_heads(heads_dir, trust), grace_s=0)
    wanted, refused = [], []
    for cid in chains or sorted({m.group(1) for e in rep.errors if e.startswith("unattested")
                                 and (m := re.search(r"chain (\S+)", e))}):
        mine = [e for e in rep.errors if f"chain {cid} " in e or f"chain {cid}:" in e]
        bad = [e for e in mine if not e.startswith("unattested")]
        if bad or not mine:
            refused.append(f"{cid}: " + (bad[0] if bad else "nothing to adopt (attested)"))
        else:
            wanted.append(cid)
    return wanted, refused


def sign_final_heads(db: Engine, heads_dir: Path, chains: list[str], signer: Signer,
                     replica: str = "", *, replica_field: str | None = None) -> list[str]:
    """Sign and append a `final` head over each chain's records as the database holds them
    now; one line per chain. The head's signed `replica_id` says who signed it and why:
    `adopted-by:<replica>`, or `replica_field` (`guardian.audit.recovery`)."""
    adopted = []
    for cid in chains:
        tree, present, prefix = tree_of(db, cid)
        f = prefix.copy()
        f.extend(tree.leaves)
        head = make_head(signer, cid, replica_field or f"adopted-by:{replica}", f,
                         present[-1][0] if present else 0, final=True)
        d = heads_dir / chain_dirname(cid)
        d.mkdir(parents=True, exist_ok=True)
        # First: refused (CheckpointError) when the tree no longer extends the last checkpoint.
        publish_checkpoint(d, signer, log_name(), head, root_at=tree.root)
        with open(d / "heads.jsonl", "a", encoding="utf-8") as fh:
            fh.write(json.dumps(head, separators=(",", ":")) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        adopted.append(f"{cid}: {f.size} records, final head signed by {signer.key_id}")
    return adopted
