"""`guardian audit export`: chained records with their hashes, verifiable offline.

Every exported record carries its table, all canonical columns, `prev_hash` and `hash`, so
`verify_export` can recompute each link without the database. Formats:

* `jsonl`: one JSON object per record (floats are exact: JSON uses repr);
* `csv`: union of columns; every non-empty cell is a JSON value (strings quoted), so None,
  "" and numbers round-trip exactly - readable in a spreadsheet, verifiable offline;
* `parquet`: union of columns; JSON-typed fields as canonical JSON strings, timestamps as
  timestamp[us, UTC].

An export filtered by time/route/request id is a *subset* of the chains: each record's own
hash and the links between consecutive records are checked; gaps are expected. Removing or
adding whole records keeps every remaining link valid, so each export also gets a signed
manifest (`<file>.manifest.json`: record count, RFC 6962 root over the records' hashes in file
order, the chains' latest signed heads, Ed25519 signature by the exporting replica's key):
`verify --export` checks it against the trust file. Reading an export back refuses what a
record's hash cannot vouch for: a field its table does not have (a CSV cell in another table's
column included), a key repeated in a JSON object (readers disagree on which one counts) or a
repeated CSV column; and a manifest handed to `verify_export` that is not an object (a file
holding `null`) is an error, not "no manifest".
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from guardian.audit.chain import CANON_COLUMNS, canonical_json, fmt_ts
from guardian.audit.merkle import Frontier, record_leaf
from guardian.audit.proofcheck import ProofError, verify_signed
from guardian.audit.signing import Signer
from guardian.audit.verify import VerifyReport, no_repeated_keys, walk
from guardian.core.fileio import private_opener

MANIFEST_FORMAT = "guardian-audit-export-manifest/v1"

Format = Literal["jsonl", "csv", "parquet"]
JSON_COLUMNS = frozenset({"prompt_token_ids", "completion_token_ids", "params", "stats", "details"})
HEAD = ("table", "chain_id", "seq", "prev_hash", "hash")
NO_MANIFEST: Any = object()  # `verify_export`'s default: check the records and links only
CSV_FIELD_LIMIT = 1 << 30  # a cell holds a whole prompt or completion: csv's 128 KiB is too small
COLUMNS: tuple[str, ...] = HEAD + tuple(dict.fromkeys(
    c for cols in CANON_COLUMNS.values() for c in cols if c not in HEAD))


def _record(table: str, row: dict[str, Any]) -> dict[str, Any]:
    rec = {"table": table}
    for c in (*CANON_COLUMNS[table], "prev_hash", "hash"):
        rec[c] = row[c]
    return rec


def _jsonable(v: Any) -> Any:
    return fmt_ts(v) if isinstance(v, datetime) else v


def export(records: Iterable[tuple[str, dict[str, Any]]], path: Path, fmt: Format,
           hashes: list[str] | None = None) -> int:
    """Write records (from `queries.iter_chained`) to `path`; returns how many. `hashes`, if
    given, receives each written record's hash in file order (for the manifest)."""
    if hashes is not None:
        records = _tap(records, hashes)
    n = 0
    if fmt == "jsonl":
        with open(path, "w", encoding="utf-8", opener=private_opener) as fh:
            for table, row in records:
                rec = {k: _jsonable(v) for k, v in _record(table, row).items()}
                fh.write(json.dumps(rec, ensure_ascii=False, allow_nan=False) + "\n")
                n += 1
    elif fmt == "csv":
        with open(path, "w", encoding="utf-8", newline="", opener=private_opener) as fh:
            w = csv.writer(fh)
            w.writerow(COLUMNS)
            for table, row in records:
                rec = _record(table, row)
                w.writerow(["" if c not in rec else json.dumps(_jsonable(rec[c]), ensure_ascii=False)
                            for c in COLUMNS])
                n += 1
    elif fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        rows = []
        for table, row in records:
            rec = _record(table, row)
            rows.append({c: (canonical_json(rec[c]) if c in JSON_COLUMNS and c in rec
                             and rec[c] is not None else rec.get(c)) for c in COLUMNS})
        schema = pa.schema([(c, _arrow_type(c)) for c in COLUMNS])
        with open(path, "wb", opener=private_opener) as fh:
            pq.write_table(pa.Table.from_pylist(rows, schema=schema), fh)
        n = len(rows)
    else:
        raise ValueError(f"unknown export format {fmt!r}; use jsonl, csv or parquet")
    return n


