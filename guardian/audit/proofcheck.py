"""Offline verifier of audit inclusion proofs and signed tree heads - no database needed.

    python -m guardian.audit.proofcheck proof.json --head head.json --trust trust.json
    python -m guardian.audit.proofcheck consistency.json --head old-head.json --trust trust.json
    python -m guardian.audit.proofcheck --bundle route.tar.gz   # `guardian audit bundle --route`

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

Every field is checked for its JSON type before use (`head_problem`, `_record_problem`): a
hostile file is refused with one line, never a stack trace, and the numbers a reader is shown
are the integers that were checked. Input files are read up to `MAX_INPUT_BYTES`.

Exit status: 0 = proof valid, 1 = invalid (the reason on one line), 2 = unreadable input.

Why one module: an auditor copies this file alone to a machine without the project and runs
it there, so the head, proof, bundle and note checks cannot be split into sibling modules.
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
MAX_INPUT_BYTES = 64 << 20  # a proof holds two records and O(log n) hashes: far below this


class ProofError(ValueError):
    """The proof, head or signature does not check out (message says why)."""


class SignatureMismatch(ProofError):
    """A signature by a pinned key that does not match what it is said to sign."""


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
    if not isinstance(trust, dict) or trust.get("format") != TRUST_FORMAT:
        got = trust.get("format") if isinstance(trust, dict) else type(trust).__name__
        raise ProofError(f"not a trust file (format {got!r}, want {TRUST_FORMAT})")
    keys = trust.get("keys", [])
    if not isinstance(keys, list) or not all(
            isinstance(k, dict) and isinstance(k.get("public_key"), str)
            and all(isinstance(k.get(f), str | None) for f in ("not_before", "not_after"))
            for k in keys):
        raise ProofError("malformed trust file: 'keys' must be a list of {key_id, "
                         "public_key, not_before, not_after} with string values")
    for k in keys:
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


HEAD_FIELDS: dict[str, type] = {
    "format": str, "chain_id": str, "replica_id": str, "size": int, "root": str,
    "last_seq": int, "time": str, "key_id": str, "signature": str}


def _is_hash(value: Any) -> bool:
    """A 32-byte hash as 64 hex digits (a tree node, a root, a record hash)."""
    try:
        return isinstance(value, str) and len(bytes.fromhex(value)) == 32
    except ValueError:
        return False


def head_problem(head: Any) -> str | None:
    """Why `head` is not a signed tree head as `guardian.audit.heads.make_head` writes it (a
    missing or mistyped field), or None. The signature is `check_head`'s job."""
    if not isinstance(head, dict):
        return f"a JSON {type(head).__name__}, not an object"
    for name, kind in HEAD_FIELDS.items():
        if name not in head:
            return f"missing field {name!r}"
        value = head[name]
        if not isinstance(value, kind) or isinstance(value, bool):
            return f"field {name!r} is {type(value).__name__}, not {kind.__name__}"
    if head["size"] < 0:
        return "field 'size' is negative"
    if not isinstance(head.get("final", False), bool):
        return "field 'final' is not a boolean"
    if not _is_hash(head["root"]):
        return "field 'root' is not 64 hex digits"
    return None


