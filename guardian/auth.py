"""API keys with roles.

Owns key hashing, the keys file, and the role check; the FastAPI dependency that applies it
lives in `guardian.api.deps`. Roles:

- `inference`  — proxies: completions, chat, models, the shadow mirror
- `compliance` — audit read/export
- `oncall`     — metrics, route state, rollback / re-enable
- `release`    — promotions
- `admin`      — everything

Keys are random 32-byte tokens, so a plain SHA-256 digest is enough to store them (no
password stretching needed: there is nothing to brute-force). Only digests are kept, in a
YAML file (`GUARDIAN_API_KEYS_FILE`):

    keys:
      - {name: proxy-1, role: inference, sha256: 5e88...}

With no keys file the sidecar runs *open* (every caller is admin) — allowed only when bound
to a loopback address, and logged loudly; on any other address it refuses to start.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

import yaml

logger = logging.getLogger(__name__)

Role = Literal["inference", "compliance", "oncall", "release", "admin"]
ROLES: tuple[str, ...] = get_args(Role)
KEY_PREFIX = "sg-"


class AuthConfigError(ValueError):
    """The keys file is missing/invalid, or open mode was asked for on a public address."""


@dataclass(frozen=True, slots=True)
class Principal:
    name: str
    role: Role

    @property
    def actor(self) -> str:
        return f"api-key:{self.name}"


OPEN_PRINCIPAL = Principal(name="open-localhost", role="admin")


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class KeyStore:
    """Digest -> principal. `open_mode` admits everyone as admin (localhost quickstart only)."""

    def __init__(self, entries: dict[str, Principal] | None = None, *, open_mode: bool = False):
        self._by_digest = dict(entries or {})
        self.open_mode = open_mode

    @classmethod
    def from_file(cls, path: Path | str) -> KeyStore:
        path = Path(path)
        try:
            raw = yaml.safe_load(path.read_text()) or {}
        except OSError as exc:
            raise AuthConfigError(f"cannot read API keys file {path}: {exc.strerror}") from exc
        except yaml.YAMLError as exc:
            raise AuthConfigError(f"API keys file {path} is not valid YAML: {exc}") from exc
        entries: dict[str, Principal] = {}
        for i, item in enumerate(raw.get("keys") or []):
            try:
                name, role, digest = str(item["name"]), item["role"], str(item["sha256"]).lower()
            except (KeyError, TypeError) as exc:
                raise AuthConfigError(f"{path}: keys[{i}] needs name, role and sha256") from exc
            if role not in ROLES:
                raise AuthConfigError(f"{path}: keys[{i}] ({name}) has role {role!r}; "
                                      f"use one of {', '.join(ROLES)}")
            if len(digest) != 64:
                raise AuthConfigError(f"{path}: keys[{i}] ({name}) sha256 must be 64 hex chars")
            entries[digest] = Principal(name, role)
        logger.info("loaded %d API keys from %s", len(entries), path)
        return cls(entries)

    @classmethod
    def for_server(cls, keys_file: Path | str | None, host: str) -> KeyStore:
        """Keys from `keys_file`, or open mode when none is configured and `host` is loopback."""
        if keys_file:
            return cls.from_file(keys_file)
        if not is_loopback(host):
            raise AuthConfigError(
                f"no API keys configured and host {host!r} is not loopback; set "
                "GUARDIAN_API_KEYS_FILE (create keys with `python -m guardian.auth add`) "
                "or bind to 127.0.0.1")
        logger.warning("AUTH IS OFF: no API keys configured; serving OPEN on loopback %s — every "
                       "caller is admin. Set GUARDIAN_API_KEYS_FILE before exposing this sidecar.",
                       host)
        return cls(open_mode=True)

    def add(self, key: str, name: str, role: Role) -> None:
        self._by_digest[hash_key(key)] = Principal(name, role)

    def authenticate(self, key: str | None) -> Principal | None:
        if self.open_mode:
            return OPEN_PRINCIPAL
        if not key:
            return None
        digest = hash_key(key)
        for known, principal in self._by_digest.items():
            # constant-time compare: don't leak how much of a digest matched
            if hmac.compare_digest(known, digest):
                return principal
        return None


def allowed(principal: Principal, roles: tuple[str, ...]) -> bool:
    return principal.role == "admin" or principal.role in roles


def add_key_to_file(path: Path, name: str, role: Role) -> str:
    """Create a key, append its digest to `path`, and return the plaintext (shown once)."""
    if role not in ROLES:
        raise AuthConfigError(f"unknown role {role!r}; use one of {', '.join(ROLES)}")
    raw = (yaml.safe_load(path.read_text()) or {}) if path.exists() else {}
    key = new_key()
    raw.setdefault("keys", []).append({"name": name, "role": role, "sha256": hash_key(key)})
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    return key


def _main() -> None:
    import typer

    def add(keys_file: Path = typer.Option(..., help="YAML file holding key digests."),
            name: str = typer.Option(..., help="Who holds the key (audit actor)."),
            role: str = typer.Option(..., help=f"One of: {', '.join(ROLES)}.")) -> None:
        """Create an API key; prints the key once, stores only its SHA-256."""
        try:
            key = add_key_to_file(keys_file, name, role)  # type: ignore[arg-type]
        except AuthConfigError as exc:
            raise typer.BadParameter(str(exc)) from exc
        typer.echo(key)

    app = typer.Typer(add_completion=False)
    app.command("add")(add)

    @app.callback()
    def _root() -> None:
        """Manage spec-guardian API keys."""

    app()


if __name__ == "__main__":
    _main()
