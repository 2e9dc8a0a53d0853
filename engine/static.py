"""A static KV cache, and decode forwards replayed from CUDA graphs over it.

`StaticKV` preallocates each layer's keys and values, (rows, kv heads, L, head dim), for one
decode. A forward over columns [start, start + T) writes its keys there (`index_copy_`) and
attends under a 4-D mask built here: key column j is visible to the query at column c when
pad_b <= j <= c. Rolling back a rejected suffix therefore moves nothing: the columns past
the kept length are overwritten by the next forward before any query can see them, as
gpt-fast does. The position is an argument of every forward (`start`), so `crop_to` has
nothing to do for this cache (engine.kv).

Graphs (`mode="graphs"`, CUDA only): a forward of T <= MAX_GRAPH_TOKENS tokens (a one-token
decode step, a γ+1-token verify, a draft's catch-up) is captured once per (T, kept logits)
into a CUDA graph over static buffers — the token ids and a one-element start column — and
replayed: one launch instead of hundreds of small kernels (a 135 M model at batch 1 is
launch-bound). Inside the graph the positions, the write columns and the mask are computed
from the start column, and attention runs over all L columns (the mask hides the unwritten
ones), so every step of a decode has the same shapes. A prompt's prefill (long, once) runs
eagerly, as does a forward whose capture failed (logged once per shape; `fallbacks` counts
them).

Each StaticKV binds its buffers into its graphs, so it is checked out of a per-model `pool`
(keyed by rows, L rounded up to `LENGTH_BUCKET`, mode) for one decode and returned by
`release` — the engine's Batch does both — and the next decode of that shape replays the
graphs already captured (at most FREE_CACHES wait per model, the oldest dropped first).
The one-at-a-time decode path (engine.decode, the draft-model proposer) uses it; continuous
batching keeps its dynamic caches (engine.continuous).

Which mode a pair decodes in is `Pair.decode`: "dynamic" (transformers' DynamicCache, the
default), "static" (this cache, eager forwards) or "graphs". `choose` measures a one-token
forward in each mode the device has and keeps the fastest (engine.loading's `choose_decode`,
for `load_pair(decode="auto")` and GUARDIAN_DECODE=auto).
"""

from __future__ import annotations

import logging
import statistics
import threading
import time
import weakref
from dataclasses import dataclass, field
from typing import Any

import torch
from transformers import DynamicCache, PreTrainedModel

from engine.kv import position_ids, with_cache

__all__ = ["MODES", "DecodeChoice", "StaticKV", "checkout", "choose", "new_cache", "release",
           "unpadded_forward"]

logger = logging.getLogger(__name__)

MODES = ("dynamic", "static", "graphs")
MAX_GRAPH_TOKENS = 16  # forwards this short are captured; longer ones (prefills) run eagerly
LENGTH_BUCKET = 256  # L rounds up to a multiple, so decodes of similar lengths share graphs
FREE_CACHES = 4  # free caches kept for reuse per model, of any shapes


@dataclass
class _Graph:
    graph: Any  # torch.cuda.CUDAGraph
    ids: torch.Tensor  # (B, T) static input
    logits: torch.Tensor  # static output


