"""`guardian gate` records the evidence that lets a route speculate: recording it is a release
act, authenticated like every other CLI act (checked before any model is loaded)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.cli import app
from tests.guardian.governance.conftest import write_keys


@pytest.fixture
def prod(monkeypatch: pytest.MonkeyPatch) -> None:
    # tests/conftest.py turns dev mode on for the suite; these tests check the real rule.
    for var in ("GUARDIAN_DEV_MODE", "GUARDIAN_API_KEY", "GUARDIAN_API_KEYS_FILE"):
        monkeypatch.delenv(var, raising=False)


def gate(tmp_path: Path, *extra: str):  # type: ignore[no-untyped-def]
    missing = tmp_path / "nowhere"
    return CliRunner().invoke(app, ["gate", "--pair", f"{missing}/d,{missing}/t",
                                    "--golden", str(tmp_path / "golden.jsonl"),
                                    "--url", f"sqlite:///{tmp_path / 'g.db'}", *extra])


def test_recording_a_gate_needs_an_api_key(prod, tmp_path: Path) -> None:
    out = gate(tmp_path)
    assert out.exit_code == 2 and "no API keys file" in out.output, out.output


def test_recording_a_gate_needs_the_release_role(prod, tmp_path: Path) -> None:
    keys = write_keys(tmp_path / "keys.yaml")
    out = gate(tmp_path, "--keys-file", str(tmp_path / "keys.yaml"), "--key", keys["oncall"])
    assert out.exit_code == 1 and "refused" in out.output and "release" in out.output, out.output
    assert "Traceback" not in out.output


def test_a_release_key_or_a_dry_run_gets_past_authentication(prod, tmp_path: Path) -> None:
    keys = write_keys(tmp_path / "keys.yaml")
    for extra in (["--keys-file", str(tmp_path / "keys.yaml"), "--key", keys["release"]],
                  ["--no-audit"]):
        out = gate(tmp_path, *extra)
        # It gets as far as the (missing) model directories: a bad-input exit, not a refusal.
        assert out.exit_code == 2 and "refused" not in out.output, out.output
        assert "API key" not in out.output, out.output
