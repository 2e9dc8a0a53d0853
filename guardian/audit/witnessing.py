"""Getting checkpoints cosigned: the log's side of c2sp.org/tlog-witness, and the quorum.

`witness_chain` submits a chain's latest checkpoint to every witness of a tlog-policy that
has a URL: `old <size it last cosigned>`, the RFC 6962 consistency proof from there (built
from the database's tree, `guardian.audit.proofs.tree_of`), a blank line, the checkpoint.
A 409 names the witness's size: the submission is retried once from that size when the
database's tree still has it (a witness that knows a size larger than the chain's, or a
root the chain never had, is reported - evidence of a fork, never papered over). Each
cosignature that comes back is checked against the witness's key before it is kept
(`checkpoints.add_cosignatures`); what each witness last cosigned is kept in
`<chain dir>/witnessed.json`.

`witnessed_size` is what `guardian audit verify --policy` reports: the largest checkpoint of a
chain whose kept cosignatures meet the policy's quorum. What needs the database (the whole
tree of a chain) is in `guardian.audit.witness_db`.
"""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from guardian.audit.checkpoints import (
    StoredCheckpoint,
    add_cosignatures,
    cosignatures,
    read_checkpoints,
)
from guardian.audit.merkle import Tree
from guardian.audit.notes import NoteError, Signature, b64, cosignature_time, split_note
from guardian.audit.policy import Policy, Witness
from guardian.core.fileio import write_atomic

log = logging.getLogger(__name__)

STATE_FILE = "witnessed.json"
TIMEOUT_S = 10.0


@dataclass(frozen=True)
class Outcome:
    witness: str
    ok: bool
    detail: str


def _post(url: str, body: bytes) -> tuple[int, str]:
    req = urllib.request.Request(url.rstrip("/") + "/add-checkpoint", data=body, method="POST",
                                 headers={"Content-Type": "text/plain; charset=utf-8"})
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT_S) as resp:
            return resp.status, resp.read(1 << 16).decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(1 << 16).decode("utf-8", "replace")


def _valid_cosignatures(text: str, body: str, w: Witness) -> list[str]:
    out = []
    for line in body.splitlines():
        try:
            _, (sig,) = split_note(text + "\n" + line + "\n")
        except (NoteError, ValueError):
            continue
        if cosignature_time(text, sig, w.key) is not None:
            out.append(Signature(sig.name, sig.key_id, sig.sig).line)
    return out


def witness_checkpoint(chain_dir: Path, latest: StoredCheckpoint, tree: Tree,
                       policy: Policy) -> list[Outcome]:
    """Submit `latest` to each witness with a URL, proving consistency from the witness's
    size with `tree` (the chain's tree: from the database, or the head publisher's leaves
    since its last witnessed size over that size's compact range)."""
    text = latest.note[:latest.note.index("\n\n") + 1]
    prefix = tree.prefix
    if latest.size > tree.size or tree.root(latest.size).hex() != latest.root:
        return [Outcome(w.name, False, "the database no longer matches the checkpoint; run "
                        "`guardian audit verify`") for w in policy.witnesses.values()]
    state_path = chain_dir / STATE_FILE
    state: dict[str, int] = json.loads(state_path.read_text()) if state_path.exists() else {}
    out = []
    for w in policy.witnesses.values():
        if not w.url:
            continue
        old = state.get(w.name, 0)
        for _attempt in range(2):
            if old > latest.size or (old and old < prefix.size):
                out.append(Outcome(w.name, False, f"the witness cosigned size {old}; this chain "
                                   f"holds {latest.size}, provable from {prefix.size} on"))
                break
            proof = tree.consistency(old, latest.size) if 0 < old < latest.size else []
            body = (f"old {old}\n" + "".join(f"{b64(h)}\n" for h in proof) + "\n"
                    + latest.note).encode()
            try:
                status, answer = _post(w.url, body)
            except OSError as exc:
                out.append(Outcome(w.name, False, f"unreachable: {exc}"))
                break
            if status == 409 and answer.strip().isdigit() and int(answer) != old:
                old = int(answer)  # the witness knows another size: prove from there
                continue
            if status != 200:
                out.append(Outcome(w.name, False, f"HTTP {status}: {answer.strip()[:200]}"))
                log.warning("witness %s refused checkpoint %d of %s: HTTP %d %s", w.name,
                            latest.size, chain_dir.name, status, answer.strip()[:200])
                break
            lines = _valid_cosignatures(text, answer, w)
            if not lines:
                out.append(Outcome(w.name, False, "no valid cosignature in the answer"))
                break
            add_cosignatures(chain_dir, latest.size, latest.root, lines)
            state[w.name] = latest.size
            write_atomic(state_path, json.dumps(state, indent=1) + "\n", mode=0o644)
            out.append(Outcome(w.name, True, f"cosigned size {latest.size}"))
            break
        else:
            out.append(Outcome(w.name, False, f"the witness's size moved twice (last: {old})"))
    return out


def witnessed_sizes(chain_dir: Path) -> dict[str, int]:
    """The size each witness last cosigned for the chain (`STATE_FILE`)."""
    path = chain_dir / STATE_FILE
    return json.loads(path.read_text()) if path.exists() else {}


def cosigners(chain_dir: Path, size: int, root: str, text: str, policy: Policy) -> set[str]:
    """Names of the policy's witnesses whose kept cosignature of (size, root) verifies."""
    names = set()
    for line in cosignatures(chain_dir, size, root):
        try:
            _, (sig,) = split_note(text + "\n" + line)
        except (NoteError, ValueError):
            continue
        for w in policy.witnesses.values():
            if cosignature_time(text, sig, w.key) is not None:
                names.add(w.name)
    return names


def witnessed_size(chain_dir: Path, policy: Policy) -> int | None:
    """The largest checkpoint size of the chain that the policy's quorum cosigned (None:
    no checkpoint is witnessed)."""
    best = None
    for cp in read_checkpoints(chain_dir):
        text = cp.note[:cp.note.index("\n\n") + 1]
        if policy.satisfied(cosigners(chain_dir, cp.size, cp.root, text, policy)) and (
                best is None or cp.size > best):
            best = cp.size
    return best
