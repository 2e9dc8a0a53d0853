"""Speculative decoding engine: load a draft/target pair, decode, trace every token.

Pure inference (torch + transformers); imports nothing from guardian or dashboard.
"""

from engine.api import chat_prompt, generate
from engine.compat import IncompatiblePairError, PairIdentity
from engine.loading import Pair, load_pair
from engine.scoring import TargetScore, score_target
from engine.trace import GenerationResult, GenerationStats, TokenTrace

__all__ = [
    "GenerationResult",
    "GenerationStats",
    "IncompatiblePairError",
    "Pair",
    "PairIdentity",
    "TargetScore",
    "TokenTrace",
    "chat_prompt",
    "generate",
    "load_pair",
    "score_target",
]
