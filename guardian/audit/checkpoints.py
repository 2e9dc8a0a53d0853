"""Each signed tree head also published as a C2SP checkpoint (c2sp.org/tlog-checkpoint).

Every audit chain is one Merkle tree, so one log in C2SP terms: its origin is
`<log name>/<chain id>` (`origin_for`; characters a note must not hold are %-escaped), and
its checkpoints are signed with the replica's Ed25519 audit key under the key name
`<log name>` (`GUARDIAN_AUDIT_LOG_NAME`, default `DEFAULT_LOG_NAME`). The key name is the
same for every chain a key signs (an origin changes with every writer incarnation; the key
does not), so a verifier pins one `vkey` per replica key (`guardian audit keys vkey`) and
accepts the origins under its name - what `guardian witness serve` does too.

Layout, beside the JSON heads (`guardian.audit.heads`): `<heads dir>/<chain>/checkpoints.jsonl`
(one `{"size", "root", "note"}` per checkpoint, appended and fsync'd) and
`<heads dir>/<chain>/checkpoint` (the latest note). A log must never sign two checkpoints
that a consistency proof cannot join: `publish_checkpoint` refuses a size below the last
checkpoint's, an equal size with another root, and - where the caller can compute roots of
the tree it holds (`root_at`, e.g. `guardian audit adopt`) - a tree whose root at the last
checkpoint's size differs. The head publisher's frontier only grows, so its checkpoints are
consistent by construction; the check stops a restarted or confused signer.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from guardian.audit.notes import Checkpoint, NoteError, sign_line, valid_name, verifier
from guardian.audit.signing import Signer
from guardian.core.fileio import append_whole, write_atomic

log = logging.getLogger(__name__)

DEFAULT_LOG_NAME = "spec-guardian.local/audit"
LOG_NAME_ENV = "GUARDIAN_AUDIT_LOG_NAME"
CHECKPOINTS_FILE = "checkpoints.jsonl"
LATEST_FILE = "checkpoint"
COSIGNATURES_FILE = "cosignatures.jsonl"


class CheckpointError(RuntimeError):
    """A checkpoint that must not be signed (inconsistent), or none to be found."""


def log_name(value: str | None = None) -> str:
    """The key name checkpoints are signed under (argument, else the environment)."""
    from guardian.audit.config import TransparencySettings

    name = value or TransparencySettings().log_name or DEFAULT_LOG_NAME
    if not valid_name(name):
        raise CheckpointError(f"{LOG_NAME_ENV}={name!r}: a log name must be non-empty, "
                              "without spaces or '+' (e.g. example.com/audit)")
    return name


def origin_for(name: str, chain_id: str) -> str:
    """`<name>/<chain id>`, with what an origin should not hold (spaces, '+', '%', control
    characters, non-ASCII) %-escaped: injective, so two chains never share an origin."""
    return f"{name}/{quote(chain_id, safe='/-._~:@!$&()*,;=')}"


def vkey_of(signer: Signer, name: str) -> str:
    return verifier(name, signer.public_raw).vkey


def checkpoint_note(signer: Signer, name: str, chain_id: str, size: int, root: bytes) -> str:
    text = Checkpoint(origin_for(name, chain_id), size, root).text
    return text + "\n" + sign_line(text, name, signer.private_key)


@dataclass(frozen=True)
class StoredCheckpoint:
    size: int
    root: str  # hex, as in the JSON heads
    note: str


def read_checkpoints(chain_dir: Path) -> list[StoredCheckpoint]:
    """The checkpoints published for one chain, in publication order (unreadable lines are
    skipped with a warning: what they claimed cannot be relied on anyway)."""
    path = chain_dir / CHECKPOINTS_FILE
    out: list[StoredCheckpoint] = []
    if not path.exists():
        return out
    with open(path, encoding="utf-8") as fh:
        for i, line in enumerate(fh, 1):
            try:
                doc = json.loads(line)
                out.append(StoredCheckpoint(int(doc["size"]), str(doc["root"]),
                                            str(doc["note"])))
            except (ValueError, KeyError, TypeError):
                log.warning("unreadable checkpoint line %s:%d skipped", path, i)
    return out


def checkpoint_for(chain_dir: Path, size: int, root: str) -> str:
    """The published note of the checkpoint at `size` with `root` (hex)."""
    for cp in reversed(read_checkpoints(chain_dir)):
        if cp.size == size and cp.root == root:
            return cp.note
    raise CheckpointError(f"no checkpoint of size {size} published in {chain_dir}")


def publish_checkpoint(chain_dir: Path, signer: Signer, name: str, head: dict[str, Any], *,
                       root_at: Callable[[int], bytes] | None = None) -> str | None:
    """Sign and store the checkpoint of a signed head; None when it is the same as the last
    one. Raises `CheckpointError` for a head inconsistent with the last checkpoint."""
    size, root = int(head["size"]), str(head["root"])
    previous = read_checkpoints(chain_dir)
    if previous:
        last = previous[-1]
        if size == last.size and root == last.root:
            return None
        if size < last.size or (size == last.size and root != last.root) or (
                root_at is not None and _root_hex(root_at, last.size) not in (None, last.root)):
            raise CheckpointError(
                f"not signing a checkpoint of {head['chain_id']} at size {size}: it is not "
                f"consistent with the checkpoint of size {last.size} already published")
    note = checkpoint_note(signer, name, head["chain_id"], size, bytes.fromhex(root))
    line = json.dumps({"size": size, "root": root, "note": note}, separators=(",", ":")) + "\n"
    chain_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(chain_dir / CHECKPOINTS_FILE, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        append_whole(fd, line.encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    write_atomic(chain_dir / LATEST_FILE, note, mode=0o644)
    return note


def _root_hex(root_at: Callable[[int], bytes], size: int) -> str | None:
    try:
        return root_at(size).hex()
    except ValueError:  # that size lies inside a pruned prefix: nothing left to compare
        return None


def safe_publish(chain_dir: Path, signer: Signer, name: str, head: dict[str, Any]) -> None:
    """`publish_checkpoint` for the head publisher's thread: a failure is logged loudly and
    never ends the thread (the JSON head is already out)."""
    try:
        publish_checkpoint(chain_dir, signer, name, head)
    except (CheckpointError, OSError, NoteError) as exc:
        log.error("checkpoint of %s (size %s) not published: %s", head.get("chain_id"),
                  head.get("size"), exc)


# -- witness cosignatures ------------------------------------------------------------------------
def add_cosignatures(chain_dir: Path, size: int, root: str, lines: list[str]) -> None:
    """Keep witness cosignature lines of the checkpoint at (size, root hex); the caller has
    verified them (`guardian.audit.witnessing`)."""
    doc = {"size": size, "root": root, "lines": lines}
    fd = os.open(chain_dir / COSIGNATURES_FILE, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        append_whole(fd, (json.dumps(doc, separators=(",", ":")) + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)


def cosignatures(chain_dir: Path, size: int, root: str) -> list[str]:
    """The cosignature lines kept for the checkpoint at (size, root hex), each once."""
    path = chain_dir / COSIGNATURES_FILE
    out: list[str] = []
    if not path.exists():
        return out
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            try:
                doc = json.loads(line)
            except ValueError:
                continue
            if isinstance(doc, dict) and doc.get("size") == size and doc.get("root") == root:
                out += [x for x in doc.get("lines", []) if isinstance(x, str) and x not in out]
    return out


def cosigned_checkpoint(chain_dir: Path, size: int, root: str) -> str:
    """The checkpoint note at (size, root hex) with the witnesses' cosignatures appended."""
    note = checkpoint_for(chain_dir, size, root)
    return note + "".join(x if x.endswith("\n") else x + "\n"
                          for x in cosignatures(chain_dir, size, root))
