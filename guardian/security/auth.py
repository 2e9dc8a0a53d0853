"""API keys: principals, roles, authorized routes, the keys file and its live reload.

Owns key hashing, reading and (atomically) writing the keys file, the role check, which
routes a key may use, and `authenticate_cli` for state-changing CLI acts. The FastAPI
dependency that applies it lives in `guardian.api.deps`; `guardian keys ...`
(`guardian.cli.keys`) manages the file. Roles:

- `inference`  — proxies: completions, chat, models
- `mirror`     — mirrored traffic: `/v1/shadow` (its verdicts can feed rollback triggers, so
                 it is a separate grant from `inference`; see `triggers.mirror_evidence`)
- `compliance` — audit read/export
- `oncall`     — metrics, route state, rollback / re-enable
- `release`    — promotions, canary steps
- `analysis`   — rollout controllers (Argo Rollouts, Flagger): `/v1/analysis/*` only
- `admin`      — everything, every route

Keys are random 32-byte tokens, so a plain SHA-256 digest is enough to store them (no
password stretching needed: there is nothing to brute-force). Only digests are kept, in a
YAML file (`GUARDIAN_API_KEYS_FILE`, mode 0600):

    keys:
      - {name: proxy-1, role: inference, sha256: 5e88..., routes: [default, chat]}
      - {name: mesh-mirror, role: mirror, sha256: 9f86...}

Authorized routes (`routes:`, optional, inference and mirror keys): a request's route is the
`X-Guardian-Route` header, else the route its model maps to, else the default route.
- a key WITH `routes:` may use exactly those routes, by header or by model; any other is 403;
- a key WITHOUT `routes:` gets its role's default, which is policy routing only: the route its
  model (else the default route) maps to. Picking any other route by header is 403 — to let a
  proxy choose routes, list them. (Least privilege: the operator's policy decides routing
  unless a key was granted more.)
- `admin` may use every route (a `routes:` list on an admin key is a configuration error).
Independently of the key, a header can never lower redaction below the route the model maps
to (the redaction floor, `guardian.policy.REDACTION_PROTECTION`).

Names and digests are unique (a digest listed twice would make one secret two principals,
the last one silently winning). Names are what the audit trail records (`api-key:<name>`
plus `key_id`, the first 12 hex digits of the digest, telling which secret of a rotated key
was used). They are restricted to `NAME_PATTERN` (letters, digits, `._@-`, at most 64), in
the file as on the command line, so a name can neither forge a row of `guardian keys list`
nor carry terminal escapes into a terminal or an audit actor.

The file is read and replaced through `guardian.core.fileio` (`read_small`, `write_target`): only
a regular file of at most 1 MiB is read, a write through a symlink replaces the link's target
(the file a running sidecar reads), and a missing directory is an error, never created. Every
way the file can be unusable (unreadable, not UTF-8, not YAML, wrong shape) is an
`AuthConfigError` naming the file, which `serve`, `dashboard` and `guardian keys` report
without a traceback.

Live reload: a `KeyStore` read from a file re-reads it when the file changes (one `stat` per
authentication, compared on device, inode, size, mtime and ctime; `guardian keys` replaces
the file atomically, so a change is always a new inode). A revoked key is refused from the
next request on, without a restart. If the changed file cannot be read, is invalid or is gone,
the store fails closed: no key is accepted until a valid file is back, and the error is logged
once per change. (Keeping the last good keys kept a key valid whose removal came with a
YAML mistake, or with the file's deletion.)

With no keys file the sidecar runs *open* (every caller is admin) — allowed only when bound
to a loopback address, and logged loudly; on any other address it refuses to start.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import os
import re
import secrets
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

import yaml

from guardian.core.fileio import (
    FileSignature,
    file_signature,
    read_small,
    warn_if_shared,
    write_atomic,
    write_target,
)

logger = logging.getLogger(__name__)

Role = Literal["inference", "mirror", "compliance", "oncall", "release", "admin", "analysis",
               "metrics"]
ROLES: tuple[str, ...] = get_args(Role)
# Roles whose keys send traffic on routes (and so may carry a `routes:` list).
ROUTED_ROLES: tuple[str, ...] = ("inference", "mirror")
KEY_PREFIX = "sg-"
KEYS_FILE_ENV = "GUARDIAN_API_KEYS_FILE"
API_KEY_ENV = "GUARDIAN_API_KEY"
KEY_ID_LEN = 12
# A key's name, as the audit trail records it (`api-key:<name>`): nothing that a terminal or a
# log line would read as a control character, a new line or a new field.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")


class AuthConfigError(ValueError):
    """The keys file is missing/invalid, or open mode was asked for on a public address."""


class AuthenticationError(Exception):
    """A CLI act could not be authenticated or authorized; `str(exc)` says what to do."""


@dataclass(frozen=True, slots=True)
class Principal:
    name: str
    role: Role
    # The routes this key may use; None = its role's default (see the module docstring).
    routes: frozenset[str] | None = None
    key_id: str | None = None  # first hex digits of the key's digest (never the key)

    @property
    def actor(self) -> str:
        return f"api-key:{self.name}"

    def route_denial(self, route: str, *, by_header: bool, policy_route: str) -> str | None:
        """Why this principal may not use `route` (None: it may).

        `policy_route` is the route the request's model (else the default route) maps to.
        """
        if self.role == "admin":
            return None
        if self.routes is not None:
            if route in self.routes:
                return None
            return (f"API key '{self.name}' may not use route '{route}'. Ask the operator to "
                    "add it to this key's `routes:` in the keys file (`guardian keys`).")
        if not by_header or route == policy_route:
            return None
        return (f"API key '{self.name}' may use only the route its model maps to; choosing "
                f"route '{route}' with X-Guardian-Route needs that route listed under the "
                "key's `routes:` in the keys file. Drop the header to use the policy's route.")


OPEN_PRINCIPAL = Principal(name="open-localhost", role="admin")


def hash_key(key: str) -> str:
    # surrogatepass: a key from a non-UTF-8 environment or argument (`--key`,
    # GUARDIAN_API_KEY; Python holds undecodable bytes as lone surrogates) is simply an unknown
    # key, never a UnicodeEncodeError out of authentication.
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def is_loopback(host: str) -> bool:
    """localhost, 127.0.0.0/8 or ::1 (also written as a Host header writes it: `[::1]`, or as
    a dual-stack socket reports an IPv4 client: `::ffff:127.0.0.1`)."""
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return (getattr(address, "ipv4_mapped", None) or address).is_loopback


def allowed(principal: Principal, roles: tuple[str, ...]) -> bool:
    return principal.role == "admin" or principal.role in roles


# --- the keys file ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class KeyEntry:
    """One entry of the keys file (a digest, never a key)."""

    name: str
    role: Role
    sha256: str
    routes: tuple[str, ...] | None = None

    @property
    def key_id(self) -> str:
        return self.sha256[:KEY_ID_LEN]

    def principal(self) -> Principal:
        routes = None if self.routes is None else frozenset(self.routes)
        return Principal(self.name, self.role, routes, self.key_id)

    def as_yaml(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "role": self.role, "sha256": self.sha256}
        if self.routes is not None:
            out["routes"] = list(self.routes)
        return out


def check_entry(name: str, role: str, routes: Iterable[str] | None, where: str = "") -> None:
    """Raise AuthConfigError if a key's name, role or routes are unusable."""
    label = f"{where}key {name!r}" if name else f"{where}key"
    if not NAME_PATTERN.fullmatch(name):
        raise AuthConfigError(f"{label}: a key name is 1-64 letters, digits and . _ @ -, "
                              "starting with a letter or digit (no spaces or control characters)")
    if role not in ROLES:
        raise AuthConfigError(f"{label} has role {role!r}; use one of {', '.join(ROLES)}")
    if routes is None:
        return
    if role == "admin":
        raise AuthConfigError(f"{label}: admin keys may use every route; remove `routes:` "
                              "or give the key the inference/mirror role")
    if role not in ROUTED_ROLES:
        raise AuthConfigError(f"{label}: `routes:` applies to {'/'.join(ROUTED_ROLES)} keys "
                              f"only, not {role!r}")
    bad = [r for r in routes if not isinstance(r, str) or not r.strip() or not r.isprintable()]
    if bad:
        raise AuthConfigError(f"{label}: routes must be non-empty route names, got {bad!r}")


