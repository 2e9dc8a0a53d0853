"""A minimal c2sp.org/tlog-witness: `add-checkpoint`, cosigning only what extends what it saw.

`Witness.add_checkpoint(body)` implements the protocol's checks, in its order:

* body: `old N`, at most 63 base64 consistency proof lines, a blank line, a checkpoint note
  (malformed: 400);
* the origin must belong to a known log: equal to a configured log key's name, or under it
  (`<name>/...`: this sidecar's logs are one origin per chain under one key name) - else 404;
* a signature by a known key for that origin must verify - else 403 (a known key's bad
  signature is a forgery: 403 too);
* `old` must not exceed the checkpoint's size (400) and must equal the size of the latest
  checkpoint cosigned for that origin (0 if none) - else 409 with that size in the body
  (`text/x.tlog.size`);
* the RFC 6962 consistency proof from the stored root at `old` to the new root must verify
  (empty when `old` is 0) - else 422; at an equal size the roots must be equal - else 409.

Only then is the new (size, root) persisted (atomically, under one lock: no rollback race)
and the cosignature (`cosignature/v1`, Ed25519, timestamped) returned. `serve` runs it on the
standard library's HTTP server: POST <prefix>/add-checkpoint.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from guardian.audit.notes import (
    ALG_COSIGNATURE_V1,
    NoteError,
    Verifier,
    b64,
    cosign_line,
    open_note,
    parse_checkpoint,
    public_raw,
    unb64,
    verifier,
)
from guardian.audit.proofcheck import verify_consistency
from guardian.core.fileio import write_atomic

log = logging.getLogger(__name__)

MAX_BODY = 64 * 1024
MAX_PROOF = 63
SIZE_TYPE = "text/x.tlog.size"


@dataclass(frozen=True)
class Answer:
    status: int
    body: str
    content_type: str = "text/plain; charset=utf-8"


class Witness:
    """One witness key, the logs it follows, and its state file (module docstring)."""

    def __init__(self, name: str, key: Ed25519PrivateKey, logs: list[Verifier],
                 state_path: Path) -> None:
        self.name, self.key, self.logs, self.state_path = name, key, logs, state_path
        self.vkey = verifier(name, public_raw(key), ALG_COSIGNATURE_V1).vkey
        self._lock = threading.Lock()
        self._state: dict[str, dict[str, object]] = (
            json.loads(state_path.read_text()) if state_path.exists() else {})

    def _keys_for(self, origin: str) -> list[Verifier]:
        return [v for v in self.logs if origin == v.name or origin.startswith(v.name + "/")]

    def add_checkpoint(self, body: bytes) -> Answer:
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return Answer(400, "the body is not UTF-8\n")
        m = re.match(r"old (0|[1-9][0-9]{0,18})\n", text)
        if not m:
            return Answer(400, "the body must start with `old N`\n")
        old, rest = int(m.group(1)), text[m.end():]
        proof: list[bytes] = []
        while rest and not rest.startswith("\n"):
            line, _, rest = rest.partition("\n")
            try:
                h = unb64(line, "consistency proof line")
            except NoteError as exc:
                return Answer(400, f"{exc}\n")
            if len(h) != 32 or len(proof) >= MAX_PROOF:
                return Answer(400, "a proof line is not a 32-byte hash, or more than 63\n")
            proof.append(h)
        note = rest[1:]
        try:
            cp = parse_checkpoint(note[:note.find("\n\n") + 1] if "\n\n" in note else note)
        except NoteError as exc:
            return Answer(400, f"not a checkpoint: {exc}\n")
        keys = self._keys_for(cp.origin)
        if not keys:
            return Answer(404, f"unknown log origin {cp.origin!r}\n")
        try:
            cp_text, _ = open_note(note, keys)
        except NoteError as exc:
            return Answer(403, f"checkpoint not signed by a known key of its log: {exc}\n")
        if old > cp.size:
            return Answer(400, f"old size {old} exceeds the checkpoint's size {cp.size}\n")
        with self._lock:
            seen = self._state.get(cp.origin)
            size = int(seen["size"]) if seen else 0  # type: ignore[call-overload]
            root = unb64(str(seen["root"]), "stored root") if seen else b""
            if old != size:
                return Answer(409, f"{size}\n", SIZE_TYPE)
            if old == cp.size and seen is not None and root != cp.root:
                log.warning("log %s: two roots at size %d (a fork)", cp.origin, cp.size)
                return Answer(409, f"{size}\n", SIZE_TYPE)
            if old == 0 and proof:
                return Answer(422, "a consistency proof from size 0 must be empty\n")
            if old != 0 and old != cp.size and not verify_consistency(
                    old, cp.size, root, cp.root, proof):
                log.warning("log %s: inconsistent checkpoint %d -> %d refused", cp.origin,
                            old, cp.size)
                return Answer(422, f"the consistency proof from {old} to {cp.size} does not "
                                   "verify\n")
            self._state[cp.origin] = {"size": cp.size, "root": b64(cp.root)}
            write_atomic(self.state_path, json.dumps(self._state, indent=1, sort_keys=True)
                         + "\n", mode=0o644)
        return Answer(200, cosign_line(cp_text, self.name, self.key, int(time.time())))


def load_key(path: Path) -> Ed25519PrivateKey:
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path} is not an Ed25519 private key")
    return key


def make_server(witness: Witness, host: str, port: int, prefix: str = "") -> ThreadingHTTPServer:
    path = prefix.rstrip("/") + "/add-checkpoint"

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the protocol asks

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or -1)
            if self.path != path:
                ans = Answer(404, f"POST {path}\n")
            elif not 0 <= length <= MAX_BODY:
                ans = Answer(400, f"a body of at most {MAX_BODY} bytes, with Content-Length\n")
            else:
                ans = witness.add_checkpoint(self.rfile.read(length))
            data = ans.body.encode()
            self.send_response(ans.status)
            self.send_header("Content-Type", ans.content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:
            log.info("%s " + format, self.address_string(), *args)

    return ThreadingHTTPServer((host, port), Handler)
