"""Fixtures: tiny random draft/target pairs saved to temp dirs and loaded with load_pair.

Models are a few hundred KB so every test runs in well under a second; weights use a
larger init scale than usual so random logits have clear argmax margins (fp32 rounding
differences between a 1-token and a (gamma+1)-token forward must not flip a greedy pick).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from transformers import (
    PreTrainedTokenizerFast,
)

from engine import Pair, load_pair
from tests.support.tiny_models import (  # noqa: F401  (helpers, importable from here too)
    CORPUS,
    PROMPTS,
    TEMPLATE,
    build_tokenizer,
    make_model,
    perturb,
    save,
    save_tiny_pair,
)


@pytest.fixture(scope="session")
def tokenizer() -> PreTrainedTokenizerFast:
    return build_tokenizer()


@pytest.fixture(scope="session")
def model_dirs(tmp_path_factory, tokenizer) -> Callable[[str], Path]:
    """name -> saved model dir. Names: '<arch>-target', '<arch>-draft', '<arch>-close'."""
    root = tmp_path_factory.mktemp("models")
    cache: dict[str, Path] = {}
    eos_id = tokenizer.eos_token_id
    vocab = len(tokenizer)

    def get(name: str) -> Path:
        if name not in cache:
            arch, kind = name.split("-")
            if kind == "target":
                model = make_model(arch, vocab, 3, seed=1, eos_id=eos_id)
            elif kind == "draft":
                model = make_model(arch, vocab, 1, seed=2, eos_id=eos_id)
            elif kind == "close":
                model = perturb(make_model(arch, vocab, 3, seed=1, eos_id=eos_id), 0.05, seed=3)
            else:
                raise ValueError(name)
            cache[name] = save(model, tokenizer, root / name)
        return cache[name]

    return get


@pytest.fixture(scope="session")
def load(model_dirs) -> Callable[[str, str], Pair]:
    pairs: dict[tuple[str, str], Pair] = {}

    def get(draft: str, target: str) -> Pair:
        if (draft, target) not in pairs:
            pairs[draft, target] = load_pair(model_dirs(draft), model_dirs(target), device="cpu")
        return pairs[draft, target]

    return get


@pytest.fixture(scope="session")
def llama_pair(load) -> Pair:
    """Independent random draft and target: they disagree most of the time."""
    return load("llama-draft", "llama-target")


@pytest.fixture(scope="session")
def self_pair(load) -> Pair:
    """draft == target: every draft token is accepted (bonus path)."""
    return load("llama-target", "llama-target")


@pytest.fixture(scope="session")
def close_pair(load) -> Pair:
    """Draft is a perturbed copy of the target: partial acceptance."""
    return load("llama-close", "llama-target")
