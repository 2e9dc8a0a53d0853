"""A batch KV cache whose rows hold different numbers of valid columns (continuous batching).

`RaggedCache` wraps a transformers DynamicCache with, per row, a validity mask over the
cache's physical columns and the row's logical length (its valid columns). It is what lets
rows of one batch commit different numbers of tokens per step and join or leave at step
boundaries without waiting for one another:

- a forward feeds each row its own list of tokens; shorter lists are padded on the right
  with *filler* columns that are masked out (never attended to, never counted);
- after a speculative step a row *drops* the columns it did not keep (rejected drafts):
  they stay in the cache as holes, masked, until the next compaction;
- columns no row still uses are cropped at the right; `compact` rewrites the cache so each
  row's valid columns are contiguous and right-aligned when holes take too much room;
- rows join (`extend`: the narrower side is left-padded with masked zero columns) and leave
  (`select`).

Positions are logical: a row's next token gets position `lengths[i]`, whatever its physical
column, and masked columns contribute exactly zero to attention, so a row's logits equal its
logits alone up to the floating-point reduction order of a larger batch.
"""

from __future__ import annotations

import torch
from transformers import DynamicCache, PreTrainedModel
from transformers.cache_utils import DynamicLayer

from engine.kv import with_cache

# Compact when the physical width exceeds the longest row by this factor (and by _SLACK):
# holes cost attention work; compaction costs one copy of the cache.
_COMPACT_FACTOR = 1.5
_SLACK = 32


# Grow each layer's keys in place (GrowLayer) rather than concatenating a copy per forward.
# A module switch so `guardian bench step-profile --cache-layers` can time both in one run.
GROW = True
_MIN_CAPACITY = 64


