"""guardian.devtools.gpu_carry: the smollm2 pair, packed into two folders a GPU call can take
(each under 64 MiB), rebuilds there into the same target and the draft the GPU runs.

Against the real built pair (the recipe's, under GUARDIAN_HOME): the joined GGUF passes its
pin, the rebuilt target's weights hash is the CPU build's, and the rebuilt draft holds the
CPU draft's tensors rounded to bfloat16 — what the engine computes with on CUDA."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from engine.recipes import smollm2
from engine.recipes.fetch import FetchError
from guardian.devtools import gpu_carry

pytestmark = [pytest.mark.integration, pytest.mark.slow]

LIMIT = 64 * 1024 * 1024


@pytest.fixture(scope="module")
def built() -> Path:
    home = Path(os.environ.get("GUARDIAN_HOME", "~/.cache/spec-guardian")).expanduser()
    try:
        smollm2.ensure_pair(home, progress=False)
    except FetchError as exc:
        pytest.skip(f"cannot fetch the SmolLM2 GGUF: {exc}")
    return home


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def test_a_packed_pair_rebuilds_into_the_cpu_built_target(built: Path, tmp_path: Path) -> None:
    manifest = gpu_carry.pack(built, tmp_path / "carry")
    a, b = tmp_path / "carry" / "a", tmp_path / "carry" / "b"
    assert _size(a) < LIMIT - 8_000_000 and _size(b) < LIMIT - 8_000_000  # + the repo
    report = gpu_carry.unpack(a / gpu_carry.PART_A, b, tmp_path / "pair")
    assert report["target_matches_cpu_build"]
    assert report["target_hash"] == manifest["target_hash"]
    cpu = load_file(smollm2.ensure_pair(built, progress=False).draft_dir / "model.safetensors")
    rebuilt = load_file(tmp_path / "pair" / "draft" / "model.safetensors")
    assert set(rebuilt) == set(cpu)
    for key, value in cpu.items():
        want = value if key == "model.embed_tokens.weight" else value.bfloat16().float()
        assert torch.equal(rebuilt[key], want), key


def test_a_missing_or_wrong_part_is_refused(built: Path, tmp_path: Path) -> None:
    gpu_carry.pack(built, tmp_path / "carry")
    a = tmp_path / "carry" / "a" / gpu_carry.PART_A
    a.write_bytes(a.read_bytes()[:-1])
    with pytest.raises(SystemExit, match="sha256 pin"):
        gpu_carry.unpack(a, tmp_path / "carry" / "b", tmp_path / "pair")
