"""Every `guardian ...` command the docs (README.md, CHANGELOG.md, docs/**/*.md) show to be run
parses as written: its subcommands
exist and it passes every required argument and option (a newcomer copying `guardian route
disable ROUTE --key K` from the command table got "Missing option '--reason'"). Shown to be
run: a line of a code block, or an inline span that fills an option with a placeholder
(`--key K`); prose naming a command (`guardian audit export`) is not an invocation. Parsing
only, nothing runs: placeholders such as ROUTE or K are just values. Commands showing
alternatives or optional parts (`a|b`, `[--flag F]`, `<x>`, `...`) are skipped."""

from __future__ import annotations

import re
import shlex
from typing import Any

import pytest
from typer.main import get_command

from guardian.cli import app
from tests.support.docs import ROOT, markdown_files

SKIP = re.compile(r"[|\[<>…─►]|\.\.\.|\$\(")
INVOCATION = re.compile(r"--[a-z-]+ [A-Z][A-Z_]*\b")  # an option given a placeholder value


def doc_commands() -> list[str]:
    text = "\n".join(path.read_text() for path in markdown_files())
    found = [span for span in re.findall(r"`(guardian [^`\n]+)`", text)
             if INVOCATION.search(span)]
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S):
        found += [line.strip().removeprefix("$ ") for line in block.splitlines()
                  if line.strip().removeprefix("$ ").startswith("guardian ")]
    out = set()
    for command in found:
        command = command.split(" #")[0].strip().rstrip("\\").strip()
        command = command.removesuffix("&").strip()  # started in the background
        if not SKIP.search(command):
            out.add(command)
    return sorted(out)


def parse(command: Any, args: list[str], name: str = "guardian", parent: Any = None) -> None:
    """Parse like the CLI would, without invoking: raises the CLI's UsageError subclasses."""
    ctx = command.make_context(name, list(args), parent=parent)
    if hasattr(command, "resolve_command"):  # a group: on to the subcommand
        rest = [*getattr(ctx, "_protected_args", []), *ctx.args]
        if rest:
            sub_name, sub, sub_args = command.resolve_command(ctx, rest)
            parse(sub, sub_args, sub_name, ctx)


COMMANDS = doc_commands()


def test_the_docs_show_commands() -> None:
    assert len(COMMANDS) > 15, COMMANDS
    assert (ROOT / "docs" / "guides").is_dir()  # the guides are scanned too


@pytest.mark.parametrize("command", COMMANDS)
def test_a_documented_command_parses_as_written(command: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    for name in ("GUARDIAN_API_KEYS_FILE", "GUARDIAN_API_KEY", "GUARDIAN_DEV_MODE"):
        monkeypatch.delenv(name, raising=False)  # what a newcomer's shell has
    try:
        parse(get_command(app), shlex.split(command)[1:])
    except Exception as exc:
        if type(exc).__name__ == "Exit":  # --help and the like
            return
        format_message = getattr(exc, "format_message", None)
        pytest.fail(f"{command!r}: {format_message() if format_message else exc}")
