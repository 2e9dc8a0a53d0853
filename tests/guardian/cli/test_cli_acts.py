"""CLI acts beyond `guardian route`: `guardian gate` records the evidence that lets a route
speculate, so recording it is a release act; `guardian audit prune` deletes records, so it is a
compliance act. Both authenticate like every other CLI act, before any work is done."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.cli import app
from tests.support.governance import write_keys


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


def test_pruning_audit_records_needs_a_compliance_key(prod, tmp_path: Path) -> None:
    """Deleting audit records is a retention act: no free-text --actor any more."""
    from guardian.audit import upgrade

    url = f"sqlite:///{tmp_path / 'a.db'}"
    upgrade(url)
    runner = CliRunner()
    out = runner.invoke(app, ["audit", "prune", "--url", url, "--older-than", "1d"])
    assert out.exit_code == 2 and "no API keys file" in out.output, out.output
    keys = write_keys(tmp_path / "keys.yaml")
    creds = ["--keys-file", str(tmp_path / "keys.yaml"), "--key"]
    out = runner.invoke(app, ["audit", "prune", "--url", url, "--older-than", "1d", *creds,
                              keys["oncall"]])
    assert out.exit_code == 1 and "compliance" in out.output, out.output
    out = runner.invoke(app, ["audit", "prune", "--url", url, "--older-than", "1d", *creds,
                              keys["compliance"]], env={"GUARDIAN_AUDIT_SALT": "s" * 20,
                                                        "GUARDIAN_AUDIT_CHECKPOINT_KEY": "k" * 20})
    assert out.exit_code == 0 and "pruned records" in out.output, out.output
    assert runner.invoke(app, ["audit", "prune", "--actor", "me", "--url", url,
                               "--older-than", "1d"]).exit_code == 2  # the flag is gone
