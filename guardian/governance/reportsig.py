"""Signed gate reports: a database row alone cannot grant speculation.

Someone with write access to the audit database but no key can insert a `gate_result` row
that looks exactly like a passing report. The audit trail catches that after the fact (signed
tree heads); this module keeps the sidecar from *acting* on it. It owns:

* `sign_report(details, signer)`: the replica (or `guardian gate`) signs each report it
  records with its Ed25519 audit key (`guardian.audit.signing.Signer`): `details["signature"]
  = {format, key_id, signed_at, sig}` over `report_body`, a canonical JSON of the fields that
  decide speculation (pair_hash, policy_hash, passed, created_at, golden_sha256, checks) and
  the signing time;
* `signature_problem(details, trust)`: why a report read from the database does not verify
  against a key pinned in the trust file (`proofcheck.trusted_key`: a retired key verifies
  only reports it signed before its `not_after`), or None;
* `current_trust()` / `current_signer()`: the trust file and signing key of this home
  (`guardian.audit.signing.key_paths`), the trust file re-read only when it changes.

Checking is `guardian.governance.gatecheck`'s: an unsigned or badly signed report counts as
no report. Like a signed head, a report carries its own signing time, so whoever still holds
a retired private key can sign reports dated before its retirement: destroy retired keys.
"""

from __future__ import annotations

import json
import logging
import math
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from guardian.audit.proofcheck import ProofError, SignatureMismatch, verify_signed
from guardian.core.fileio import FileSignature, file_signature

if TYPE_CHECKING:
    from guardian.audit.signing import Signer

logger = logging.getLogger(__name__)

SIGNATURE_FORMAT = "guardian-gate-report-sig/v1"
SIGNED_FIELDS = ("pair_hash", "policy_hash", "passed", "created_at", "golden_sha256", "checks")
# An admin override of the gate (`gatecheck.speculation_evidence`), signed the same way so a
# route state it turned speculative keeps serving: the override binds route, pair and policy.
OVERRIDE_FORMAT = "guardian-gate-override-sig/v1"
OVERRIDE_FIELDS = ("route", "pair_hash", "policy_hash", "by", "reason")
# A `route_state` row that turns speculation on, and every `canary_state` row, signed by the
# act that wrote it (`guardian.governance.statesig`): a database writer cannot forge one, and
# a copy of an older genuine one is older than the rollback it would undo.
STATE_FORMAT = "guardian-route-state-sig/v1"
STATE_FIELDS = ("route", "mode", "version", "pair_hash", "policy_hash", "reason", "updated_by",
                "canary_run")
CANARY_FORMAT = "guardian-canary-state-sig/v1"
CANARY_FIELDS = ("route", "run", "status", "steps", "step_index", "weight_pct", "pair_hash",
                 "version", "updated_by")
_FIELDS = {SIGNATURE_FORMAT: SIGNED_FIELDS, OVERRIDE_FORMAT: OVERRIDE_FIELDS,
           STATE_FORMAT: STATE_FIELDS, CANARY_FORMAT: CANARY_FIELDS}


def _canonical(value: Any) -> Any:
    """JSON values whose text survives a round trip through SQLite JSON and Postgres JSONB:
    every number as a float's repr (JSONB may turn 1.0 into 1), non-finite ones as text."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        f = float(value)
        return repr(f) if math.isfinite(f) else f"nonfinite:{f!r}"
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return f"unsupported:{type(value).__name__}"


def report_body(details: dict[str, Any], *, key_id: str, signed_at: str,
                fmt: str = SIGNATURE_FORMAT) -> bytes:
    """The exact bytes a report's (or, `fmt=OVERRIDE_FORMAT`, an override's) signature covers."""
    doc = {"format": fmt, "key_id": key_id, "signed_at": signed_at,
           "report": {k: _canonical(details.get(k)) for k in _FIELDS[fmt]}}
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def sign_report(details: dict[str, Any], signer: Signer, *,
                fmt: str = SIGNATURE_FORMAT) -> dict[str, Any]:
    """`details` with its `signature` added (a copy; `details` is not changed)."""
    signed_at = datetime.now(UTC).isoformat(timespec="microseconds")
    sig = signer.sign(report_body(details, key_id=signer.key_id, signed_at=signed_at, fmt=fmt))
    return {**details, "signature": {"format": fmt, "key_id": signer.key_id,
                                     "signed_at": signed_at, "sig": sig}}


def signature_problem(details: dict[str, Any], trust: dict[str, Any], *,
                      fmt: str = SIGNATURE_FORMAT) -> str | None:
    """Why `details` (a gate report read from the database) does not verify, or None."""
    sig = details.get("signature")
    if sig is None:
        return "the report carries no signature (recorded before reports were signed, or " \
               "written into the database by hand)"
    if not isinstance(sig, dict) or sig.get("format") != fmt or not all(
            isinstance(sig.get(k), str) for k in ("key_id", "signed_at", "sig")):
        return "the report's signature field is malformed"
    mismatch = f"the signature by key {sig['key_id']} does not match the report's content"
    try:
        body = report_body(details, key_id=sig["key_id"], signed_at=sig["signed_at"], fmt=fmt)
        verify_signed(trust, sig["key_id"], sig["signed_at"], sig["sig"], body)
    except SignatureMismatch:
        return mismatch
    except ProofError as exc:  # the key is not pinned, or not for that time
        return str(exc)
    except (ValueError, TypeError):
        return mismatch
    return None


_trust_cache: dict[Path, tuple[FileSignature | None, dict[str, Any]]] = {}


def trust_path() -> Path:
    from guardian.audit.signing import key_paths
    from guardian.settings import get_settings

    return key_paths(get_settings())[1]


def current_trust(path: Path | None = None) -> dict[str, Any]:
    """The pinned keys of this home's trust file (re-read when it changed:
    `guardian.core.fileio.file_signature`, as the API keys file is). Raises
    `guardian.audit.signing.SigningError` when it exists but cannot be read."""
    from guardian.audit.signing import load_trust

    path = path or trust_path()
    stamp = file_signature(path)
    cached = _trust_cache.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    doc = load_trust(path, missing_ok=True)
    _trust_cache[path] = (stamp, doc)
    return doc


def current_signer(replica: str) -> Signer | None:
    """This home's audit signing key (generated where `signer_for` may), or None with the
    reason logged: a report recorded then cannot grant speculation."""
    from guardian.audit.signing import SigningError, signer_for
    from guardian.settings import get_settings

    try:
        return signer_for(get_settings(), replica)
    except SigningError as exc:
        logger.error("%s; the gate report is recorded UNSIGNED and cannot grant speculation "
                     "(a database row alone never does)", exc)
        return None
