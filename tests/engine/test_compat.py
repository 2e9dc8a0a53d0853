"""Pair compatibility errors and the pair's identity hash."""

from __future__ import annotations

import dataclasses
import shutil

import pytest
import torch

from engine import IncompatiblePairError, identify_pair, load_pair
from engine.compat import chat_template_hash, tokenizer_hash, weights_hash
from tests.support.tiny_models import build_tokenizer, make_model, save


@pytest.fixture()
def target_dir(model_dirs):
    return model_dirs("llama-target")


def _draft_with(tmp_path, tok, name="draft"):
    model = make_model("llama", 320, 1, seed=2, eos_id=0)
    return save(model, tok, tmp_path / name)


def test_vocabulary_difference_is_named(tmp_path, target_dir):
    draft = _draft_with(tmp_path, build_tokenizer(extra_tokens=("<|tool|>",)))
    with pytest.raises(IncompatiblePairError, match=r"only in the draft vocabulary.*<\|tool"):
        load_pair(draft, target_dir)


def test_special_token_difference_is_named(tmp_path, target_dir):
    draft = _draft_with(tmp_path, build_tokenizer(eos="<|im_end|>"))
    with pytest.raises(IncompatiblePairError, match="special token 'eos_token' differs"):
        load_pair(draft, target_dir)


def test_chat_template_difference_is_named(tmp_path, target_dir):
    draft = _draft_with(tmp_path, build_tokenizer(template="{{ messages[0]['content'] }}"))
    with pytest.raises(IncompatiblePairError, match="chat templates differ") as err:
        load_pair(draft, target_dir)
    assert "vocabulary" not in str(err.value)  # only the real difference is reported


def test_refused_before_any_weights_are_read(tmp_path, target_dir):
    draft = _draft_with(tmp_path, build_tokenizer(template="other"))
    for weights in draft.glob("*.safetensors"):
        weights.unlink()  # loading weights would now fail with a different error
    with pytest.raises(IncompatiblePairError):
        load_pair(draft, target_dir)


def test_missing_directory_says_what_to_do(tmp_path, target_dir):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_pair(tmp_path / "nope", target_dir)


def test_identity_is_stable_across_loads(model_dirs):
    a = load_pair(model_dirs("llama-draft"), model_dirs("llama-target"))
    b = load_pair(model_dirs("llama-draft"), model_dirs("llama-target"))
    assert a.identity == b.identity
    assert len(a.identity.pair_hash) == 64
    assert a.identity.draft_name == "llama-draft" and a.identity.target_name == "llama-target"
    swapped = load_pair(model_dirs("llama-target"), model_dirs("llama-draft"))
    assert swapped.identity.pair_hash != a.identity.pair_hash


def test_identity_changes_with_one_weight(tmp_path, model_dirs):
    original = model_dirs("llama-target")
    copy = tmp_path / "target-copy"
    shutil.copytree(original, copy)
    assert weights_hash(copy) == weights_hash(original)
    model = make_model("llama", 320, 3, seed=1, eos_id=0)
    with torch.no_grad():
        model.model.layers[1].mlp.up_proj.weight[3, 5] += 1e-3
    save(model, build_tokenizer(), tmp_path / "edited")
    assert weights_hash(tmp_path / "edited") != weights_hash(original)
    edited = load_pair(model_dirs("llama-draft"), tmp_path / "edited")
    base = load_pair(model_dirs("llama-draft"), original)
    assert edited.identity.target_hash != base.identity.target_hash
    assert edited.identity.draft_hash == base.identity.draft_hash
    assert edited.identity.pair_hash != base.identity.pair_hash


def test_identity_changes_with_tokenizer_and_template():
    base = build_tokenizer()
    assert tokenizer_hash(base) == tokenizer_hash(build_tokenizer())
    assert tokenizer_hash(build_tokenizer(extra_tokens=("<|tool|>",))) != tokenizer_hash(base)
    assert tokenizer_hash(build_tokenizer(eos="<|im_end|>")) != tokenizer_hash(base)
    other = build_tokenizer(template="{{ messages }}")
    assert chat_template_hash(other) != chat_template_hash(base)


def test_identity_of_a_pair_with_another_template(tmp_path, model_dirs):
    tok = build_tokenizer(template="{{ messages[0]['content'] }}")
    draft = save(make_model("llama", 320, 1, seed=2, eos_id=0), tok, tmp_path / "d")
    target = save(make_model("llama", 320, 3, seed=1, eos_id=0), tok, tmp_path / "t")
    other = load_pair(draft, target)
    base = load_pair(model_dirs("llama-draft"), model_dirs("llama-target"))
    assert other.identity.draft_hash == base.identity.draft_hash
    assert other.identity.target_hash == base.identity.target_hash
    assert other.identity.chat_template_hash != base.identity.chat_template_hash
    assert other.identity.pair_hash != base.identity.pair_hash


def test_identify_pair_equals_the_loaded_identity_without_loading(tmp_path, model_dirs):
    """A backend identifies a pair on disk with the engine's own function and gets exactly
    what load_pair reports; changes() names the components that differ."""
    base = load_pair(model_dirs("llama-draft"), model_dirs("llama-target")).identity
    assert identify_pair(model_dirs("llama-draft"), model_dirs("llama-target")) == base
    assert base.changes(base) == [] and base.changes(dataclasses.asdict(base)) == []
    other = identify_pair(model_dirs("llama-close"), model_dirs("llama-target"))
    assert base.changes(other) == ["draft weights"]
    assert base.changes({}) == ["draft weights", "target weights", "tokenizer",
                                "chat template"]
    tok = build_tokenizer(template="{{ messages }}")
    draft = save(make_model("llama", 320, 1, seed=2, eos_id=0), tok, tmp_path / "d")
    with pytest.raises(IncompatiblePairError, match="chat templates differ"):
        identify_pair(draft, model_dirs("llama-target"))
    with pytest.raises(FileNotFoundError, match=r"no config\.json"):
        identify_pair(tmp_path, model_dirs("llama-target"))
