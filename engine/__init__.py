"""Speculative decoding engine: load a draft/target pair, decode, trace every token.

Pure inference (torch + transformers); imports nothing from guardian or dashboard.

The public names below are loaded on first use (PEP 562), so `import engine.metrics` (the
torch-free counters module the dashboard and database-only CLI commands use) does not pull
in torch and transformers.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "chat_prompt": "engine.api",
    "generate": "engine.api",
    "IncompatiblePairError": "engine.compat",
    "PairIdentity": "engine.identity",
    "identify_pair": "engine.compat",
    "SpecCounters": "engine.metrics",
    "PROPOSER_KINDS": "engine.proposers",
    "ProposerKind": "engine.proposers",
    "Pair": "engine.loading",
    "load_pair": "engine.loading",
    "TargetScore": "engine.scoring",
    "score_draft": "engine.scoring",
    "score_target": "engine.scoring",
    "GenerationResult": "engine.trace",
    "GenerationStats": "engine.trace",
    "TokenTrace": "engine.trace",
}

__all__ = [
    "PROPOSER_KINDS", "GenerationResult", "GenerationStats", "IncompatiblePairError", "Pair",
    "PairIdentity", "ProposerKind", "SpecCounters", "TargetScore", "TokenTrace", "chat_prompt",
    "generate", "identify_pair", "load_pair", "score_draft", "score_target",
]

if TYPE_CHECKING:
    from engine.api import chat_prompt, generate
    from engine.compat import IncompatiblePairError, identify_pair
    from engine.identity import PairIdentity
    from engine.loading import Pair, load_pair
    from engine.metrics import SpecCounters
    from engine.proposers import PROPOSER_KINDS, ProposerKind
    from engine.scoring import TargetScore, score_draft, score_target
    from engine.trace import GenerationResult, GenerationStats, TokenTrace


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
