"""The README's sections, for tests that run what the docs show (one place to find them)."""

from __future__ import annotations

from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def section(title_prefix: str) -> str:
    """The text of the `## ` section whose title starts with `title_prefix` (to the next `## `)."""
    text = README.read_text()
    start = text.index(f"\n## {title_prefix}")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]
