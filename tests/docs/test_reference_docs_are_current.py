"""The generated reference pages (docs/reference/: configuration, policy schema, CLI) are what
`python -m guardian.devtools.docs` writes from the code now: a new setting, policy field or
option without a regenerated page fails here, so the reference cannot drift from the code."""

from __future__ import annotations

from pathlib import Path

import pytest

from guardian.devtools import docs

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("page", sorted(docs.PAGES))
def test_the_committed_reference_page_is_what_the_generator_writes(page: str) -> None:
    committed = (ROOT / page).read_text() if (ROOT / page).is_file() else ""
    assert committed == docs.PAGES[page](), (
        f"{page} differs from the code: run `python -m guardian.devtools.docs` and commit it")


def test_check_names_a_stale_page_and_passes_a_current_one(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert docs.main(["--root", str(tmp_path)]) == 0  # writes every page
    assert docs.main(["--check", "--root", str(tmp_path)]) == 0
    page = tmp_path / "docs/reference/policy.md"
    page.write_text(page.read_text().replace("| `sample_rate` |", "| `sample_rat` |"))
    assert docs.main(["--check", "--root", str(tmp_path)]) == 1
    assert "docs/reference/policy.md is out of date" in capsys.readouterr().err


def test_the_pages_cover_every_setting_policy_field_and_command() -> None:
    from typer.main import get_command

    from guardian.audit.config import AuditSettings
    from guardian.cli import app
    from guardian.policy import RoutePolicy, TriggerPolicy
    from guardian.settings import Settings

    config, policy, cli = docs.configuration_page(), docs.policy_page(), docs.cli_page()
    assert all(f"`GUARDIAN_{n.upper()}`" in config for n in Settings.model_fields)
    assert all(f"`GUARDIAN_AUDIT_{n.upper()}`" in config for n in AuditSettings.model_fields)
    assert all(f"| `{n}` |" in policy for n in [*RoutePolicy.model_fields, *TriggerPolicy.model_fields])
    assert "`routes.<route>.triggers.acceptance`" in policy
    paths = [path for path, _, _ in docs._commands(get_command(app), "guardian")]
    assert len(paths) > 50 and "guardian audit keys rotate" in paths
    assert all(f"`{path}` {{#{path.replace(' ', '-')}}}" in cli for path in paths)
