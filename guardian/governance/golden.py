"""Golden sets: the prompts a promotion gate (`guardian.governance.gates`) runs.

A golden set is JSONL, one {"id", "prompt", ["max_tokens", "temperature", "seed", "top_p",
"top_k", "stop"]} a line. Golden lines may carry stop strings, top-p and top-k; the shipped set
has stop-string prompts, prompts whose completion ends with EOS, and sampled prompts with top-p
and top-k. Owns `GoldenPrompt`, `load_golden` and `GoldenError` (a file that cannot be used,
the message naming the file, line and field).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from guardian.core.fileio import read_small


class GoldenError(ValueError):
    """A golden file that cannot be used; the message names the file, line and field."""


@dataclass(frozen=True, slots=True)
class GoldenPrompt:
    id: str
    prompt: str
    max_tokens: int | None = None
    temperature: float = 0.0
    seed: int = 0
    top_p: float = 1.0
    top_k: int = 0
    stop: tuple[str, ...] = ()


_GOLDEN_FIELDS = {"id", "prompt", "max_tokens", "temperature", "seed", "top_p", "top_k", "stop"}


GOLDEN_FILE_LIMIT = 64 << 20  # a golden set is prompts, not a corpus: a wrong path stops here


def load_golden(path: str | Path) -> list[GoldenPrompt]:
    """Read a JSONL golden set: one {"id", "prompt", ["max_tokens", "temperature", "seed",
    "top_p", "top_k", "stop"]} a line."""
    path = Path(path)
    try:
        lines = read_small(path, GOLDEN_FILE_LIMIT).decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise GoldenError(f"cannot read golden file {path}: not UTF-8 text (byte {exc.start})"
                          ) from None
    except OSError as exc:
        raise GoldenError(f"cannot read golden file {path}: {exc.strerror}") from exc
    prompts: list[GoldenPrompt] = []
    seen: set[str] = set()
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        where = f"{path}:{n}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise GoldenError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from exc
        if not isinstance(raw, dict):
            raise GoldenError(f"{where}: each line must be a JSON object with at least \"prompt\"")
        unknown = set(raw) - _GOLDEN_FIELDS
        if unknown:
            raise GoldenError(f"{where}: unknown field(s) {sorted(unknown)}; "
                              f"allowed: {sorted(_GOLDEN_FIELDS)}")
        prompt = raw.get("prompt")
        if not isinstance(prompt, str) or not prompt:
            raise GoldenError(f"{where}: field \"prompt\" must be a non-empty string")
        pid = str(raw.get("id", f"line-{n}"))
        if pid in seen:
            raise GoldenError(f"{where}: duplicate id {pid!r}; ids name prompts in the report")
        seen.add(pid)
        max_tokens, temperature, seed = raw.get("max_tokens"), raw.get("temperature", 0.0), raw.get("seed", 0)
        if max_tokens is not None and (not isinstance(max_tokens, int) or max_tokens < 1):
            raise GoldenError(f"{where}: field \"max_tokens\" must be a positive integer, got {max_tokens!r}")
        if not isinstance(temperature, int | float) or temperature < 0:
            raise GoldenError(f"{where}: field \"temperature\" must be a number >= 0, got {temperature!r}")
        if not isinstance(seed, int):
            raise GoldenError(f"{where}: field \"seed\" must be an integer, got {seed!r}")
        top_p, top_k, stop = raw.get("top_p", 1.0), raw.get("top_k", 0), raw.get("stop", [])
        if not isinstance(top_p, int | float) or isinstance(top_p, bool) or not 0 < top_p <= 1:
            raise GoldenError(f"{where}: field \"top_p\" must be a number in (0, 1], got {top_p!r}")
        if not isinstance(top_k, int) or isinstance(top_k, bool) or top_k < 0:
            raise GoldenError(f"{where}: field \"top_k\" must be an integer >= 0, got {top_k!r}")
        if isinstance(stop, str):
            stop = [stop]
        if not isinstance(stop, list) or not all(isinstance(x, str) and x for x in stop):
            raise GoldenError(f"{where}: field \"stop\" must be a non-empty string or a list of "
                              f"them, got {stop!r}")
        if temperature == 0 and (top_p != 1.0 or top_k != 0):
            raise GoldenError(f"{where}: top_p/top_k apply to sampled prompts; give a "
                              "temperature > 0 too")
        prompts.append(GoldenPrompt(pid, prompt, max_tokens, float(temperature), seed,
                                    float(top_p), top_k, tuple(stop)))
    if not prompts:
        raise GoldenError(f"golden file {path} holds no prompts; add JSON lines like "
                          '{"id": "add", "prompt": "def add(a, b):"}')
    return prompts
