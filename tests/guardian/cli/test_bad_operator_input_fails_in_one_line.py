"""A sweep of every `guardian` command with a careless or hostile operator's input: each bad
input is one line and a non-zero exit, found before any work, and leaves nothing behind.

What `test_error_boundary`, `test_keys_hardening` and the per-command tests already cover is
not repeated: here are the inputs they did not try - a FIFO or a device where a file is read
(the read blocked forever, or filled memory), input nested too deep to parse, a mistyped
SQLite path that a read-only command created as an empty database, options that were only
checked after side effects (serve's log level), after loading a model (gate's device and
threads, pair's prompt) or after minutes of traffic (demo's --json), and a --grace-s of nan
that let every record appended after the last signed head pass as pending.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.cli import app as cli_app
from guardian.settings import get_settings

ROOT = Path(__file__).resolve().parents[3]
POLICY = ROOT / "policies" / "default.yaml"
GOLDEN = ROOT / "policies" / "golden" / "python-code.jsonl"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh GUARDIAN_HOME; serve's options (it exports them) are restored after the test."""
    for var in [v for v in os.environ if v.startswith("GUARDIAN_")]:
        monkeypatch.delenv(var)
    for var in ("GUARDIAN_API_KEYS_FILE", "GUARDIAN_HOST", "GUARDIAN_PORT",
                "GUARDIAN_POLICY_FILE"):
        monkeypatch.setenv(var, "")
        monkeypatch.delenv(var)
    monkeypatch.setenv("GUARDIAN_DEV_MODE", "1")
    path = tmp_path / "home"
    monkeypatch.setenv("GUARDIAN_HOME", str(path))
    get_settings.cache_clear()
    yield path
    get_settings.cache_clear()


def guardian(*args: str):  # type: ignore[no-untyped-def]
    # A wide terminal: rich must not wrap a long path (xdist's tmp paths) inside a word.
    return CliRunner().invoke(cli_app, list(args), env={"COLUMNS": "1000",
                                                        "TERMINAL_WIDTH": "1000"})


def one_line(result, code: int, says: str) -> None:  # type: ignore[no-untyped-def]
    """Exit `code`, no traceback, and `says` in the (unwrapped) error output."""
    assert result.exit_code == code, (result.exception, result.output)
    assert isinstance(result.exception, SystemExit), result.exception
    text = " ".join(result.output.replace("│", " ").split())  # unwrap rich's usage panel
    assert says in text and "Traceback" not in text, text