def _append(view: torch.Tensor, buf: torch.Tensor | None,
            new: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """`view` (B, H, n, D) with `new` (B, H, t, D) after it -> (the (B, H, n + t, D) prefix
    view of a buffer, the buffer). Writes in place while `view` is a prefix of `buf` and the
    buffer has room; else (first use, a row set rebuilt by select/extend/compact, a full
    buffer) copies `view` once into a buffer of twice the size needed. A one-row cache
    concatenates, as transformers does (buffer None)."""
    if new.shape[0] == 1:  # one row: the copy is small (0.08 ms at 200 columns); keep transformers'
        return torch.cat([view, new], dim=-2), None
    n = view.shape[-2] if view.dim() == 4 else 0
    t = new.shape[-2]
    if t == 0:  # nothing to write (`_rebuild` creating a layer): no buffer yet
        return (view if n else new), buf
    fits = (buf is not None and n + t <= buf.shape[-2] and buf.shape[:2] == new.shape[:2]
            and (n == 0 or (view.data_ptr() == buf.data_ptr() and view.stride() == buf.stride())))
    if not fits:
        grown = new.new_empty((*new.shape[:2], max(2 * (n + t), _MIN_CAPACITY), new.shape[-1]))
        if n:
            grown[..., :n, :].copy_(view)
        buf = grown
    assert buf is not None
    buf[..., n:n + t, :].copy_(new)
    return buf[..., :n + t, :], buf


class GrowLayer(DynamicLayer):
    """transformers' DynamicLayer whose keys and values are prefix views of buffers grown by
    doubling: a forward writes its columns in place instead of concatenating a copy of the
    whole layer (at 16 rows x 600 columns of the demo pair, 2.8 ms of copies a step on the
    CPU). `crop` (a prefix slice) keeps the view a prefix; a rebuilt row set is adopted by one
    copy at its next forward."""

    _kbuf: torch.Tensor | None = None
    _vbuf: torch.Tensor | None = None

    def update(self, key_states: torch.Tensor, value_states: torch.Tensor, *args, **kwargs
               ) -> tuple[torch.Tensor, torch.Tensor]:
        if not self.is_initialized:
            self.lazy_initialization(key_states, value_states)
        self.keys, self._kbuf = _append(self.keys, self._kbuf, key_states)
        self.values, self._vbuf = _append(self.values, self._vbuf, value_states)
        return self.keys, self.values


def new_cache() -> DynamicCache:
    """An empty DynamicCache whose layers are GrowLayers (DynamicLayers when GROW is off)."""
    cache = DynamicCache()
    if GROW:
        cache.layer_class_to_replicate = GrowLayer
    return cache


def _layers(cache: DynamicCache) -> list[tuple[torch.Tensor, torch.Tensor]]:
    return [(layer.keys, layer.values) for layer in cache.layers
            if getattr(layer, "keys", None) is not None and layer.keys.numel() > 0]


def _rebuild(layers: list[tuple[torch.Tensor, torch.Tensor]]) -> DynamicCache:
    """A DynamicCache holding these tensors themselves. `update` would copy each one (it
    concatenates onto an empty tensor): that second copy of the whole cache, at every row
    that left or joined, was most of a row removal's cost (profiled: 6.3 % of the engine
    thread at 16 clients). Every caller passes freshly made tensors, so nothing aliases."""
    cache = new_cache()
    for i, (k, v) in enumerate(layers):
        cache.update(k[..., :0, :], v[..., :0, :], i)  # creates layer i, copies nothing
        layer = cache.layers[i]
        layer.keys, layer.values = k, v
    return cache


class RaggedCache:
    """A DynamicCache plus per-row validity and logical lengths."""

    def __init__(self, device: torch.device) -> None:
        self.device = device
        self.cache: DynamicCache | None = None  # None while it holds no column
        self.valid = torch.zeros((0, 0), dtype=torch.bool, device=device)  # (B, W)
        self.lengths: list[int] = []  # valid columns per row

    @property
    def size(self) -> int:
        return len(self.lengths)

    @property
    def width(self) -> int:
        return self.valid.shape[1]

    @classmethod
    def empty_rows(cls, device: torch.device, rows: int) -> RaggedCache:
        out = cls(device)
        out.valid = torch.zeros((rows, 0), dtype=torch.bool, device=device)
        out.lengths = [0] * rows
        return out

    # forwards -------------------------------------------------------------------------
    def forward(self, model: PreTrainedModel, feeds: list[list[int]], filler: int,
                last_only: bool = False) -> tuple[torch.Tensor, int]:
        """Feed row i the tokens `feeds[i]` (a row may feed none) -> (logits (B, T, V), the
        physical column of the first fed token). `last_only`: logits at each row's last fed
        token only, (B, 1, V) (a row that fed nothing gets a filler column's logits)."""
        if len(feeds) != self.size:
            raise ValueError(f"{len(feeds)} feeds for a cache of {self.size} rows")
        counts = [len(f) for f in feeds]
        t = max(1, *counts) if counts else 1
        ids = torch.tensor([f + [filler] * (t - len(f)) for f in feeds], dtype=torch.long,
                           device=self.device)
        cols = torch.arange(t, device=self.device).unsqueeze(0)  # (1, T)
        n = torch.tensor(counts, device=self.device).unsqueeze(1)  # (B, 1)
        fresh = cols < n  # (B, T)
        start = torch.tensor(self.lengths, device=self.device).unsqueeze(1)
        # Filler columns are masked; any position will do (0 keeps absolute-position
        # embeddings in range).
        pos = torch.where(fresh, start + cols, torch.zeros_like(cols))
        mask = torch.cat([self.valid, fresh], dim=1)
        cache = self.cache if self.cache is not None else new_cache()
        first = self.width
        # No hole anywhere (every row's columns all valid): no mask, so the model takes its
        # plain causal path, exactly as a one-row run without padding does.
        dense = all(n == first for n in self.lengths) and all(c == t for c in counts)
        keep: int | torch.Tensor = 0  # logits_to_keep: 0 projects every position
        if last_only:
            # Project only the positions some row's last fed token sits at (a join feeds whole
            # prompts: every other position's vocabulary-wide logits would be thrown away,
            # B x T x V of them, float32 behind engine.head). Known on the host: no sync.
            lasts = [max(c - 1, 0) for c in counts]
            kept = sorted(set(lasts))
            if kept == list(range(t - len(kept), t)):  # the last len(kept) positions
                keep = len(kept)
                at = (n.squeeze(1) - 1).clamp_min(0) - (t - keep)
            else:
                keep = torch.tensor(kept, device=self.device)
                at = torch.tensor([kept.index(x) for x in lasts], device=self.device)
        out = model(input_ids=ids, **with_cache(model, cache), use_cache=True, position_ids=pos,
                    attention_mask=None if dense else mask.long(), logits_to_keep=keep)
        self.cache, self.valid = cache, mask
        self.lengths = [a + b for a, b in zip(self.lengths, counts, strict=True)]
        logits = out.logits
        if last_only:
            logits = logits[torch.arange(self.size, device=self.device), at].unsqueeze(1)
        return logits, first

    # bookkeeping ----------------------------------------------------------------------------
    def drop(self, row: int, first: int, count: int) -> None:
        """Row `row` forgets `count` columns from physical column `first` on (rejected drafts
        fed in the last forward)."""
        if count <= 0:
            return
        seg = self.valid[row, first:first + count]
        self.lengths[row] -= int(seg.sum())
        seg.zero_()

    def trim(self) -> None:
        """Crop columns no row uses at the right; compact when holes take too much room."""
        if self.cache is None or self.width == 0:
            return
        used = self.valid.any(dim=0).nonzero()
        keep = int(used[-1]) + 1 if used.numel() else 0
        if keep < self.width:
            if keep == 0:
                self.cache, self.valid = None, self.valid[:, :0]
                return
            self.cache.crop(keep - self.width)
            self.valid = self.valid[:, :keep]
        longest = max(self.lengths, default=0)
        if self.width > _COMPACT_FACTOR * longest + _SLACK:
            self.compact()

    def compact(self) -> None:
        """Rewrite the cache so each row's valid columns are contiguous and right-aligned
        (width = the longest row). Logits are unchanged: only masked columns go."""
        if self.cache is None:
            return
        width = max(self.lengths, default=0)
        if width == 0:
            self.cache, self.valid = None, self.valid[:, :0]
            return
        # Row i's valid column indices, right-aligned into `width` slots; empty slots read
        # column 0 and are masked.
        index = torch.zeros((self.size, width), dtype=torch.long, device=self.device)
        valid = torch.zeros((self.size, width), dtype=torch.bool, device=self.device)
        for i, n in enumerate(self.lengths):
            if n:
                index[i, width - n:] = self.valid[i].nonzero().squeeze(1)
                valid[i, width - n:] = True
        layers = []
        for k, v in _layers(self.cache):
            idx = index[:, None, :, None].expand(-1, k.shape[1], -1, k.shape[3])
            zero = ~valid[:, None, :, None]
            layers.append((k.gather(2, idx).masked_fill(zero, 0),
                           v.gather(2, idx.expand(-1, v.shape[1], -1, v.shape[3]))
                           .masked_fill(zero, 0)))
        self.cache, self.valid = _rebuild(layers), valid

    def select(self, rows: list[int]) -> None:
        """Keep only `rows` (in that order): the others leave the batch."""
        self.lengths = [self.lengths[i] for i in rows]
        index = torch.tensor(rows, dtype=torch.long, device=self.device)
        self.valid = self.valid.index_select(0, index)
        if self.cache is not None:
            if not rows:
                self.cache = None
            else:
                self.cache = _rebuild([(k.index_select(0, index), v.index_select(0, index))
                                       for k, v in _layers(self.cache)])
        self.trim()

    def extend(self, other: RaggedCache) -> None:
        """Append `other`'s rows (after this cache's), left-padding the narrower side."""
        if other.size == 0:
            return
        if self.size == 0:
            self.cache, self.valid, self.lengths = other.cache, other.valid, list(other.lengths)
            return
        width = max(self.width, other.width)
        a, b = self._padded(width), other._padded(width)
        if a is None and b is None:
            layers = None
        else:
            ref = a if a is not None else b
            assert ref is not None
            a = a if a is not None else [(torch.zeros_like(k[:1]).expand(self.size, -1, -1, -1),
                                          torch.zeros_like(v[:1]).expand(self.size, -1, -1, -1))
                                         for k, v in ref]
            b = b if b is not None else [(torch.zeros_like(k[:1]).expand(other.size, -1, -1, -1),
                                          torch.zeros_like(v[:1]).expand(other.size, -1, -1, -1))
                                         for k, v in ref]
            layers = [(torch.cat([ka, kb]), torch.cat([va, vb]))
                      for (ka, va), (kb, vb) in zip(a, b, strict=True)]
        pad = lambda m: torch.nn.functional.pad(m, (width - m.shape[1], 0))  # noqa: E731
        self.valid = torch.cat([pad(self.valid), pad(other.valid)])
        self.lengths += other.lengths
        self.cache = None if layers is None else _rebuild(layers)

    def _padded(self, width: int) -> list[tuple[torch.Tensor, torch.Tensor]] | None:
        """This cache's layers left-padded with zero columns to `width` (None: no columns)."""
        if self.cache is None or self.width == 0:
            return None
        extra = width - self.width
        if extra == 0:
            return _layers(self.cache)
        return [(torch.nn.functional.pad(k, (0, 0, extra, 0)),
                 torch.nn.functional.pad(v, (0, 0, extra, 0))) for k, v in _layers(self.cache)]
