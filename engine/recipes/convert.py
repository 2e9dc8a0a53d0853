"""From a GGUF-loaded model to plain local Hugging Face directories, and drafts cut from it.

transformers loads a GGUF file by de-quantizing it into an ordinary float model, but the
result keeps `quantization_config` (quant_method "gguf") and `save_pretrained` refuses it.
`plain_copy` builds a fresh model of the same config without that entry and copies the state
dict into it: the same tensors, saved as safetensors like any other model (tied weights stay
tied: the fresh model ties them and the copied values are the same).

`truncated` cuts a draft out of a target: its first k decoder layers (optionally followed by
some of its last ones: layer skipping), the final norm and the tied head, all copied, so a
draft starts as an early exit of the target before any distillation.
"""

from __future__ import annotations

import copy
import logging
from pathlib import Path

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, PreTrainedModel, PreTrainedTokenizerBase

logger = logging.getLogger(__name__)


def load_gguf(directory: Path, gguf_file: str) -> tuple[PreTrainedModel, PreTrainedTokenizerBase]:
    """The de-quantized float32 model and its tokenizer (with the chat template) from a GGUF
    file (needs the `gguf` package)."""
    model = AutoModelForCausalLM.from_pretrained(directory, gguf_file=gguf_file,
                                                 dtype=torch.float32)
    tokenizer = AutoTokenizer.from_pretrained(directory, gguf_file=gguf_file)
    return model.eval(), tokenizer


def _plain_config(config):  # PretrainedConfig -> PretrainedConfig
    config = copy.deepcopy(config)
    for attr in ("quantization_config", "_pre_quantization_dtype"):
        if hasattr(config, attr):
            delattr(config, attr)
    config.dtype = torch.float32
    return config


def plain_copy(model: PreTrainedModel, name: str | None = None) -> PreTrainedModel:
    """A fresh model of `model`'s config, minus its quantization entry, holding its tensors."""
    config = _plain_config(model.config)
    if name is not None:
        config._name_or_path = name
    fresh = type(model)(config)
    missing, unexpected = fresh.load_state_dict(model.state_dict(), strict=False)
    # A tied head appears under one name only; anything else missing is a real mismatch.
    missing = [k for k in missing if not (k == "lm_head.weight" and config.tie_word_embeddings)]
    if missing or unexpected:
        raise ValueError(f"state dict does not fit a fresh {type(model).__name__}: missing "
                         f"{missing[:5]}, unexpected {unexpected[:5]}")
    fresh.tie_weights()
    fresh.generation_config = copy.deepcopy(model.generation_config)
    return fresh.eval()


def truncated(target: PreTrainedModel, first: int, last: int = 0,
              name: str | None = None) -> PreTrainedModel:
    """A draft of the target's first `first` decoder layers then its last `last` ones, its
    final norm and its (tied) head, copied: an early exit of the target."""
    layers = target.config.num_hidden_layers
    if not (first >= 1 and last >= 0 and first + last <= layers):
        raise ValueError(f"cannot take {first} first + {last} last of {layers} layers")
    keep = list(range(first)) + list(range(layers - last, layers))
    config = _plain_config(target.config)
    config.num_hidden_layers = len(keep)
    if getattr(config, "layer_types", None) is not None:
        config.layer_types = [config.layer_types[i] for i in keep]
    if name is not None:
        config._name_or_path = name
    draft = type(target)(config)
    source = target.state_dict()
    state = {}
    for key, value in source.items():
        parts = key.split(".")
        if len(parts) > 2 and parts[1] == "layers":
            index = int(parts[2])
            if index not in keep:
                continue
            parts[2] = str(keep.index(index))
        state[".".join(parts)] = value.clone()
    missing, unexpected = draft.load_state_dict(state, strict=False)
    missing = [k for k in missing if not (k == "lm_head.weight" and config.tie_word_embeddings)]
    if missing or unexpected:
        raise ValueError(f"truncated state dict does not fit: missing {missing[:5]}, "
                         f"unexpected {unexpected[:5]}")
    draft.tie_weights()
    draft.generation_config = copy.deepcopy(target.generation_config)
    return draft.eval()


def save_model_dir(model: PreTrainedModel, tokenizer: PreTrainedTokenizerBase, out: Path) -> None:
    """A local HF directory: config, generation config, safetensors weights, tokenizer and
    chat template (what engine.loading.load_pair and engine.compat read)."""
    model.save_pretrained(out, safe_serialization=True)
    tokenizer.save_pretrained(out)