def run_main(argv: list[str], monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """`guardian ARGV` through the error boundary (`guardian.cli.main`), in process."""
    from guardian.cli import main

    monkeypatch.setattr(sys, "argv", ["guardian", *argv])
    with pytest.raises(SystemExit) as exc:
        main()
    return int(exc.value.code or 0), capsys.readouterr().err


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A migrated SQLite audit database."""
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    assert guardian("db", "upgrade", "--url", url).exit_code == 0
    return url


# --- 1. a FIFO or a device where a file is read: refused, never read -------------------------
# Each read used to block forever on the FIFO (no writer) and, on /dev/zero, to read until
# memory ran out (MemoryError). Operator-named files follow the keys file's rule
# (guardian.core.fileio.read_small): regular files only.
READERS = {
    "policy validate": lambda p, url: ["policy", "validate", p],
    "policy show": lambda p, url: ["policy", "show", p],
    "alerts rules": lambda p, url: ["alerts", "rules", "--policy", p],
    "route status": lambda p, url: ["route", "status", "--policy", p, "--url", url],
    "canary abort": lambda p, url: ["canary", "abort", "r", "--reason", "x", "--dev",
                                    "--policy", p, "--url", url],
    "route promote --report": lambda p, url: ["route", "promote", "default", "--pair", "abcd",
                                              "--dev", "--report", p, "--url", url],
    "serve --policy": lambda p, url: ["serve", "--policy", p, "--no-first-run-gate"],
    "gate --golden": lambda p, url: ["gate", "--pair", "demo", "--golden", p, "--no-audit"],
    "audit verify --checkpoint": lambda p, url: ["audit", "verify", "--url", url,
                                                 "--checkpoint", p],
    "audit verify --trust": lambda p, url: ["audit", "verify", "--url", url, "--trust", p],
    "audit keys show --trust": lambda p, url: ["audit", "keys", "show", "--trust", p],
    "audit prove --head": lambda p, url: ["audit", "prove", "abc", "--url", url, "--head", p],
    "audit prove --consistency": lambda p, url: ["audit", "prove", p, "--consistency",
                                                 "--url", url],
    "audit verify --manifest": lambda p, url: ["audit", "verify", "--export", url[10:],
                                               "--manifest", p],
    "audit verify --export": lambda p, url: ["audit", "verify", "--export", p,
                                             "--manifest", url[10:]],
}


@pytest.mark.timeout(60)  # the FIFO used to block each of these forever
@pytest.mark.parametrize("command", sorted(READERS))
def test_a_fifo_or_a_device_is_refused_not_read(command: str, fifo: Path, db_url: str,
                                                tmp_path: Path) -> None:
    for path in (str(fifo), "/dev/zero"):
        if path == "/dev/zero" and not Path(path).exists():
            continue
        one_line(guardian(*READERS[command](path, db_url)), 2,
                 f"{path}: not a regular file (a device, FIFO or socket)")


def test_a_policy_file_over_the_cap_is_refused(tmp_path: Path) -> None:
    from guardian.core.fileio import SMALL_FILE_LIMIT

    big = tmp_path / "big.yaml"
    big.write_bytes(POLICY.read_bytes() + b"#" * SMALL_FILE_LIMIT)
    one_line(guardian("policy", "validate", str(big)), 2, f"larger than {SMALL_FILE_LIMIT} bytes")


# --- 2. input nested too deep: bad input (2), said plainly, not "RecursionError" (1) ----------
def test_deeply_nested_yaml_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text("routes: " + "[" * 100_000 + "\n")
    code, err = run_main(["policy", "validate", str(deep)], monkeypatch, capsys)
    assert code == 2, err
    assert "nested too deeply" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


# --- 3. read-only commands leave no empty SQLite file behind a mistyped path -----------------
@pytest.mark.parametrize("args", [
    ["audit", "verify"], ["audit", "verify", "--no-heads"], ["audit", "show", "abc"],
    ["audit", "checkpoint", "-o", "{tmp}/cp.json"], ["db", "check"],
    ["dashboard", "--dev"],
], ids=lambda a: " ".join(a[:2]))
def test_read_only_commands_create_no_database_file(args: list[str], tmp_path: Path) -> None:
    typo = tmp_path / "typo.db"
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args] + ["--url", f"sqlite:///{typo}"]
    one_line(guardian(*argv), 1, f"no SQLite database at {typo}")
    assert not typo.exists()


def test_db_current_reports_a_missing_file_without_creating_it(tmp_path: Path) -> None:
    typo = tmp_path / "typo.db"
    out = guardian("db", "current", "--url", f"sqlite:///{typo}")
    assert out.exit_code == 0 and "current: base (no database file at" in out.stdout
    assert not typo.exists()
    # db upgrade still creates it (that is its job), and the readers then find it
    assert guardian("db", "upgrade", "--url", f"sqlite:///{typo}").exit_code == 0
    assert guardian("audit", "verify", "--no-heads", "--url", f"sqlite:///{typo}").exit_code == 0


# --- 4. audit verify --grace-s: a number of seconds, not nan -----------------------------------
@pytest.mark.parametrize("grace", ["nan", "inf", "-1", "1e308"])
def test_grace_must_be_a_sane_number_of_seconds(grace: str, db_url: str) -> None:
    # nan compared false with every head's age: records appended after the latest signed
    # head were all "pending", and verification passed.
    one_line(guardian("audit", "verify", "--url", db_url, "--grace-s", grace), 2,
             "seconds from 0 to 86400")


# --- 5. options checked before side effects, model loading or traffic --------------------------
def test_serve_refuses_an_unknown_log_level_before_writing_secrets(home: Path) -> None:
    # It used to generate the audit secrets and signing key, then die with "KeyError: 'bogus'".
    one_line(guardian("serve", "--log-level", "bogus", "--no-first-run-gate"), 2,
             "'bogus' is not one of critical, error, warning, info, debug, trace")
    assert not (home / "secrets.env").exists() and not (home / "audit-signing.key").exists()


@pytest.mark.parametrize("threads", ["0", "-3"])
def test_gate_refuses_a_thread_count_below_one(threads: str) -> None:
    one_line(guardian("gate", "--pair", "demo", "--golden", str(GOLDEN), "--no-audit",
                      "--threads", threads), 2, "greater than or equal to 1")


def test_gate_refuses_an_unknown_device_as_bad_input(dirs, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    draft, target = dirs
    out = guardian("gate", "--pair", f"{draft},{target}", "--golden", str(GOLDEN), "--no-audit",
                   "--device", "tpu", "--report-dir", str(tmp_path / "reports"))
    one_line(out, 2, "cannot load the pair on --device 'tpu'")
    assert not (tmp_path / "reports").exists()


def test_pair_generate_checks_its_prompt_and_temperature_first(dirs) -> None:  # type: ignore[no-untyped-def]
    draft, target = dirs
    pair = ["--draft", str(draft), "--target", str(target), "--max-new-tokens", "2"]
    # undecodable bytes in argv arrive as lone surrogates: the tokenizer raised TypeError (1)
    one_line(guardian("pair", "generate", "hi \udcff", *pair), 2, "not valid UTF-8 text")
    one_line(guardian("pair", "generate", "hi", "--temperature", "inf", *pair), 2,
             "less than or equal to 2")


def test_demo_checks_its_json_path_before_sending_traffic(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from guardian.devtools import demo as demo_module

    def no_traffic(**_: object) -> None:
        raise AssertionError("the demo ran before its --json path was checked")

    monkeypatch.setattr(demo_module, "run_demo", no_traffic)
    one_line(guardian("demo", "--json", str(tmp_path / "missing" / "summary.json")), 2,
             f"the directory {tmp_path / 'missing'} does not exist")
