"""Per-request receipts in the c2sp.org/tlog-proof@v1 format, and their offline check.

A receipt proves that a request's `audit_requests` record is in its chain's log:

    c2sp.org/tlog-proof@v1
    extra <base64 of the record's hash preimage>
    index <leaf index>
    <RFC 6962 inclusion proof, base64, one hash a line, leaf's sibling first>

    <the chain's checkpoint, verbatim, with any witness cosignatures>

The `extra` data is what the record's chain hash is the SHA-256 of
(`prev_hash || "\\n" || table || "\\t" || canonical line`, `guardian.audit.chain.link`), so the
leaf is SHA-256(0x00 || SHA-256(extra)) and a verifier learns the record's content - the
request id is a field of the line - not merely an opaque hash. The extra data is not
authenticated by itself; the inclusion proof is what binds it to the signed checkpoint.

`build_receipt` starts from `guardian.audit.proofs.prove_request` (which refuses a database
that no longer matches its head) and the checkpoint published for that head
(`guardian.audit.checkpoints`); `check_receipt` is the verifier (stdlib + cryptography).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from guardian.audit.notes import (
    NoteError,
    Verifier,
    b64,
    open_note,
    parse_checkpoint,
    split_note,
    unb64,
)
from guardian.audit.proofcheck import leaf_hash, verify_inclusion

HEADER = "c2sp.org/tlog-proof@v1"
MAX_PROOF_LINES = 63


@dataclass(frozen=True)
class Receipt:
    extra: bytes | None
    index: int
    proof: list[bytes]
    checkpoint: str  # the signed note, verbatim

    @property
    def text(self) -> str:
        head = [HEADER] + ([f"extra {b64(self.extra)}"] if self.extra is not None else [])
        lines = [*head, f"index {self.index}", *(b64(h) for h in self.proof)]
        return "\n".join(lines) + "\n\n" + self.checkpoint


def record_preimage(prev_hash: str, table: str, line: str) -> bytes:
    return f"{prev_hash}\n{table}\t{line}".encode("utf-8", "surrogatepass")


def build_receipt(proof: dict[str, Any], checkpoint: str) -> Receipt:
    """The receipt of the request record of a `prove_request` proof, against `checkpoint`
    (the note published for `proof["head"]`; cosignatures appended if any)."""
    rec = next((r for r in proof["records"] if r["table"] == "audit_requests"), None)
    if rec is None:
        raise NoteError("the proof holds no audit_requests record")
    return Receipt(record_preimage(rec["prev_hash"], rec["table"], rec["line"]),
                   int(rec["leaf_index"]), [bytes.fromhex(h) for h in rec["path"]], checkpoint)


def parse_receipt(text: str) -> Receipt:
    lines = text.split("\n")
    if not lines or lines[0] != HEADER:
        raise NoteError(f"not a tlog-proof: the first line is not {HEADER!r}")
    i, extra = 1, None
    if i < len(lines) and lines[i].startswith("extra "):
        extra, i = unb64(lines[i][6:], "extra data"), i + 1
    m = re.fullmatch(r"index (0|[1-9][0-9]{0,18})", lines[i] if i < len(lines) else "")
    if not m:
        raise NoteError("no 'index N' line (decimal, no leading zeros)")
    index, i = int(m.group(1)), i + 1
    proof = []
    while i < len(lines) and lines[i]:
        if len(proof) >= MAX_PROOF_LINES:
            raise NoteError(f"more than {MAX_PROOF_LINES} inclusion proof lines")
        h = unb64(lines[i], "inclusion proof hash")
        if len(h) != 32:
            raise NoteError("an inclusion proof hash is not 32 bytes")
        proof.append(h)
        i += 1
    if i >= len(lines):
        raise NoteError("no blank line before the checkpoint")
    return Receipt(extra, index, proof, "\n".join(lines[i + 1:]))


@dataclass(frozen=True)
class ReceiptResult:
    origin: str
    size: int
    index: int
    record_hash: str  # hex: SHA-256 of the extra data, the record's chain hash
    record: bytes  # the extra data: prev_hash, table and canonical line
    signed_by: list[str]
    cosigned_by: list[str]


def check_receipt(text: str, logs: list[Verifier], *, origin_prefix: str | None = None,
                  witnesses: list[Verifier] | None = None) -> ReceiptResult:
    """Verify a receipt: the checkpoint signed by one of `logs` (origin under
    `origin_prefix` when given), the record (extra data) included at `index`. Raises
    `NoteError` saying what failed. Witness cosignatures that verify are named."""
    from guardian.audit.notes import cosignature_time

    r = parse_receipt(text)
    if r.extra is None:
        raise NoteError("the receipt has no extra data: the record cannot be recomputed")
    body, signed = open_note(r.checkpoint, logs)
    cp = parse_checkpoint(body)
    if origin_prefix is not None and not cp.origin.startswith(origin_prefix + "/"):
        raise NoteError(f"checkpoint origin {cp.origin!r} is not a log under {origin_prefix!r}")
    if r.index >= cp.size:
        raise NoteError(f"index {r.index} is outside the checkpoint's tree (size {cp.size})")
    record_hash = hashlib.sha256(r.extra).digest()
    if not verify_inclusion(leaf_hash(record_hash), r.index, cp.size, r.proof, cp.root):
        raise NoteError(f"the inclusion proof of index {r.index} does not lead to the "
                        "checkpoint's root")
    _, sigs = split_note(r.checkpoint)
    cosigned = sorted({v.name for v in witnesses or [] for s in sigs
                       if cosignature_time(body, s, v) is not None})
    return ReceiptResult(cp.origin, cp.size, r.index, record_hash.hex(), r.extra,
                         [v.name for v in signed], cosigned)


def write_receipt(path: Path, receipt: Receipt) -> None:
    from guardian.core.fileio import private_opener

    # a receipt's extra data holds the record's line (prompt text at `full` redaction): 0600
    with open(path, "w", encoding="utf-8", opener=private_opener) as fh:
        fh.write(receipt.text)
