"""The demo draft/target pair: a real, offline-buildable pair trained on the stdlib's source.

Public API:
  ensure_demo_pair(home=None, *, progress=True) -> DemoPairPaths  (builds on first use)
  build_demo_pair(out_dir, *, seed=0, progress=True) -> DemoPairPaths
  heldout_prompts(n=32, *, seed=0, prompt_tokens=(48, 96)) -> list[str]
  train_texts() / heldout_texts() -> list[str]
Command line: `python -m engine.demo_pair build|eval`.
"""

from engine.demo_pair.build import (
    BUILD_VERSION,
    DemoPairPaths,
    build_demo_pair,
    demo_pair_dir,
    ensure_demo_pair,
    resolve_home,
)
from engine.demo_pair.corpus import heldout_prompts, heldout_texts, is_heldout, train_texts

__all__ = [
    "BUILD_VERSION",
    "DemoPairPaths",
    "build_demo_pair",
    "demo_pair_dir",
    "ensure_demo_pair",
    "heldout_prompts",
    "heldout_texts",
    "is_heldout",
    "resolve_home",
    "train_texts",
]
