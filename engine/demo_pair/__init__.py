"""The demo draft/target pair: a real, offline-buildable pair trained on the stdlib's source.

Public API:
  ensure_demo_pair(home, *, progress=True) -> DemoPairPaths  (builds on first use; `home`
      comes from the caller, e.g. the sidecar's settings — no environment read here)
  build_demo_pair(out_dir, *, seed=0, progress=True) -> DemoPairPaths
  heldout_prompts(n=32, *, seed=0, prompt_tokens=(48, 96)) -> list[str]
  train_texts() / heldout_texts() -> list[str]
Command line: `python -m engine.demo_pair build|eval`.

Names are imported lazily so that importing the package (e.g. for `python -m`) does not load
torch before the entry point has configured OpenMP.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "BUILD_VERSION": "engine.demo_pair.build",
    "DemoPairPaths": "engine.demo_pair.build",
    "build_demo_pair": "engine.demo_pair.build",
    "demo_pair_dir": "engine.demo_pair.build",
    "ensure_demo_pair": "engine.demo_pair.build",
    "resolve_home": "engine.demo_pair.build",
    "heldout_prompts": "engine.demo_pair.corpus",
    "heldout_texts": "engine.demo_pair.corpus",
    "is_heldout": "engine.demo_pair.corpus",
    "train_texts": "engine.demo_pair.corpus",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
