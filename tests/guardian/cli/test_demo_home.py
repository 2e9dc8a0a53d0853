"""The demo pair's home comes from the sidecar's settings, so `.env` reaches every caller:
`guardian pair build-demo` and `guardian serve` (the app's backend) resolve one directory."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

import engine.demo_pair.build as build
from guardian.backends.local import pair_dirs
from guardian.cli import app
from guardian.settings import get_settings


class FakePaths:
    def __init__(self, home: Path) -> None:
        self.draft_dir, self.target_dir = home / "draft", home / "target"
        self.manifest = {"params": {"draft": 1, "target": 2}, "target": {"heldout_loss": 1.0}}


@pytest.fixture
def dotenv_home(tmp_path, monkeypatch) -> Path:
    """A working directory whose .env sets GUARDIAN_HOME (and no GUARDIAN_HOME in the env)."""
    home = tmp_path / "home-from-dotenv"
    (tmp_path / ".env").write_text(f"GUARDIAN_HOME={home}\n")
    monkeypatch.chdir(tmp_path)
    for name in ("GUARDIAN_HOME", "GUARDIAN_DRAFT_DIR", "GUARDIAN_TARGET_DIR"):
        monkeypatch.delenv(name, raising=False)
    get_settings.cache_clear()
    yield home
    get_settings.cache_clear()


def test_build_demo_and_serve_resolve_the_same_home_from_dotenv(dotenv_home, monkeypatch) -> None:
    homes: list[Path] = []

    def fake_ensure(home, **_kw):  # records the resolution; builds nothing
        homes.append(build.demo_pair_dir(home))
        return FakePaths(Path(home))

    monkeypatch.setattr(build, "ensure_demo_pair", fake_ensure)
    res = CliRunner().invoke(app, ["pair", "build-demo"])
    assert res.exit_code == 0, res.output
    assert stat.S_IMODE(dotenv_home.stat().st_mode) == 0o700  # a first build makes the home
    served_from = pair_dirs(get_settings())  # what `guardian serve`'s backend loads
    assert homes == [dotenv_home / "demo-pair" / build.BUILD_VERSION] * 2
    assert served_from == (dotenv_home / "draft", dotenv_home / "target")



def test_guardian_demo_building_the_pair_in_the_settings_home_makes_it_private(
        dotenv_home, monkeypatch) -> None:
    """`guardian demo` without --home builds the pair in the settings' home: that first build
    created the home 0755 (the callers that made it 0700 first did not include this one)."""
    from guardian.devtools.demo import _pair_env

    monkeypatch.setattr(build, "ensure_demo_pair", lambda home, **_kw: FakePaths(Path(home)))
    env = _pair_env(None)
    assert env["GUARDIAN_DRAFT_DIR"] == str(dotenv_home / "draft")
    assert stat.S_IMODE(dotenv_home.stat().st_mode) == 0o700
