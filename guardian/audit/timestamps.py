"""RFC 3161 timestamps of checkpoints: when a signed checkpoint existed, by a third party.

`stamp_checkpoint` sends the chain's latest checkpoint note (the exact bytes, its log
signature included) to a Time-Stamp Authority as an RFC 3161 `TimeStampReq` (SHA-256 message
imprint, a random nonce, the TSA's certificate requested) over HTTP (`application/timestamp-
query`), checks the answer is `granted`, and keeps both beside the heads:
`<chain dir>/timestamps/<size>.checkpoint` and `<size>.tsr`. Anyone checks them with the TSA's
certificate and a stock tool, e.g.

    openssl ts -verify -data 42.checkpoint -in 42.tsr -CAfile tsa.pem

The DER of the request is written here by hand (a few fixed fields); the answer is only read
as far as its status - the signature, imprint and nonce are the verifier's job.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import urllib.request
from pathlib import Path

from guardian.audit.checkpoints import read_checkpoints
from guardian.core.fileio import write_atomic

log = logging.getLogger(__name__)

SHA256_OID = bytes.fromhex("0609608648016503040201")  # 2.16.840.1.101.3.4.2.1
STATUS = {0: "granted", 1: "grantedWithMods", 2: "rejection", 3: "waiting",
          4: "revocationWarning", 5: "revocationNotification"}


class TimestampError(RuntimeError):
    """No timestamp could be had (the message says why)."""


def _der(tag: int, body: bytes) -> bytes:
    n = len(body)
    if n < 0x80:
        return bytes([tag, n]) + body
    size = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(size)]) + size + body


def _int(value: int) -> bytes:
    return _der(0x02, value.to_bytes(value.bit_length() // 8 + 1, "big"))


def timestamp_query(data: bytes, nonce: int) -> bytes:
    """DER TimeStampReq {version 1, messageImprint {sha256, H(data)}, nonce, certReq TRUE}."""
    imprint = _der(0x30, _der(0x30, SHA256_OID + b"\x05\x00")
                   + _der(0x04, hashlib.sha256(data).digest()))
    return _der(0x30, _int(1) + imprint + _int(nonce) + _der(0x01, b"\xff"))


def _read(buf: bytes, at: int) -> tuple[int, int, int]:
    """(tag, start of content, end of content) of the DER element at `at`."""
    if at + 2 > len(buf):
        raise TimestampError("truncated DER")
    tag, n, at = buf[at], buf[at + 1], at + 2
    if n & 0x80:
        k = n & 0x7F
        if not 0 < k <= 4 or at + k > len(buf):
            raise TimestampError("bad DER length")
        n, at = int.from_bytes(buf[at:at + k], "big"), at + k
    if at + n > len(buf):
        raise TimestampError("truncated DER")
    return tag, at, at + n


def response_status(tsr: bytes) -> int:
    """PKIStatus of a TimeStampResp (0 granted, 1 granted with modifications, ...)."""
    tag, start, _ = _read(tsr, 0)
    tag2, start2, _ = _read(tsr, start) if tag == 0x30 else (0, 0, 0)
    tag3, s3, e3 = _read(tsr, start2) if tag2 == 0x30 else (0, 0, 0)
    if tag != 0x30 or tag2 != 0x30 or tag3 != 0x02:
        raise TimestampError("not an RFC 3161 TimeStampResp")
    return int.from_bytes(tsr[s3:e3], "big", signed=True)


def stamp_checkpoint(chain_dir: Path, tsa_url: str, *, timeout_s: float = 10.0) -> Path:
    """Timestamp the chain's latest checkpoint; returns the `.tsr` file."""
    cps = read_checkpoints(chain_dir)
    if not cps:
        raise TimestampError(f"no checkpoint published in {chain_dir}")
    cp = cps[-1]
    data = cp.note.encode()
    req = urllib.request.Request(tsa_url, data=timestamp_query(data, secrets.randbits(63)),
                                 headers={"Content-Type": "application/timestamp-query"})
    try:
        with urllib.request.urlopen(req, timeout=timeout_s) as resp:
            tsr = resp.read(1 << 20)
    except OSError as exc:
        raise TimestampError(f"TSA {tsa_url}: {exc}") from None
    status = response_status(tsr)
    if status not in (0, 1):
        raise TimestampError(f"TSA {tsa_url} answered {STATUS.get(status, status)}")
    out = chain_dir / "timestamps"
    write_atomic(out / f"{cp.size}.checkpoint", cp.note, mode=0o644)
    path = out / f"{cp.size}.tsr"
    path.write_bytes(tsr)
    log.info("checkpoint %d of %s timestamped by %s", cp.size, chain_dir.name, tsa_url)
    return path