class StaticKV:
    """Preallocated keys and values for one decode of `rows` rows and up to `length` columns.

    Duck-types the part of transformers' Cache a decoder layer calls (`update`,
    `get_seq_length`), so the model's own forward runs over it."""

    is_compileable = True

    def __init__(self, model: PreTrainedModel, rows: int, length: int, mode: str) -> None:
        cfg = model.config
        heads = cfg.num_attention_heads
        kv_heads = getattr(cfg, "num_key_value_heads", None) or heads
        head_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // heads
        param = next(model.parameters())
        dtype = getattr(model, "dtype", None) or param.dtype
        self.device, self.rows, self.length, self.mode = param.device, rows, length, mode
        self.keys = [torch.zeros(rows, kv_heads, length, head_dim, dtype=dtype, device=self.device)
                     for _ in range(cfg.num_hidden_layers)]
        self.values = [torch.zeros_like(k) for k in self.keys]
        self.pad = torch.zeros(rows, 1, dtype=torch.long, device=self.device)
        self.start = torch.zeros(1, dtype=torch.long, device=self.device)  # graphs' input
        self._cols = torch.arange(length, device=self.device)
        self._additive = getattr(cfg, "_attn_implementation", "sdpa") == "eager"
        self._dtype = dtype
        # Set per forward: where this forward writes, and how many columns it attends over.
        self._write_at: torch.Tensor = self._cols[:1]
        self._visible = length
        self._graphs: dict[tuple[int, int], _Graph] = {}
        self._failed: set[tuple[int, int]] = set()
        self._pool: Any = None
        self.replays = 0

    # -- the Cache surface a decoder layer uses --------------------------------------------
    def update(self, key_states: torch.Tensor, value_states: torch.Tensor, layer_idx: int,
               *args: Any, **kwargs: Any) -> tuple[torch.Tensor, torch.Tensor]:
        keys, values = self.keys[layer_idx], self.values[layer_idx]
        keys.index_copy_(2, self._write_at, key_states.to(keys.dtype))
        values.index_copy_(2, self._write_at, value_states.to(values.dtype))
        return keys[:, :, :self._visible], values[:, :, :self._visible]

    def get_seq_length(self, layer_idx: int = 0) -> int:
        return self._visible

    def __len__(self) -> int:
        return len(self.keys)

    # -- forwards ---------------------------------------------------------------------------
    def set_pad(self, pad: torch.Tensor | None) -> None:
        """The decode's left padding per row, (B, 1), or None for none."""
        if pad is None:
            self.pad.zero_()
        else:
            self.pad.copy_(pad.reshape(self.rows, 1))

    def forward(self, model: PreTrainedModel, ids: torch.Tensor, start: int,
                last_only: bool) -> torch.Tensor:
        """Run `ids` (B, T) at columns [start, start + T) -> logits (B, T or 1, V)."""
        t = ids.shape[1]
        if start + t > self.length:
            raise ValueError(f"forward reaches column {start + t} of a {self.length}-column cache")
        keep = 1 if last_only else 0
        key = (t, keep)
        if self.mode == "graphs" and t <= MAX_GRAPH_TOKENS and key not in self._failed:
            graph = self._graphs.get(key)
            if graph is None:
                graph = self._capture(model, ids, start, keep)
            if graph is not None:
                graph.ids.copy_(ids)
                self.start.fill_(start)
                graph.graph.replay()
                self.replays += 1
                return graph.logits.clone()
        return self._eager(model, ids, start, keep)

    def _mask(self, cols: torch.Tensor, visible: int) -> torch.Tensor:
        """(B, 1, T, visible): key j visible to the query at column c iff pad_b <= j <= c."""
        keys = self._cols[:visible]
        allowed = (keys.view(1, 1, 1, -1) <= cols.view(1, 1, -1, 1)) & (
            keys.view(1, 1, 1, -1) >= self.pad.view(-1, 1, 1, 1))
        if not self._additive:
            return allowed
        zero = torch.zeros((), dtype=self._dtype, device=self.device)
        return torch.where(allowed, zero, torch.finfo(self._dtype).min)

    def _run(self, model: PreTrainedModel, ids: torch.Tensor, cols: torch.Tensor, visible: int,
             keep: int) -> torch.Tensor:
        self._write_at, self._visible = cols, visible
        out = model(input_ids=ids, **with_cache(model, self), use_cache=True,
                    position_ids=self._positions(cols),
                    attention_mask=self._mask(cols, visible), logits_to_keep=keep)
        return out.logits

    def _positions(self, cols: torch.Tensor) -> torch.Tensor:
        """(B, T) position ids of columns `cols` (T,): a column less its row's left padding
        (pad columns get 0; they are masked)."""
        return (cols.view(1, -1) - self.pad).clamp_min(0)

    def _eager(self, model: PreTrainedModel, ids: torch.Tensor, start: int,
               keep: int) -> torch.Tensor:
        t = ids.shape[1]
        # Eagerly, attention needs only the columns written so far.
        return self._run(model, ids, self._cols[start:start + t], start + t, keep)

    def _graphed(self, model: PreTrainedModel, ids: torch.Tensor, keep: int) -> torch.Tensor:
        cols = self.start + self._cols[:ids.shape[1]]  # computed inside the graph
        return self._run(model, ids, cols, self.length, keep)

    def _capture(self, model: PreTrainedModel, ids: torch.Tensor, start: int,
                 keep: int) -> _Graph | None:
        key = (ids.shape[1], keep)
        t0 = time.perf_counter()
        try:
            static_ids = ids.clone()
            self.start.fill_(start)
            # Warm-up on a side stream (as torch.cuda.graphs asks): these forwards write the
            # same keys at the same columns as the captured one will, so they change nothing.
            side = torch.cuda.Stream(self.device)
            side.wait_stream(torch.cuda.current_stream(self.device))
            with torch.cuda.stream(side):
                for _ in range(2):
                    self._graphed(model, static_ids, keep)
            torch.cuda.current_stream(self.device).wait_stream(side)
            if self._pool is None:
                self._pool = torch.cuda.graph_pool_handle()
            graph = torch.cuda.CUDAGraph()
            # thread_local: the continuous engine's thread may launch work meanwhile; only
            # this thread's calls are captured (or refused while capturing).
            with torch.cuda.graph(graph, pool=self._pool, capture_error_mode="thread_local"):
                logits = self._graphed(model, static_ids, keep)
        except Exception as exc:  # any capture failure falls back to eager
            self._failed.add(key)
            _stats.fallbacks += 1
            _warn_once(type(model).__name__, key, exc)
            return None
        captured = _Graph(graph, static_ids, logits)
        self._graphs[key] = captured
        _stats.capture_s += time.perf_counter() - t0
        _stats.captures += 1
        return captured


