"""What every policy model shares: strict validation and the error a bad policy raises."""

from __future__ import annotations

import logging
import re
import unicodedata
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict

from guardian.core.limits import MAX_NEW_TOKENS, MAX_WAIT_S  # noqa: F401  (MAX_NEW_TOKENS re-exported)

logger = logging.getLogger(__name__)


class PolicyError(ValueError):
    """A policy file that cannot be read or does not validate; the message says where."""


class Strict(BaseModel):
    # Unknown keys are typos in an operator-edited file: reject them instead of ignoring.
    # .inf / .nan are valid YAML floats but no threshold, window or rate means them (and
    # `policy show --json` would print JSON that is not JSON).
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


def renamed_field(data: Any, old: str, new: str, why: str) -> Any:
    """Accept a field's old name in an operator's file for one release, saying so once per
    load; both names at once is an error (which one would be meant?)."""
    if isinstance(data, dict) and old in data:
        if new in data:
            raise ValueError(f"both {old!r} and {new!r} given; keep {new!r} ({why})")
        logger.warning("policy field %r is deprecated, read as %r: %s", old, new, why)
        data = {**data, new: data[old]}
        del data[old]
    return data


# Characters no policy value means: C0/C1 controls and DEL (a terminal escape, a newline that
# forges a log line), lone surrogates (not encodable: the audit write of the policy fails), and
# the bidirectional controls that make text display in another order than it is read
# ("Trojan Source", CVE-2021-42574): a route or model name must look like what it is.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
FORBIDDEN_CHARS = re.compile(f"[\x00-\x1f\x7f-\x9f{BIDI_CONTROLS}\ud800-\udfff]")
BIDI_CHARS = re.compile(f"[{BIDI_CONTROLS}]")


def describe_char(ch: str) -> str:
    """`U+202E` and, where Python knows it, the character's name."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}{' ' + name if name else ''}"


def check_text(value: str) -> str:
    """`value` unless it holds a control, bidi or surrogate character (ValueError says which)."""
    bad = FORBIDDEN_CHARS.search(value)
    if bad is not None:
        raise ValueError(f"contains the character {describe_char(bad.group())} at "
                         f"position {bad.start()}: policy values are plain printable text "
                         "(no control, bidi or surrogate)")
    return value


def check_http_url(value: str, *, allow_query: bool) -> str:
    """An http(s) URL with a host, a valid port and no credentials (ValueError says why not).

    Credentials are refused because the policy is not a secret: it is hashed, shown by `policy
    show`, stored with every version in the audit database and copied into `policy_loaded`
    events."""
    check_text(value)
    if any(c.isspace() for c in value):
        raise ValueError("an http:// or https:// URL without spaces")
    u = urlsplit(value)
    if u.scheme.lower() not in ("http", "https") or not u.hostname:
        raise ValueError("an http:// or https:// URL with a host")
    try:
        u.port  # noqa: B018  (raises ValueError for a port that is not 0-65535)
    except ValueError:
        raise ValueError("the URL's port is not a number from 1 to 65535") from None
    if u.port == 0:
        raise ValueError("the URL's port is not a number from 1 to 65535")
    if u.username is not None or u.password is not None:
        raise ValueError("credentials in the URL (user:password@) would be stored and shown "
                         "with the policy; the policy is not a secret, remove them")
    if u.fragment or (u.query and not allow_query):
        raise ValueError("a base URL without ?query or #fragment")
    return value


# Upper bounds: far above any sensible setting, below what breaks the code reading them. A
# threading wait longer than `threading.TIMEOUT_MAX` (~292 years) raises OverflowError in the
# waiting thread (1e300 as `evaluation_interval_s` silently killed the rollback controller),
# `timedelta` overflows near 1e14 s, a deque's maxlen must fit a C ssize_t, and a gamma bound
# in the millions makes every goodput decision loop over that many depths.
MAX_PERIOD_S = 366 * 86400.0  # windows, cool-downs, canary steps: a year
MAX_INTERVAL_S = MAX_WAIT_S  # evaluation periods, timeouts, breaker resets: a day
MAX_WINDOW = 100_000  # observations kept per series / drafted tokens per window
MAX_COUNT = 1_000_000  # min_samples and other counts of evidence
MAX_FAILURE_LIMIT = 10_000
