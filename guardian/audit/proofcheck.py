"""Offline verifier of audit inclusion proofs and signed tree heads - no database needed.

    python -m guardian.audit.proofcheck proof.json --head head.json --trust trust.json
    python -m guardian.audit.proofcheck consistency.json --head old-head.json --trust trust.json

Imports nothing but the standard library and `cryptography`, so this one file can be copied to
an auditor's machine and run there. It owns the *checking* side of the audit trail's
transparency-log scheme (the producing side is `guardian.audit.merkle` / `heads` / `signing`):

* RFC 6962 hashing: leaf = SHA-256(0x00 || data), node = SHA-256(0x01 || left || right).
  A leaf's data is the 32-byte chain hash of one audit record, which itself is
  SHA-256(prev_hash || "\\n" || table || "\\t" || canonical line) (`guardian.audit.chain`):
  the proof carries table, canonical line and prev_hash, so the record's content is what is
  proven, not just an opaque hash. The proof's own `chain_id`, `seq` and `request_id` fields
  must be those of the proven line (else a proof of one record could be passed off as another
  request's), and each OK line names the proven record's id.
* Inclusion proofs and consistency proofs are checked with the RFC 9162 section 2.1.3.2 /
  2.1.4.2 algorithms.
* A signed tree head (JSON) is signed with Ed25519 over its text body (`head_body`); the key is
  looked up by `key_id` in the trust file, and the head's time must fall inside that key's
  validity (`not_before` .. `not_after`; a retired key keeps verifying what it signed before
  its retirement).

Exit status: 0 = proof valid, 1 = invalid (the reason on one line), 2 = unreadable input.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sys
from datetime import UTC, datetime
from typing import Any

HEAD_FORMAT = "guardian-audit-head/v1"
TRUST_FORMAT = "guardian-audit-trust/v1"
PROOF_FORMAT = "guardian-audit-proof/v1"
CONSISTENCY_FORMAT = "guardian-audit-consistency/v1"


class ProofError(ValueError):
    """The proof, head or signature does not check out (message says why)."""


# -- RFC 6962 hashing ------------------------------------------------------------------------
def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def record_hash(prev_hash: str, table: str, line: str) -> str:
    """The chain hash of one record (same rule as `guardian.audit.chain.link`)."""
    return hashlib.sha256(f"{prev_hash}\n{table}\t{line}".encode("utf-8", "surrogatepass")
                          ).hexdigest()


def verify_inclusion(leaf: bytes, index: int, size: int, path: list[bytes], root: bytes) -> bool:
    """RFC 9162 2.1.3.2: does `path` prove leaf hash `leaf` at `index` in a tree of `size`?"""
    if index < 0 or index >= size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(size1: int, size2: int, root1: bytes, root2: bytes,
                       proof: list[bytes]) -> bool:
    """RFC 9162 2.1.4.2: does `proof` show the tree of `size2` extends the one of `size1`?"""
    if size1 > size2 or size1 < 0:
        return False
    if size1 == size2:
        return not proof and root1 == root2
    if size1 == 0:
        return not proof  # the empty tree is a prefix of every tree
    if not proof:
        return False
    path = list(proof)
    if size1 & (size1 - 1) == 0:  # a power of two: its root is the first node
        path.insert(0, root1)
    fn, sn = size1 - 1, size2 - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == root1 and sr == root2 and sn == 0


# -- signed heads and the trust file ---------------------------------------------------------
def head_body(head: dict[str, Any]) -> bytes:
    """The exact bytes a head's signature covers (a small signed-note style text)."""
    fields = [HEAD_FORMAT, head["chain_id"], head["replica_id"], str(int(head["size"])),
              head["root"], str(int(head["last_seq"])), head["time"],
              "final" if head.get("final") else "open", head["key_id"]]
    if any("\n" in str(f) for f in fields):
        raise ProofError("a head field contains a newline")
    return ("\n".join(fields) + "\n").encode()


def key_id_of(public_raw: bytes) -> str:
    return hashlib.sha256(public_raw).hexdigest()[:16]


def _ts(value: str) -> datetime:
    ts = datetime.fromisoformat(value)
    return ts.replace(tzinfo=UTC) if ts.tzinfo is None else ts


def trusted_key(trust: dict[str, Any], key_id: str, at: str) -> bytes:
    """The raw Ed25519 public key `key_id` from the trust file, if valid at time `at`."""
    if trust.get("format") != TRUST_FORMAT:
        raise ProofError(f"not a trust file (format {trust.get('format')!r}, want {TRUST_FORMAT})")
    for k in trust.get("keys", []):
        if k.get("key_id") != key_id:
            continue
        raw = base64.b64decode(k["public_key"])
        if key_id_of(raw) != key_id:
            raise ProofError(f"trust file entry {key_id} does not match its public key")
        when = _ts(at)
        if k.get("not_before") and when < _ts(k["not_before"]):
            raise ProofError(f"key {key_id} was not valid yet at {at}")
        if k.get("not_after") and when > _ts(k["not_after"]):
            raise ProofError(f"key {key_id} was retired at {k['not_after']}, before {at}")
        return raw
    raise ProofError(f"key {key_id} is not in the trust file (not a pinned replica key)")


