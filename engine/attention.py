"""Which scaled-dot-product-attention kernels decoding may use on CUDA.

torch chooses SDPA's kernel per call, and on Hopper (torch 2.11 on an H100) it chooses cuDNN's
fused attention, which builds an execution graph for every new combination of shapes (rows,
query length, key length) and caches it. Decoding makes a new key length at every step, and
continuous batching changes rows and query lengths too, so nearly every forward built a graph:
on an H100 with bf16, a one-token forward of a 16-layer target over a growing cache cost 47-85
ms with cuDNN attention and 12-22 ms with eager attention, and the kernels themselves ran 3-8
ms per step (`guardian bench step-profile`, docs/benchmarks/step-profile.md). Flash attention (the
unmasked forwards) and memory-efficient attention (masked ones, every ragged batch) build
nothing per shape, so the engine turns cuDNN attention off for the process when it loads a
pair on CUDA. The switch is torch's own process-wide flag; code that wants cuDNN attention for
fixed shapes (training) can turn it back on.
"""

from __future__ import annotations

import logging

import torch

__all__ = ["avoid_per_shape_attention"]

logger = logging.getLogger(__name__)


def avoid_per_shape_attention(device: torch.device) -> bool:
    """On CUDA, turn cuDNN SDPA off for this process -> whether this call turned it off."""
    if device.type != "cuda" or not torch.backends.cuda.cudnn_sdp_enabled():
        return False
    torch.backends.cuda.enable_cudnn_sdp(False)
    logger.info("cuDNN attention off for decoding (it builds a graph per shape); flash and "
                "memory-efficient attention serve")
    return True
