"""Compliance bundle: one request's evidence in one file, `guardian audit bundle REQUEST_ID`.

A gzip'd tar holding everything an outside auditor needs to check one request with stock
tools, and nothing that needs the sidecar:

* `receipt.tlog-proof` - the request record's c2sp.org/tlog-proof receipt (its content, the
  inclusion proof, the checkpoint with any witness cosignatures; `guardian.audit.receipts`);
* `vkeys.txt` - the log's verifier keys (every key of the trust file, under the log name);
* `policy` - the tlog-policy the receipt is to meet (when given: witnesses and quorum);
* `timestamps/<size>.tsr` + `.checkpoint` - an RFC 3161 token of that checkpoint, if one was
  taken (`guardian.audit.timestamps`);
* `VERIFY.txt` - the commands.

`guardian audit bundle --route R --since ... --until ...` writes a route bundle instead
(`route_bundle_parts`): the route's records of the window as the export writes them, a
receipt per request record, the checkpoints, policy versions, gate reports, a README mapping
them to EU AI Act Art. 12/19, ISO/IEC 42001 A.6.2.8 and NIST AI RMF MEASURE 2.4, and a
manifest of SHA-256s; `python -m guardian.audit.proofcheck --bundle` checks it offline.

The receipt holds the record's canonical line (prompt text at `full` redaction): the bundle
is written 0600, like receipts and proofs.
"""

from __future__ import annotations

import hashlib
import io
import os
import tarfile
import time
from pathlib import Path
from typing import Any

from guardian.audit.receipts import Receipt

VERIFY_TEXT = """Checking this bundle (no sidecar needed)

1. The receipt against the log keys (Go's golang.org/x/mod/sumdb/note and sumdb/tlog; any
   c2sp.org/tlog-proof verifier will do), e.g. with spec-guardian's tests/support/c2sp_verify:

     c2sp_verify proof -vkey "$(head -1 vkeys.txt)" -origin-prefix {log_name} receipt.tlog-proof

   add `-witness <vkey> ... -quorum N` for the witnesses of `policy`.
2. The record: the receipt's `extra` line (base64) is `prev_hash \\n table \\t canonical line`;
   the request id is a field of that line.
3. When it exists: openssl ts -verify -data timestamps/{size}.checkpoint \\
       -in timestamps/{size}.tsr -CAfile <the TSA's certificate>
"""


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = len(data), int(time.time()), 0o600
    tar.addfile(info, io.BytesIO(data))


def write_bundle(out: Path, receipt: Receipt, vkeys: list[str], log_name: str, size: int,
                 chain_dir: Path, policy: Path | None = None) -> list[str]:
    """Write the bundle; returns the names it holds."""
    names = []
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh, tarfile.open(fileobj=fh, mode="w:gz") as tar:
        parts = {"receipt.tlog-proof": receipt.text.encode(),
                 "vkeys.txt": "".join(f"{v}\n" for v in vkeys).encode(),
                 "VERIFY.txt": VERIFY_TEXT.format(log_name=log_name, size=size).encode()}
        if policy is not None:
            parts["policy"] = policy.read_bytes()
        for suffix in (".tsr", ".checkpoint"):
            stamp = chain_dir / "timestamps" / f"{size}{suffix}"
            if stamp.exists():
                parts[f"timestamps/{size}{suffix}"] = stamp.read_bytes()
        for name, data in parts.items():
            _add(tar, name, data)
            names.append(name)
    return names


# -- the route bundle: every record of a route and time window --------------------------------
ROUTE_BUNDLE_FORMAT = "guardian-compliance-bundle/v1"

README_TEXT = """# Compliance bundle: route {route}, {since} to {until}

Written by `guardian audit bundle --route` at {now}. It holds the audit evidence of one
route over one time window. It **supports** the record-keeping and monitoring controls
listed below; it does not by itself certify compliance with any of them - that is for the
deployer's own assessment.

Check it offline, with the Python standard library (plus `cryptography` for Ed25519), no
sidecar or database needed:

    python -m guardian.audit.proofcheck --bundle THIS.tar.gz

(`guardian/audit/proofcheck.py` is a single file that can be copied to the auditor's machine.)
It checks `manifest.json.sig` (a signed note over the manifest's SHA-256, by a key of
`vkeys.txt`), the SHA-256 of every member against `manifest.json`, each receipt's inclusion
proof against its checkpoint, each checkpoint's signature with a key of `vkeys.txt`, and that
every request record of `records.jsonl` has its receipt.

## Members

Each member, what it is, and the controls it supports:

* `records.jsonl` - the {n} request records of the route in the window, with their tokens,
  shadow comparisons and governance records, as `guardian audit export` writes them. They
  are stored as the writer redacted them: a field the redaction level left out is absent
  here too. Supports EU AI Act Art. 12 (automatic recording of events over the system's
  lifetime), ISO/IEC 42001 Annex A control A.6.2.8 (AI system recording of event logs) and
  NIST AI RMF MEASURE 2.4 (functionality and behaviour monitored in production).
* `receipts/<chain>-<seq>.tlog-proof` - one c2sp.org/tlog-proof receipt per request record:
  its inclusion in the signed, append-only log. Supports Art. 12 and A.6.2.8 (logs whose
  integrity can be checked).
* `checkpoints/<chain>-<size>.checkpoint` - the signed C2SP checkpoints the receipts prove
  against, with any witness cosignatures the log holds. Supports Art. 12 and A.6.2.8.
* `vkeys.txt` - the log's verifier keys (check them against a copy obtained independently).
* `policies.json` - the policy versions the records were governed by (hash and content).
  Supports Art. 12(2) (events relevant to identifying risk and substantial modification)
  and MEASURE 2.4.
* `gate-reports.json` - the route's gate results (governance records of kind
  `gate_result`) in the window. Supports MEASURE 2.4 and A.6.2.8.
* `README.md` (this file), `manifest.json` (SHA-256 of every other member) and
  `manifest.json.sig` (the manifest's signed note).

Retention: EU AI Act Art. 19 asks providers to keep automatically generated logs for at
least six months. This bundle is a copy for safekeeping outside the sidecar; keeping it
(and the audit store: `guardian audit prune --older-than` deletes only what an operator
asks it to) for that long is the deployer's duty.
"""


