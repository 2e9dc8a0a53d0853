"""Redaction modes, applied by the writer before anything is hashed or stored.

| mode       | text                      | token ids (request + per-token) | per-token hash |
|------------|---------------------------|---------------------------------|----------------|
| `full`     | stored                    | stored                          | -              |
| `hashed`   | keyed hash only           | not stored (ids reveal the text)| keyed hash     |
| `redacted` | PII patterns masked       | not stored (ids reveal the text)| -              |
| `none`     | not stored                | not stored                      | -              |

Hashes are keyed BLAKE2b with `GUARDIAN_AUDIT_SALT`; a per-token hash also covers request id
and position, so equal tokens do not hash equal across a request or across requests
(no frequency analysis) and nobody without the key can brute-force the small vocabulary.
Outside `full` mode only scalar numeric/bool request params are kept: string params such as
stop sequences could carry prompt text.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

MODES = ("full", "hashed", "redacted", "none")

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
    return hashlib.blake2b(data.encode(), key=key, digest_size=32).hexdigest()


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise ValueError(f"unknown redaction mode {mode!r}; use one of {', '.join(MODES)}")
    return mode


def redact_text(mode: str, key: bytes, text: str | None) -> tuple[str | None, str | None]:
    """(stored text, stored hash) for one prompt/completion under `mode`."""
    if text is None or mode == "none":
        return None, None
    if mode == "full":
        return text, None
    if mode == "hashed":
        return None, keyed_hash(key, text)
    return mask_pii(text), None


def redact_params(mode: str, params: dict[str, Any]) -> dict[str, Any]:
    if mode == "full":
        return dict(params)
    return {k: v for k, v in params.items() if v is None or isinstance(v, bool | int | float)}
