"""Per-replica Ed25519 signing keys for audit heads and export manifests, and the trust file.

* The signing key lives in `<home>/audit-signing.key` (or `GUARDIAN_AUDIT_SIGNING_KEY_FILE`),
  PKCS#8 PEM, mode 0600, written atomically (`guardian.core.fileio.write_atomic`). Each replica
  (each sidecar home) has its own; a replica writing several chains signs all of them.
* The trust file (`<home>/audit-trust.json` or `GUARDIAN_AUDIT_TRUST_FILE`) pins the public
  keys: `{"format": "guardian-audit-trust/v1", "keys": [{key_id, public_key (base64 raw),
  replica, not_before, not_after}]}`. Verification trusts only the keys it lists, and only for
  heads dated inside their validity. Copy it somewhere the database writer cannot reach
  (config management, the auditor's machine): a trust file the attacker can edit proves
  nothing.
* Rotation (`rotate`): a new key is generated and pinned, the old entry gets `not_after` =
  now and stays in the file, so heads it signed before keep verifying; its private key file is
  deleted.

Key resolution (`signer_for`): an existing key file is used; in dev mode or for the embedded
quickstart (`guardian.security.secrets.may_generate`) a missing key is generated and pinned; anything
else is a `SigningError` at start-up saying how to create one (`guardian audit keys init`).
"""

from __future__ import annotations

import base64
import json
import logging
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from guardian.audit.proofcheck import TRUST_FORMAT, key_id_of
from guardian.core.fileio import read_small, warn_if_shared, write_atomic
from guardian.security.secrets import SecretsError

if TYPE_CHECKING:
    from guardian.settings import Settings

log = logging.getLogger(__name__)

KEY_FILE_NAME = "audit-signing.key"
TRUST_FILE_NAME = "audit-trust.json"


class SigningError(SecretsError):
    """No usable signing key / trust file; the message says what to do. A `SecretsError`, so
    `guardian serve` and every CLI command report it in one line, like a missing salt."""


@dataclass(frozen=True)
class Signer:
    private_key: Ed25519PrivateKey
    key_id: str

    @property
    def public_raw(self) -> bytes:
        return self.private_key.public_key().public_bytes(serialization.Encoding.Raw,
                                                          serialization.PublicFormat.Raw)

    def sign(self, body: bytes) -> str:
        return base64.b64encode(self.private_key.sign(body)).decode()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _signer(key: Ed25519PrivateKey) -> Signer:
    raw = key.public_key().public_bytes(serialization.Encoding.Raw,
                                        serialization.PublicFormat.Raw)
    return Signer(key, key_id_of(raw))


