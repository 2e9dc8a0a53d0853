"""A tiny local pair (2-layer Llama target, a perturbed copy as draft) for CLI tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.tiny_models import build_tokenizer, make_model, perturb, save


@pytest.fixture(scope="session")
def dirs(tmp_path_factory) -> tuple[Path, Path]:
    """(draft_dir, target_dir) saved with save_pretrained."""
    root = tmp_path_factory.mktemp("cli-pair")
    tok = build_tokenizer()
    target = make_model("llama", len(tok), layers=2, seed=0, eos_id=tok.eos_token_id)
    draft = perturb(target, 0.05, seed=1)
    return save(draft, tok, root / "draft"), save(target, tok, root / "target")