def check_head(head: dict[str, Any], trust: dict[str, Any]) -> None:
    """Raise ProofError unless `head` is signed by a key the trust file pins for its time."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if head.get("format") != HEAD_FORMAT:
        raise ProofError(f"not a signed tree head (format {head.get('format')!r})")
    raw = trusted_key(trust, head["key_id"], head["time"])
    try:
        Ed25519PublicKey.from_public_bytes(raw).verify(base64.b64decode(head["signature"]),
                                                       head_body(head))
    except (InvalidSignature, ValueError):
        raise ProofError(f"bad signature on the head of chain {head['chain_id']} size "
                         f"{head['size']} (key {head['key_id']})") from None


# Where a record's chain_id, seq and id (request_id / event_id) sit in its canonical line (the
# frozen `CANON_COLUMNS` of `guardian.audit.chain`).
LINE_FIELDS: dict[str, tuple[int, int, int]] = {
    "audit_requests": (0, 1, 2), "audit_shadow": (0, 1, 2), "audit_governance": (0, 1, 2),
    "audit_tokens": (0, 4, 1)}
_ESC = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _claims_match_line(p: dict[str, Any]) -> str:
    """The proven line's record id; ProofError when the proof's own chain_id, seq or
    request_id/event_id fields (what a reader takes the proof to be about) say otherwise."""
    where = LINE_FIELDS.get(p["table"])
    if where is None:
        raise ProofError(f"unknown table {p['table']!r}")
    fields = p["line"].split("\t")
    if len(fields) <= max(where):
        raise ProofError(f"record {p['table']} seq {p['seq']}: not a canonical line")
    chain, seq, rid = (fields[i] for i in where)
    claims = {"chain_id": (chain, str(p["chain_id"]).translate(_ESC)),
              "seq": (seq, str(p["seq"]) if type(p["seq"]) is int else repr(p["seq"]))}
    for key in ("request_id", "event_id"):
        if key in p:
            claims[key] = (rid, str(p[key]).translate(_ESC))
    for name, (proven, claimed) in claims.items():
        if proven != claimed:
            raise ProofError(f"record {p['table']} seq {p['seq']}: the proof says {name} "
                             f"{claimed!r}, its proven content says {proven!r}")
    return rid


def check_proof(proof: dict[str, Any], head: dict[str, Any], trust: dict[str, Any]) -> list[str]:
    """Check every record proof in `proof` against the signed `head`; returns one line per
    proven record. Raises ProofError on the first failure."""
    if proof.get("format") != PROOF_FORMAT:
        raise ProofError(f"not an audit proof (format {proof.get('format')!r})")
    check_head(head, trust)
    root = bytes.fromhex(head["root"])
    out = []
    for p in proof.get("records", []):
        if p["chain_id"] != head["chain_id"]:
            raise ProofError(f"record is in chain {p['chain_id']}, the head is for "
                             f"{head['chain_id']}")
        if int(p["tree_size"]) != int(head["size"]):
            raise ProofError(f"proof is for tree size {p['tree_size']}, the head has "
                             f"{head['size']}")
        h = record_hash(p["prev_hash"], p["table"], p["line"])
        if h != p["hash"]:
            raise ProofError(f"record {p['table']} seq {p['seq']}: content does not match its "
                             "hash")
        rid = _claims_match_line(p)
        path = [bytes.fromhex(x) for x in p["path"]]
        if not verify_inclusion(leaf_hash(bytes.fromhex(h)), int(p["leaf_index"]),
                                int(head["size"]), path, root):
            raise ProofError(f"record {p['table']} seq {p['seq']} is not in the signed tree "
                             f"(chain {head['chain_id']} size {head['size']})")
        out.append(f"{p['table']} seq {p['seq']} [{rid}] of chain {p['chain_id']} is leaf "
                   f"{p['leaf_index']} of the tree signed at {head['time']} (size {head['size']})")
    if not out:
        raise ProofError("the proof holds no records")
    return out


def check_consistency(proof: dict[str, Any], trust: dict[str, Any],
                      old: dict[str, Any] | None = None) -> str:
    """Check that the proof's newer signed head extends `old` (default: the proof's own old
    head; pass the head you kept yourself). Raises ProofError otherwise."""
    if proof.get("format") != CONSISTENCY_FORMAT:
        raise ProofError(f"not a consistency proof (format {proof.get('format')!r})")
    old = old or proof["old"]
    new = proof["new"]
    check_head(old, trust)
    check_head(new, trust)
    if old["chain_id"] != new["chain_id"]:
        raise ProofError("the two heads are for different chains")
    path = [bytes.fromhex(x) for x in proof["proof"]]
    if not verify_consistency(int(old["size"]), int(new["size"]), bytes.fromhex(old["root"]),
                              bytes.fromhex(new["root"]), path):
        raise ProofError(f"chain {new['chain_id']}: the head of size {new['size']} does not "
                         f"extend the head of size {old['size']} (history was rewritten)")
    return (f"chain {new['chain_id']}: the head of size {new['size']} ({new['time']}) extends "
            f"the head of size {old['size']} ({old['time']})")


def _load(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m guardian.audit.proofcheck",
                                 description="Check an audit inclusion proof against a signed "
                                 "tree head, offline.")
    ap.add_argument("proof", help="proof JSON from `guardian audit prove` (inclusion, or "
                    "consistency with --consistency)")
    ap.add_argument("--head", help="signed head JSON, obtained independently (default: the "
                    "head embedded in the proof); for a consistency proof: the OLD head you "
                    "kept")
    ap.add_argument("--trust", required=True, help="trust file pinning the replicas' keys")
    args = ap.parse_args(argv)
    try:
        proof, trust = _load(args.proof), _load(args.trust)
        head = (_load(args.head) if args.head else proof.get("head")) or {}
    except (OSError, ValueError) as exc:
        print(f"unreadable input: {exc}", file=sys.stderr)
        return 2
    try:
        if proof.get("format") == CONSISTENCY_FORMAT:
            lines = [check_consistency(proof, trust, _load(args.head) if args.head else None)]
        else:
            lines = check_proof(proof, head, trust)
    except (ProofError, KeyError, ValueError, OSError) as exc:
        print(f"INVALID: {exc}", file=sys.stderr)
        return 1
    for line in lines:
        print(f"OK: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
