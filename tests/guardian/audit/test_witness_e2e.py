"""Witnessing end to end, with real processes: two `guardian witness serve` processes, the
log's `guardian witness submit` against a tlog-policy with quorum "both", the witnessed size
in `guardian audit verify --policy`, cosigned receipts (checked in Python and, where Go is
installed, by the sumdb-based verifier), and a witness refusing an inconsistent checkpoint."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from typer.testing import CliRunner

from guardian.audit.checkpoints import CHECKPOINTS_FILE
from guardian.audit.merkle import Tree, record_leaf
from guardian.audit.notes import Checkpoint, b64, parse_vkey, sign_line
from guardian.audit.receipts import check_receipt
from guardian.cli import app
from tests.support.audit import tamper

pytestmark = pytest.mark.integration  # witness processes of their own

ROOT = Path(__file__).resolve().parents[3]
LOG = "spec-guardian.local/audit"
CLI = [sys.executable, "-c", "from guardian.cli import main; main()"]


def guardian(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`guardian ARGS` as a process of its own."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GUARDIAN_HOME": str(home)}
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120, env=env,
                          cwd=home.parent)


def cli(*args: str) -> tuple[int, str]:
    """`guardian ARGS` in this process (the home's environment is the fixture's): quicker."""
    res = CliRunner().invoke(app, list(args))
    return res.exit_code, res.output


@pytest.fixture
def witnesses(multi_head_home: tuple[Path, str], tmp_path: Path
              ) -> Iterator[list[tuple[str, str, str]]]:
    """Two witness processes following the home's log key: [(name, vkey, url)]."""
    del multi_head_home  # its environment: the log key the witnesses follow
    log_vkey = cli("audit", "keys", "vkey")[1].strip()
    procs, out = [], []
    try:
        for i in (1, 2):
            name, key = f"w{i}.example/witness", tmp_path / f"w{i}.key"
            code, vkey = cli("witness", "init", "--key", str(key), "--name", name)
            assert code == 0, vkey
            p = subprocess.Popen([*CLI, "witness", "serve", "--key", str(key), "--name", name,
                                  "--log", log_vkey, "--state", str(tmp_path / f"w{i}.json"),
                                  "--port", "0"], stderr=subprocess.PIPE, text=True,
                                 env={**os.environ, "PYTHONPATH": str(ROOT)})
            procs.append(p)
            assert p.stderr is not None
            m = re.search(r"on (http://127\.0\.0\.1:\d+)/add-checkpoint", p.stderr.readline())
            assert m, "the witness did not start"
            out.append((name, vkey.strip(), m.group(1)))
        yield out
    finally:
        for p in procs:
            p.terminate()
            p.wait(timeout=10)


def _policy(path: Path, log_vkey: str, ws: list[tuple[str, str, str]]) -> Path:
    lines = [f"log {log_vkey}"] + [f"witness W{i} {vkey} {url}"
                                   for i, (_, vkey, url) in enumerate(ws, 1)]
    path.write_text("\n".join([*lines, "group both all W1 W2", "quorum both", ""]))
    return path


