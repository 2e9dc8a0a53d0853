"""Policy files a reviewer tried to slip through: each is refused with a PolicyError naming
the file, never loaded with a surprising meaning."""

from __future__ import annotations

from pathlib import Path

import pytest

from guardian.core.resources import data_path
from guardian.policy import PolicyError
from guardian.policy.loading import load_policy_file

ROUTE = "routes:\n  default:\n    mode: target_only\n"


@pytest.mark.parametrize(("text", "needle"), [
    ("", "empty"),
    ("   \n# only a comment\n", "empty"),
    (ROUTE + "    triggers:\n      window_s: .inf\n", "window_s"),
    (ROUTE + "    triggers:\n      window_s: .nan\n", "window_s"),
    ("version: 99\n" + ROUTE, "version"),
    (ROUTE + "    triggers:\n      webhook_url: notaurl\n", "webhook_url"),
    (ROUTE + "    triggers:\n      webhook_url: file:///etc/passwd\n", "webhook_url"),
    (ROUTE + "    load_shed_queue_depth: 1e23\n", "load_shed_queue_depth"),
    (ROUTE + "    max_queue: 100000000000\n", "max_queue"),
])
def test_refused(tmp_path: Path, text: str, needle: str) -> None:
    f = tmp_path / "p.yaml"
    f.write_text(text)
    with pytest.raises(PolicyError) as err:
        load_policy_file(f)
    assert needle in str(err.value) and str(f) in str(err.value)


def test_binary_file_is_a_policy_error(tmp_path: Path) -> None:
    f = tmp_path / "p.yaml"
    f.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(PolicyError, match="not UTF-8"):
        load_policy_file(f)


def test_shipped_policies_still_load() -> None:
    for f in [data_path("policies", "default.yaml"),
              *sorted(data_path("policies", "examples").glob("*.yaml"))]:
        load_policy_file(f)


def test_a_fifo_device_or_deeply_nested_file_is_a_policy_error_not_a_hang(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """What the loaders read (policy, trust, golden set) must be a regular, small file: a FIFO
    named as the policy blocked the loader (the server's reloader thread too) forever, and
    /dev/zero read until memory ran out; YAML nested 100,000 deep raised RecursionError."""
    import os

    from guardian.audit.signing import SigningError, load_trust
    from guardian.governance.golden import GoldenError, load_golden
    from guardian.policy import PolicyError, load_policy_file

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    deep = tmp_path / "deep.yaml"
    deep.write_text("[" * 100_000)
    for bad in (fifo, Path("/dev/zero"), deep):
        with pytest.raises(PolicyError):
            load_policy_file(bad)
    for bad in (fifo, Path("/dev/zero")):
        with pytest.raises(SigningError):
            load_trust(bad)
        with pytest.raises(GoldenError):
            load_golden(bad)
