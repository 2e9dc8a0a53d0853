"""engine.loading: the `dtype` a pair runs in (default: bf16 on CUDA, fp32 on CPU; bf16 on
CPU reproduces the GPU's bf16 rounding noise for the tolerance and clean benches)."""

from __future__ import annotations

import pytest
import torch

from engine.loading import load_pair, resolve_dtype


@pytest.mark.parametrize(("name", "expected"), [
    ("bfloat16", torch.bfloat16), ("bf16", torch.bfloat16), ("torch.bfloat16", torch.bfloat16),
    ("float32", torch.float32), ("FP32", torch.float32), ("float16", torch.float16),
    (torch.bfloat16, torch.bfloat16)])
def test_dtype_names_resolve(name, expected) -> None:
    assert resolve_dtype(name) is expected


@pytest.mark.parametrize("bad", ["int8", "bfloat", "", torch.int64])
def test_a_bad_dtype_is_refused_by_name(bad) -> None:
    with pytest.raises(ValueError, match="dtype"):
        resolve_dtype(bad)


def test_load_pair_takes_a_dtype_and_defaults_to_fp32_on_cpu(model_dirs) -> None:
    draft, target = model_dirs("llama-close"), model_dirs("llama-target")
    assert load_pair(draft, target, device="cpu").dtype is torch.float32
    pair = load_pair(draft, target, device="cpu", dtype="bfloat16")
    assert pair.dtype is torch.bfloat16
    assert {p.dtype for p in (*pair.target.parameters(), *pair.draft.parameters())} == {
        torch.bfloat16}
    with pytest.raises(ValueError, match="unknown dtype 'half-ish'"):
        load_pair(draft, target, device="cpu", dtype="half-ish")
