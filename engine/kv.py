"""KV-cache helpers: fresh caches, rollback, the position ids left padding needs, and the
name a model's forward takes its cache by.

transformers' DynamicCache grows by concatenation; rolling back after a rejection is
`crop` with a negative count (transformers 5.x: "remove that many tokens"; older versions
read a negative argument the same way), so `crop_to` takes an absolute length instead.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

import torch
from transformers import DynamicCache


def new_cache() -> DynamicCache:
    # No config: every layer is a plain full-attention layer, which is what rollback needs
    # (sliding-window layers drop states that a crop would have to restore).
    return DynamicCache()


def cache_length(cache: DynamicCache) -> int:
    return cache.get_seq_length()


def crop_to(cache: DynamicCache, length: int) -> None:
    """Drop cached positions beyond `length` (no-op when the cache is already that short,
    and for engine.static's cache, whose forwards overwrite what lies past their start)."""
    if not isinstance(cache, DynamicCache):
        return
    current = cache.get_seq_length()
    if current > length:
        cache.crop(length - current)


def position_ids(start: int, length: int, pad: torch.Tensor | None,
                 device: torch.device | None = None) -> torch.Tensor:
    """Position ids for columns [start, start+length) of a left-padded batch.

    pad: (B, 1) count of left-pad columns per row, or None when no row is padded.
    Returns (B or 1, length) int64; pad columns get clamped to 0 (they are masked anyway).
    """
    cols = torch.arange(start, start + length, device=device).unsqueeze(0)
    if pad is None:
        return cols
    return (cols - pad).clamp_min(0)


def _name_in(fn: Any) -> str:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return "past_key_values"
    return "cache" if "cache" in params else "past_key_values"


_cache_name = functools.cache(_name_in)  # per model class: a handful of entries


def with_cache(model: Any, cache: DynamicCache) -> dict[str, DynamicCache]:
    """The keyword a model's forward takes its KV cache by: `cache` in transformers 5.2x
    (which warns on `past_key_values` and drops it in 5.40), `past_key_values` before it.
    Decided once per model class from the forward's signature; a plain callable standing in
    for a model (a wrapper taking **kwargs) gets the old name, which every 5.x still reads."""
    forward = getattr(type(model), "forward", None)
    return {_cache_name(forward) if forward is not None else _name_in(model): cache}
