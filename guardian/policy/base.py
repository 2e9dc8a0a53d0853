"""What every policy model shares: strict validation and the error a bad policy raises."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class PolicyError(ValueError):
    """A policy file that cannot be read or does not validate; the message says where."""


class Strict(BaseModel):
    # Unknown keys are typos in an operator-edited file: reject them instead of ignoring.
    model_config = ConfigDict(extra="forbid", frozen=True)
