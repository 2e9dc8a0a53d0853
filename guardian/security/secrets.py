"""The sidecar's own secrets file and the rules for when secrets may be missing.

Two secrets protect the audit trail: the salt that keys `hashed` redaction and token hashes
(`GUARDIAN_AUDIT_SALT`; with a known salt a hashed token id is brute-forced over the vocabulary
in milliseconds) and the key that signs chain checkpoints (`GUARDIAN_AUDIT_CHECKPOINT_KEY`).
This module owns:

* the secrets file `<home>/secrets.env` (dotenv lines, mode 0600): `create_secrets_file`
  writes it atomically and never overwrites one; `read_secrets_file` reads it;
* the public development values, usable only in dev mode (`GUARDIAN_DEV_MODE=1`);
* `may_generate`: only the embedded quickstart (default SQLite home, loopback bind) gets its
  secrets generated on first start; anything else must be given them.

Resolution (which source wins) lives in `guardian.audit.config.AuditSettings`.
"""

from __future__ import annotations

import logging
import secrets
from pathlib import Path

from guardian.core.fileio import private_dir, warn_if_shared, write_atomic
from guardian.security.auth import is_loopback

logger = logging.getLogger(__name__)

# Field name on AuditSettings -> environment variable / secrets-file key.
SECRET_VARS: dict[str, str] = {"salt": "GUARDIAN_AUDIT_SALT",
                               "checkpoint_key": "GUARDIAN_AUDIT_CHECKPOINT_KEY"}
# The public values earlier versions used silently; allowed in dev mode only.
DEV_DEFAULTS: dict[str, str] = {"salt": "spec-guardian-dev-salt",
                                "checkpoint_key": "spec-guardian-dev-checkpoint-key"}
MIN_SECRET_CHARS = 16  # below this a secret is guessable, whatever its alphabet
SECRETS_FILE_NAME = "secrets.env"
GENERATE_HINT = ("generate each with `python -c 'import secrets; print(secrets.token_urlsafe(32))'`")


class SecretsError(RuntimeError):
    """The sidecar's secrets are missing or unusable; the message says what to set."""


def new_secret() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def may_generate(database_url: str | None, host: str) -> bool:
    """Secrets are generated only for the embedded quickstart: no database configured (the
    SQLite file under home, which the same file system holds) and a loopback bind."""
    return database_url is None and is_loopback(host)


def read_secrets_file(path: Path) -> dict[str, str]:
    """The `KEY=value` lines of a secrets file ({} when there is none)."""
    from dotenv import dotenv_values

    if not path.is_file():
        return {}
    warn_if_shared(path, "secrets file")
    return {k: v for k, v in dotenv_values(path).items() if v}


def create_secrets_file(path: Path) -> tuple[dict[str, str], bool]:
    """Write fresh secrets to `path` (mode 0600) unless it exists; returns (values, created).

    Atomic: the content goes to a 0600 temporary file in the same directory, which is then
    hard-linked into place. The link fails if `path` exists, so two sidecars starting at once
    never overwrite each other's secrets: the loser reads the winner's file.
    """
    private_dir(path.parent)  # the home, on a first start
    values = {var: new_secret() for var in SECRET_VARS.values()}
    text = ("# spec-guardian secrets, generated on first start. Keep this file: the salt keys\n"
            "# hashed redaction in the audit store, the key signs audit checkpoints.\n"
            "# Environment variables of the same names take precedence.\n"
            + "".join(f"{k}={v}\n" for k, v in values.items()))
    if not write_atomic(path, text, mode=0o600, exclusive=True):
        return read_secrets_file(path), False
    return values, True


def missing_message(missing: list[str], path: Path) -> str:
    names = " and ".join(SECRET_VARS[m] for m in missing)
    return (f"no audit secrets: set {names} ({GENERATE_HINT}), or put them in {path} "
            "(mode 0600); for local development only: GUARDIAN_DEV_MODE=1 / guardian serve --dev")
