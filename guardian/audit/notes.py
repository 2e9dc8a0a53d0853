"""C2SP signed notes, checkpoints and cosignatures: the text formats outsiders verify.

Owns the encoding and checking of

* signed notes (c2sp.org/signed-note): a text of newline-terminated lines, a blank line, then
  signature lines `— <key name> base64(key ID || signature)`; an Ed25519 key's ID is
  SHA-256(name || 0x0A || 0x01 || public key)[:4] and its verifier key (`vkey`) is
  `<name>+<hex key ID>+base64(0x01 || public key)` - what golang.org/x/mod/sumdb/note reads;
* checkpoints (c2sp.org/tlog-checkpoint): a note whose text is the origin, the tree size in
  decimal and the base64 RFC 6962 root hash;
* Ed25519 cosignatures (c2sp.org/tlog-cosignature, `cosignature/v1`): key ID over
  name || 0x0A || 0x04 || public key; the signature is an 8-byte big-endian POSIX timestamp
  followed by Ed25519 over "cosignature/v1\\ntime <t>\\n" + the checkpoint's text.

Only the standard library and `cryptography`, like `guardian.audit.proofcheck`. Every parser
here raises `NoteError` (one line, what is wrong) on hostile input, never a stack trace.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import struct
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

DASH = "\u2014"  # the em dash that opens every signature line
ALG_ED25519 = 0x01
ALG_COSIGNATURE_V1 = 0x04
MAX_SIGNATURES = 100  # as golang.org/x/mod/sumdb/note: parsing stays bounded


class NoteError(ValueError):
    """A note, checkpoint, vkey or cosignature that is malformed or does not verify."""


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def unb64(text: str, what: str) -> bytes:
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise NoteError(f"{what} is not base64: {text[:40]!r}") from None


def valid_name(name: str) -> bool:
    """A key name: non-empty, no Unicode space, no '+' (signed-note)."""
    return bool(name) and "+" not in name and not any(c.isspace() for c in name)


def key_id(name: str, alg: int, public_raw: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + bytes([alg]) + public_raw).digest()[:4]


def public_raw(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw,
                                         serialization.PublicFormat.Raw)


@dataclass(frozen=True)
class Verifier:
    """One verifier key: who (name), which (4-byte ID), how (algorithm byte), the key."""

    name: str
    key_id: bytes
    alg: int
    public_key: bytes

    @property
    def vkey(self) -> str:
        return f"{self.name}+{self.key_id.hex()}+{b64(bytes([self.alg]) + self.public_key)}"


def verifier(name: str, public_key: bytes, alg: int = ALG_ED25519) -> Verifier:
    if not valid_name(name):
        raise NoteError(f"key name {name!r} is empty or holds a space or '+'")
    return Verifier(name, key_id(name, alg, public_key), alg, public_key)


def parse_vkey(text: str) -> Verifier:
    """`<name>+<hex ID>+<base64(alg || key)>`; the ID must be the one the key implies."""
    parts = text.strip().split("+", 2)  # base64 may hold "+", a name may not
    if len(parts) != 3 or not re.fullmatch(r"[0-9a-f]{8}", parts[1]):
        raise NoteError(f"not a vkey (name+hexid+base64key): {text[:60]!r}")
    name, raw = parts[0], unb64(parts[2], "vkey key")
    if len(raw) != 33 or raw[0] not in (ALG_ED25519, ALG_COSIGNATURE_V1):
        raise NoteError(f"vkey {name!r}: not an Ed25519 key (type 0x01) or cosigner (0x04)")
    v = verifier(name, raw[1:], raw[0])
    if v.key_id.hex() != parts[1]:
        raise NoteError(f"vkey {name!r}: key ID {parts[1]} does not match its key")
    return v


# -- signed notes -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Signature:
    name: str
    key_id: bytes
    sig: bytes  # after the key ID

    @property
    def line(self) -> str:
        return f"{DASH} {self.name} {b64(self.key_id + self.sig)}\n"


def sign_line(text: str, name: str, key: Ed25519PrivateKey) -> str:
    """The Ed25519 signature line of `name`'s key over a note's text."""
    kid = key_id(name, ALG_ED25519, public_raw(key))
    return Signature(name, kid, key.sign(text.encode())).line


def check_text(text: str) -> None:
    if not text.endswith("\n") or "\n\n" in text or text.startswith("\n"):
        raise NoteError("a note's text is non-empty lines, each ending in a newline")
    if any(ord(c) < 0x20 and c != "\n" for c in text):
        raise NoteError("a note's text holds a control character")


def split_note(note: str) -> tuple[str, list[Signature]]:
    """(text, signatures) of a signed note; malformed notes raise `NoteError`."""
    if any(ord(c) < 0x20 and c != "\n" for c in note):
        raise NoteError("the note holds a control character")
    cut = note.rfind("\n\n")
    if cut < 0 or not note.endswith("\n"):
        raise NoteError("not a signed note: no blank line before the signatures")
    text, block = note[:cut + 1], note[cut + 2:]
    check_text(text)
    sigs = []
    for line in block.splitlines():
        if len(sigs) >= MAX_SIGNATURES:
            raise NoteError(f"more than {MAX_SIGNATURES} signatures")
        m = re.fullmatch(DASH + r" (\S+) (\S+)", line)
        if not m or not valid_name(m.group(1)):
            raise NoteError(f"malformed signature line: {line[:60]!r}")
        raw = unb64(m.group(2), "signature")
        if len(raw) < 5:
            raise NoteError(f"signature of {m.group(1)} is too short")
        sigs.append(Signature(m.group(1), raw[:4], raw[4:]))
    if not sigs:
        raise NoteError("the note has no signature")
    return text, sigs


def _ed25519_ok(public_key: bytes, sig: bytes, msg: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(sig, msg)
    except (InvalidSignature, ValueError):
        return False
    return True


def open_note(note: str, known: list[Verifier]) -> tuple[str, list[Verifier]]:
    """(text, the known log keys whose signature verifies). A signature by a known key that
    does not verify is an error (a forgery), as in sumdb/note; unknown keys are ignored; no
    verified signature at all is an error. Cosigner keys (0x04) are not checked here."""
    text, sigs = split_note(note)
    ok: list[Verifier] = []
    for s in sigs:
        for v in known:
            if v.alg != ALG_ED25519 or (v.name, v.key_id) != (s.name, s.key_id):
                continue
            if not _ed25519_ok(v.public_key, s.sig, text.encode()):
                raise NoteError(f"invalid signature by {v.name}+{v.key_id.hex()}")
            if v not in ok:
                ok.append(v)
    if not ok:
        raise NoteError("no signature by a known key")
    return text, ok


# -- checkpoints --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return "".join(f"{line}\n" for line in
                       (self.origin, str(self.size), b64(self.root), *self.extensions))


def parse_checkpoint(text: str) -> Checkpoint:
    check_text(text)
    lines = text[:-1].split("\n")
    if len(lines) < 3:
        raise NoteError("a checkpoint has an origin, a size and a root hash line")
    origin, size, root = lines[:3]
    if not re.fullmatch(r"0|[1-9][0-9]{0,18}", size):
        raise NoteError(f"checkpoint size {size[:30]!r} is not a decimal without leading zeros")
    raw = unb64(root, "checkpoint root hash")
    if len(raw) != 32:
        raise NoteError("checkpoint root hash is not 32 bytes")
    return Checkpoint(origin, int(size), raw, tuple(lines[3:]))


# -- cosignatures -------------------------------------------------------------------------------
def cosigned_message(text: str, timestamp: int) -> bytes:
    return f"cosignature/v1\ntime {timestamp}\n".encode() + text.encode()


def cosign_line(text: str, name: str, key: Ed25519PrivateKey, timestamp: int) -> str:
    kid = key_id(name, ALG_COSIGNATURE_V1, public_raw(key))
    sig = struct.pack(">Q", timestamp) + key.sign(cosigned_message(text, timestamp))
    return Signature(name, kid, sig).line


def cosignature_time(text: str, sig: Signature, v: Verifier) -> int | None:
    """The timestamp of `sig` if it is `v`'s valid cosignature of `text`, else None."""
    if v.alg != ALG_COSIGNATURE_V1 or (v.name, v.key_id) != (sig.name, sig.key_id) \
            or len(sig.sig) != 72:
        return None
    (ts,) = struct.unpack(">Q", sig.sig[:8])
    if ts >= 1 << 63 or not _ed25519_ok(v.public_key, sig.sig[8:], cosigned_message(text, ts)):
        return None
    return ts
