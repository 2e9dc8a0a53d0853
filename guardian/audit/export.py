"""`guardian audit export`: chained records with their hashes, verifiable offline.

Every exported record carries its table, all canonical columns, `prev_hash` and `hash`, so
`verify_export` can recompute each link without the database. Formats:

* `jsonl`: one JSON object per record (floats are exact: JSON uses repr);
* `csv`: union of columns; every non-empty cell is a JSON value (strings quoted), so None,
  "" and numbers round-trip exactly - readable in a spreadsheet, verifiable offline;
* `parquet`: union of columns; JSON-typed fields as canonical JSON strings, timestamps as
  timestamp[us, UTC].

An export filtered by time/route/request id is a *subset* of the chains: each record's own
hash and the links between consecutive records are checked; gaps are expected.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from guardian.audit.chain import CANON_COLUMNS, canonical_json, fmt_ts
from guardian.audit.verify import VerifyReport, walk

Format = Literal["jsonl", "csv", "parquet"]
JSON_COLUMNS = frozenset({"prompt_token_ids", "completion_token_ids", "params", "stats", "details"})
HEAD = ("table", "chain_id", "seq", "prev_hash", "hash")
COLUMNS: tuple[str, ...] = HEAD + tuple(dict.fromkeys(
    c for cols in CANON_COLUMNS.values() for c in cols if c not in HEAD))


def _record(table: str, row: dict[str, Any]) -> dict[str, Any]:
    rec = {"table": table}
    for c in (*CANON_COLUMNS[table], "prev_hash", "hash"):
        rec[c] = row[c]
    return rec


def _jsonable(v: Any) -> Any:
    return fmt_ts(v) if isinstance(v, datetime) else v


def export(records: Iterable[tuple[str, dict[str, Any]]], path: Path, fmt: Format) -> int:
    """Write records (from `queries.iter_chained`) to `path`; returns how many."""
    n = 0
    if fmt == "jsonl":
        with open(path, "w", encoding="utf-8") as fh:
            for table, row in records:
                rec = {k: _jsonable(v) for k, v in _record(table, row).items()}
                fh.write(json.dumps(rec, ensure_ascii=False, allow_nan=False) + "\n")
                n += 1
    elif fmt == "csv":
        with open(path, "w", encoding="utf-8", newline="") as fh:
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
        pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)
        n = len(rows)
    else:
        raise ValueError(f"unknown export format {fmt!r}; use jsonl, csv or parquet")
    return n


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


def read_export(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """Records of an export file, typed back for re-hashing."""
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        raw: Iterable[dict[str, Any]] = pq.read_table(path).to_pylist()
        json_cells = False
    elif suffix == ".csv":
        with open(path, encoding="utf-8", newline="") as fh:
            raw = list(csv.DictReader(fh))
        json_cells = True
    else:
        with open(path, encoding="utf-8") as fh:
            raw = [json.loads(line) for line in fh if line.strip()]
        json_cells = False
    for rec in raw:
        table = json.loads(rec["table"]) if json_cells else rec["table"]
        if table not in CANON_COLUMNS:
            raise ValueError(f"{path}: unknown table {table!r}; not a guardian audit export")
        row: dict[str, Any] = {}
        for c in (*CANON_COLUMNS[table], "prev_hash", "hash"):
            v = rec.get(c)
            if json_cells:
                v = json.loads(v) if v not in (None, "") else None
            elif suffix == ".parquet" and c in JSON_COLUMNS and isinstance(v, str):
                v = json.loads(v)
            if c == "created_at" and isinstance(v, str):
                v = datetime.fromisoformat(v)
            row[c] = v
        yield table, row


def verify_export(path: Path) -> VerifyReport:
    records = sorted(read_export(path), key=lambda r: (r[1]["chain_id"], r[1]["seq"]))
    return walk(records, subset=True)
