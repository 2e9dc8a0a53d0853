"""Attesting a killed writer's tail at the next start: "recovered after a crash at T".

A writer killed (SIGKILL, power loss) between two signed heads leaves records in the database
that no head covers; `guardian audit verify` then reported them as unattested - tampering, as
far as it could tell - until someone ran `guardian audit adopt`. The next writer of the same
replica (same spool directory, same signing key) now attests them itself, right after it has
replayed the dead writer's spool and WAL and declared what it lost (`AuditWriter`'s orphan
recovery): it signs a `final` head over the dead chain as the database holds it, whose signed
`replica_id` reads `recovered-by:<replica>@<crash time>`, plus its C2SP checkpoint.

Only a chain that is otherwise sound is attested this way: its hash chain verifies, every
head it already has matches, all of them were signed by this replica's own key, and its only
finding is the unattested tail (the same rule as `adopt`). The crash time is the last
modification of the dead writer's files (it wrote them until it died). `verify` reports such
a chain as `recovered: ...`, naming the records signed at the restart rather than by the
writer that wrote them: what someone with database access appended between the crash and the
restart would be in that range - the window is in the line for an auditor to judge.
"""

from __future__ import annotations

import base64
import logging
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from guardian.audit.attest import recovered_by
from guardian.audit.proofcheck import TRUST_FORMAT
from guardian.audit.signing import Signer

log = logging.getLogger(__name__)

def crash_time(files: list[Path]) -> datetime:
    stamps = [p.stat().st_mtime for p in files if p.exists()]
    return datetime.fromtimestamp(max(stamps), UTC) if stamps else datetime.now(UTC)


def own_trust(signer: Signer) -> dict[str, Any]:
    """A trust document pinning only `signer`'s key: the dead chain must be this replica's."""
    return {"format": TRUST_FORMAT, "keys": [{
        "key_id": signer.key_id, "public_key": base64.b64encode(signer.public_raw).decode(),
        "not_before": None, "not_after": None}]}


def attest_crashed_chain(db: Engine, heads_dir: Path, chain_id: str, signer: Signer,
                         replica: str, crashed_at: datetime) -> str | None:
    """Sign the final head of a dead writer's chain (module docstring); a line saying what
    was attested, or None when nothing needed it or the chain is not eligible (logged)."""
    from guardian.audit.adopt import sign_final_heads
    from guardian.audit.checkpoints import CheckpointError
    from guardian.audit.heads import read_heads
    from guardian.audit.verify import verify_db

    per_chain, _ = read_heads(heads_dir, own_trust(signer))
    heads = per_chain.get(chain_id, [])
    if not heads:
        log.warning("audit: dead writer chain %s has no head signed by this replica's key "
                    "%s: not attested at restart (review it, then `guardian audit adopt`)",
                    chain_id, signer.key_id)
        return None
    if heads[-1].get("final"):
        return None
    rep = verify_db(db, chain_ids=[chain_id], heads=({chain_id: heads}, []), grace_s=0)
    mine = [e for e in rep.errors if chain_id in e]
    if not mine:
        return None  # the last head covers every record: nothing was left behind
    if any(not e.startswith("unattested") for e in mine):
        log.error("audit: dead writer chain %s is not attested at restart: %s", chain_id,
                  mine[0])
        return None
    try:
        (line,) = sign_final_heads(db, heads_dir, [chain_id], signer,
                                   replica_field=recovered_by(replica, crashed_at))
    except CheckpointError as exc:
        log.error("audit: dead writer chain %s is not attested at restart: %s", chain_id, exc)
        return None
    log.warning("audit: recovered after a crash at %s: %s", crashed_at.isoformat(), line)
    return line
