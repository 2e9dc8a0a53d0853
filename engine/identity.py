"""A model pair's identity: what gates, promotions and the registry bind to.

Computed by engine.compat (hashes of both models' weights, the tokenizer and the chat
template); this module holds only the value type and the comparison, so that database-only
code (the registry, gate-report checks, `guardian route`) can use them without importing
transformers or torch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class PairIdentity:
    pair_hash: str
    draft_hash: str
    target_hash: str
    tokenizer_hash: str
    chat_template_hash: str
    draft_name: str
    target_name: str

    def changes(self, other: PairIdentity | Mapping[str, Any]) -> list[str]:
        """The identity components (by name a reader knows) that differ from `other`,
        a PairIdentity or its dict form as stored in the registry or a gate report."""
        return identity_changes({k: getattr(self, k) for k in _COMPONENTS}, other)


_COMPONENTS = {"draft_hash": "draft weights", "target_hash": "target weights",
               "tokenizer_hash": "tokenizer", "chat_template_hash": "chat template"}


def identity_changes(old: PairIdentity | Mapping[str, Any],
                     new: PairIdentity | Mapping[str, Any]) -> list[str]:
    """The identity components (by name a reader knows) that differ between two identities,
    each a PairIdentity or its dict form as stored in the registry or a gate report."""
    a, b = (x if isinstance(x, Mapping) else {k: getattr(x, k) for k in _COMPONENTS}
            for x in (old, new))
    return [label for key, label in _COMPONENTS.items() if a.get(key) != b.get(key)]