MANIFEST_NOTE_ORIGIN = "spec-guardian compliance bundle manifest"


def manifest_note(manifest: bytes, signer: Any, name: str) -> str:
    """manifest.json.sig: a signed note (c2sp.org/signed-note, the checkpoints' key `name`)
    over manifest.json's SHA-256, so a reader who edits a member cannot recompute the
    manifest unseen."""
    from guardian.audit.notes import sign_line

    text = f"{MANIFEST_NOTE_ORIGIN}\n{hashlib.sha256(manifest).hexdigest()}\n"
    return text + "\n" + sign_line(text, name, signer.private_key)


def route_bundle_parts(db: Any, route: str, since: Any, until: Any, heads_dir: Path,
                       vkeys: list[str], progress: Any = None, *, signer: Any = None,
                       log_name: str = "") -> dict[str, bytes]:
    """The members of a route bundle (name -> bytes). Raises ValueError when no request
    record of `route` lies in [since, until); ProveError/CheckpointError when one cannot be
    proven (no head or checkpoint covers it yet)."""
    import json
    import tempfile
    from datetime import UTC, datetime

    import sqlalchemy as sa

    from guardian.audit.checkpoints import cosigned_checkpoint
    from guardian.audit.export import export
    from guardian.audit.heads import chain_dirname
    from guardian.audit.models import PolicyVersion
    from guardian.audit.proofs import prove_request
    from guardian.audit.queries import governance_events, iter_chained
    from guardian.audit.receipts import build_receipt

    rows = list(iter_chained(db, since=since, until=until, route=route))
    requests = [r for t, r in rows if t == "audit_requests"]
    if not requests:
        raise ValueError(f"no request records of route {route!r} between "
                         f"{since.isoformat()} and {until.isoformat()}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.jsonl"
        export(rows, path, "jsonl")
        parts: dict[str, bytes] = {"records.jsonl": path.read_bytes()}
    checkpoints: dict[str, str] = {}
    for n, r in enumerate(requests):
        proof = prove_request(db, r["request_id"], heads_dir)
        head = proof["head"]
        note = cosigned_checkpoint(heads_dir / chain_dirname(head["chain_id"]),
                                   int(head["size"]), head["root"])
        receipt = build_receipt(proof, note)
        parts[f"receipts/{chain_dirname(r['chain_id'])}-{r['seq']}.tlog-proof"] = receipt.text.encode()
        checkpoints[f"checkpoints/{chain_dirname(head['chain_id'])}-{head['size']}"
                    ".checkpoint"] = note
        if progress is not None:
            progress(n + 1, len(requests))
    for name, note in checkpoints.items():
        parts[name] = note.encode()
    hashes = sorted({r["policy_hash"] for r in requests if r.get("policy_hash")})
    t = PolicyVersion.__table__
    with db.connect() as conn:
        pols = [dict(p._mapping) for p in conn.execute(
            sa.select(t).where(t.c.policy_hash.in_(hashes)).order_by(t.c.loaded_at))]
    parts["policies.json"] = _json(json, {"policy_hashes_in_force": hashes, "versions": pols})
    gates = [g for g in governance_events(db, kind="gate_result", route=route, since=since,
                                          limit=None) if g["created_at"] < until]
    parts["gate-reports.json"] = _json(json, gates)
    parts["vkeys.txt"] = "".join(f"{v}\n" for v in vkeys).encode()
    now = datetime.now(UTC).isoformat()
    parts["README.md"] = README_TEXT.format(route=route, since=since.isoformat(),
                                            until=until.isoformat(), now=now,
                                            n=len(requests)).encode()
    parts["manifest.json"] = _json(json, {
        "format": ROUTE_BUNDLE_FORMAT, "route": route, "since": since.isoformat(),
        "until": until.isoformat(), "written_at": now, "requests": len(requests),
        "files": {k: hashlib.sha256(v).hexdigest() for k, v in sorted(parts.items())}})
    if signer is not None:
        parts["manifest.json.sig"] = manifest_note(parts["manifest.json"], signer,
                                                   log_name).encode()
    return parts


def _json(json: Any, doc: Any) -> bytes:
    return (json.dumps(doc, indent=2, default=str, ensure_ascii=False) + "\n").encode()


def write_parts(out: Path, parts: dict[str, bytes]) -> list[str]:
    """Write `parts` as a gzip'd tar, 0600 (records may hold prompt text)."""
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh, tarfile.open(fileobj=fh, mode="w:gz") as tar:
        for name, data in parts.items():
            _add(tar, name, data)
    return list(parts)