def read_keys_file(path: Path | str) -> list[KeyEntry]:
    """The file's entries, validated (AuthConfigError says what is wrong and where)."""
    path = Path(path)
    try:
        raw = yaml.safe_load(read_small(path).decode("utf-8")) or {}
    except OSError as exc:
        raise AuthConfigError(f"cannot read API keys file {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise AuthConfigError(f"API keys file {path} is not UTF-8 text (byte {exc.start}); "
                              "is it the right file?") from exc
    except yaml.YAMLError as exc:
        raise AuthConfigError(f"API keys file {path} is not valid YAML: {exc}") from exc
    if not isinstance(raw, dict) or not isinstance(raw.get("keys") or [], list):
        raise AuthConfigError(f"API keys file {path} must be a mapping with a `keys:` list")
    entries: list[KeyEntry] = []
    names: set[str] = set()
    digests: dict[str, str] = {}
    for i, item in enumerate(raw.get("keys") or []):
        try:
            name, role, digest = str(item["name"]), item["role"], str(item["sha256"]).lower()
        except (KeyError, TypeError) as exc:
            raise AuthConfigError(f"{path}: keys[{i}] needs name, role and sha256") from exc
        routes = item.get("routes")
        if routes is not None and not isinstance(routes, list):
            raise AuthConfigError(f"{path}: keys[{i}] ({name!r}) routes must be a list of names")
        check_entry(name, role, routes, f"{path}: keys[{i}] ")
        if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise AuthConfigError(f"{path}: keys[{i}] ({name}) sha256 must be 64 hex chars")
        if name in names:
            raise AuthConfigError(f"{path}: keys[{i}]: the name {name!r} is used twice; names "
                                  "identify keys in the audit trail, make them unique")
        names.add(name)
        if digest in digests:
            # One secret, two principals: whichever came last would win, silently (an
            # inference key pasted under an admin name would authenticate as admin).
            raise AuthConfigError(f"{path}: keys[{i}] ({name}) has the same sha256 as key "
                                  f"{digests[digest]!r}: one secret must name one key; give "
                                  "each key its own (`guardian keys add` / `rotate`)")
        digests[digest] = name
        entries.append(KeyEntry(name, role, digest, None if routes is None else tuple(routes)))
    return entries


