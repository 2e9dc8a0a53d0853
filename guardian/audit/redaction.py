"""Redaction levels (`guardian.core.enums.Redaction`), applied by the writer before anything is
hashed or stored.

| redaction  | text                      | token ids (request + per-token) | per-token hash |
|------------|---------------------------|---------------------------------|----------------|
| `full`     | stored                    | stored                          | -              |
| `hashed`   | keyed hash only           | not stored (ids reveal the text)| keyed hash     |
| `redacted` | PII patterns masked       | not stored (ids reveal the text)| -              |
| `none`     | not stored                | not stored                      | -              |

Hashes are keyed BLAKE2b with `GUARDIAN_AUDIT_SALT`; a per-token hash also covers request id
and position, so equal tokens do not hash equal across a request or across requests
(no frequency analysis) and nobody without the key can brute-force the small vocabulary.
Outside `full` redaction only scalar numeric/bool request params are kept: string params such as
stop sequences could carry prompt text. The attribution params (`ATTRIBUTION_PARAMS`: who sent
the request and why it is on its route) are kept at every level: they hold no prompt text, and
the trail must say who is behind every record.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from guardian.core.enums import REDACTIONS

# Order matters: cards and SSNs before the looser phone pattern.
_PII: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"), "[EMAIL]"),
    (re.compile(r"\b(?:\d[ -]?){13,19}\b"), "[CARD]"),
    (re.compile(r"\b\d{3}-\d{2}-\d{4}\b"), "[SSN]"),
    (re.compile(r"\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b"), "[IP]"),
    (re.compile(r"\b(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}\b"), "[IP]"),
    (re.compile(r"(?<!\w)(?:\+?\d{1,3}[ .-]?)?(?:\(\d{2,4}\)|\d{2,4})[ .-]?\d{3,4}[ .-]?\d{3,4}(?!\w)"),
     "[PHONE]"),
]


def mask_pii(text: str) -> str:
    """Mask emails, card numbers, SSN-like ids, IP addresses and phone numbers."""
    for pattern, repl in _PII:
        text = pattern.sub(repl, text)
    return text


def keyed_hash(key: bytes, data: str) -> str:
    # surrogatepass: total over every str (lone surrogates included); identical bytes for valid
    # text, so hashes of ordinary values are unchanged.
    return hashlib.blake2b(data.encode("utf-8", "surrogatepass"), key=key, digest_size=32).hexdigest()


def check_redaction(redaction: str) -> str:
    if redaction not in REDACTIONS:
        raise ValueError(f"unknown redaction {redaction!r}; use one of {', '.join(REDACTIONS)}")
    return redaction



def redact_text(redaction: str, key: bytes, text: str | None) -> tuple[str | None, str | None]:
    """(stored text, stored hash) for one prompt/completion under `redaction`."""
    if text is None or redaction == "none":
        return None, None
    if redaction == "full":
        return text, None
    if redaction == "hashed":
        return None, keyed_hash(key, text)
    return mask_pii(text), None


# Set by the API from the authenticated key (`guardian.serving.core.GenerationRequest.attribution`).
ATTRIBUTION_PARAMS = frozenset({"principal", "key_id", "route_reason"})


def redact_params(redaction: str, params: dict[str, Any]) -> dict[str, Any]:
    if redaction == "full":
        return dict(params)
    return {k: v for k, v in params.items()
            if v is None or isinstance(v, bool | int | float)
            or (k in ATTRIBUTION_PARAMS and isinstance(v, str))}
