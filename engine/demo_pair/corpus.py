"""The demo pair's corpus: the standard library's own Python source, split by file path.

Owns which files are used, the deterministic train / held-out split, and the held-out
prompts that tests and benchmarks decode from: code completion (`heldout_prompts`) and
code editing (`code_edit_prompts`, whose output mostly copies the prompt). Every Python install has
this text, so the demo pair can be rebuilt offline anywhere.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import re
import sysconfig
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

# Held-out share of files. Small, because every file given to evaluation is a file the
# target does not learn from; 10% of the stdlib is still ~70 files / ~1.3 MB.
HELDOUT_PERCENT = 10

# Directories whose text is not representative code (test suites, the IDLE GUI, generated
# tables, vendored packages) or is already in `site-packages`.
_EXCLUDED_DIRS = frozenset({
    "site-packages", "dist-packages", "test", "tests", "idlelib", "lib2to3", "turtledemo",
    "pydoc_data", "encodings", "__pycache__", "ensurepip", "venv", "tkinter",
})
# Files above this size are generated data (e.g. unicode tables) rather than code.
_MAX_FILE_BYTES = 400_000


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One corpus file: `rel_path` (posix, relative to the stdlib root) decides its split."""

    rel_path: str
    text: str

    @property
    def heldout(self) -> bool:
        return is_heldout(self.rel_path)


def stdlib_root() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