def _post(url: str, body: bytes) -> tuple[int, str]:
    req = urllib.request.Request(url + "/add-checkpoint", data=body, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_checkpoints_are_witnessed_by_the_quorum(multi_head_home: tuple[Path, str],
                                                  witnesses: list[tuple[str, str, str]],
                                                  tmp_path: Path) -> None:
    home, url = multi_head_home
    log_vkey = cli("audit", "keys", "vkey")[1].strip()
    policy = _policy(tmp_path / "policy", log_vkey, witnesses)
    (chain_dir,) = (home / "audit-heads").iterdir()
    cps_file = chain_dir / CHECKPOINTS_FILE
    all_cps = cps_file.read_text().splitlines(keepends=True)
    cps_file.write_text("".join(all_cps[:2]))  # as if submitted when the second was latest
    first = guardian(home, "witness", "submit", "--policy", str(policy), "--url", url)
    assert first.returncode == 0 and "quorum both met" in first.stdout, first.stdout
    cps_file.write_text("".join(all_cps))
    code, out = cli("witness", "submit", "--policy", str(policy), "--url", url)
    assert code == 0, out  # old N + the consistency proof from N accepted
    assert out.count(": OK: cosigned size 42") == 2 and "quorum both met" in out, out

    code, out = cli("audit", "verify", "--url", url, "--policy", str(policy))
    assert code == 0, out
    assert re.search(r"witnessed: chain \S+: witnessed up to size 42 of 42 \(quorum both\)",
                     out), out

    receipt = tmp_path / "r3.tlog-proof"
    code, out = cli("audit", "prove", "r3", "--url", url, "--format", "tlog-proof", "-o",
                    str(receipt))
    assert code == 0, out
    wkeys = [parse_vkey(v) for _, v, _ in witnesses]
    checked = check_receipt(receipt.read_text(), [parse_vkey(log_vkey)], witnesses=wkeys)
    assert checked.cosigned_by == ["w1.example/witness", "w2.example/witness"]

    from tests.support.c2sp import GOPATH, build_go_verifier, run

    if (GOPATH / "src/golang.org/x/mod/sumdb/note").is_dir():
        tool = build_go_verifier(tmp_path)
        args = ["proof", "-vkey", log_vkey, "-witness", witnesses[0][1], "-witness",
                witnesses[1][1]]
        code, out = run(tool, *args, "-quorum", "2", receipt)
        assert code == 0 and "cosigned=2" in out, out
        code, out = run(tool, "proof", "-vkey", log_vkey, "-witness", witnesses[0][1], "-quorum",
                        "2", receipt)
        assert code == 1 and "quorum 2" in out, out  # one witness's word is not the quorum

    tamper(url, "DELETE FROM audit_tokens WHERE seq = (SELECT max(seq) FROM audit_tokens)")
    code, out = cli("audit", "verify", "--url", url, "--policy", str(policy))
    assert code == 1 and "does not match its witnessed checkpoint of size 42" in out, out


def test_a_witness_refuses_an_inconsistent_checkpoint(multi_head_home: tuple[Path, str],
                                                      witnesses: list[tuple[str, str, str]],
                                                      tmp_path: Path) -> None:
    """Even one signed with the log's own key (a compromised or confused log): a fork."""
    home, url = multi_head_home
    log_vkey = cli("audit", "keys", "vkey")[1].strip()
    policy = _policy(tmp_path / "policy", log_vkey, witnesses)
    assert cli("witness", "submit", "--policy", str(policy), "--url", url)[0] == 0
    key = serialization.load_pem_private_key((home / "audit-signing.key").read_bytes(), None)
    assert isinstance(key, Ed25519PrivateKey)
    (chain_dir,) = (home / "audit-heads").iterdir()
    origin = (chain_dir / "checkpoint").read_text().split("\n")[0]
    fork = Tree([record_leaf(f"{i:064x}") for i in range(50)])

    def signed(size: int, tree: Tree = fork) -> str:
        text = Checkpoint(origin, size, tree.root(size)).text
        return text + "\n" + sign_line(text, LOG, key)

    w_url = witnesses[0][2]
    proof = "".join(f"{b64(h)}\n" for h in fork.consistency(42, 50))
    status, answer = _post(w_url, f"old 42\n{proof}\n{signed(50)}".encode())
    assert status == 422, answer  # the fork does not extend the cosigned tree of 42
    status, answer = _post(w_url, f"old 42\n\n{signed(42)}".encode())
    assert (status, answer) == (409, "42\n")  # same size, another root
    status, answer = _post(w_url, f"old 0\n\n{signed(50)}".encode())
    assert (status, answer) == (409, "42\n")  # a stale old size is told the witness's
    other = Ed25519PrivateKey.generate()
    text = Checkpoint(origin, 50, fork.root(50)).text
    status, _ = _post(w_url, f"old 42\n{proof}\n{text}\n{sign_line(text, LOG, other)}".encode())
    assert status == 403
    text = Checkpoint("else.example/log", 1, fork.root(1)).text
    status, _ = _post(w_url, f"old 0\n\n{text}\n{sign_line(text, LOG, key)}".encode())
    assert status == 404
    # and the log's real checkpoint is still cosigned: nothing above moved the witness
    code, out = cli("witness", "submit", "--policy", str(policy), "--url", url)
    assert code == 0 and "quorum both met" in out, out
