"""Pre-packed weights for the CPU's few-row matmuls: the speculative verify forward.

A speculative step's verify forward multiplies γ+1 rows (2-9) by every weight of the
target. On this project's CPUs transformers' `F.linear` runs those through MKL's sgemm,
far slower per weight byte than the GEMV of a 1-token forward (packing the weight operand
at every call is the likely cause): on the smollm2 target a 5-token forward costs 1.96
one-token forwards (`guardian bench layout --pair smollm2`). oneDNN can pack a weight
once, at load, into its blocked layout (`torch.ops.mkldnn._reorder_linear_weight`) and
then multiply any number of rows by it
(`torch.ops.mkldnn._linear_pointwise`): on the 2-core AMD EPYC, 1 thread, that 5-token
forward takes 52.7 ms packed against 99.6 ms plain and 50.1 ms for one token, a verify cost
of 1.05 (docs/benchmarks/layout.md). On the tiny demo pair packing is slower (1.45x), as
oneDNN's per-call overhead outweighs what it saves on small matrices: `auto` measures.

`pack_linears(model)` gives every CPU float32 `nn.Linear` a packed copy of its weight and
routes its forwards of >= `MIN_ROWS` rows through it; a one-row forward stays on
`F.linear`, so target-only decoding is unchanged, bit for bit. The packed copy follows
its weight: a weight whose storage or version changed since it was packed (an in-place
edit, `weight.data = ...`) is re-packed before its next use, so the packed path never
multiplies by stale values. Autograd never sees it: a forward that needs gradients takes
`F.linear`. `choose_kernels` times a verify-shaped forward both ways at load and keeps the
packing only where it is clearly faster ("auto").

Costs: a second copy of each weight (538 MB more for the smollm2 target) and rounding:
oneDNN sums in another order than MKL, so a multi-row forward's logits differ from a
one-row forward's in the last bits, as MKL's sgemm and GEMV already do.
"""

from __future__ import annotations

import contextlib
import logging
import time
import weakref
from collections.abc import Iterator
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

logger = logging.getLogger(__name__)

KERNELS = ("packed", "plain")  # what load_pair's `kernels` accepts, besides "auto"
MIN_ROWS = 2  # one-row forwards stay on F.linear (MKL's GEMV is as fast: see docs)
PACK_HINT = 8  # the batch size oneDNN packs for; measured no slower than 4 at 2-9 rows

# module -> (packed weight, (data_ptr, version) of the weight it was packed from)
_packs: weakref.WeakKeyDictionary[nn.Module, tuple[torch.Tensor, tuple[int, int]]] = (
    weakref.WeakKeyDictionary())


def available() -> bool:
    """Whether this torch can pack weights with oneDNN (CPU builds with mkldnn)."""
    return bool(torch.backends.mkldnn.is_available()
                and hasattr(torch.ops.mkldnn, "_linear_pointwise"))


