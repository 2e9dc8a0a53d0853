"""Database-only commands never load the inference stack: on-call's `route disable` must not
wait seconds for torch and transformers to import (they are imported lazily, see
engine/__init__.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

POLICY = Path(__file__).resolve().parents[3] / "policies" / "default.yaml"

PROBE = """
import sys
from guardian.cli import main
sys.argv = ["guardian", *sys.argv[1:]]
code = 0
try:
    main()
except SystemExit as exc:
    code = exc.code or 0
print(f"EXIT={code}")
heavy = sorted(m for m in ("torch", "transformers") if m in sys.modules)
print("HEAVY=" + ",".join(heavy))
"""


@pytest.mark.parametrize("args", [
    ["route", "status"],
    ["audit", "verify"],
    ["policy", "validate", str(POLICY)],
    ["--help"],
], ids=lambda a: " ".join(a[:2]))
def test_database_only_commands_import_no_torch(args: list[str], tmp_path: Path) -> None:
    env = {"GUARDIAN_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "GUARDIAN_DEV_MODE": "1"}
    upgrade = subprocess.run([sys.executable, "-c", PROBE, "db", "upgrade"], env=env,
                             capture_output=True, text=True, timeout=120)
    assert "EXIT=0" in upgrade.stdout, upgrade.stdout + upgrade.stderr
    out = subprocess.run([sys.executable, "-c", PROBE, *args], env=env, capture_output=True,
                         text=True, timeout=120)
    # The command did its work (an early failure would prove nothing about its imports).
    assert "EXIT=0" in out.stdout, out.stdout + out.stderr
    line = [x for x in out.stdout.splitlines() if x.startswith("HEAVY=")]
    assert line[-1] == "HEAVY=", f"guardian {' '.join(args)} imported {line[-1][6:]}"
