"""`guardian audit ...` given wrong input: clear errors and exit 2, never a traceback, never a
false verdict (a pass where nothing was checked, a tamper verdict for a missing file), and
nothing deleted or written before the input was checked."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from guardian.cli import app
from tests.support.audit import count, tamper

runner = CliRunner()
UNDECODABLE = "\udcff\udcfe"  # what Python makes of the bytes ff fe in argv


def _invoke(*args: str) -> Result:
    return runner.invoke(app, list(args))


def _run(*args: str) -> tuple[int, str]:
    """(exit code, output with the error box's frame and line breaks flattened away); fails
    the test if the command raised anything but a clean exit."""
    res = _invoke(*args)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    return res.exit_code, " ".join(res.output.replace("│", " ").split())


def _records(url: str) -> int:
    return count(url, "SELECT count(*) FROM audit_tokens")


# -- A: prune cutoffs, ages out of range ----------------------------------------------------
@pytest.mark.parametrize("cutoff, says", [("2999-01-01", "in the future"),
                                          ("0d", "less than a day ago"),
                                          ("12h", "less than a day ago")])
def test_prune_refuses_a_cutoff_that_would_delete_recent_records(
        home: tuple[Path, str], cutoff: str, says: str) -> None:
    _home, url = home
    before = _records(url)
    code, out = _run("audit", "prune", "--url", url, "--older-than", cutoff)
    assert code == 2 and says in out, out
    assert _records(url) == before


@pytest.mark.parametrize("args", [["prune", "--older-than", "9999999d"],
                                  ["prune", "--older-than", "99999999999d"],
                                  ["export", "-o", "x.jsonl", "--since", "9999999d"]])
def test_ages_out_of_range_are_a_clear_error(home: tuple[Path, str], args: list[str]) -> None:
    code, out = _run("audit", *args, "--url", home[1])
    assert code == 2 and "smaller age" in out, out


def test_export_time_window_is_checked_before_exporting(home: tuple[Path, str]) -> None:
    url = home[1]
    code, out = _run("audit", "export", "-o", "x.jsonl", "--url", url, "--since", "²d")
    assert code == 2 and "a whole number and a unit" in out and "invalid literal" not in out
    code, out = _run("audit", "export", "-o", "x.jsonl", "--url", url, "--since", "1d",
                     "--until", "2d")
    assert code == 2 and "is not before --until" in out, out
    assert not Path("x.jsonl").exists()


# -- B: verify with the signed heads gone -----------------------------------------------------
def test_verify_fails_when_a_key_is_pinned_but_no_head_is_found(home: tuple[Path, str],
                                                                tmp_path: Path) -> None:
    home_dir, url = home
    tamper(url, "DELETE FROM audit_tokens WHERE seq = (SELECT max(seq) FROM audit_tokens)")
    shutil.rmtree(home_dir / "audit-heads")
    code, out = _run("audit", "verify", "--url", url)
    assert code == 1 and "no signed tree head found in" in out, out
    assert "cannot be detected" in out and "OK" not in out
    (tmp_path / "empty").mkdir()
    code, out = _run("audit", "verify", "--url", url, "--heads-dir", str(tmp_path / "empty"))
    assert code == 1 and "no signed tree head found in" in out, out
    code, out = _run("audit", "verify", "--url", url, "--no-heads")  # the explicit opt-out
    assert code == 0 and "Undetectable without a head" in out, out


def test_verify_with_a_heads_dir_that_does_not_exist_is_an_error(home: tuple[Path, str],
                                                                 tmp_path: Path) -> None:
    code, out = _run("audit", "verify", "--url", home[1], "--heads-dir",
                     str(tmp_path / "typo"))
    assert code == 2 and "does not exist" in out and "OK" not in out, out


def test_verify_no_heads_help_says_what_it_gives_up() -> None:
    code, out = _run("audit", "verify", "--help")
    assert code == 0 and "Gives up detecting" in out


# -- C: trust files that cannot be read -------------------------------------------------------
def test_a_missing_trust_file_is_an_input_error_not_a_tamper_verdict(home: tuple[Path, str],
                                                                     tmp_path: Path) -> None:
    url = home[1]
    assert _run("audit", "export", "--url", url, "-o", "ex.jsonl")[0] == 0
    missing = str(tmp_path / "nonexistent.json")
    for args in (["verify", "--export", "ex.jsonl", "--trust", missing],
                 ["verify", "--url", url, "--trust", missing],
                 ["keys", "show", "--trust", missing]):
        code, out = _run("audit", *args)
        assert code == 2 and f"cannot read trust file {missing}" in out, (args, out)
        assert "TAMPERED" not in out and "forged" not in out


@pytest.mark.parametrize("doc", [[], "x", {}, {"format": "guardian-audit-trust/v1", "keys": [1]}])
def test_a_trust_file_of_the_wrong_shape_is_a_clear_error(home: tuple[Path, str],
                                                          tmp_path: Path, doc: object) -> None:
    url = home[1]
    assert _run("audit", "export", "--url", url, "-o", "ex.jsonl")[0] == 0
    bad = tmp_path / "bad-trust.json"
    bad.write_text(json.dumps(doc))
    for args in (["verify", "--export", "ex.jsonl", "--trust", str(bad)],
                 ["verify", "--url", url, "--trust", str(bad)],
                 ["keys", "show", "--trust", str(bad)]):
        code, out = _run("audit", *args)
        assert code == 2 and "cannot read trust file" in out, (args, out)


# -- D: checkpoints without their signature or chains ----------------------------------------
@pytest.mark.parametrize("doc", [{}, [1], "x", {"chains": "abc"}, {"chains": [{}]},
                                 {"chains": [{}], "hmac_sha256": "ab"}])
def test_a_checkpoint_without_signature_or_chains_is_invalid(home: tuple[Path, str],
                                                             tmp_path: Path, doc: object) -> None:
    cp = tmp_path / "cp.json"
    cp.write_text(json.dumps(doc))
    code, out = _run("audit", "verify", "--url", home[1], "--checkpoint", str(cp))
    assert code == 2 and "invalid checkpoint" in out and "OK" not in out, out


# -- E: heads given to prove ------------------------------------------------------------------
def _kept_head(home_dir: Path) -> dict:
    heads_file = next((home_dir / "audit-heads").glob("*/heads.jsonl"))
    return json.loads(heads_file.read_text().splitlines()[1])


def test_prove_consistency_checks_the_old_heads_signature_and_root(home: tuple[Path, str],
                                                                   tmp_path: Path) -> None:
    from guardian.audit.heads import make_head
    from guardian.audit.merkle import Frontier, record_leaf
    from guardian.audit.signing import load_signer

    home_dir, url = home
    kept = _kept_head(home_dir)
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps({**kept, "root": "22" * 32}))
    code, out = _run("audit", "prove", str(edited), "--consistency", "--url", url,
                     "-o", str(tmp_path / "c.json"))
    assert code == 1 and "does not verify against the trust file" in out, out
    assert not (tmp_path / "c.json").exists()
    # Validly signed, but over records this database does not hold.
    other = Frontier()
    other.extend(record_leaf(f"{i:064x}") for i in range(kept["size"]))
    signed = make_head(load_signer(home_dir / "audit-signing.key"), kept["chain_id"],
                       kept["replica_id"], other, kept["last_seq"])
    (tmp_path / "other.json").write_text(json.dumps(signed))
    code, out = _run("audit", "prove", str(tmp_path / "other.json"), "--consistency",
                     "--url", url)
    assert code == 1 and "its root differs" in out, out


@pytest.mark.parametrize("doc, says", [("x", "not an object"), ([], "not an object"),
                                       ({}, "missing field 'format'"),
                                       ("chain_id=5", "field 'chain_id' is int")])
def test_prove_names_what_is_wrong_with_a_head_file(home: tuple[Path, str], tmp_path: Path,
                                                    doc: object, says: str) -> None:
    home_dir, url = home
    if doc == "chain_id=5":
        doc = {**_kept_head(home_dir), "chain_id": 5}
    head = tmp_path / "head.json"
    head.write_text(json.dumps(doc))
    for args in (["q1", "--head", str(head)], [str(head), "--consistency"]):
        code, out = _run("audit", "prove", *args, "--url", url)
        assert code == 2 and says in out, (args, out)


# -- F: exports and manifests of the wrong shape ----------------------------------------------
def test_malformed_manifests_and_export_lines_get_a_verdict(home: tuple[Path, str]) -> None:
    assert _run("audit", "export", "--url", home[1], "-o", "ex.jsonl")[0] == 0
    manifest = Path("ex.jsonl.manifest.json")
    good = manifest.read_text()
    for doc in ([], "x"):
        manifest.write_text(json.dumps(doc))
        code, out = _run("audit", "verify", "--export", "ex.jsonl")
        assert code == 1 and "malformed manifest" in out, out
    manifest.write_text("[" * 100_000 + "]" * 100_000)  # too deep for json: no traceback
    code, out = _run("audit", "verify", "--export", "ex.jsonl")
    assert code == 1 and "no readable signed manifest" in out and "Traceback" not in out, out
    manifest.write_text(good)
    # A genuine export under another export's name verifies, and says whose records they are.
    Path("renamed.jsonl").write_text(Path("ex.jsonl").read_text())
    Path("renamed.jsonl.manifest.json").write_text(good)
    code, out = _run("audit", "verify", "--export", "renamed.jsonl")
    assert code == 0 and "written for 'ex.jsonl'" in out, out
    code, out = _run("audit", "verify", "--export", "ex.jsonl")
    assert code == 0 and "written for" not in out, out
    with open("ex.jsonl", "a") as fh:
        fh.write("[1, 2]\n")
    code, out = _run("audit", "verify", "--export", "ex.jsonl")
    assert code == 1 and "malformed export" in out, out


def test_verify_export_of_a_directory_says_so(home: tuple[Path, str], tmp_path: Path) -> None:
    code, out = _run("audit", "verify", "--export", str(tmp_path))
    assert code == 2 and "is a directory" in out and "TAMPERED" not in out, out


# -- G: output paths and undecodable arguments ------------------------------------------------
@pytest.mark.parametrize("cmd", [["checkpoint"], ["prove", "q1"], ["export"]])
def test_unwritable_output_paths_are_refused_before_any_work(home: tuple[Path, str],
                                                             tmp_path: Path,
                                                             cmd: list[str]) -> None:
    for out_path, says in ((tmp_path / "nope" / "x.json", "does not exist"),
                           (tmp_path, "is a directory")):
        code, out = _run("audit", *cmd, "--url", home[1], "-o", str(out_path))
        assert code == 2 and says in out, out


def test_export_of_an_unknown_request_leaves_no_file_behind(home: tuple[Path, str]) -> None:
    code, _ = _run("audit", "export", "--url", home[1], "--request-id", "nosuch",
                   "-o", "none.jsonl")
    assert code == 1 and not Path("none.jsonl").exists()
    Path("kept.jsonl").write_text("an earlier export\n")
    code, _ = _run("audit", "export", "--url", home[1], "--request-id", "nosuch",
                   "-o", "kept.jsonl")
    assert code == 1 and Path("kept.jsonl").read_text() == "an earlier export\n"
    assert sorted(p.name for p in Path().iterdir() if "jsonl" in p.name) == ["kept.jsonl"]


@pytest.mark.parametrize("args", [["show", UNDECODABLE],
                                  ["export", "--request-id", UNDECODABLE, "-o", "x.jsonl"],
                                  ["export", "-o", f"out{UNDECODABLE}.jsonl"]])
def test_undecodable_arguments_are_refused_up_front(home: tuple[Path, str],
                                                    args: list[str]) -> None:
    code, out = _run("audit", *args, "--url", home[1])
    assert code == 2 and "is not valid UTF-8 text" in out, out
    assert not list(Path().glob("*.jsonl*"))


# -- H: nothing generated before the database is checked --------------------------------------
def test_export_and_adopt_check_the_database_before_making_a_key(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from guardian.settings import get_settings

    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "fresh"))
    get_settings.cache_clear()
    try:
        no_db = f"sqlite:///{tmp_path / 'unmigrated.db'}"
        for args in (["export", "-o", str(tmp_path / "x.jsonl")], ["adopt", "--yes"]):
            code, out = _run("audit", *args, "--url", no_db)
            assert code == 1 and "guardian db upgrade" in out, out
        assert not (tmp_path / "fresh" / "audit-signing.key").exists()
        assert not (tmp_path / "fresh" / "audit-trust.json").exists()
    finally:
        get_settings.cache_clear()


def test_adopt_with_nothing_to_adopt_says_so(home: tuple[Path, str]) -> None:
    code, out = _run("audit", "adopt", "--yes", "--url", home[1])
    assert code == 0 and "nothing to adopt" in out, out
