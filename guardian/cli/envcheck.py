"""Where `guardian serve`'s settings come from, said at start-up: GUARDIAN_* variables that
nothing reads (a misspelt name leaves its setting at the default, silently) and a `.env` file
in the working directory that supplied settings. Its own module: it knows both `Settings` and
`AuditSettings`, and guardian.audit.config imports guardian.settings."""

from __future__ import annotations

import os
from pathlib import Path

from guardian.audit.config import AuditSettings, TransparencySettings
from guardian.settings import Settings

# GUARDIAN_* variables read outside `Settings` and `AuditSettings` (the CLI's key, the alert
# sender, debugging and test switches). `tests/guardian/cli/test_envcheck.py` keeps
# this list equal to the names the code uses.
OTHER_VARIABLES = frozenset({
    "GUARDIAN_API_KEY", "GUARDIAN_DASHBOARD_DEV", "GUARDIAN_ALERTMANAGER_URL",
    "GUARDIAN_ALERTMANAGER_TIMEOUT_S", "GUARDIAN_ALERT_LABELS", "GUARDIAN_DEBUG",
    "GUARDIAN_AUDIT_PURE_PYTHON", "GUARDIAN_REQUIRE_NATIVE_SEAL", "GUARDIAN_LOADTEST_KEY",
    "GUARDIAN_GPU_PAIR", "GUARDIAN_GPU_TOLERANCE", "GUARDIAN_TEST_PG",
    "GUARDIAN_TEST_BUILD_DEMO_PAIR", "GUARDIAN_TEST_TIER", "GUARDIAN_TEST_REAL_MIGRATIONS",
    "GUARDIAN_C2SP_GOPATH",
})


def known_variables() -> frozenset[str]:
    """Every GUARDIAN_* environment variable something in the project reads."""
    names = {f"GUARDIAN_{f.upper()}" for f in Settings.model_fields}
    names |= {f"GUARDIAN_AUDIT_{f.upper()}" for f in AuditSettings.model_fields}
    names |= {f"GUARDIAN_AUDIT_{f.upper()}" for f in TransparencySettings.model_fields}
    return frozenset(names | OTHER_VARIABLES)


def _dotenv_names(dotenv: Path) -> list[str]:
    try:
        if dotenv.is_file():
            from dotenv import dotenv_values

            return [k for k in dotenv_values(dotenv) if k.upper().startswith("GUARDIAN_")]
    except (OSError, ValueError, UnicodeDecodeError):
        pass
    return []


def dotenv_note(dotenv: Path = Path(".env")) -> str | None:
    """The line naming a `.env` file in the working directory and the settings it supplies
    (None without one)."""
    names = _dotenv_names(dotenv)
    if not names:
        return None
    return (f"settings also read from {dotenv.resolve()}: {', '.join(sorted(names))} "
            "(a .env file in the working directory; the environment wins over it)")


def environment_notes(environ: dict[str, str] | None = None, dotenv: Path = Path(".env"),
                      ) -> list[str]:
    """What an operator should hear at start-up about where settings come from: GUARDIAN_*
    variables nothing reads (a typo such as MAX_BACTH for MAX_BATCH is otherwise ignored silently,
    the setting left at its default), and a `.env` file in the working directory whose
    GUARDIAN_* lines apply (wherever `guardian` happens to be started from)."""
    environ = dict(os.environ) if environ is None else environ
    notes = []
    known = known_variables()
    from_file = _dotenv_names(dotenv)
    if (note := dotenv_note(dotenv)) is not None:
        notes.append(note)
    unknown = sorted({k for k in [*environ, *from_file] if k.upper().startswith("GUARDIAN_")}
                     - known, key=str.upper)
    if unknown:
        notes.append(f"ignored, no setting of that name: {', '.join(unknown)} (misspelt? "
                     "`guardian serve --help` and docs/reference/configuration.md list them)")
    return notes