def _tap(records: Iterable[tuple[str, dict[str, Any]]], hashes: list[str]
         ) -> Iterator[tuple[str, dict[str, Any]]]:
    for table, row in records:
        hashes.append(row["hash"])
        yield table, row


def _arrow_type(col: str) -> Any:
    import pyarrow as pa

    if col == "created_at":
        return pa.timestamp("us", tz="UTC")
    if col in {"seq"}:
        return pa.int64()
    if col in {"position", "token_id", "step", "gamma", "prompt_tokens", "completion_tokens",
               "first_divergence_position", "trace_len"}:
        return pa.int64()
    if col in {"draft_prob", "target_prob", "target_margin", "queue_time_s", "compute_time_s",
               "time_to_first_token_s", "time_per_output_token_s", "acceptance_rate",
               "mean_acceptance_length", "margin_at_divergence", "tolerance",
               "shadow_compute_time_s"}:
        return pa.float64()
    return pa.string()


def _loads(text: str) -> Any:
    """JSON of an export cell or line: a repeated key (which readers may resolve differently
    from the hash) or nesting too deep to parse is a ValueError."""
    try:
        return json.loads(text, object_pairs_hook=no_repeated_keys)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def _raw_records(path: Path, suffix: str) -> Iterable[dict[str, Any]]:
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()
    if suffix == ".csv":
        csv.field_size_limit(max(csv.field_size_limit(), CSV_FIELD_LIMIT))
        with open(path, encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            try:
                header = reader.fieldnames or []
                if len(set(header)) != len(header):
                    raise ValueError(f"{path}: a column name is repeated in the header; not a "
                                     "guardian audit export")
                return list(reader)
            except csv.Error as exc:
                raise ValueError(f"{path}: not a readable CSV export: {exc}") from None
    with open(path, encoding="utf-8") as fh:
        out = []
        for n, line in enumerate(fh, 1):
            if line.strip():
                try:
                    out.append(_loads(line))
                except ValueError as exc:
                    raise ValueError(f"{path}: line {n}: {exc}") from None
        return out


def read_export(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """Records of an export file, typed back for re-hashing."""
    suffix = path.suffix.lower()
    raw = _raw_records(path, suffix)
    json_cells = suffix == ".csv"
    for n, rec in enumerate(raw, 1):
        if not isinstance(rec, dict):
            raise ValueError(f"{path}: record {n} is a JSON {type(rec).__name__}, not an object; "
                             "not a guardian audit export")
        table = _loads(rec["table"]) if json_cells else rec.get("table")
        if not isinstance(table, str) or table not in CANON_COLUMNS:
            raise ValueError(f"{path}: unknown table {table!r}; not a guardian audit export")
        own = ("table", *CANON_COLUMNS[table], "prev_hash", "hash")
        extra = [k for k, v in rec.items() if k not in own and v not in (None, "")]
        if extra:  # no hash covers it, yet a reader of the file would take it for the record's
            raise ValueError(f"{path}: record {n} ({table}) holds {extra[0]!r}, which is not a "
                             f"field of {table}: no hash covers it; not a guardian audit export")
        row: dict[str, Any] = {}
        for c in own[1:]:
            v = rec.get(c)
            if json_cells:
                v = _loads(v) if v not in (None, "") else None
            elif suffix == ".parquet" and c in JSON_COLUMNS and isinstance(v, str):
                v = _loads(v)
            if c == "created_at" and isinstance(v, str):
                v = datetime.fromisoformat(v)
            row[c] = v
        if not (isinstance(row["chain_id"], str) and type(row["seq"]) is int
                and isinstance(row["prev_hash"], str) and isinstance(row["hash"], str)):
            raise ValueError(f"{path}: record {n} lacks chain_id, seq, prev_hash or hash (or "
                             "one has the wrong type); not a guardian audit export")
        yield table, row


def manifest_path(path: Path) -> Path:
    return path.with_name(path.name + ".manifest.json")


def _root(hashes: Iterable[str]) -> tuple[int, str]:
    f = Frontier()
    f.extend(record_leaf(h) for h in hashes)
    return f.size, f.root().hex()


def _manifest_body(m: dict[str, Any]) -> bytes:
    return canonical_json({k: v for k, v in m.items() if k != "signature"}).encode()


def make_manifest(path: Path, hashes: list[str], signer: Signer,
                  heads: list[dict[str, Any]]) -> dict[str, Any]:
    """The signed manifest of an export: record count, RFC 6962 root over the exported
    records' hashes in file order, and the signed heads of their chains at export time."""
    count, root = _root(hashes)
    m: dict[str, Any] = {"format": MANIFEST_FORMAT, "file": path.name, "count": count,
                         "root": root, "time": datetime.now(UTC).isoformat(), "heads": heads,
                         "key_id": signer.key_id}
    m["signature"] = signer.sign(_manifest_body(m))
    return m


def check_manifest(path: Path, manifest: dict[str, Any], trust: dict[str, Any]) -> list[str]:
    """Errors (empty = fine): bad signature, or the file's records differ from the manifest."""
    if not isinstance(manifest, dict):
        return [f"malformed manifest: a JSON {type(manifest).__name__}, not an object (not a "
                "signed export manifest)"]
    if manifest.get("format") != MANIFEST_FORMAT:
        return [f"not an export manifest (format {manifest.get('format')!r})"]
    try:
        verify_signed(trust, manifest["key_id"], manifest["time"], manifest["signature"],
                      _manifest_body(manifest))
    except (ProofError, KeyError, ValueError, TypeError) as exc:
        return [f"manifest signature invalid: {exc or 'signature does not match'} (the "
                "manifest was altered or not signed by a pinned replica key)"]
    count, root = _root(row["hash"] for _, row in read_export(path))
    if count != manifest["count"]:
        verb = "removed" if count < manifest["count"] else "added"
        return [f"lines {verb}: {path.name} holds {count} records, its signed manifest "
                f"{manifest['count']}"]
    if root != manifest["root"]:
        return [f"records replaced or reordered: the Merkle root of {path.name} differs from "
                "its signed manifest"]
    return []


def verify_export(path: Path, *, manifest: Any = NO_MANIFEST,
                  trust: dict[str, Any] | None = None) -> VerifyReport:
    """Re-hash every record and check the links between consecutive ones; with a manifest
    and a trust file, also that no record was added, removed or reordered. Any `manifest`
    passed, None included (a manifest file holding `null`), is checked as one."""
    records = sorted(read_export(path), key=lambda r: (r[1]["chain_id"], r[1]["seq"]))
    rep = walk(records, subset=True)
    if manifest is not NO_MANIFEST:
        problems = check_manifest(path, manifest, trust or {})
        rep.errors[:0] = problems
        if not problems:
            rep.errors += check_against_manifest_heads(records, manifest, trust or {})
    return rep


def check_against_manifest_heads(records: list[tuple[str, dict[str, Any]]],
                                 manifest: dict[str, Any], trust: dict[str, Any]) -> list[str]:
    """The manifest is signed by whoever exported, over what the database held then: a
    database rewritten (and re-hashed) before the export yields a validly signed export. So a
    chain the export holds from seq 1 up to (at least) the size of its signed head in the
    manifest must have that head's Merkle root. Chains exported in part (a filtered export,
    or pruned) cannot be checked this way: only the manifest vouches for them."""
    from guardian.audit.proofcheck import check_head

    chains: dict[str, list[dict[str, Any]]] = {}
    for _table, row in records:  # sorted by (chain_id, seq)
        chains.setdefault(row["chain_id"], []).append(row)
    errors: list[str] = []
    heads = manifest.get("heads") or []
    for head in heads if isinstance(heads, list) else []:
        try:
            check_head(head, trust)
            cid, size = head["chain_id"], int(head["size"])
        except (ProofError, KeyError, TypeError, ValueError) as exc:
            errors.append(f"manifest head invalid: {exc}")
            continue
        rows = chains.get(cid, [])[:size]
        if size == 0 or len(rows) < size or [r["seq"] for r in rows] != list(range(1, size + 1)):
            continue  # not the whole signed range: nothing to compare
        f = Frontier()
        f.extend(record_leaf(r["hash"]) for r in rows)
        if f.root().hex() != head["root"]:
            errors.append(f"rewritten: chain {cid} in the export differs from its signed head "
                          f"of {head['time']} (size {size}, up to seq {head['last_seq']}): the "
                          "records were changed in the database before the export")
    return errors