def load_signer(path: Path) -> Signer:
    warn_if_shared(path, "audit signing key")
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError) as exc:
        raise SigningError(f"cannot read the audit signing key {path}: {exc}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningError(f"{path} is not an Ed25519 private key")
    return _signer(key)


def _pem(key: Ed25519PrivateKey) -> str:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def load_trust(path: Path, *, missing_ok: bool = True) -> dict[str, Any]:
    """The trust file at `path`, checked for shape. A missing file is an empty trust list when
    `missing_ok` (first key being pinned), else a `SigningError`, like any unreadable one."""
    try:
        doc = json.loads(read_small(path).decode("utf-8"))  # a regular file, <= 1 MiB
    except FileNotFoundError:
        if missing_ok:
            return {"format": TRUST_FORMAT, "keys": []}
        raise SigningError(f"cannot read trust file {path}: no such file") from None
    except OSError as exc:  # e.g. a FIFO or device: refused by read_small, never read
        raise SigningError(f"cannot read trust file {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise SigningError(f"cannot read trust file {path}: {exc}") from None
    problem = trust_problem(doc)
    if problem:
        raise SigningError(f"cannot read trust file {path}: {problem}")
    return doc


def trust_problem(doc: Any) -> str | None:
    """Why `doc` is not a trust file (`{"format": ..., "keys": [...]}`), or None."""
    if not isinstance(doc, dict):
        return f"not an audit trust file (a JSON {type(doc).__name__}, not an object)"
    if doc.get("format") != TRUST_FORMAT:
        return f"not an audit trust file (format {doc.get('format')!r}, want {TRUST_FORMAT!r})"
    keys = doc.get("keys")
    if not isinstance(keys, list):
        return "'keys' is not a list"
    for i, k in enumerate(keys):
        if not isinstance(k, dict):
            return f"keys[{i}] is not an object"
        for name in ("key_id", "public_key"):
            if not isinstance(k.get(name), str):
                return f"keys[{i}] has no {name!r} string"
        for name in ("not_before", "not_after"):
            if k.get(name) is not None and not isinstance(k[name], str):
                return f"keys[{i}].{name} is not a date string"
    return None


def _save_trust(path: Path, doc: dict[str, Any]) -> None:
    write_atomic(path, json.dumps(doc, indent=2) + "\n", mode=0o644)


def pin(trust_path: Path, signer: Signer, replica: str) -> None:
    """Add `signer`'s public key to the trust file (valid from now); no-op if pinned."""
    doc = load_trust(trust_path)
    if any(k["key_id"] == signer.key_id for k in doc["keys"]):
        return
    doc["keys"].append({"key_id": signer.key_id, "replica": replica,
                        "public_key": base64.b64encode(signer.public_raw).decode(),
                        "not_before": _now(), "not_after": None})
    _save_trust(trust_path, doc)


def generate(key_path: Path, trust_path: Path, replica: str) -> Signer:
    """Create a key at `key_path` (never overwriting one) and pin it; returns the signer of
    whichever key ends up there (a concurrent start may have won the race)."""
    key = Ed25519PrivateKey.generate()
    if not write_atomic(key_path, _pem(key), mode=0o600, exclusive=True):
        return load_signer(key_path)
    signer = _signer(key)
    pin(trust_path, signer, replica)
    log.warning("generated audit signing key %s (%s, mode 0600) and pinned it in %s; copy the "
                "trust file somewhere the database writer cannot reach", signer.key_id,
                key_path, trust_path)
    return signer


def rotate(key_path: Path, trust_path: Path, replica: str) -> tuple[str | None, Signer]:
    """Replace the key: retire the old one in the trust file (kept, with `not_after`), pin
    the new one. Returns (old key id or None, new signer)."""
    old = load_signer(key_path) if key_path.exists() else None
    doc = load_trust(trust_path)  # before the key changes: an unreadable trust file stops here
    key = Ed25519PrivateKey.generate()
    signer = _signer(key)
    # Pinned before it is in place, retiring the old key only after: a running sidecar
    # (which follows the key file, `HeadPublisher`) signs no head outside its key's validity
    # on either side of the swap, and a crash midway leaves a pinned key (never an unpinned
    # one in use, nor the old one retired while still in use).
    doc["keys"].append({"key_id": signer.key_id, "replica": replica,
                        "public_key": base64.b64encode(signer.public_raw).decode(),
                        "not_before": _now(), "not_after": None})
    _save_trust(trust_path, doc)
    write_atomic(key_path, _pem(key), mode=0o600)
    retired_at = _now()
    for k in doc["keys"]:
        if old is not None and k["key_id"] == old.key_id and not k.get("not_after"):
            k["not_after"] = retired_at
    _save_trust(trust_path, doc)
    return (old.key_id if old else None), signer


def key_paths(settings: Settings) -> tuple[Path, Path]:
    return (settings.audit_signing_key_file or settings.home / KEY_FILE_NAME,
            settings.audit_trust_file or settings.home / TRUST_FILE_NAME)


def signer_for(settings: Settings, replica: str) -> Signer:
    """The replica's signing key (see module docstring for when one is generated)."""
    from guardian.security.secrets import may_generate

    key_path, trust_path = key_paths(settings)
    if key_path.exists():
        return load_signer(key_path)
    if settings.dev_mode or may_generate(settings.database_url, settings.host):
        return generate(key_path, trust_path, replica)
    raise SigningError(
        f"no audit signing key at {key_path}: create one with `guardian audit keys init` "
        "(or set GUARDIAN_AUDIT_SIGNING_KEY_FILE); signed tree heads are what make the audit "
        "trail tamper-evident. For local development only: GUARDIAN_DEV_MODE=1")


def private_mode_ok(path: Path) -> bool:
    return path.exists() and os.stat(path).st_mode & 0o077 == 0
