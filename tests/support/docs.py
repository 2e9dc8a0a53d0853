"""The repository's docs (README.md, CHANGELOG.md, docs/**/*.md) for tests that check or run
what they show: one place to find a page and a section of it."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def markdown_files() -> list[Path]:
    """README.md, CHANGELOG.md and every page of the docs site."""
    return [README, ROOT / "CHANGELOG.md", *sorted(DOCS.rglob("*.md"))]


def doc_section(page: str, title_prefix: str) -> str:
    """The text of the section of `page` (a path under docs/) whose heading starts with
    `title_prefix`, to the next heading of the same or a higher level; ValueError naming
    the page when there is none."""
    text = (DOCS / page).read_text()
    lines = text.splitlines(keepends=True)
    fence, start, level = False, None, 0
    for i, line in enumerate(lines):
        if line.startswith("```"):
            fence = not fence
        if fence or not line.startswith("#"):
            continue
        hashes = len(line) - len(line.lstrip("#"))
        title = line[hashes:].strip()
        if start is None and title.startswith(title_prefix):
            start, level = i, hashes
        elif start is not None and hashes <= level:
            return "".join(lines[start:i])
    if start is None:
        raise ValueError(f"docs/{page} has no section titled {title_prefix!r}")
    return "".join(lines[start:])
