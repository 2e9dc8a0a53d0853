"""Which implementation of the audit hot loops runs: the C accelerator or pure Python.

`guardian.audit._seal` (guardian/audit/_seal.c, built by `pip install` where a C compiler and
OpenSSL's headers are found) does the per-token sealing and the Merkle frontier's appends;
`guardian.audit.rows` / `guardian.audit.merkle` hold the pure-Python reference, which runs
when the extension was not built or `GUARDIAN_AUDIT_PURE_PYTHON=1` (read at import). Both
produce the same lines and hashes (tests/guardian/audit/test_native.py).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any

__all__ = ["implementation", "merkle_extend", "seal_tokens"]

log = logging.getLogger(__name__)

seal_tokens: Callable[..., tuple[str, list[bytes], str, int]] | None = None
merkle_extend: Callable[[list[bytes], int, Any], int] | None = None

if os.environ.get("GUARDIAN_AUDIT_PURE_PYTHON", "") not in ("1", "true", "yes"):
    try:
        from guardian.audit._seal import merkle_extend, seal_tokens  # type: ignore[no-redef]
    except ImportError:  # not built here (no compiler / OpenSSL headers): same output, slower
        log.debug("guardian.audit._seal not built: the pure-Python audit sealer runs")


def implementation() -> str:
    """"c" or "python": reported by `guardian bench audit` beside its figures."""
    return "c" if seal_tokens is not None else "python"
