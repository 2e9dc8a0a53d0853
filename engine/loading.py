"""Loading a draft/target pair from local Hugging Face model directories.

Tokenizers and configs are checked for compatibility *before* any weights are read, so a
mismatched pair fails in milliseconds with a message naming the difference. Models run on
CUDA in bfloat16 when a GPU is present (without cuDNN attention: engine.attention), else on
CPU in float32, always in eval mode, unless `dtype` asks for another (e.g. bfloat16 on CPU:
a reproduction of the GPU's bf16 rounding noise, `guardian bench tolerance --dtype`); in a
half-precision dtype the output projection runs in float32 (engine.head). On CPU
the float32 Linear weights are stored column-major (engine.layout) unless
`weight_layout="row"`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

import torch
from transformers import (
    AutoModelForCausalLM,
    PretrainedConfig,
    PreTrainedModel,
    PreTrainedTokenizerBase,
)

from engine import packed, static
from engine.attention import avoid_per_shape_attention
from engine.compat import IncompatiblePairError, PairIdentity, read_pair
from engine.head import float32_logits
from engine.layout import WEIGHT_LAYOUTS, column_major_linears

logger = logging.getLogger(__name__)


@dataclass(slots=True)
class Pair:
    draft: PreTrainedModel
    target: PreTrainedModel
    tokenizer: PreTrainedTokenizerBase  # the target's; the draft's was checked identical
    device: torch.device
    dtype: torch.dtype
    identity: PairIdentity
    max_context: int  # min of both models' max positions
    eos_token_ids: set[int] = field(default_factory=set)
    # How the one-at-a-time path keeps its KV caches: "dynamic", "static" or "graphs"
    # (engine.static); set by load_pair's `decode` argument.
    decode: str = "dynamic"
    decode_choice: dict | None = None  # what engine.static.choose measured, when it chose
    # Whether CPU linears of >= 2 rows use oneDNN-packed weights (engine.packed): "packed"
    # or "plain"; set by load_pair's `kernels`, with what "auto" measured.
    kernels: str = "plain"
    kernels_choice: dict | None = None

    def decode_description(self) -> dict:
        """The decode mode and linear kernels, and what their choices measured
        (engine_description's keys)."""
        out: dict = {"decode": self.decode}
        if self.decode_choice is not None:
            out["decode_ms"] = self.decode_choice["ms_by_mode"]
        out["kernels"] = self.kernels
        if self.kernels_choice:
            out["kernels_ms"] = self.kernels_choice["kernels_ms"]
        return out

    @property
    def pad_token_id(self) -> int:
        # Pad columns are masked out, so any valid id will do when the tokenizer has none.
        pad = self.tokenizer.pad_token_id
        if pad is None:
            pad = min(self.eos_token_ids) if self.eos_token_ids else 0
        return pad


def choose_decode(pair: Pair) -> None:
    """Set `pair.decode` to the mode a one-token forward of its target measures fastest
    (engine.static.choose), keeping the figures in `pair.decode_choice`."""
    choice = static.choose(pair.target)
    pair.decode, pair.decode_choice = choice.mode, choice.describe()
    logger.info("decoding with %s caches (one-token forward, ms: %s)", choice.mode,
                choice.ms_by_mode)


def set_kernels(pair: Pair, kernels: str) -> None:
    """Pack the pair's CPU linears ("packed"), leave them plain ("plain"), or let a timing
    of a verify-shaped target forward decide ("auto", engine.packed.choose_kernels)."""
    if kernels == "auto":
        choice = packed.choose_kernels(pair.target)
        kernels, pair.kernels_choice = choice.kernels, choice.describe()
        if choice.ms_by_kernels:
            logger.info("linears of >= 2 rows: %s (a %d-token forward, ms: %s)",
                        choice.kernels, choice.rows, choice.ms_by_kernels)
    for model in (pair.draft, pair.target):
        (packed.pack_linears if kernels == "packed" else packed.unpack_linears)(model)
    pair.kernels = kernels if packed.is_packed(pair.target) else "plain"


# Names `dtype` accepts (besides a torch.dtype): the floating-point types models run in.
DTYPES: dict[str, torch.dtype] = {
    "float32": torch.float32, "fp32": torch.float32,
    "bfloat16": torch.bfloat16, "bf16": torch.bfloat16,
    "float16": torch.float16, "fp16": torch.float16,
}


def resolve_dtype(dtype: str | torch.dtype) -> torch.dtype:
    """A torch floating-point dtype, or its name ("bfloat16", "bf16", "torch.float32", ...).

    Raises ValueError naming the accepted names for anything else."""
    if isinstance(dtype, torch.dtype):
        if not dtype.is_floating_point:
            raise ValueError(f"dtype must be a floating-point type, got {dtype}")
        return dtype
    if isinstance(dtype, str):
        found = DTYPES.get(dtype.strip().lower().removeprefix("torch."))
        if found is not None:
            return found
    raise ValueError(f"unknown dtype {dtype!r}: use one of {', '.join(DTYPES)}")


def _default_device() -> tuple[torch.device, torch.dtype]:
    if torch.cuda.is_available():
        return torch.device("cuda"), torch.bfloat16
    return torch.device("cpu"), torch.float32


def _max_positions(config: PretrainedConfig) -> int:
    text = config.get_text_config(decoder=True)
    for attr in ("max_position_embeddings", "n_positions", "max_sequence_length", "seq_length"):
        value = getattr(text, attr, None)
        if isinstance(value, int) and value > 0:
            return value
    raise IncompatiblePairError(
        f"cannot tell the context length of {config.model_type!r}: its config has no "
        "max_position_embeddings/n_positions")


def _eos_ids(tok: PreTrainedTokenizerBase, model: PreTrainedModel) -> set[int]:
    ids: set[int] = set()
    if tok.eos_token_id is not None:
        ids.add(int(tok.eos_token_id))
    gen_cfg = getattr(model, "generation_config", None)
    gen_eos = getattr(gen_cfg, "eos_token_id", None) if gen_cfg is not None else None
    if isinstance(gen_eos, int):
        ids.add(gen_eos)
    elif isinstance(gen_eos, list | tuple):
        ids.update(int(x) for x in gen_eos)
    return ids


def load_pair(draft_dir: str | Path, target_dir: str | Path,
              device: str | torch.device | None = None, *,
              weight_layout: str = "column",
              dtype: str | torch.dtype | None = None,
              fp32_logits: bool = True,
              decode: str = "dynamic",
              kernels: str = "auto") -> Pair:
    """Load and validate a pair. Raises IncompatiblePairError before loading any weights.

    decode: how the one-at-a-time path keeps its KV caches (engine.static): "dynamic"
    (default), "static", "graphs" (CUDA graphs over the static cache; "static" on a CPU) or
    "auto" — whichever a one-token forward of the target measures fastest in the modes the
    device has (`Pair.decode_choice` keeps the figures; a static mode must be clearly
    faster than "dynamic", engine.static.choose).

    dtype: a torch floating-point dtype or its name (`resolve_dtype`; ValueError otherwise,
    raised before anything is read); None (default): bfloat16 on CUDA, float32 on CPU.

    weight_layout: "column" (default) stores CPU float32 Linear weights column-major, the
    layout MKL multiplies fastest for the 1- to γ+1-row matmuls of decoding; "row" keeps
    transformers' layout. Values are identical either way; no effect on CUDA.

    kernels: how CPU float32 linears multiply forwards of >= 2 rows (the verify, prefills;
    engine.packed): "packed" (oneDNN weights packed once at load), "plain" (transformers'
    F.linear) or "auto" (default): packed where a verify-shaped target forward measures
    clearly faster (`Pair.kernels_choice` keeps the figures). One-row forwards are plain
    either way; nothing is packed on a GPU.
    """
    if decode not in (*static.MODES, "auto"):
        raise ValueError(f"decode must be one of {(*static.MODES, 'auto')}, got {decode!r}")
    if kernels not in (*packed.KERNELS, "auto"):
        raise ValueError(f"kernels must be one of {(*packed.KERNELS, 'auto')}, got {kernels!r}")
    if weight_layout not in WEIGHT_LAYOUTS:
        raise ValueError(f"weight_layout must be one of {WEIGHT_LAYOUTS}, got {weight_layout!r}")
    wanted = None if dtype is None else resolve_dtype(dtype)
    files = read_pair(draft_dir, target_dir)
    draft_cfg, target_cfg = files.draft_config, files.target_config
    if device is None:
        dev, run_dtype = _default_device()
    else:
        dev = torch.device(device)
        run_dtype = torch.bfloat16 if dev.type == "cuda" else torch.float32
    if wanted is not None:
        run_dtype = wanted
    models = []
    for path in (files.draft_dir, files.target_dir):
        model = AutoModelForCausalLM.from_pretrained(path, dtype=run_dtype)
        models.append(model.to(dev).eval())
    draft, target = models
    avoid_per_shape_attention(dev)
    if weight_layout == "column" and dev.type == "cpu":
        changed = column_major_linears(draft) + column_major_linears(target)
        logger.debug("stored %d weight matrices column-major for CPU decoding", changed)
    if fp32_logits and float32_logits(draft) + float32_logits(target):
        logger.info("output projections in float32 (logits at full precision)")
    identity = files.identity()
    pair = Pair(draft=draft, target=target, tokenizer=files.target_tokenizer, device=dev,
                dtype=run_dtype, identity=identity,
                max_context=min(_max_positions(draft_cfg), _max_positions(target_cfg)),
                eos_token_ids=_eos_ids(files.target_tokenizer, target))
    set_kernels(pair, kernels)
    if decode == "auto":
        choose_decode(pair)
    else:
        pair.decode = decode
    logger.info("loaded pair %s (draft %s, target %s) on %s/%s", identity.pair_hash[:12],
                identity.draft_name, identity.target_name, dev, run_dtype)
    return pair
