"""Hostile inputs to the offline checkers: `python -m guardian.audit.proofcheck` and
`guardian audit verify --export`. Each input must be refused in one line (never a stack trace,
never an OK); no database needed - records, trees, heads and exports are built in memory."""

from __future__ import annotations

import copy
import csv
import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from guardian.audit import proofcheck as pc
from guardian.audit.chain import GENESIS, canonical_line, link
from guardian.audit.export import export, make_manifest, read_export, verify_export
from guardian.audit.heads import make_head, read_heads
from guardian.audit.merkle import Frontier, Tree, record_leaf
from guardian.audit.signing import Signer, generate, load_trust
from guardian.cli import app

CHAIN = "ra/abc"


def _rows(n: int = 5, actor: str = "a") -> list[tuple[str, dict[str, Any]]]:
    rows, prev = [], GENESIS
    for i in range(1, n + 1):
        row: dict[str, Any] = {
            "chain_id": CHAIN, "seq": i, "event_id": f"e{i}",
            "created_at": datetime(2024, 1, 1, tzinfo=UTC), "kind": "policy", "route": None,
            "pair_hash": None, "policy_hash": None, "actor": actor, "details": {"n": i},
            "prev_hash": prev}
        row["hash"] = link(prev, "audit_governance", canonical_line("audit_governance", row))
        prev = row["hash"]
        rows.append(("audit_governance", row))
    return rows


class Setup:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.trust_path = tmp / "trust.json"
        self.signer: Signer = generate(tmp / "signing.key", self.trust_path, "ra")
        self.trust = load_trust(self.trust_path)
        self.rows = _rows()
        leaves = [record_leaf(r["hash"]) for _, r in self.rows]
        self.tree = Tree(leaves, Frontier())
        self.head = self.head_of(5)
        self.old = self.head_of(2)
        t, r = self.rows[2]
        self.proof = {"format": pc.PROOF_FORMAT, "head": self.head, "records": [{
            "chain_id": CHAIN, "table": t, "seq": 3, "request_id": "e3",
            "line": canonical_line(t, r), "prev_hash": r["prev_hash"], "hash": r["hash"],
            "leaf_index": 2, "tree_size": 5,
            "path": [p.hex() for p in self.tree.inclusion(2, 5)]}]}
        self.consistency = {"format": pc.CONSISTENCY_FORMAT, "old": self.old, "new": self.head,
                            "proof": [p.hex() for p in self.tree.consistency(2, 5)]}

    def head_of(self, size: int) -> dict[str, Any]:
        f = Frontier()
        f.extend(record_leaf(r["hash"]) for _, r in self.rows[:size])
        return make_head(self.signer, CHAIN, "ra", f, size)

    def check(self, proof: Any, head: Any = None, *, raw: str | None = None,
              head_raw: str | None = None) -> int:
        """proofcheck's exit status; an exception escaping main() fails the test."""
        (self.tmp / "proof.json").write_text(raw if raw is not None else json.dumps(proof))
        argv = [str(self.tmp / "proof.json"), "--trust", str(self.trust_path)]
        if head is not None or head_raw is not None:
            (self.tmp / "head.json").write_text(head_raw if head_raw is not None
                                                else json.dumps(head))
            argv += ["--head", str(self.tmp / "head.json")]
        return pc.main(argv)


