"""guardian.cli.envcheck.environment_notes: GUARDIAN_* variables nothing reads are named at
start-up (a typo leaves a setting at its default, silently), and so is a `.env` file in the
working directory that supplies settings."""

from __future__ import annotations

import re
from pathlib import Path

from guardian.cli.envcheck import environment_notes, known_variables

ROOT = Path(__file__).resolve().parents[3]
NAME = re.compile(r"\bGUARDIAN_[A-Z0-9_]*[A-Z0-9]\b")


def test_every_variable_the_project_reads_is_known() -> None:
    """The list the warning checks against is the names the code, CI and docs use: a new
    setting read anywhere but not known would be reported as a typo."""
    used: set[str] = set()
    for path in [*ROOT.glob("guardian/**/*.py"), *ROOT.glob("engine/**/*.py"),
                 *ROOT.glob("dashboard/**/*.py"), *ROOT.glob("tests/**/*.py"),
                 ROOT / ".ci" / "run", ROOT / ".ci" / "gpu", ROOT / ".ci" / "docs", ROOT / "README.md",
                 ROOT / "CHANGELOG.md", *ROOT.glob("docs/**/*.md")]:
        if path.is_file() and path != Path(__file__):
            used |= set(NAME.findall(path.read_text(errors="replace")))
    # Prefixes written in prose ("GUARDIAN_AUDIT_HEADS_*") are not variables.
    used = {u for u in used if not any(k.startswith(u + "_") for k in known_variables())}
    assert used - known_variables() == set()


def test_a_misspelt_variable_is_named(tmp_path: Path) -> None:
    env = {"GUARDIAN_MAX_BACTH": "32", "GUARDIAN_MAX_BATCH": "8", "GUARDIAN_AUDIT_SALT": "x" * 16,
           "PATH": "/bin", "guardian_home": "/tmp"}
    notes = environment_notes(env, dotenv=tmp_path / "absent.env")
    assert len(notes) == 1 and "GUARDIAN_MAX_BACTH" in notes[0]
    assert "GUARDIAN_MAX_BATCH," not in notes[0] and "SALT" not in notes[0]
    assert environment_notes({"GUARDIAN_HOME": "/x"}, dotenv=tmp_path / "absent.env") == []


def test_a_dotenv_in_the_working_directory_is_named_with_what_it_sets(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("GUARDIAN_DEV_MODE=1\nGUARDIAN_DATABSE_URL=sqlite://\nOTHER=1\n")
    notes = environment_notes({}, dotenv=dotenv)
    assert any(str(dotenv) in n and "GUARDIAN_DEV_MODE" in n and "OTHER" not in n for n in notes)
    assert any("GUARDIAN_DATABSE_URL" in n and n.startswith("ignored") for n in notes)
    dotenv.write_bytes(b"\xff\xfe not text")
    environment_notes({}, dotenv=dotenv)  # unreadable: no note, no crash


def test_every_cli_command_names_a_dotenv_that_supplies_settings(tmp_path: Path,
                                                                 monkeypatch) -> None:
    """A `.env` where a command is run can name the trust file `audit verify` believes or
    the keys file acts are checked against: CLI commands say so on stderr, not silently."""
    from typer.testing import CliRunner

    from guardian.cli import app

    (tmp_path / ".env").write_text("GUARDIAN_AUDIT_TRUST_FILE=/elsewhere/trust.json\n")
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(app, ["route", "--help"])
    assert out.exit_code == 0
    assert "settings also read from" in out.stderr and "GUARDIAN_AUDIT_TRUST_FILE" in out.stderr
    (tmp_path / ".env").write_text("# nothing for us\nOTHER=1\n")
    assert "settings also read" not in CliRunner().invoke(app, ["route", "--help"]).stderr
