"""How many intra-op threads torch should use for decoding on the CPU, chosen by measuring.

Decoding runs hundreds of small operators per forward. torch parallelises each across its
intra-op pool, and with `OMP_WAIT_POLICY=PASSIVE` (which `guardian serve` sets, because a
spinning pool collapses on a small shared CPU) each parallel region wakes sleeping threads:
on the project's 2-core machine a one-row decode forward of the demo pair took 11.8 ms with
torch's default 2 threads against 2.5 ms with 1, and a 16-row continuous-batching step 15.1
ms against 5.4 ms (docs/benchmarks/threads.md). A large model's operators are
long enough for the pool to pay off. So, when the operator has not set a count, `choose`
times a one-token decode forward of the target with torch's current count and with one
thread, and keeps the faster.
"""

from __future__ import annotations

import logging
import statistics
import time
from dataclasses import dataclass

import torch
from transformers import DynamicCache

from engine.kv import with_cache
from engine.loading import Pair

__all__ = ["ThreadChoice", "choose", "decode_forward_ms", "settle"]

logger = logging.getLogger(__name__)

# A count must be this much faster to be chosen over one thread (one thread is the robust
# choice on a shared machine: no pool to wake, nothing to spin).
MARGIN = 0.9


@dataclass(frozen=True)
class ThreadChoice:
    threads: int
    ms_by_threads: dict[int, float]  # median one-token decode forward, per count tried

    def describe(self) -> str:
        tried = ", ".join(f"{n} thread{'s' if n > 1 else ''} {ms:.2f} ms"
                          for n, ms in sorted(self.ms_by_threads.items()))
        return f"torch threads {self.threads} (one-token decode forward: {tried})"


@torch.inference_mode()
def decode_forward_ms(pair: Pair, n: int = 7, prompt: int = 16) -> float:
    """Median milliseconds of a one-row, one-token forward of the target over a `prompt`-token
    cache (cropped back after each), at torch's current thread count."""
    prompt = max(1, min(prompt, pair.max_context - 2))
    ids = torch.full((1, prompt), int(pair.pad_token_id or 0), dtype=torch.long,
                     device=pair.device)
    cache = DynamicCache()
    pair.target(input_ids=ids, **with_cache(pair.target, cache), use_cache=True)
    one = ids[:, :1]
    times = []
    for i in range(n + 2):  # the first two: first-call costs
        t0 = time.perf_counter()
        pair.target(input_ids=one, **with_cache(pair.target, cache), use_cache=True)
        dt = time.perf_counter() - t0
        cache.crop(-1)  # back to the prompt (negative: tokens to drop, in every version)
        if i >= 2:
            times.append(dt * 1e3)
    return statistics.median(times)


def choose(pair: Pair) -> ThreadChoice | None:
    """On the CPU with more than one thread: time torch's count and one thread, set the
    faster (one unless the pool is at least 1/MARGIN faster) -> the choice. None (nothing
    changed) on another device or with one thread already."""
    current = torch.get_num_threads()
    if pair.device.type != "cpu" or current <= 1:
        return None
    ms = {current: decode_forward_ms(pair)}
    torch.set_num_threads(1)
    ms[1] = decode_forward_ms(pair)
    threads = current if ms[current] < MARGIN * ms[1] else 1
    torch.set_num_threads(threads)
    choice = ThreadChoice(threads, ms)
    logger.info("%s; set GUARDIAN_TORCH_THREADS to choose yourself", choice.describe())
    return choice


def settle(pair: Pair, configured: int | None, decode: str | None = None,
           kernels: str | None = None) -> ThreadChoice | None:
    """The thread rule of everything that decodes or times decoding (the sidecar, the gate,
    the step profile): the operator's count when configured, else `choose`. Then `kernels`
    and `decode`, when given, set the pair's linear kernels (engine.packed) and cache mode
    (engine.static); "auto" times them under the thread count just settled, the one that
    will decode (engine.loading.set_kernels, choose_decode)."""
    choice = None
    if configured:
        torch.set_num_threads(configured)
    else:
        choice = choose(pair)
    if kernels is not None:
        from engine.loading import set_kernels

        set_kernels(pair, kernels)
    if decode == "auto":
        from engine.loading import choose_decode

        choose_decode(pair)
    elif decode is not None:
        pair.decode = decode
    return choice