def verify_signed(trust: dict[str, Any], key_id: str, at: str, signature: str,
                  body: bytes) -> None:
    """Raise ProofError unless `signature` (base64 Ed25519) signs `body` with key `key_id`,
    pinned in `trust` for time `at` (`trusted_key`); SignatureMismatch when the key is
    pinned but the signature does not match. Heads, export manifests and gate reports."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    raw = trusted_key(trust, key_id, at)
    try:
        Ed25519PublicKey.from_public_bytes(raw).verify(base64.b64decode(signature), body)
    except (InvalidSignature, ValueError, TypeError):
        raise SignatureMismatch("signature does not match") from None


def check_head(head: dict[str, Any], trust: dict[str, Any]) -> None:
    """Raise ProofError unless `head` is a well-formed head signed by a key the trust file pins
    for its time."""
    if isinstance(head, dict) and head.get("format") != HEAD_FORMAT:
        raise ProofError(f"not a signed tree head (format {head.get('format')!r})")
    problem = head_problem(head)
    if problem:
        raise ProofError(f"not a signed tree head: {problem}")
    try:
        verify_signed(trust, head["key_id"], head["time"], head["signature"], head_body(head))
    except SignatureMismatch:
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


RECORD_FIELDS: dict[str, type] = {
    "chain_id": str, "table": str, "seq": int, "line": str, "prev_hash": str, "hash": str,
    "leaf_index": int, "tree_size": int, "path": list}


def _record_problem(p: Any) -> str | None:
    """Why `p` is not one record proof as `guardian.audit.proofs` writes it, or None."""
    if not isinstance(p, dict):
        return f"a JSON {type(p).__name__}, not an object"
    for name, kind in RECORD_FIELDS.items():
        if name not in p:
            return f"missing field {name!r}"
        if not isinstance(p[name], kind) or isinstance(p[name], bool):
            return f"field {name!r} is {type(p[name]).__name__}, not {kind.__name__}"
    for name in ("request_id", "event_id"):
        if name in p and not isinstance(p[name], str):
            return f"field {name!r} is {type(p[name]).__name__}, not str"
    if not all(_is_hash(x) for x in p["path"]):
        return "field 'path' is not a list of 64-hex-digit hashes"
    return None


def check_proof(proof: dict[str, Any], head: dict[str, Any], trust: dict[str, Any]) -> list[str]:
    """Check every record proof in `proof` against the signed `head`; returns one line per
    proven record. Raises ProofError on the first failure."""
    if not isinstance(proof, dict) or proof.get("format") != PROOF_FORMAT:
        got = proof.get("format") if isinstance(proof, dict) else type(proof).__name__
        raise ProofError(f"not an audit proof (format {got!r})")
    check_head(head, trust)
    root, size = bytes.fromhex(head["root"]), head["size"]
    records = proof.get("records", [])
    if not isinstance(records, list):
        raise ProofError(f"malformed proof: 'records' is a JSON {type(records).__name__}, "
                         "not a list")
    out = []
    for n, p in enumerate(records):
        problem = _record_problem(p)
        if problem:
            raise ProofError(f"malformed proof: records[{n}]: {problem}")
        if p["chain_id"] != head["chain_id"]:
            raise ProofError(f"record is in chain {p['chain_id']}, the head is for "
                             f"{head['chain_id']}")
        if p["tree_size"] != size:
            raise ProofError(f"proof is for tree size {p['tree_size']}, the head has {size}")
        h = record_hash(p["prev_hash"], p["table"], p["line"])
        if h != p["hash"]:
            raise ProofError(f"record {p['table']} seq {p['seq']}: content does not match its "
                             "hash")
        rid = _claims_match_line(p)
        path = [bytes.fromhex(x) for x in p["path"]]
        if not verify_inclusion(leaf_hash(bytes.fromhex(h)), p["leaf_index"], size, path, root):
            raise ProofError(f"record {p['table']} seq {p['seq']} is not in the signed tree "
                             f"(chain {head['chain_id']} size {size})")
        out.append(f"{p['table']} seq {p['seq']} [{rid}] of chain {p['chain_id']} is leaf "
                   f"{p['leaf_index']} of the tree signed at {head['time']} (size {size})")
    if not out:
        raise ProofError("the proof holds no records")
    return out


def check_consistency(proof: dict[str, Any], trust: dict[str, Any],
                      old: dict[str, Any] | None = None) -> str:
    """Check that the proof's newer signed head extends `old` (default: the proof's own old
    head; pass the head you kept yourself). Raises ProofError otherwise."""
    if not isinstance(proof, dict) or proof.get("format") != CONSISTENCY_FORMAT:
        got = proof.get("format") if isinstance(proof, dict) else type(proof).__name__
        raise ProofError(f"not a consistency proof (format {got!r})")
    old = proof.get("old") if old is None else old  # a kept head that is `{}` is no head
    new = proof.get("new")
    check_head(old, trust)
    check_head(new, trust)
    if old["chain_id"] != new["chain_id"]:
        raise ProofError("the two heads are for different chains")
    hashes = proof.get("proof")
    if not isinstance(hashes, list) or not all(_is_hash(x) for x in hashes):
        raise ProofError("malformed consistency proof: 'proof' is not a list of "
                         "64-hex-digit hashes")
    path = [bytes.fromhex(x) for x in hashes]
    if not verify_consistency(old["size"], new["size"], bytes.fromhex(old["root"]),
                              bytes.fromhex(new["root"]), path):
        raise ProofError(f"chain {new['chain_id']}: the head of size {new['size']} does not "
                         f"extend the head of size {old['size']} (history was rewritten)")
    return (f"chain {new['chain_id']}: the head of size {new['size']} ({new['time']}) extends "
            f"the head of size {old['size']} ({old['time']})")



# -- compliance bundles (`guardian audit bundle --route`) -----------------------------------
BUNDLE_FORMAT = "guardian-compliance-bundle/v1"


def _unb64(text: str) -> bytes:
    import binascii

    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise ProofError(f"not base64: {text[:40]!r}") from None


def parse_vkey(vkey: str) -> tuple[str, bytes, bytes]:
    """(name, 4-byte key ID, raw Ed25519 key) of a signed-note verifier key."""
    parts = vkey.strip().split("+", 2)
    if len(parts) != 3:
        raise ProofError(f"not a vkey: {vkey[:60]!r}")
    name, kid, key = parts[0], bytes.fromhex(parts[1]), _unb64(parts[2])
    if len(kid) != 4 or len(key) != 33 or key[0] != 1:
        raise ProofError(f"not an Ed25519 vkey: {vkey[:60]!r}")
    if hashlib.sha256(name.encode() + b"\n" + key).digest()[:4] != kid:
        raise ProofError(f"vkey {name}: its key ID does not match its key")
    return name, kid, key[1:]


def _signed_by(text: str, sigs: str, vkeys: list[str], what: str) -> None:
    """ProofError unless a signature line of `sigs` by a key of `vkeys` verifies `text`."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    keys = [parse_vkey(v) for v in vkeys]
    for line in sigs.split("\n"):
        if not line.startswith("\u2014 "):
            continue
        name, _, blob = line[2:].rpartition(" ")
        raw = _unb64(blob)
        for kname, kid, key in keys:
            if kname == name and raw[:4] == kid:
                try:
                    Ed25519PublicKey.from_public_bytes(key).verify(raw[4:], text.encode())
                except InvalidSignature:
                    raise ProofError(f"{what}: invalid signature by {name}") from None
                return
    raise ProofError(f"{what}: no signature by a key of vkeys.txt")


