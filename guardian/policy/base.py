"""What every policy model shares: strict validation and the error a bad policy raises."""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel, ConfigDict

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
