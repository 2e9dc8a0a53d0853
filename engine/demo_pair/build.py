"""Building and locating the demo pair: orchestration, caching, atomic publication.

Layout: `<home>/demo-pair/<BUILD_VERSION>/{draft,target,manifest.json}`. `home` always comes
from the caller (the sidecar passes its settings' home, which honours GUARDIAN_HOME from the
environment or `.env`); this package reads no environment variable for it, so every caller
that is given the same home resolves the same directory. A build happens in a
sibling temp directory, `manifest.json` is written last, and the directory is renamed into
place in one step, so a half-built pair (crash, Ctrl-C) is never picked up. A file lock
makes concurrent first uses (parallel tests, two replicas) build once.

Reproducibility: every random choice is seeded and the build runs on 2 CPU threads, so the
same seed gives the same weights on the same machine and torch version (floating point
reductions may differ across CPUs, thread counts and torch releases).

Sizes: `demo` (the default: 2.4 M-parameter target, built on the CPU in minutes, what the
quickstart and the tests use) and `large` (a ~120 M-parameter, 16-layer target and a one-layer
draft, for benchmarks on a GPU: built there in a few minutes under bf16 autocast, each
training phase capped in wall-clock time; it lives beside the demo pair as
`<home>/demo-pair/<BUILD_VERSION>-large`).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import platform
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch
import transformers

from engine.demo_pair import corpus
from engine.demo_pair.distill import (
    DistillConfig,
    distill,
    generation_pool,
    init_draft_from_target,
)
from engine.demo_pair.models import PairArch, count_parameters
from engine.demo_pair.tokenizer import train_tokenizer
from engine.demo_pair.train import TrainConfig, evaluate_loss, pretrain, token_stream

logger = logging.getLogger(__name__)

# Bump whenever anything that changes the weights changes (corpus rules, tokenizer, archs,
# schedules): a new version builds into a new directory instead of reusing a stale pair.
BUILD_VERSION = "v3"  # v3: trained on units ending with EOS (corpus.split_units)
BUILD_THREADS = 2
EXPECTED_MINUTES = 6  # measured 5 m 55 s on an idle 2-core machine (guardian pair build-demo)
MANIFEST = "manifest.json"


@dataclass(frozen=True, slots=True)
class DemoPairPaths:
    draft_dir: Path
    target_dir: Path

    @property
    def root(self) -> Path:
        return self.target_dir.parent

    @property
    def manifest(self) -> dict:
        return json.loads((self.root / MANIFEST).read_text())


@dataclass(frozen=True, slots=True)
class Recipe:
    arch: PairArch = field(default_factory=PairArch)
    vocab_size: int = 2048  # small: each embedding row sees more updates in a tiny budget
    train: TrainConfig = field(default_factory=TrainConfig)
    distill: DistillConfig = field(default_factory=DistillConfig)


# A GPU-sized pair: the target is 50x the demo's (16 layers x d=768), deep so that a batch-1
# decode forward (bound by per-layer launch overhead on a GPU, as by per-layer overhead on a
# CPU) costs ~16x the one-layer draft's. Sized for a few minutes on one H100/H200; the caps
# bound a slower machine's build instead of letting it run for an hour.
LARGE_RECIPE = Recipe(
    arch=PairArch(hidden_size=768, intermediate_size=2048, head_dim=64, target_layers=16,
                  draft_layers=1, max_position_embeddings=2048),
    vocab_size=8192,
    # Early stopping on held-out windows (the first H200 build, without it, memorised the
    # corpus: train loss 0.45, held-out 4.66, draft acceptance alpha 0.47); the time saved goes
    # to distillation (600 steps took 16 s there and left KL 0.73).
    train=TrainConfig(steps=1200, batch_size=32, seq_len=512, lr=4e-3, warmup_steps=60,
                      max_seconds=90.0, eval_every=40, patience=2),
    distill=DistillConfig(steps=3000, batch_size=32, seq_len=256, lr=3e-3, warmup_steps=40,
                          pool_rows=2048, pool_batch=256, gen_prefix=32, gen_new_tokens=224,
                          max_seconds=80.0),
)
RECIPES = {"demo": Recipe(), "large": LARGE_RECIPE}


def resolve_home(home: str | os.PathLike[str]) -> Path:
    """The data directory the caller chose (with `~` expanded)."""
    return Path(home).expanduser()


def demo_pair_dir(home: str | os.PathLike[str], size: str = "demo") -> Path:
    if size not in RECIPES:
        raise ValueError(f"size must be one of {sorted(RECIPES)}, got {size!r}")
    name = BUILD_VERSION if size == "demo" else f"{BUILD_VERSION}-{size}"
    return resolve_home(home) / "demo-pair" / name


def paths_in(root: Path) -> DemoPairPaths:
    return DemoPairPaths(draft_dir=root / "draft", target_dir=root / "target")


def is_built(root: Path) -> bool:
    return (root / MANIFEST).is_file()


def ensure_demo_pair(home: str | os.PathLike[str], *, progress: bool = True,
                     force: bool = False, size: str = "demo",
                     device: str | torch.device | None = None) -> DemoPairPaths:
    """The demo pair's directories (`size`: demo or large), building it first if it is not
    there (or `force`). `device`: where to train (default: the CPU for `demo`, CUDA when
    there is one for `large`)."""
    root = demo_pair_dir(home, size)
    if is_built(root) and not force:
        return paths_in(root)
    root.parent.mkdir(parents=True, exist_ok=True)
    with _lock(root.parent / f".{root.name}.lock"):
        if is_built(root) and not force:  # another process built it while we waited
            return paths_in(root)
        if size == "demo":
            _say(f"Building the demo pair (first run only, ~{EXPECTED_MINUTES} min) into "
                 f"{root}...", progress)
        else:
            _say(f"Building the {size} pair into {root}...", progress)
        build_demo_pair(root, progress=progress, replace=True, recipe=RECIPES[size],
                        device=device if device is not None else _default_device(size))
    return paths_in(root)


def _default_device(size: str) -> torch.device:
    if size != "demo" and torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


def build_demo_pair(out_dir: str | os.PathLike[str], *, seed: int = 0, progress: bool = True,
                    replace: bool = False, recipe: Recipe | None = None,
                    device: str | torch.device = "cpu") -> DemoPairPaths:
    """Build draft/ and target/ under `out_dir` (atomically: temp dir, manifest, rename)."""
    out = Path(out_dir).expanduser()
    if out.exists() and not replace:
        raise FileExistsError(f"{out} already exists; remove it or pass replace=True (--force)")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.building-", dir=out.parent))
    tmp.chmod(0o755)  # mkdtemp makes it private; the published pair is a shared cache
    try:
        with _threads(BUILD_THREADS), _Phases(progress) as phases:
            manifest = _build_into(tmp, seed, recipe or Recipe(), phases, torch.device(device))
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")  # last: marks done
        if out.exists():
            old = out.with_name(f".{out.name}.old-{os.getpid()}")
            out.rename(old)
            shutil.rmtree(old, ignore_errors=True)
        tmp.rename(out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    logger.info("demo pair built in %.0f s: %s", manifest["build_seconds"], out)
    return paths_in(out)


def _build_into(tmp: Path, seed: int, recipe: Recipe, phases: _Phases,
                device: torch.device) -> dict:
    t_start = time.perf_counter()
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True  # fp32 matmuls outside autocast
        torch.cuda.manual_seed_all(seed)
    torch.manual_seed(seed)
    with phases.phase("corpus", 1):
        train_txt = corpus.train_texts()  # the tokenizer learns from whole files
    with phases.phase("tokenizer", 1):
        tokenizer = train_tokenizer(train_txt, vocab_size=recipe.vocab_size)
        # Units (module preamble, each top-level def/class), each followed by EOS: the
        # target learns to end a completion when the function it is writing ends.
        train_stream = token_stream(tokenizer, corpus.train_units())
        heldout_stream = token_stream(tokenizer, corpus.heldout_units())
    arch = PairArch(**{**asdict(recipe.arch), "vocab_size": len(tokenizer)})
    ids = {"bos_id": tokenizer.bos_token_id, "eos_id": tokenizer.eos_token_id,
           "pad_id": tokenizer.pad_token_id}

    target = arch.target(**ids).to(device)
    with phases.phase("target pre-training", recipe.train.steps) as tick:
        trained = pretrain(target, train_stream, recipe.train, seed=seed, on_step=tick,
                           validation=heldout_stream)
    target_train_loss = trained.loss
    target_loss = evaluate_loss(target, heldout_stream)
    logger.info("target held-out loss %.3f (train %.3f, %d steps in %.0f s)", target_loss,
                target_train_loss, trained.steps, trained.seconds)

    draft = arch.draft(**ids).to(device)
    init_draft_from_target(draft, target)
    draft_loss_init = evaluate_loss(draft, heldout_stream)
    pool = None
    if recipe.distill.corpus_every > 1:
        with phases.phase("target continuations", recipe.distill.pool_rows) as tick:
            pool = generation_pool(target, train_stream, recipe.distill,
                                   torch.Generator().manual_seed(seed + 2), on_batch=tick)
    with phases.phase("draft distillation", recipe.distill.steps) as tick:
        distilled = distill(draft, target, train_stream, recipe.distill, seed=seed + 1,
                            pool=pool, on_step=tick)
    kl = distilled.loss
    draft_loss = evaluate_loss(draft, heldout_stream)
    logger.info("draft held-out loss %.3f (at init %.3f), final KL %.3f",
                draft_loss, draft_loss_init, kl)

    with phases.phase("saving", 1):
        for name, model in (("target", target), ("draft", draft)):
            model.to("cpu")
            model.generation_config.pad_token_id = tokenizer.pad_token_id
            model.save_pretrained(tmp / name)
            tokenizer.save_pretrained(tmp / name)
    return {
        "build_version": BUILD_VERSION,
        "seed": seed,
        "build_seconds": round(time.perf_counter() - t_start, 1),
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "threads": BUILD_THREADS,
        "device": device.type if device.type == "cpu" else torch.cuda.get_device_name(device),
        "corpus": {"train_files": sum(not f.heldout for f in corpus.load_corpus()),
                   "heldout_files": sum(f.heldout for f in corpus.load_corpus()),
                   "train_tokens": len(train_stream), "heldout_tokens": len(heldout_stream),
                   "train_units": int((train_stream == tokenizer.eos_token_id).sum())},
        "params": {"target": count_parameters(target), "draft": count_parameters(draft)},
        "target": {"heldout_loss": round(target_loss, 4), "train_loss": round(target_train_loss, 4),
                   "steps": trained.steps, "train_seconds": round(trained.seconds, 1),
                   "kept_step": trained.best_step, "validation_loss": trained.validation_loss},
        "draft": {"heldout_loss": round(draft_loss, 4), "heldout_loss_at_init": round(draft_loss_init, 4),
                  "final_kl": round(kl, 4), "steps": distilled.steps,
                  "train_seconds": round(distilled.seconds, 1)},
        "recipe": asdict(recipe),
    }


class _Phases:
    """One rich progress bar per build phase (or log lines only, when progress is off)."""

    def __init__(self, enabled: bool) -> None:
        self._progress = None
        if enabled:
            from rich import progress as rp

            self._progress = rp.Progress(
                rp.TextColumn("{task.description:<22}"), rp.BarColumn(), rp.MofNCompleteColumn(),
                rp.TextColumn("{task.fields[info]}"), rp.TimeElapsedColumn())

    def __enter__(self) -> _Phases:
        if self._progress:
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress:
            self._progress.stop()

    @contextlib.contextmanager
    def phase(self, name: str, total: int) -> Iterator:
        t0 = time.perf_counter()
        task = self._progress.add_task(name, total=total, info="") if self._progress else None

        every = max(1, total // 10)

        def tick(done: int, loss: float | None = None) -> None:
            info = f"loss {loss:.3f}" if loss is not None else ""
            if self._progress is not None:
                self._progress.update(task, completed=done, info=info)
            elif done % every == 0 or done == total:
                logger.info("%s: %d/%d %s (%.0f s)", name, done, total, info,
                            time.perf_counter() - t0)

        yield tick
        if self._progress is not None:
            self._progress.update(task, completed=total)
        logger.info("%s done in %.1f s", name, time.perf_counter() - t0)


def _say(message: str, progress: bool) -> None:
    logger.info("%s", message)
    if progress:
        from rich.console import Console
        Console(stderr=True).print(message)


@contextlib.contextmanager
def _threads(n: int) -> Iterator[None]:
    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


@contextlib.contextmanager
def _lock(path: Path) -> Iterator[None]:
    with path.open("w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