MANIFEST_NOTE_ORIGIN = "spec-guardian compliance bundle manifest"


def check_manifest_note(note: str, manifest: bytes, vkeys: list[str]) -> None:
    """ProofError unless `note` (manifest.json.sig) is signed by a key of `vkeys` and names
    the SHA-256 of `manifest`."""
    text, sep, sigs = note.partition("\n\n")
    lines = text.split("\n")
    if not sep or len(lines) != 2 or lines[0] != MANIFEST_NOTE_ORIGIN:
        raise ProofError("manifest.json.sig is not a signed manifest note")
    _signed_by(text + "\n", sigs, vkeys, "manifest.json.sig")
    if lines[1] != hashlib.sha256(manifest).hexdigest():
        raise ProofError("manifest.json does not match the SHA-256 its signed note names")


def check_checkpoint(note: str, vkeys: list[str]) -> tuple[int, bytes]:
    """(size, root) of a C2SP checkpoint note signed by one of `vkeys`; ProofError else."""
    text, sep, sigs = note.partition("\n\n")
    if not sep:
        raise ProofError("a checkpoint without signatures")
    text += "\n"
    lines = text.split("\n")
    if len(lines) < 4:
        raise ProofError("not a checkpoint (origin, size and root lines)")
    size, root = int(lines[1]), _unb64(lines[2])
    _signed_by(text, sigs, vkeys, f"checkpoint of size {size}")
    return size, root


