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

The receipt holds the record's canonical line (prompt text at `full` redaction): the bundle
is written 0600, like receipts and proofs.
"""

from __future__ import annotations

import io
import os
import tarfile
import time
from pathlib import Path

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
