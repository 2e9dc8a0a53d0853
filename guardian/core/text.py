"""Text the sidecar accepts: valid Unicode only (a lone surrogate could not be tokenized,
answered or audited verbatim). Shared by the API's request schemas and the upstream wire
parser, which checks a pool's answers the same way."""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")  # in a Python str, always unpaired


def valid_unicode(value: str) -> str:
    """Reject text that is not valid Unicode (it could not be tokenized, answered or audited
    verbatim)."""
    if _SURROGATE.search(value):
        raise ValueError("contains an unpaired UTF-16 surrogate (e.g. a lone \\ud800 escape), "
                         "which is not valid Unicode; send valid UTF-8 text")
    return value
