"""`guardian db ...` and `guardian audit ...` as a user runs them."""

from __future__ import annotations

import json
import stat
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.audit.testing import governance_event, request_event, shadow_event
from guardian.audit.writer import AuditWriter
from guardian.cli import app
from tests.support.audit import tamper

pytestmark = pytest.mark.integration
runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, list(args))
    return res.exit_code, res.output


@pytest.fixture
def url(fresh_db_url: str, make_writer, tmp_path, monkeypatch) -> str:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GUARDIAN_AUDIT_CHECKPOINT_KEY", "cli-test-key")
    from guardian.settings import get_settings

    get_settings.cache_clear()
    code, out = _run("db", "upgrade", "--url", fresh_db_url)
    assert code == 0, out
    w = make_writer(fresh_db_url)
    for i in range(3):
        ev = request_event(10, request_id=f"r{i}", route="chat" if i else "batch")
        w.submit(ev)
        w.submit(shadow_event(ev.request_id, verdict="near_tie" if i == 1 else "match"))
    w.submit(governance_event())
    w.close()
    yield fresh_db_url
    get_settings.cache_clear()


def test_db_current_and_check(url: str) -> None:
    from guardian.audit.migrate import head

    code, out = _run("db", "current", "--url", url)
    assert code == 0 and f"current: {head()}" in out
    code, out = _run("db", "check", "--url", url)
    assert code == 0, out


def test_show_prints_the_token_table_with_origins(url: str) -> None:
    code, out = _run("audit", "show", "r1", "--url", url)
    assert code == 0, out
    assert "route chat" in out and "near_tie" in out and "first divergence at position 3" in out
    assert "10 emitted tokens" in out
    rows = [line for line in out.splitlines() if "accepted" in line]
    assert rows and all("draft" in line for line in rows)
    assert any("target" in line and ("resampled" in line or "bonus" in line)
               for line in out.splitlines())
    assert "came from the draft model" in out


def test_show_unknown_request_is_a_clear_error(url: str) -> None:
    code, out = _run("audit", "show", "does-not-exist", "--url", url)
    assert code == 1 and "no request with id 'does-not-exist'" in out


def test_bad_dates_exit_2_with_the_accepted_formats(url: str, tmp_path: Path) -> None:
    code, out = _run("audit", "export", "--url", url, "--since", "last tuesday",
                     "-o", str(tmp_path / "x.jsonl"))
    assert code == 2 and "ISO date" in out


def test_unmigrated_database_says_what_to_do(tmp_path: Path) -> None:
    code, out = _run("audit", "verify", "--url", f"sqlite:///{tmp_path / 'empty.db'}")
    assert code == 1 and "guardian db upgrade" in out


def test_verify_exits_1_naming_the_first_bad_record(url: str) -> None:
    assert _run("audit", "verify", "--url", url)[0] == 0
    tamper(url, "UPDATE audit_tokens SET origin = 'target' WHERE request_id = 'r2' "
                "AND position = 4 AND source = 'served'")
    code, out = _run("audit", "verify", "--url", url)
    assert code == 1
    assert "first bad record: edited: audit_tokens" in out and "r2 position 4" in out


def test_checkpoint_then_truncation_fails_verify(url: str, tmp_path: Path) -> None:
    cp = tmp_path / "cp.json"
    code, out = _run("audit", "checkpoint", "--url", url, "-o", str(cp))
    assert code == 0, out
    assert json.loads(cp.read_text())["hmac_sha256"]
    tamper(url, "DELETE FROM audit_governance")
    assert _run("audit", "verify", "--url", url)[0] == 0
    code, out = _run("audit", "verify", "--url", url, "--checkpoint", str(cp))
    assert code == 1 and "truncated" in out


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_export_is_verifiable_offline_and_tampering_shows(url: str, tmp_path: Path, fmt: str) -> None:
    out_file = tmp_path / f"audit.{fmt}"
    code, out = _run("audit", "export", "--url", url, "--format", fmt, "--route", "chat",
                     "--since", "1d", "-o", str(out_file))
    assert code == 0, out
    assert "exported 2" in out or "exported" in out
    assert stat.S_IMODE(out_file.stat().st_mode) == 0o600  # prompts: for its owner only
    code, out = _run("audit", "verify", "--export", str(out_file))
    assert code == 0, out
    if fmt == "jsonl":
        lines = out_file.read_text().splitlines()
        recs = [json.loads(x) for x in lines]
        assert {r["request_id"] for r in recs if r["table"] == "audit_requests"} == {"r1", "r2"}
        assert all(len(r["hash"]) == 64 for r in recs)
        victim = next(i for i, r in enumerate(recs) if r["table"] == "audit_tokens")
        recs[victim]["origin"] = "target"
        out_file.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
        code, out = _run("audit", "verify", "--export", str(out_file))
        assert code == 1 and "edited: audit_tokens" in out