@dataclass
class _Stats:
    captures: int = 0
    capture_s: float = 0.0
    fallbacks: int = 0
    warned: set[tuple[str, tuple[int, int]]] = field(default_factory=set)


_stats = _Stats()


def _warn_once(model: str, key: tuple[int, int], exc: Exception) -> None:
    if (model, key) not in _stats.warned:
        _stats.warned.add((model, key))
        logger.warning("CUDA graph capture of a %d-token %s forward failed (%s: %s); it runs "
                       "eagerly", key[0], model, type(exc).__name__, exc)


def capture_stats() -> dict[str, float]:
    """Graphs captured in this process, the seconds their captures took, and the captures
    that failed (those forwards run eagerly)."""
    return {"captures": _stats.captures, "capture_s": round(_stats.capture_s, 3),
            "fallbacks": _stats.fallbacks}


# -- the pool ------------------------------------------------------------------------------
# Per model, the free caches, oldest first; at most FREE_CACHES of them, whatever their
# shapes, so a long-running server that saw many request shapes holds a bounded memory.
_pools: weakref.WeakKeyDictionary[Any, list[StaticKV]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def bucket(columns: int, limit: int) -> int:
    """L for a decode needing `columns` columns: rounded up to LENGTH_BUCKET, at most `limit`
    (the pair's context) unless the decode itself needs more."""
    rounded = -(-columns // LENGTH_BUCKET) * LENGTH_BUCKET
    return max(columns, min(rounded, limit))


def checkout(model: PreTrainedModel, rows: int, columns: int, mode: str,
             limit: int) -> StaticKV:
    """A free StaticKV for `rows` rows and at least `columns` columns (made when none is)."""
    if mode not in ("static", "graphs"):
        raise ValueError(f"a static cache decodes in mode 'static' or 'graphs', not {mode!r}")
    if mode == "graphs" and next(model.parameters()).device.type != "cuda":
        mode = "static"  # CUDA graphs need CUDA; the same cache runs eagerly elsewhere
    length = bucket(columns, limit)
    with _lock:
        free = _pools.setdefault(model, [])
        for i, cache in enumerate(free):
            if (cache.rows, cache.length, cache.mode) == (rows, length, mode):
                return free.pop(i)
    return StaticKV(model, rows, length, mode)


def release(model: PreTrainedModel, cache: StaticKV) -> None:
    """Give a decode's cache back for the next decode of its shape; the oldest free cache
    goes (with its graphs) when more than FREE_CACHES are free."""
    with _lock:
        free = _pools.setdefault(model, [])
        if cache not in free:
            free.append(cache)
        del free[:-FREE_CACHES]


# -- choosing a mode by measurement ---------------------------------------------------------
@dataclass(frozen=True)
class DecodeChoice:
    mode: str
    ms_by_mode: dict[str, float]  # median one-token decode forward of the target, per mode
    capture_s: float  # what capturing the measured graphs took

    def describe(self) -> dict[str, Any]:
        return {"mode": self.mode, "ms_by_mode": self.ms_by_mode, "capture_s": self.capture_s}


def new_cache(model: PreTrainedModel, rows: int, columns: int, mode: str) -> Any:
    """A cache of `mode` for `rows` rows and `columns` columns, outside the pool: a
    DynamicCache, or a StaticKV of exactly that length (for timings)."""
    return DynamicCache() if mode == "dynamic" else StaticKV(model, rows, columns, mode)


def unpadded_forward(model: PreTrainedModel, cache: Any, ids: torch.Tensor, start: int,
                     last_only: bool) -> torch.Tensor:
    """`ids` (B, T) at columns [start, start + T) of an unpadded batch, over either kind of
    cache -> logits (B, T or 1, V)."""
    if isinstance(cache, StaticKV):
        return cache.forward(model, ids, start, last_only)
    return model(input_ids=ids, **with_cache(model, cache), use_cache=True,
                 position_ids=position_ids(start, ids.shape[1], None, ids.device),
                 logits_to_keep=1 if last_only else 0).logits


def _time_modes(model: PreTrainedModel, modes: list[str], context: int,
                steps: int) -> dict[str, float]:
    """Median ms of a one-token forward per mode, the modes interleaved step by step (so a
    process's first forwards, or a neighbour's burst, slow each alike)."""
    device = next(model.parameters()).device
    columns = context + steps + 2
    ids = torch.randint(0, model.config.vocab_size, (1, columns), device=device)
    # Not from the pool: caches of this odd length would only hold memory there.
    caches = {m: new_cache(model, 1, columns, m) for m in modes}
    times: dict[str, list[float]] = {m: [] for m in modes}
    with torch.inference_mode():
        for cache in caches.values():
            unpadded_forward(model, cache, ids[:, :context], 0, True)
        for i in range(context, context + steps):
            for mode, cache in caches.items():
                _sync(device)
                t0 = time.perf_counter()
                unpadded_forward(model, cache, ids[:, i:i + 1], i, True)
                _sync(device)
                times[mode].append(time.perf_counter() - t0)
    # The first steps pay capture and warm-up.
    return {m: round(statistics.median(v[2:]) * 1e3, 4) for m, v in times.items()}


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def choose(model: PreTrainedModel, *, context: int = 64, steps: int = 24,
           margin: float = 0.9) -> DecodeChoice:
    """Time a one-token decode forward of `model` in each mode its device has; a static
    mode is chosen only when it is at least 1 / `margin` times faster than dynamic."""
    device = next(model.parameters()).device
    modes = ["dynamic", "static"] + (["graphs"] if device.type == "cuda" else [])
    before = _stats.capture_s
    ms = _time_modes(model, modes, context, steps)
    best = min(ms, key=ms.__getitem__)
    mode = best if best == "dynamic" or ms[best] <= margin * ms["dynamic"] else "dynamic"
    return DecodeChoice(mode, ms, round(_stats.capture_s - before, 3))
