"""`guardian policy show` reads whole at 80 columns (a default terminal, or a pipe): a table
of nine columns cut nearly every cell to "…"."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.cli import app

POLICY = Path(__file__).resolve().parents[3] / "policies" / "default.yaml"


@pytest.mark.parametrize("columns", ["80", "200"])
def test_policy_show_cuts_nothing(columns: str) -> None:
    out = CliRunner().invoke(app, ["policy", "show", str(POLICY)], env={"COLUMNS": columns})
    assert out.exit_code == 0, out.output
    assert "…" not in out.output
    for text in ("speculative", "target_only", "draft_model", "cool-down 600s", "speedup≥1"):
        assert text in out.output, (text, out.output)