def write_keys_file(path: Path | str, entries: Sequence[KeyEntry]) -> None:
    """Replace the file atomically (temp file + rename) with mode 0600.

    Readers (a running sidecar) see the old file or the new one, never a half-written one;
    the rename also gives the file a new inode, which is what the live reload looks for.
    A symlink is written through (its target is replaced); a path that exists but is not a
    regular file, or whose directory is missing, is an AuthConfigError and stays untouched.
    """
    path = Path(path)
    text = ("# spec-guardian API keys: SHA-256 digests only (manage with `guardian keys`).\n"
            + yaml.safe_dump({"keys": [e.as_yaml() for e in entries]}, sort_keys=False))
    try:
        write_atomic(write_target(path), text, mode=0o600)
    except OSError as exc:
        raise AuthConfigError(f"cannot write API keys file {path}: {exc.strerror}") from exc


def _find(entries: list[KeyEntry], name: str, path: Path) -> int:
    for i, e in enumerate(entries):
        if e.name == name:
            return i
    raise AuthConfigError(f"no key named {name!r} in {path}; `guardian keys list` shows the names")


def add_key_to_file(path: Path | str, name: str, role: Role,
                    routes: Sequence[str] | None = None) -> str:
    """Create a key, store its digest in `path`, and return the plaintext (shown once)."""
    path = Path(path)
    check_entry(name, role, routes)
    try:
        entries = read_keys_file(path)
    except AuthConfigError as exc:
        if not isinstance(exc.__cause__, FileNotFoundError):
            raise
        entries = []  # a new file; `write_keys_file` checks that its directory exists
    if any(e.name == name for e in entries):
        raise AuthConfigError(f"a key named {name!r} already exists in {path}; pick another "
                              "name, or `guardian keys rotate` it")
    key = new_key()
    entries.append(KeyEntry(name, role, hash_key(key), None if routes is None else tuple(routes)))
    write_keys_file(path, entries)
    return key


def revoke_key_in_file(path: Path | str, name: str) -> KeyEntry:
    """Remove the key named `name`; returns the removed entry."""
    path = Path(path)
    entries = read_keys_file(path)
    removed = entries.pop(_find(entries, name, path))
    write_keys_file(path, entries)
    return removed


def rotate_key_in_file(path: Path | str, name: str) -> str:
    """Give `name` a new secret (same role and routes); returns the new key (shown once)."""
    path = Path(path)
    entries = read_keys_file(path)
    i = _find(entries, name, path)
    key = new_key()
    old = entries[i]
    entries[i] = KeyEntry(old.name, old.role, hash_key(key), old.routes)
    write_keys_file(path, entries)
    return key


# --- the store the sidecar authenticates against -------------------------------------------


