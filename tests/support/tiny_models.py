"""Helpers shared by the tests (from tests/engine/conftest.py, where its fixtures stay)."""

from __future__ import annotations

import copy
from pathlib import Path

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import (
    AutoModelForCausalLM,
    GPT2Config,
    LlamaConfig,
    PreTrainedModel,
    PreTrainedTokenizerFast,
    Qwen2Config,
)

# Tiny models are dominated by per-op overhead; with the CPU shared by other jobs, extra
# intra-op threads only spin and wait (measured: 25 ms vs 0.5 ms per forward).
torch.set_num_threads(1)


EOS, PAD = "<|endoftext|>", "<|pad|>"


TEMPLATE = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
            "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


CORPUS = [
    "def add(a, b):\n    return a + b\n",
    "for i in range(10):\n    print(i * i)\n",
    "the quick brown fox jumps over the lazy dog. ",
    "class Point:\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n",
    "speculative decoding drafts tokens and the target verifies them. ",
] * 20


PROMPTS = ["def add(a, b):", "the quick", "for i in", "class Point:\n", "x", "speculative dec",
           "return a + b\nprint(", "the lazy dog jumps over the quick fox and"]


def build_tokenizer(extra_tokens: tuple[str, ...] = (), template: str | None = TEMPLATE,
                    eos: str = EOS) -> PreTrainedTokenizerFast:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    specials = [EOS, PAD, "<|im_start|>", "<|im_end|>", *extra_tokens]
    if eos not in specials:
        specials.append(eos)
    trainer = trainers.BpeTrainer(vocab_size=320, min_frequency=2, special_tokens=specials,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tok.train_from_iterator(CORPUS, trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token=EOS, eos_token=eos,
                                   pad_token=PAD)
    fast.chat_template = template
    return fast


def make_model(arch: str, vocab: int, layers: int, seed: int, eos_id: int,
               positions: int = 256) -> PreTrainedModel:
    torch.manual_seed(seed)
    common = dict(vocab_size=vocab, bos_token_id=eos_id, eos_token_id=eos_id,
                  initializer_range=0.3)
    if arch == "llama":
        cfg = LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=layers,
                          num_attention_heads=4, num_key_value_heads=2,
                          max_position_embeddings=positions, **common)
    elif arch == "qwen2":
        cfg = Qwen2Config(hidden_size=64, intermediate_size=128, num_hidden_layers=layers,
                          num_attention_heads=4, num_key_value_heads=2,
                          max_position_embeddings=positions, **common)
    elif arch == "gpt2":
        cfg = GPT2Config(n_embd=64, n_layer=layers, n_head=4, n_positions=positions, **common)
    else:
        raise ValueError(arch)
    return AutoModelForCausalLM.from_config(cfg).eval()


def perturb(model: PreTrainedModel, scale: float, seed: int) -> PreTrainedModel:
    """A copy of `model` with Gaussian noise on every weight: a draft that mostly agrees."""
    noisy = copy.deepcopy(model)
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for param in noisy.parameters():
            param.add_(torch.randn(param.shape, generator=gen) * scale * param.std())
    return noisy


def save(model: PreTrainedModel, tok: PreTrainedTokenizerFast, path: Path) -> Path:
    model.save_pretrained(path)
    tok.save_pretrained(path)
    return path


def save_tiny_pair(root: Path, positions: int = 256) -> tuple[Path, Path]:
    """A 3-layer random llama target and a close draft (5 % noise) saved under `root`
    -> (draft dir, target dir): the sidecar tests' real pair, built in seconds.
    `positions`: its context (a tools prompt needs more than the default)."""
    tok = build_tokenizer()
    target = make_model("llama", len(tok), 3, seed=1, eos_id=tok.eos_token_id,
                        positions=positions)
    draft = perturb(target, 0.05, seed=3)
    return save(draft, tok, root / "draft"), save(target, tok, root / "target")