def check_tlog_proof(text: str, vkeys: list[str]) -> tuple[bytes, str]:
    """(record hash, checkpoint note) of a c2sp.org/tlog-proof receipt whose inclusion proof
    leads to the root of its checkpoint, signed by one of `vkeys`; ProofError else."""
    head, sep, note = text.partition("\n\n")
    lines = head.split("\n")
    if not sep or lines[0] != "c2sp.org/tlog-proof@v1" or not lines[1].startswith("extra "):
        raise ProofError("not a tlog-proof receipt with extra data")
    extra = _unb64(lines[1][6:])
    if not lines[2].startswith("index "):
        raise ProofError("no 'index N' line")
    index, path = int(lines[2][6:]), [_unb64(x) for x in lines[3:]]
    size, root = check_checkpoint(note, vkeys)
    h = hashlib.sha256(extra).digest()
    if not verify_inclusion(leaf_hash(h), index, size, path, root):
        raise ProofError(f"the inclusion proof of index {index} does not lead to the "
                         f"checkpoint's root (size {size})")
    return h, note


def check_bundle(path: str) -> list[str]:
    """Check a route compliance bundle (.tar.gz): every member's SHA-256 against
    manifest.json, no member unlisted or missing, every receipt against its checkpoint and
    the vkeys, and one receipt per request record of records.jsonl. ProofError else."""
    import tarfile

    files: dict[str, bytes] = {}
    try:
        with tarfile.open(path, "r:gz") as tar:
            for m in tar.getmembers():
                if not m.isfile():
                    raise ProofError(f"member {m.name!r} is not a plain file")
                if m.name in files:
                    raise ProofError(f"member {m.name!r} appears twice")
                fh = tar.extractfile(m)
                files[m.name] = fh.read(MAX_INPUT_BYTES + 1) if fh else b""
    except (tarfile.TarError, EOFError) as exc:
        raise ProofError(f"not a readable bundle: {exc}") from None
    raw_manifest = files.pop("manifest.json", b"null") or b"null"
    sig = files.pop("manifest.json.sig", None)
    if sig is None:
        raise ProofError("the bundle has no manifest.json.sig (its signed manifest note)")
    if "vkeys.txt" not in files:
        raise ProofError("the bundle has no vkeys.txt")
    try:
        vkeys = files["vkeys.txt"].decode().split()
        check_manifest_note(sig.decode(), raw_manifest, vkeys)
    except UnicodeDecodeError as exc:
        raise ProofError(f"manifest.json.sig: {exc}") from None
    manifest = json.loads(raw_manifest)
    if not isinstance(manifest, dict) or manifest.get("format") != BUNDLE_FORMAT:
        raise ProofError(f"no {BUNDLE_FORMAT} manifest.json in the bundle")
    listed = manifest.get("files")
    if not isinstance(listed, dict):
        raise ProofError("manifest.json lists no files")
    for name in sorted(set(listed) | set(files)):
        if name not in files:
            raise ProofError(f"member {name} is listed in the manifest but missing")
        if name not in listed:
            raise ProofError(f"member {name} is not listed in the manifest")
        if hashlib.sha256(files[name]).hexdigest() != listed[name]:
            raise ProofError(f"member {name} does not match its SHA-256 in the manifest")
    checkpoints = {v.decode() for k, v in files.items() if k.startswith("checkpoints/")}
    proven: dict[str, str] = {}
    for name in sorted(k for k in files if k.startswith("receipts/")):
        try:
            h, note = check_tlog_proof(files[name].decode(), vkeys)
        except (ValueError, IndexError, UnicodeDecodeError) as exc:
            raise ProofError(f"{name}: {exc}") from None
        if note not in checkpoints:
            raise ProofError(f"{name}: its checkpoint is not among checkpoints/")
        proven[h.hex()] = name
    requests = [r for line in files["records.jsonl"].decode().splitlines() if line.strip()
                for r in [json.loads(line)] if r.get("table") == "audit_requests"]
    if len(requests) != manifest.get("requests"):
        raise ProofError(f"records.jsonl holds {len(requests)} request records, the manifest "
                         f"{manifest.get('requests')}")
    for r in requests:
        if r.get("hash") not in proven:
            raise ProofError(f"request record {r.get('request_id')!r} has no receipt that "
                             "proves it")
    if len(proven) != len(requests):
        raise ProofError(f"{len(proven)} receipts for {len(requests)} request records")
    return [f"{len(files) + 1} members match the manifest, whose note is signed by a key "
            "of vkeys.txt",
            f"{len(requests)} request records of route {manifest.get('route')!r} "
            f"({manifest.get('since')} to {manifest.get('until')}) proven by their receipts "
            f"against {len(checkpoints)} signed checkpoint(s)"]