class PackedLinear(nn.Linear):
    """An nn.Linear whose forwards of >= MIN_ROWS rows use a oneDNN-packed weight.

    Installed by swapping an existing module's class (`pack_linears`): parameters, state
    dict, hooks and tied weights are the module's own, untouched."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rows = x.numel() // max(1, x.shape[-1])
        if rows < MIN_ROWS or (torch.is_grad_enabled() and (
                x.requires_grad or self.weight.requires_grad)):
            return F.linear(x, self.weight, self.bias)
        flat = x.reshape(rows, x.shape[-1]).contiguous()  # oneDNN reads dense rows
        if rows == 2:  # oneDNN's 2-row kernel is slower than its 3-row one: pad (see docs)
            flat = torch.cat([flat, flat[:1]])
        out = torch.ops.mkldnn._linear_pointwise(flat, _packed(self), self.bias, "none", [], "")
        return out[:rows].reshape(*x.shape[:-1], out.shape[-1])


def _source(weight: torch.Tensor) -> tuple[int, int]:
    return weight.data_ptr(), weight._version


def _packed(module: nn.Linear) -> torch.Tensor:
    weight = module.weight
    entry = _packs.get(module)
    if entry is None or entry[1] != _source(weight):
        with torch.no_grad():
            packed = torch.ops.mkldnn._reorder_linear_weight(weight.detach().contiguous(),
                                                             PACK_HINT)
        entry = (packed, _source(weight))
        _packs[module] = entry
    return entry[0]


def _packable(module: nn.Module) -> bool:
    weight = getattr(module, "weight", None)
    return (type(module) is nn.Linear and weight is not None
            and weight.device.type == "cpu" and weight.dtype == torch.float32)


def pack_linears(model: nn.Module) -> int:
    """Route every CPU float32 nn.Linear of `model` through a packed weight -> modules
    changed (0 where oneDNN is missing). Packs eagerly, so the first request pays nothing."""
    if not available():
        return 0
    changed = 0
    for module in model.modules():
        if _packable(module):
            module.__class__ = PackedLinear
            _packed(module)
            changed += 1
    return changed


def unpack_linears(model: nn.Module, *, forget: bool = True) -> int:
    """Undo `pack_linears`: plain nn.Linear modules again, their packed copies freed
    (kept with `forget=False`, for a timing that packs them again)."""
    changed = 0
    for module in model.modules():
        if type(module) is PackedLinear:
            module.__class__ = nn.Linear
            if forget:
                _packs.pop(module, None)
            changed += 1
    return changed


@contextlib.contextmanager
def plain_linears(*models: nn.Module) -> Iterator[None]:
    """Run the block on plain F.linear (transformers as shipped), then restore whatever
    was packed; the packed copies are kept, so nothing is re-packed."""
    undone = [m for m in models if is_packed(m)]
    for model in undone:
        unpack_linears(model, forget=False)
    try:
        yield
    finally:
        for model in undone:
            pack_linears(model)


def is_packed(model: nn.Module) -> bool:
    return any(type(m) is PackedLinear for m in model.modules())


@dataclass(frozen=True, slots=True)
class KernelChoice:
    kernels: str  # "packed" or "plain"
    ms_by_kernels: dict[str, float]  # a verify-shaped target forward, median ms
    rows: int

    def describe(self) -> dict:
        return {"kernels": self.kernels, "kernels_ms": self.ms_by_kernels,
                "kernels_rows": self.rows}


@torch.inference_mode()
def _forward_ms(model: nn.Module, context: int, rows: int, rounds: int) -> dict[str, float]:
    """Median ms of a `rows`-token forward after `context` cached tokens, plain and packed,
    interleaved round by round (a noisy machine slows both alike)."""
    from engine.kv import new_cache, with_cache

    device = next(model.parameters()).device
    vocab = model.get_input_embeddings().weight.shape[0]
    ids = torch.randint(0, vocab, (1, context + rows), device=device,
                        generator=torch.Generator().manual_seed(0))
    cache = new_cache()
    model(input_ids=ids[:, :context], **with_cache(model, cache), use_cache=True,
          logits_to_keep=1)
    times: dict[str, list[float]] = {"plain": [], "packed": []}
    for round_ in range(rounds + 1):  # round 0 warms both paths up
        for kind in ("plain", "packed"):
            if kind == "packed":
                pack_linears(model)
            else:
                unpack_linears(model, forget=False)
            t0 = time.perf_counter()
            model(input_ids=ids[:, context:], **with_cache(model, cache), use_cache=True)
            elapsed = time.perf_counter() - t0
            cache.crop(-rows)
            if round_:
                times[kind].append(elapsed)
    return {k: round(sorted(v)[len(v) // 2] * 1e3, 3) for k, v in times.items()}


def choose_kernels(model: nn.Module, *, context: int = 32, rows: int = 4, rounds: int = 3,
                   margin: float = 0.9) -> KernelChoice:
    """Pack `model`'s linears when a verify-shaped forward (`rows` tokens) measures at
    least 1 / `margin` times faster packed; leave them plain otherwise (and on GPUs, and
    where oneDNN is missing). The model ends up in the chosen state."""
    if not available() or not any(_packable(m) or type(m) is PackedLinear
                                  for m in model.modules()):
        unpack_linears(model)
        return KernelChoice("plain", {}, rows)
    ms = _forward_ms(model, context, rows, rounds)
    kernels = "packed" if ms["packed"] <= margin * ms["plain"] else "plain"
    (pack_linears if kernels == "packed" else unpack_linears)(model)
    return KernelChoice(kernels, ms, rows)
