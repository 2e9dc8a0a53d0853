"""Pair compatibility and identity.

A draft can only speak for a target when both map text to the same token ids, agree on
special tokens and render chats identically; `check_compatible` refuses anything else and
names the first differences it finds. The pair's identity is a sha256 over both models'
weights (tensor by tensor, in name order, so sharding and load dtype do not matter), the
tokenizer (vocabulary, merges, special tokens, normalisation) and the chat template: a gate
result is bound to exactly the bytes that passed.

This module is the one place a pair is identified: `read_pair` opens two model directories
(tokenizers and configs, no weights) and checks them, `identify_pair` gives a pair's identity
without loading a model; `PairIdentity` and `identity_changes` (what differs between two
identities) live in engine/identity.py, importable without transformers.
`engine.load_pair` goes through `read_pair` too, so a backend and the loader cannot disagree.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from transformers import AutoConfig, AutoTokenizer, PretrainedConfig, PreTrainedTokenizerBase

from engine.identity import PairIdentity


class IncompatiblePairError(ValueError):
    """The draft and target cannot be paired; the message names what differs."""


def _examples(items: list[Any], limit: int = 3) -> str:
    shown = ", ".join(repr(x) for x in items[:limit])
    return shown + (", ..." if len(items) > limit else "")


def _vocab_problems(draft: dict[str, int], target: dict[str, int]) -> list[str]:
    only_draft = sorted(set(draft) - set(target))
    only_target = sorted(set(target) - set(draft))
    moved = sorted(t for t in set(draft) & set(target) if draft[t] != target[t])
    problems = []
    if only_draft:
        problems.append(f"{len(only_draft)} token(s) only in the draft vocabulary "
                        f"({_examples(only_draft)})")
    if only_target:
        problems.append(f"{len(only_target)} token(s) only in the target vocabulary "
                        f"({_examples(only_target)})")
    if moved:
        problems.append(f"{len(moved)} token(s) with different ids (" + ", ".join(
            f"{t!r}: draft {draft[t]} vs target {target[t]}" for t in moved[:3]) + ")")
    return problems


def _special_tokens(tok: PreTrainedTokenizerBase) -> dict[str, Any]:
    special = {k: v for k, v in tok.special_tokens_map.items() if v is not None}
    special["ids"] = sorted(tok.all_special_ids)
    return special


def check_compatible(draft_tok: PreTrainedTokenizerBase, target_tok: PreTrainedTokenizerBase,
                     draft_vocab_size: int, target_vocab_size: int) -> None:
    """Raise IncompatiblePairError naming every kind of difference found."""
    problems = _vocab_problems(draft_tok.get_vocab(), target_tok.get_vocab())
    draft_special, target_special = _special_tokens(draft_tok), _special_tokens(target_tok)
    for key in sorted(set(draft_special) | set(target_special)):
        if draft_special.get(key) != target_special.get(key):
            problems.append(f"special token {key!r} differs: draft {draft_special.get(key)!r} "
                            f"vs target {target_special.get(key)!r}")
    if draft_tok.chat_template != target_tok.chat_template:
        problems.append("chat templates differ (draft "
                        f"{_template_digest(draft_tok)[:12]} vs target "
                        f"{_template_digest(target_tok)[:12]})")
    if draft_vocab_size != target_vocab_size:
        problems.append(f"logit vocabulary sizes differ: draft {draft_vocab_size} vs target "
                        f"{target_vocab_size} (config.vocab_size)")
    if problems:
        raise IncompatiblePairError(
            "draft and target are not a compatible pair: " + "; ".join(problems)
            + ". Use a draft trained with the target's tokenizer and chat template.")


def _template_digest(tok: PreTrainedTokenizerBase) -> str:
    template = tok.chat_template
    text = json.dumps(template, sort_keys=True) if isinstance(template, dict) else template or ""
    return hashlib.sha256(text.encode()).hexdigest()


def chat_template_hash(tok: PreTrainedTokenizerBase) -> str:
    return _template_digest(tok)


def tokenizer_hash(tok: PreTrainedTokenizerBase) -> str:
    h = hashlib.sha256()
    backend = getattr(tok, "backend_tokenizer", None)
    if backend is not None:
        # The serialised fast tokenizer holds vocab, merges, normaliser and added tokens;
        # padding/truncation are runtime state that must not change the identity.
        spec = json.loads(backend.to_str())
        spec.pop("padding", None)
        spec.pop("truncation", None)
        h.update(json.dumps(spec, sort_keys=True).encode())
    else:
        h.update(json.dumps(sorted(tok.get_vocab().items())).encode())
    h.update(json.dumps(_special_tokens(tok), sort_keys=True).encode())
    return h.hexdigest()


def _safetensors_entries(path: Path) -> list[tuple[str, str, list[int], Path, int, int]]:
    with path.open("rb") as f:
        (header_len,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(header_len))
    base = 8 + header_len
    return [(name, meta["dtype"], meta["shape"], path, base + meta["data_offsets"][0],
             base + meta["data_offsets"][1])
            for name, meta in header.items() if name != "__metadata__"]


def weights_hash(model_dir: str | Path) -> str:
    """sha256 over every tensor (name, dtype, shape, bytes) in name order."""
    model_dir = Path(model_dir)
    files = sorted(model_dir.glob("*.safetensors"))
    h = hashlib.sha256()
    if not files:
        # Legacy checkpoints: hash the pickled files; stable for a given directory.
        legacy = sorted(model_dir.glob("*.bin"))
        if not legacy:
            raise FileNotFoundError(f"no *.safetensors or *.bin weights in {model_dir}")
        for path in legacy:
            h.update(path.name.encode())
            h.update(path.read_bytes())
        return h.hexdigest()
    entries = sorted((e for f in files for e in _safetensors_entries(f)), key=lambda e: e[0])
    maps: dict[Path, mmap.mmap] = {}
    try:
        for name, dtype, shape, path, start, end in entries:
            if path not in maps:
                with path.open("rb") as f:
                    maps[path] = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            h.update(f"{name}|{dtype}|{shape}|".encode())
            h.update(maps[path][start:end])
    finally:
        for m in maps.values():
            m.close()
    return h.hexdigest()


def pair_identity(draft_dir: str | Path, target_dir: str | Path,
                  tok: PreTrainedTokenizerBase, draft_name: str, target_name: str) -> PairIdentity:
    draft_hash, target_hash = weights_hash(draft_dir), weights_hash(target_dir)
    tok_hash, template_hash = tokenizer_hash(tok), chat_template_hash(tok)
    pair_hash = hashlib.sha256(
        "|".join([draft_hash, target_hash, tok_hash, template_hash]).encode()).hexdigest()
    return PairIdentity(pair_hash=pair_hash, draft_hash=draft_hash, target_hash=target_hash,
                        tokenizer_hash=tok_hash, chat_template_hash=template_hash,
                        draft_name=draft_name, target_name=target_name)


@dataclass(frozen=True, slots=True)
class PairFiles:
    """A checked pair of model directories: tokenizers and configs, no weights loaded."""

    draft_dir: Path
    target_dir: Path
    draft_tokenizer: PreTrainedTokenizerBase
    target_tokenizer: PreTrainedTokenizerBase
    draft_config: PretrainedConfig
    target_config: PretrainedConfig

    def identity(self) -> PairIdentity:
        return pair_identity(self.draft_dir, self.target_dir, self.target_tokenizer,
                             _name(self.draft_config, self.draft_dir),
                             _name(self.target_config, self.target_dir))


def _check_dir(path: Path, role: str) -> None:
    if not path.is_dir():
        raise FileNotFoundError(f"{role} model directory {str(path)!r} does not exist; pass a "
                                "local Hugging Face model directory (config.json + weights)")
    if not (path / "config.json").is_file():
        raise FileNotFoundError(f"{role} model directory {str(path)!r} has no config.json; "
                                "save the model with save_pretrained() first")


def _name(config: PretrainedConfig, path: Path) -> str:
    name = getattr(config, "_name_or_path", "") or ""
    return name if name and not Path(name).is_absolute() else path.name


def read_pair(draft_dir: str | Path, target_dir: str | Path) -> PairFiles:
    """Open and check two model directories. Raises FileNotFoundError for a directory that
    is not a saved Hugging Face model, IncompatiblePairError naming what differs."""
    draft_path, target_path = Path(draft_dir), Path(target_dir)
    _check_dir(draft_path, "draft")
    _check_dir(target_path, "target")
    files = PairFiles(draft_path, target_path,
                      AutoTokenizer.from_pretrained(draft_path),
                      AutoTokenizer.from_pretrained(target_path),
                      AutoConfig.from_pretrained(draft_path),
                      AutoConfig.from_pretrained(target_path))
    check_compatible(files.draft_tokenizer, files.target_tokenizer,
                     files.draft_config.get_text_config(decoder=True).vocab_size,
                     files.target_config.get_text_config(decoder=True).vocab_size)
    return files


def identify_pair(draft_dir: str | Path, target_dir: str | Path) -> PairIdentity:
    """The identity `engine.load_pair` would give this pair, without loading its weights
    into a model (the weights are hashed from disk). Checks compatibility first."""
    return read_pair(draft_dir, target_dir).identity()