@pytest.fixture
def s(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


def test_valid_proofs_still_pass(s: Setup, capsys: pytest.CaptureFixture[str]) -> None:
    assert s.check(s.proof) == 0
    assert "OK: audit_governance seq 3 [e3] of chain ra/abc is leaf 2" in capsys.readouterr().out
    assert s.check(s.proof, s.head) == 0
    assert s.check(s.consistency) == 0
    assert s.check(s.consistency, s.old) == 0


def _set(where: str, key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(p: dict[str, Any]) -> None:
        target = {"head": p["head"], "record": p["records"][0], "proof": p}[where]
        target[key] = value
    return edit


HOSTILE: dict[str, Callable[[dict[str, Any]], None]] = {
    "records is an object": _set("proof", "records", {"a": 1}),
    "records holds a string": _set("proof", "records", ["x"]),
    "head is a list": _set("proof", "head", [1]),
    "head time is a number": _set("head", "time", 5),
    "head signature is a number": _set("head", "signature", 5),
    "head size is null": _set("head", "size", None),
    "head size is a string": _set("head", "size", " 5"),
    "head size is negative": _set("head", "size", -1),
    "head chain_id is a number": _set("head", "chain_id", 5),
    "head root is not a hash": _set("head", "root", "zz"),
    "path holds a number": _set("record", "path", [5]),
    "path holds a short hash": _set("record", "path", ["00"]),
    "path is a string": _set("record", "path", "00" * 32),
    "leaf_index is a float": _set("record", "leaf_index", 2.7),
    "leaf_index is a bool": _set("record", "leaf_index", True),
    "leaf_index is huge": _set("record", "leaf_index", 10 ** 4000),
    "leaf_index is negative": _set("record", "leaf_index", -3),
    "tree_size is a float": _set("record", "tree_size", 5.0),
    "line is a number": _set("record", "line", 5),
    "prev_hash is missing": lambda p: p["records"][0].pop("prev_hash"),
    "request_id is a number": _set("record", "request_id", 3),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_proof_is_refused_in_one_line(case: str, s: Setup,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    bad = copy.deepcopy(s.proof)
    HOSTILE[case](bad)
    assert s.check(bad) == 1
    err = capsys.readouterr().err
    assert err.startswith("INVALID: ") and err.count("\n") == 1, err


@pytest.mark.parametrize("raw", [
    "[1]", "null", "5", "[" * 100_000 + "]" * 100_000, '{"format": 1} trailing',
    "\udcff", '{"size": 1e999}'])
def test_unreadable_or_non_object_proof_file(raw: str, s: Setup,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    (s.tmp / "proof.json").write_bytes(raw.encode("utf-8", "surrogateescape"))
    code = pc.main([str(s.tmp / "proof.json"), "--trust", str(s.trust_path)])
    assert code in (1, 2)
    err = capsys.readouterr().err
    assert err.startswith(("INVALID: ", "unreadable input: ")) and err.count("\n") == 1, err


def test_infinite_size_in_the_head_is_refused(s: Setup) -> None:
    text = json.dumps(s.proof).replace('"size": 5', '"size": 1e999')
    assert s.check(None, raw=text) == 1


def test_a_kept_head_that_is_not_a_head_never_falls_back_to_the_proofs_own(s: Setup) -> None:
    """`--head kept.json` holding null/[]/{}: before, null (and {}) made the consistency check
    use the proof's own old head and print OK."""
    for raw in ("null", "[]", "{}", "0"):
        assert s.check(s.consistency, head_raw=raw) in (1, 2), raw
        assert s.check(s.proof, head_raw=raw) in (1, 2), raw


def test_consistency_proof_of_hostile_shape(s: Setup) -> None:
    for edit in ({"proof": "00" * 32}, {"proof": [5]}, {"proof": ["00"]}, {"new": [1]},
                 {"old": None, "new": None}):
        assert s.check({**s.consistency, **edit}) == 1, edit


def test_input_size_is_capped(s: Setup, monkeypatch: pytest.MonkeyPatch) -> None:
    """An enormous (or endless: /dev/zero) input is refused, not read into memory."""
    monkeypatch.setattr(pc, "MAX_INPUT_BYTES", 1 << 16)
    assert pc.main(["/dev/zero", "--trust", str(s.trust_path)]) == 2
    (s.tmp / "big.json").write_text(json.dumps({**s.proof, "pad": "x" * (1 << 17)}))
    assert pc.main([str(s.tmp / "big.json"), "--trust", str(s.trust_path)]) == 2


def test_malformed_heads_line_is_a_verify_problem_not_a_crash(s: Setup) -> None:
    """`read_heads` (guardian audit verify) catches ProofError/KeyError/ValueError: a head line
    with a mistyped field used to raise TypeError out of check_head."""
    d = s.tmp / "heads" / "ra__abc"
    d.mkdir(parents=True)
    lines = [dict(s.head, time=5), dict(s.head, signature=7), dict(s.head, size=None), [1],
             s.head]
    d.joinpath("heads.jsonl").write_text("".join(json.dumps(h) + "\n" for h in lines))
    heads, problems = read_heads(s.tmp / "heads", s.trust)
    assert len(problems) == 4 and heads[CHAIN] == [s.head]


def test_domain_separation_an_interior_node_is_not_a_leaf(s: Setup) -> None:
    leaves = [record_leaf(r["hash"]) for _, r in s.rows[:4]]
    n01, n23 = pc.node_hash(*leaves[:2]), pc.node_hash(*leaves[2:])
    root = pc.node_hash(n01, n23)
    assert pc.verify_inclusion(leaves[0], 0, 4, [leaves[1], n23], root)
    assert not pc.verify_inclusion(n01, 0, 4, [n23], root)
    assert not pc.verify_inclusion(leaves[0], 0, 4, [leaves[1], n23, n23], root)
    # The bare RFC 9162 walk trusts the size it is given (an interior node "is" leaf 0 of a
    # tree of 2): check_proof takes the size from the signed head only and hashes the leaf
    # from the record's content, so a proof cannot do this.
    assert pc.verify_inclusion(n01, 0, 2, [n23], root)
    bad = copy.deepcopy(s.proof)
    bad["records"][0].update(tree_size=2, leaf_index=0, path=[n23.hex()])
    assert s.check(bad) == 1


# -- exports ------------------------------------------------------------------------------
def _export(s: Setup, fmt: str = "jsonl", rows: list[tuple[str, dict[str, Any]]] | None = None
            ) -> tuple[Path, dict[str, Any]]:
    path = s.tmp / f"e.{fmt}"
    hashes: list[str] = []
    export(rows or s.rows, path, fmt, hashes)  # type: ignore[arg-type]
    m = make_manifest(path, hashes, s.signer, [s.head])
    path.with_name(path.name + ".manifest.json").write_text(json.dumps(m))
    return path, m


def test_a_null_manifest_is_not_no_manifest(s: Setup) -> None:
    """A manifest file replaced by `null`: verify_export used to skip the manifest, so lines
    removed from the export passed `guardian audit verify --export`."""
    path, _m = _export(s)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2] + lines[3:]) + "\n")
    assert verify_export(path).ok  # no manifest asked for: records and links only
    rep = verify_export(path, manifest=None, trust=s.trust)
    assert not rep.ok and "malformed manifest" in rep.errors[0]
    path.with_name(path.name + ".manifest.json").write_text("null")
    res = CliRunner().invoke(app, ["audit", "verify", "--export", str(path), "--trust",
                                   str(s.trust_path)])
    assert res.exit_code == 1 and "OK" not in res.output, res.output


def _refused(path: Path, s: Setup, m: dict[str, Any], what: str) -> None:
    with pytest.raises(ValueError, match=what):
        verify_export(path, manifest=m, trust=s.trust)


def test_jsonl_fields_no_hash_covers_are_refused(s: Setup) -> None:
    path, m = _export(s)
    assert verify_export(path, manifest=m, trust=s.trust).ok
    lines = path.read_text().splitlines()
    # A repeated key: Python reads the last (hashed) value, other readers the first.
    path.write_text("\n".join(['{"actor": "mallory", ' + lines[0][1:], *lines[1:]]) + "\n")
    _refused(path, s, m, "repeats key 'actor'")
    # ... also inside a JSON column.
    first = lines[0].replace('"details": {"n": 1}', '"details": {"n": 0, "n": 1}')
    path.write_text("\n".join([first, *lines[1:]]) + "\n")
    _refused(path, s, m, "repeats key 'n'")
    # A field the record's table does not have.
    path.write_text("\n".join([lines[0][:-1] + ', "completion_text": "forged"}', *lines[1:]])
                    + "\n")
    _refused(path, s, m, "'completion_text', which is not a field of audit_governance")
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    _refused(path, s, m, "nested too deeply")


def test_csv_cells_no_hash_covers_are_refused(s: Setup) -> None:
    path, m = _export(s, "csv")
    assert verify_export(path, manifest=m, trust=s.trust).ok
    with open(path, newline="") as fh:
        table = list(csv.reader(fh))
    header = table[0]

    def write(rows: list[list[str]]) -> None:
        with open(path, "w", newline="") as fh:
            csv.writer(fh).writerows(rows)

    forged = [header] + [list(r) for r in table[1:]]
    forged[1][header.index("completion_text")] = json.dumps("forged")
    write(forged)
    _refused(path, s, m, "'completion_text', which is not a field")
    write([[*header, "actor"]] + [[*r, json.dumps("mallory")] for r in table[1:]])
    _refused(path, s, m, "column name is repeated")
    write([header, table[1] + [json.dumps("extra")], *table[2:]])
    _refused(path, s, m, "not a field")


def test_csv_export_with_a_long_cell_verifies(s: Setup) -> None:
    """A record with a field over csv's default 128 KiB cell limit (a long prompt): the CSV
    export used to fail verification with a csv.Error stack trace."""
    rows = _rows(actor="x" * 300_000)
    path = s.tmp / "long.csv"
    hashes: list[str] = []
    export(rows, path, "csv", hashes)
    assert [r["actor"] for _, r in read_export(path)] == ["x" * 300_000] * 5
    m = make_manifest(path, hashes, s.signer, [])
    assert verify_export(path, manifest=m, trust=s.trust).ok


@pytest.mark.parametrize("keys", [{"a": 1}, ["x"], "KEY_ID_VALID_NOT_AFTER_INT"])
def test_malformed_trust_file_is_refused_in_one_line(keys: Any, s: Setup,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    doc = load_trust(s.trust_path)
    if keys == "KEY_ID_VALID_NOT_AFTER_INT":
        doc["keys"][0]["not_after"] = 5
    else:
        doc["keys"] = keys
    s.trust_path.write_text(json.dumps(doc))
    assert s.check(s.proof) == 1
    err = capsys.readouterr().err
    assert err.startswith("INVALID: ") and err.count("\n") == 1, err
