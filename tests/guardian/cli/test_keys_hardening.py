"""`guardian keys` and the keys-file loader against wrong paths and hostile content.

A FIFO, or a symlink to a directory, stands in for a device; a file just over the size cap
stands in for endless input. Every refusal is one line on stderr with a non-zero exit, and
leaves the path as it was.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.cli import app as cli_app
from guardian.core.fileio import SMALL_FILE_LIMIT
from guardian.security.auth import (
    AuthConfigError,
    KeyStore,
    add_key_to_file,
    hash_key,
    read_keys_file,
    write_keys_file,
)

DIGEST = "a" * 64


def keys(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli_app, ["keys", *args])


def refused(result, code: int = 1, *, says: str) -> None:  # type: ignore[no-untyped-def]
    """Exit `code`, one `error:` line that says `says`, and no traceback."""
    assert result.exit_code == code, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert says in lines[0], lines[0]


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo.yaml"
    os.mkfifo(path)
    return path


# --- 1. writes: only regular files, through symlinks, no directories created -----------------
@pytest.mark.timeout(20)  # the old code blocked forever opening the FIFO
@pytest.mark.parametrize("command", [("add", "x", "-r", "admin"), ("revoke", "x"), ("rotate", "x")])
def test_a_fifo_is_refused_not_read_nor_replaced(fifo: Path, command: tuple[str, ...]) -> None:
    refused(keys(*command, "-f", str(fifo)), says="not a regular file")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_write_refuses_what_is_not_a_regular_file(fifo: Path, tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir-link.yaml").symlink_to(tmp_path / "dir")
    for path in (fifo, tmp_path / "dir", tmp_path / "dir-link.yaml"):
        with pytest.raises(AuthConfigError, match="cannot write API keys file"):
            write_keys_file(path, [])
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and (tmp_path / "dir").is_dir()
    assert (tmp_path / "dir-link.yaml").is_symlink()
    assert keys("list", "-f", str(tmp_path / "dir-link.yaml")).exit_code == 2  # click: a directory


def test_changes_through_a_symlink_land_in_its_target(tmp_path: Path) -> None:
    (tmp_path / "secret").mkdir()
    real = tmp_path / "secret" / "real.yaml"
    first = add_key_to_file(real, "proxy-1", "inference")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    store = KeyStore.from_file(real)  # what a sidecar started on the real path reads
    assert store.authenticate(first) is not None

    added = keys("add", "ops", "-r", "oncall", "-f", str(link))
    assert added.exit_code == 0, added.output
    assert keys("revoke", "proxy-1", "-f", str(link)).exit_code == 0
    assert link.is_symlink() and link.resolve() == real
    assert [e.name for e in read_keys_file(real)] == ["ops"]
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o600
    assert store.authenticate(first) is None  # the revoke reached the sidecar's file
    assert store.authenticate(added.stdout.strip().splitlines()[-1]) is not None


def test_no_missing_directory_is_created(tmp_path: Path) -> None:
    missing = tmp_path / "missing"
    refused(keys("add", "ops", "-r", "oncall", "-f", str(missing / "k.yaml")),
            says="does not exist; create it first")
    refused(keys("revoke", "ops", "-f", str(missing / "k.yaml")), says="No such file")
    assert not missing.exists()
    # a new file in an existing directory is fine
    assert keys("add", "ops", "-r", "oncall", "-f", str(tmp_path / "k.yaml")).exit_code == 0


def test_a_path_that_cannot_hold_a_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    refused(keys("add", "x", "-r", "admin", "-f", str(tmp_path / "plain" / "k.yaml")),
            says="Not a directory")
    if not Path("/proc/self").is_dir():
        pytest.skip("no /proc")
    # procfs lets nobody, root included, create a file: the temp file itself fails
    refused(keys("add", "x", "-r", "admin", "-f", "/proc/self/k.yaml"),
            says="cannot write API keys file /proc/self/k.yaml")


# --- 2. reads: capped ----------------------------------------------------------------------------
def test_a_file_over_the_cap_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (SMALL_FILE_LIMIT + 1))
    refused(keys("list", "-f", str(big)), says=f"larger than {SMALL_FILE_LIMIT} bytes")
    refused(keys("add", "x", "-r", "admin", "-f", str(big)), says="larger than")
    assert big.stat().st_size == SMALL_FILE_LIMIT + 1
    big.write_bytes(b"keys: []\n" + b"#" * (SMALL_FILE_LIMIT - 9))  # exactly the cap: read
    assert read_keys_file(big) == []


# --- 3. names ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["bob\nrole: admin", "\x1b[31mred", "a b", ".hidden", "x" * 65, ""])
def test_unsafe_key_names_are_refused(tmp_path: Path, name: str) -> None:
    path = tmp_path / "k.yaml"
    refused(keys("add", name, "-r", "oncall", "-f", str(path)), says="a key name is 1-64")
    assert not path.exists()


def test_safe_key_names_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "k.yaml"
    for name in ("svc.proxy_1@team-a", "0", "x" * 64):
        assert keys("add", name, "-r", "oncall", "-f", str(path)).exit_code == 0
    assert len(read_keys_file(path)) == 3


def test_a_hand_edited_bad_name_is_refused_on_load(tmp_path: Path) -> None:
    path = tmp_path / "k.yaml"
    path.write_text('keys:\n  - {name: "bob\\nrole: admin", role: oncall, sha256: ' + DIGEST + "}\n")
    result = keys("list", "-f", str(path))
    refused(result, says=str(path))
    assert "a key name is 1-64" in result.stderr and "\\n" in result.stderr  # escaped, not raw
    with pytest.raises(AuthConfigError, match="a key name is 1-64"):
        KeyStore.for_server(path, "0.0.0.0")
    path.write_text("keys:\n  - {name: ok, role: inference, routes: [\"\\e[2J\"], sha256: "
                    + DIGEST + "}\n")
    with pytest.raises(AuthConfigError, match="routes must be non-empty route names"):
        read_keys_file(path)


# --- 4. bad files: one line, in `guardian keys`, `serve` and `dashboard` --------------------------
@pytest.fixture
def bad_files(tmp_path: Path) -> dict[str, Path]:
    binary, five = tmp_path / "bin.yaml", tmp_path / "k5.yaml"
    binary.write_bytes(b"keys:\n\xff\xfe\x00\x80 garbage\n")
    five.write_text("keys: 5\n")
    return {"not UTF-8": binary, "must be a mapping with a `keys:` list": five}


def test_bad_files_in_guardian_keys(bad_files: dict[str, Path]) -> None:
    for says, path in bad_files.items():
        before = path.read_bytes()
        refused(keys("list", "-f", str(path)), says=says)
        refused(keys("add", "x", "-r", "admin", "-f", str(path)), says=says)
        refused(keys("revoke", "x", "-f", str(path)), says=says)
        assert path.read_bytes() == before
        with pytest.raises(AuthConfigError, match=says):
            KeyStore.from_file(path)


def test_bad_files_stop_serve_and_dashboard_with_one_line(bad_files: dict[str, Path],
                                                         tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from guardian.settings import get_settings

    for var in ("GUARDIAN_API_KEYS_FILE", "GUARDIAN_HOST", "GUARDIAN_PORT", "GUARDIAN_POLICY_FILE"):
        monkeypatch.setenv(var, "")  # restored after the test: `serve` sets them
        monkeypatch.delenv(var)
    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "home"))
    runner = CliRunner()
    try:
        for says, path in bad_files.items():
            get_settings.cache_clear()
            served = runner.invoke(cli_app, ["serve", "--keys-file", str(path)])
            refused(served, 2, says=says)
            shown = runner.invoke(cli_app, ["dashboard", "--url", f"sqlite:///{tmp_path / 'a.db'}",
                                            "--keys-file", str(path)])
            assert shown.exit_code == 2 and isinstance(shown.exception, SystemExit)
            text = " ".join(shown.output.replace("│", " ").split())  # unwrap rich's panel
            assert says in text and "Traceback" not in text
    finally:
        get_settings.cache_clear()


# --- 5. routes -----------------------------------------------------------------------------------
@pytest.mark.parametrize("route", ["", " ", "a,,b", "a,"])
def test_empty_route_names_are_refused(tmp_path: Path, route: str) -> None:
    path = tmp_path / "k.yaml"
    result = keys("add", "carol", "-r", "inference", "--route", route, "-f", str(path))
    assert result.exit_code == 2 and "empty route name" in result.output
    assert not path.exists()


def test_routes_are_split_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "k.yaml"
    added = keys("add", "carol", "-r", "inference", "--route", " a , b", "--route", "c",
                 "-f", str(path))
    assert added.exit_code == 0, added.output
    (entry,) = read_keys_file(path)
    assert entry.routes == ("a", "b", "c")
    assert entry.sha256 == hash_key(added.stdout.strip().splitlines()[-1])
