"""Weight memory layout for CPU decoding.

A transformers `nn.Linear` stores its weight as (out, in), row-major, and computes
x @ W.T. On this project's CPUs MKL multiplies a few rows by that transposed operand
markedly slower than by a column-major one: a speculative verify forward over γ+1 tokens
loses more to it than a 1-token decode forward (a GEMV) does. Storing the same values
column-major — `W.t().contiguous().t()`, same shape, same numbers, only the strides
change — is measured by `guardian bench layout` (1 thread): on the 2-core AMD EPYC the
smollm2 target's 1-token forward takes 0.83x the row-major time and its 5-token verify the
same (docs/benchmarks/layout.md); on the Intel Xeon machine the demo target's verify was
~8 % faster. For forwards of two rows or more engine/packed.py's oneDNN-packed weights do
much better where `auto` measures them faster. Model code is untouched, tied weights stay tied (the
Parameter objects are kept, only their storage is replaced) and the pair's identity hash,
taken from the files, does not change.

Only CPU float32 is re-laid out: cuBLAS and bf16 kernels have their own preferences, and a
GPU verify is memory-bound anyway.
"""

from __future__ import annotations

import torch
from torch import nn

WEIGHT_LAYOUTS = ("column", "row")


def column_major_linears(model: nn.Module) -> int:
    """Store every Linear weight of a CPU float32 model column-major -> matrices changed.

    A weight shared by several modules (tied) is re-laid out once: the second visit finds it
    column-major already.
    """
    changed = 0
    with torch.no_grad():
        for module in model.modules():
            if not isinstance(module, nn.Linear):
                continue
            weight = module.weight
            if (weight.device.type == "cpu" and weight.dtype == torch.float32
                    and not is_column_major(weight)):
                weight.data = weight.data.t().contiguous().t()
                changed += 1
    return changed


def is_column_major(weight: torch.Tensor) -> bool:
    return weight.dim() == 2 and weight.stride() == (1, weight.shape[0])