class KeyStore:
    """Digest -> principal. `open_mode` admits everyone as admin (localhost quickstart only).

    Built from a file (`from_file`), it follows the file: see "Live reload" above.
    """

    def __init__(self, entries: dict[str, Principal] | None = None, *, open_mode: bool = False,
                 path: Path | None = None) -> None:
        self._by_digest = dict(entries or {})
        self.open_mode = open_mode
        self.path = path
        self._signature = file_signature(path) if path is not None else None
        self._failed_signature: FileSignature | None = None
        self._lock = threading.Lock()

    @staticmethod
    def _load(path: Path) -> dict[str, Principal]:
        return {e.sha256: e.principal() for e in read_keys_file(path)}

    @classmethod
    def from_file(cls, path: Path | str) -> KeyStore:
        path = Path(path)
        signature = file_signature(path)
        entries = cls._load(path)
        logger.info("loaded %d API keys from %s", len(entries), path)
        warn_if_shared(path, "API keys file")
        store = cls(entries, path=path)
        store._signature = signature
        return store

    @classmethod
    def for_server(cls, keys_file: Path | str | None, host: str) -> KeyStore:
        """Keys from `keys_file`, or open mode when none is configured and `host` is loopback."""
        if keys_file:
            return cls.from_file(keys_file)
        if not is_loopback(host):
            raise AuthConfigError(
                f"no API keys configured and host {host!r} is not loopback; set "
                f"{KEYS_FILE_ENV} (create keys with `guardian keys add`) or bind to 127.0.0.1")
        logger.warning("AUTH IS OFF: no API keys configured; serving OPEN on loopback %s — every "
                       "caller is admin. Set %s before exposing this sidecar.", host,
                       KEYS_FILE_ENV)
        return cls(open_mode=True)

    def add(self, key: str, name: str, role: Role, routes: Iterable[str] | None = None) -> None:
        digest = hash_key(key)
        self._by_digest[digest] = Principal(
            name, role, None if routes is None else frozenset(routes), digest[:KEY_ID_LEN])

    def __len__(self) -> int:
        return len(self._by_digest)

    def refresh(self) -> bool:
        """Re-read the file if it changed since the last look; True when new keys apply."""
        if self.path is None:
            return False
        signature = file_signature(self.path)
        # (A deleted file's signature is None: never taken for "the failure already logged".)
        failed = self._failed_signature
        if signature == self._signature or (failed is not None and signature == failed):
            return False
        with self._lock:
            if signature == self._signature:
                return False
            try:
                entries = self._load(self.path)
            except AuthConfigError as exc:
                if signature != self._failed_signature:
                    logger.critical("API keys file changed but cannot be used: REFUSING EVERY "
                                    "API KEY until a valid file is back (%d were loaded "
                                    "before): %s", len(self._by_digest), exc)
                self._by_digest, self._signature = {}, None  # fail closed
                self._failed_signature = signature
                return False
            self._by_digest, self._signature = entries, signature
            self._failed_signature = None
        logger.info("reloaded %d API keys from %s", len(entries), self.path)
        return True

    def authenticate(self, key: str | None) -> Principal | None:
        if self.open_mode:
            return OPEN_PRINCIPAL
        if not key:
            return None
        self.refresh()
        digest = hash_key(key)
        found = None
        for known, principal in self._by_digest.items():
            # constant-time compare, and no early exit: don't leak how much of a digest
            # matched, nor where in the file the key sits
            if hmac.compare_digest(known, digest):
                found = principal
        return found


# --- CLI acts ---------------------------------------------------------------------------------
def authenticate_cli(keys_file: Path | str | None, key: str | None, *,
                     roles: Sequence[str] = ()) -> Principal:
    """The principal behind a state-changing CLI act.

    `keys_file` defaults to $GUARDIAN_API_KEYS_FILE and `key` to $GUARDIAN_API_KEY (the
    command's `--key`). With `roles`, the principal must hold one of them (or admin). Raises
    AuthenticationError with a message fit for the terminal; record `principal.actor`.
    """
    keys_file = keys_file or os.environ.get(KEYS_FILE_ENV) or None
    key = key or os.environ.get(API_KEY_ENV) or None
    if keys_file is None:
        raise AuthenticationError(
            f"this command changes state and needs an API key checked against the keys file; "
            f"set {KEYS_FILE_ENV} (or pass the keys file) and pass --key or set {API_KEY_ENV}")
    if not key:
        raise AuthenticationError(f"this command needs an API key: pass --key or set {API_KEY_ENV}")
    try:
        store = KeyStore.from_file(keys_file)
    except AuthConfigError as exc:
        raise AuthenticationError(str(exc)) from exc
    principal = store.authenticate(key)
    if principal is None:
        raise AuthenticationError(f"the API key is not in {keys_file} (revoked or mistyped); "
                                  "ask the operator for a key (`guardian keys add`)")
    if roles and not allowed(principal, tuple(roles)):
        raise AuthenticationError(f"API key '{principal.name}' has role '{principal.role}'; this "
                                  f"command needs one of: {', '.join(roles)} (or admin)")
    return principal