def is_heldout(rel_path: str) -> bool:
    """Split by a hash of the path, not by order or size: stable across machines and runs."""
    digest = hashlib.sha256(rel_path.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % 100 < HELDOUT_PERCENT


@lru_cache(maxsize=4)
def load_corpus(root: Path | None = None) -> tuple[SourceFile, ...]:
    """All corpus files under `root` (default: this interpreter's stdlib), sorted by path."""
    root = root or stdlib_root()
    files: list[SourceFile] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if any(part in _EXCLUDED_DIRS for part in rel.parts[:-1]):
            continue
        if path.stat().st_size > _MAX_FILE_BYTES:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # a handful of files use other encodings; not worth handling
        if text.strip():
            files.append(SourceFile(rel.as_posix(), text))
    return tuple(files)


def train_texts(root: Path | None = None) -> list[str]:
    """Texts of the training files (sorted by path)."""
    return [f.text for f in load_corpus(root) if not f.heldout]


def heldout_texts(root: Path | None = None) -> list[str]:
    """Texts of the held-out files (sorted by path); never used for training."""
    return [f.text for f in load_corpus(root) if f.heldout]


# A top-level statement that starts a new unit: a def/class (with its decorators), at column 0.
_UNIT_START = re.compile(r"^(?:@|def[ \t]|async[ \t]+def[ \t]|class[ \t])", re.MULTILINE)


def split_units(text: str) -> list[str]:
    """A file cut into natural units: the module preamble and each top-level def/class.

    A unit starts at a column-0 `def`, `async def`, `class` or decorator (a decorator run
    and the def it decorates stay one unit) and runs to the next one; trailing blank lines are
    dropped and one newline ends it. The pair trains on units each followed by EOS, so a
    target that finishes a top-level function emits EOS: completions end naturally and the
    engine's EOS handling is exercised.
    """
    starts = [m.start() for m in _UNIT_START.finditer(text)]
    # A decorator run belongs to the def/class under it: drop starts directly after a decorator.
    kept: list[int] = []
    for pos in starts:
        if kept and _only_decorators(text[kept[-1]:pos]):
            continue
        kept.append(pos)
    bounds = [0, *[p for p in kept if p > 0], len(text)]
    units = []
    for a, b in itertools.pairwise(bounds):
        unit = text[a:b].rstrip()
        if unit.strip():
            units.append(unit + "\n")
    return units


def _only_decorators(chunk: str) -> bool:
    """True when every non-blank line of `chunk` is (part of) a decorator."""
    lines = [ln for ln in chunk.splitlines() if ln.strip()]
    return bool(lines) and lines[0].startswith("@") and all(
        ln.startswith(("@", " ", "\t", ")")) for ln in lines)


def train_units(root: Path | None = None) -> list[str]:
    """The training files cut into units (`split_units`), in file order."""
    return [u for text in train_texts(root) for u in split_units(text)]


def heldout_units(root: Path | None = None) -> list[str]:
    """The held-out files cut into units (`split_units`), in file order."""
    return [u for text in heldout_texts(root) for u in split_units(text)]


# A def/class header that ends its line: the prompt stops right after it, inside the body.
_HEADER = re.compile(r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+\w+.*:[ \t]*$", re.MULTILINE)
# Characters per token of the demo tokenizer on stdlib code (measured: 8.4 MB -> 2.38M); used to cut
# prompts to a token budget when no tokenizer is given.
_CHARS_PER_TOKEN = 3.5


def heldout_prompts(
    n: int = 32,
    *,
    seed: int = 0,
    prompt_tokens: tuple[int, int] = (48, 96),
    count_tokens: Callable[[str], int] | None = None,
    root: Path | None = None,
) -> list[str]:
    """`n` code prefixes from held-out files, each ending at the start of a def/class body.

    Each prompt is the header line, the newline and the body's indentation, preceded by as
    much of the file before it as fits in `prompt_tokens` tokens (measured with
    `count_tokens` when given, else estimated from characters). At most one prompt per
    header; the choice is deterministic in `seed`.
    """
    lo, hi = prompt_tokens
    count = count_tokens or (lambda s: round(len(s) / _CHARS_PER_TOKEN))
    candidates: list[tuple[str, int]] = []  # (text, offset just after the header line)
    for f in load_corpus(root):
        if not f.heldout:
            continue
        for m in _HEADER.finditer(f.text):
            candidates.append((f.text, m.end()))
    rng = random.Random(seed)
    rng.shuffle(candidates)

    prompts: list[str] = []
    for text, end in candidates:
        body_indent = _body_indent(text, end)
        if body_indent is None:
            continue
        want = rng.randint(lo, hi)
        start = _start_for_budget(text, end, want, count)
        prompt = text[start:end] + "\n" + body_indent
        if not lo <= count(prompt) <= hi:
            continue
        prompts.append(prompt)
        if len(prompts) == n:
            break
    if len(prompts) < n:
        raise ValueError(f"only {len(prompts)} held-out prompts of {lo}..{hi} tokens; ask for fewer")
    return prompts


def _body_indent(text: str, end: int) -> str | None:
    """Indentation of the first body line after a header, or None for one-line bodies."""
    nl = text.find("\n", end)
    if nl < 0:
        return None
    line = text[nl + 1 : text.find("\n", nl + 1)]
    indent = line[: len(line) - len(line.lstrip(" \t"))]
    header_start = text.rfind("\n", 0, end) + 1
    header_indent = len(text[header_start:end]) - len(text[header_start:end].lstrip(" \t"))
    return indent if len(indent) > header_indent and line.strip() else None


def _start_for_budget(text: str, end: int, want: int, count: Callable[[str], int]) -> int:
    """Earliest line start before `end` such that text[start:end] is at most `want` tokens."""
    start = end
    while start > 0:
        prev = text.rfind("\n", 0, start - 1) + 1
        if count(text[prev:end]) > want:
            break
        start = prev
    if start == end:  # the header alone is over budget: cut inside it
        start = max(0, end - int(want * _CHARS_PER_TOKEN))
    return start


# A def header that ends its line (one-line signatures only: the rename reads its parameters).
_DEF = re.compile(r"^([ \t]*)(?:async[ \t]+)?def[ \t]+\w+[ \t]*\((.*)\).*:[ \t]*$", re.MULTILINE)
_PARAM = re.compile(r"\s*\*{0,2}(\w+)")


def code_edit_prompts(
    n: int = 16,
    *,
    seed: int = 0,
    prompt_tokens: tuple[int, int] = (64, 160),
    count_tokens: Callable[[str], int] | None = None,
    root: Path | None = None,
) -> list[str]:
    """`n` code-editing prompts from held-out functions: rename a parameter.

    Each prompt is an instruction, the whole function, and the start of its rewrite:

        # Rename <old> to <new> in this function:
        <function>
        # Rewritten:
        <header with the new name>
            <the first word of the body>

    so a faithful continuation copies the function body from the prompt — the repetitive
    workload prompt lookup is for. The prompt ends inside the body, not at the header's
    newline: in the training units a bare "\n" at the end of a line is what precedes the end
    of text, and a build that learnt that answered every prompt with EOS (nothing to copy).
    Functions are dedented; the prompt is `prompt_tokens` long (measured with `count_tokens`
    when given, else estimated from characters).
    Deterministic in `seed`.
    """
    lo, hi = prompt_tokens
    count = count_tokens or (lambda s: round(len(s) / _CHARS_PER_TOKEN))
    candidates = [block for f in load_corpus(root) if f.heldout
                  for m in _DEF.finditer(f.text) if (block := _function_at(f.text, m))]
    random.Random(seed).shuffle(candidates)
    prompts: list[str] = []
    for code in candidates:
        edit = _rename_a_parameter(code)
        if edit is None:
            continue
        old, new, rewritten = edit
        header, body = rewritten.split("\n", 1)
        start = _FIRST_WORD.match(body)
        if start is None:
            continue
        prompt = (f"# Rename {old} to {new} in this function:\n{code}\n# Rewritten:\n"
                  f"{header}\n{start.group(0)}")
        if lo <= count(prompt) <= hi:
            prompts.append(prompt)
            if len(prompts) == n:
                return prompts
    raise ValueError(f"only {len(prompts)} code-edit prompts of {lo}..{hi} tokens; ask for fewer")


# The body's indentation and its first word (or run of punctuation, e.g. a docstring's quotes).
_FIRST_WORD = re.compile(r"\s*(?:[A-Za-z_]\w*|[^\w\s]+)")


def _function_at(text: str, header: re.Match[str]) -> str | None:
    """The dedented function starting at `header` (its body: the following lines indented
    deeper, blank lines included), or None when it has fewer than 3 body lines."""
    indent = len(header.group(1))
    lines = [text[header.start():header.end()]]
    for line in text[header.end() + 1:].splitlines():
        if line.strip() and len(line) - len(line.lstrip(" \t")) <= indent:
            break
        lines.append(line)
    while lines and not lines[-1].strip():
        lines.pop()
    return textwrap.dedent("\n".join(lines)) if len(lines) > 3 else None


def _rename_a_parameter(code: str) -> tuple[str, str, str] | None:
    """(old, new, renamed code) for the first parameter the body uses; None if none is."""
    header, _, body = code.partition("\n")
    params = _DEF.match(header)
    if params is None:
        return None
    for part in params.group(2).split(","):
        m = _PARAM.match(part)
        if m is None or m.group(1) in ("self", "cls"):
            continue
        old = m.group(1)
        # The name itself, not an attribute that happens to share it (`self.cv = cv`).
        name = re.compile(rf"(?<![\w.]){old}\b")
        if name.search(body):
            new = f"new_{old}"
            return old, new, name.sub(new, code)
    return None