def _load(path: str) -> Any:
    """A JSON file of at most MAX_INPUT_BYTES (ValueError otherwise; also for non-UTF-8 text
    and nesting too deep to parse)."""
    with open(path, "rb") as fh:
        data = fh.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise ValueError(f"{path} is larger than {MAX_INPUT_BYTES >> 20} MiB")
    try:
        return json.loads(data.decode("utf-8"))
    except RecursionError:
        raise ValueError(f"{path}: JSON nested too deeply") from None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m guardian.audit.proofcheck",
                                 description="Check an audit inclusion proof against a signed "
                                 "tree head, offline.")
    ap.add_argument("proof", nargs="?", help="proof JSON from `guardian audit prove` "
                    "(inclusion, or consistency with --consistency)")
    ap.add_argument("--bundle", help="instead: check a compliance bundle (.tar.gz) from "
                    "`guardian audit bundle --route`")
    ap.add_argument("--head", help="signed head JSON, obtained independently (default: the "
                    "head embedded in the proof); for a consistency proof: the OLD head you "
                    "kept")
    ap.add_argument("--trust", help="trust file pinning the replicas' keys (required "
                    "except with --bundle, which carries the log's vkeys)")
    args = ap.parse_args(argv)
    if args.bundle:
        try:
            lines = check_bundle(args.bundle)
        except OSError as exc:
            print(f"unreadable input: {exc}", file=sys.stderr)
            return 2
        except (ProofError, KeyError, TypeError, ValueError, OverflowError) as exc:
            print(f"INVALID: {exc}", file=sys.stderr)
            return 1
        for line in lines:
            print(f"OK: {line}")
        return 0
    if not args.proof or not args.trust:
        ap.error("a proof and --trust are required (or --bundle)")
    try:
        proof, trust = _load(args.proof), _load(args.trust)
        kept = _load(args.head) if args.head else None
    except (OSError, ValueError) as exc:
        print(f"unreadable input: {exc}", file=sys.stderr)
        return 2
    for name, doc, given in (("proof", proof, True), ("--trust", trust, True),
                             ("--head", kept, bool(args.head))):
        if given and not isinstance(doc, dict):
            # Never fall back to the proof's own head when the one given is not a head.
            print(f"unreadable input: {name} is a JSON {type(doc).__name__}, not an object",
                  file=sys.stderr)
            return 2
    try:
        if proof.get("format") == CONSISTENCY_FORMAT:
            lines = [check_consistency(proof, trust, kept)]
        else:
            lines = check_proof(proof, proof.get("head") if kept is None else kept, trust)
    except (ProofError, KeyError, TypeError, ValueError, OverflowError, OSError) as exc:
        print(f"INVALID: {exc}", file=sys.stderr)
        return 1
    for line in lines:
        print(f"OK: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