def test_export_refuses_to_sign_records_whose_chain_fails_verification(url: str,
                                                                       tmp_path: Path) -> None:
    """The manifest vouches for what the database holds: an edited database is not exported
    (no file, no manifest), a filtered export included - its records' whole chains are
    verified first."""
    tamper(url, "UPDATE audit_requests SET finish_reason = 'stop' WHERE request_id = 'r0'")
    out_file = tmp_path / "chat.jsonl"
    code, out = _run("audit", "export", "--url", url, "--route", "chat", "-o", str(out_file))
    assert code == 1 and "fail verification" in out and "edited: audit_requests" in out, out
    assert not out_file.exists() and not list(tmp_path.glob("*.manifest.json"))


def test_export_by_request_id(url: str, tmp_path: Path) -> None:
    out_file = tmp_path / "one.jsonl"
    code, out = _run("audit", "export", "--url", url, "--request-id", "r0", "-o", str(out_file))
    assert code == 0 and "exported 16" in out  # request + 10 tokens + shadow + 4 shadow tokens
    code, out = _run("audit", "export", "--url", url, "--request-id", "nope", "-o", str(out_file))
    assert code == 1


def test_prune_reports_and_chain_still_verifies(url: str, make_writer: Callable[..., AuditWriter],
                                               tmp_path: Path) -> None:
    old = datetime.now(UTC) - timedelta(days=3)  # prune refuses a cutoff under a day old
    w = make_writer(url, spool_dir=tmp_path / "old-spool")
    ev = request_event(5, request_id="old0", created_at=old)
    w.submit(ev)
    w.submit(shadow_event(ev.request_id, created_at=old))
    w.close()
    code, out = _run("audit", "prune", "--url", url, "--older-than", "2d")
    assert code == 0, out
    assert "1 chains anchored" in out and " 0 rows deleted" not in out
    assert _run("audit", "show", "old0", "--url", url)[0] == 1
    assert _run("audit", "show", "r1", "--url", url)[0] == 0
    # The fixture's writer published no signed heads (the prune's own record did): chains
    # only here; pruning against signed heads is tests/guardian/audit/test_signed_heads.py.
    code, out = _run("audit", "verify", "--url", url, "--no-heads")
    assert code == 0, out
    code, out = _run("audit", "prune", "--url", url, "--older-than", "soon")
    assert code == 2


def test_show_prints_stored_text_literally(fresh_db_url: str, make_writer, tmp_path,  # type: ignore[no-untyped-def]
                                           monkeypatch) -> None:
    """A prompt a caller typed (and a verdict or route a DB writer set) holding rich markup is
    printed as text: "[/dim]" in a prompt crashed `audit show` with a MarkupError."""
    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "home"))
    assert _run("db", "upgrade", "--url", fresh_db_url)[0] == 0
    w = make_writer(fresh_db_url)
    ev = request_event(3, request_id="rm", prompt="[/dim] hi [bold]x[/bold]",
                       completion="[red]ok[/red]")
    w.submit(ev)
    w.submit(shadow_event(ev.request_id, verdict="match"))
    w.close()
    code, out = _run("audit", "show", "rm", "--url", fresh_db_url)
    assert code == 0, out
    assert "[/dim] hi [bold]x[/bold]" in out and "[red]ok[/red]" in out


@pytest.mark.parametrize(("spec", "shown"), [
    # llama.cpp's timings carry draft_n only when it drafted: no counter at all
    ({}, "acceptance rate not reported α not reported mean acceptance length not reported"),
    # drafted: proposed and accepted, but neither the judged positions nor the steps
    ({"proposed_tokens": 8, "accepted": 6}, "acceptance rate 0.750 α not reported"),
])
def test_show_states_what_a_speculative_pool_did_not_report(url: str, make_writer, spec,
                                                           shown) -> None:
    import dataclasses

    unreported = [k for k in ("proposed_tokens", "judged_tokens", "accepted", "steps")
                  if k not in spec]
    ev = dataclasses.replace(request_event(4, request_id="up0"), stats={
        "upstream_pool": "speculative", "unreported": unreported, **spec})
    w = make_writer(url)
    w.submit(ev)
    w.close()
    code, out = _run("audit", "show", "up0", "--url", url)
    assert code == 0, out
    assert shown in " ".join(out.split()), out
