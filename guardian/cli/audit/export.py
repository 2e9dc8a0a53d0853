"""`guardian audit export`: chained records with their hashes and a signed manifest,
written only once the chains they come from verify."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from guardian.cli.audit.common import _db, _fail, _out_path, _require_text, _trust
from guardian.cli.db import URL_HELP

if TYPE_CHECKING:
    from sqlalchemy import Engine


def _parse_time(value: str | None, name: str) -> datetime | None:
    if value is None:
        return None
    from guardian.audit.retention import older_than

    try:
        return older_than(value)  # an age (7d) or an ISO date
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint=name) from None


def _unverifiable(db: Engine, chains: set[str], settings: Any) -> str | None:
    """The first verify error of `chains` (whole chains, against the published signed heads
    when there are any), or None when they verify. Records newer than a fresh head are
    pending, not an error."""
    from guardian.audit.heads import read_heads
    from guardian.audit.verify import verify_db

    if not chains:
        return None
    per_chain, problems = read_heads(settings.resolved_heads_dir, _trust(None, missing_ok=True))
    heads = (({c: h for c, h in per_chain.items() if c in chains}, problems)
             if per_chain or problems else None)
    rep = verify_db(db, chain_ids=sorted(chains), heads=heads)
    return rep.first_error


def export(out: Path = typer.Option(..., "--out", "-o", help="Output file."),
           fmt: str = typer.Option("jsonl", "--format", "-f", help="jsonl | csv | parquet"),
           since: str | None = typer.Option(None, help="From this time (ISO 8601 or age: 7d)."),
           until: str | None = typer.Option(None, help="Before this time (ISO 8601 or age)."),
           route: str | None = typer.Option(None, help="Only this route."),
           request_id: str | None = typer.Option(None, "--request-id", help="Only this request."),
           url: str | None = typer.Option(None, "--url", help=URL_HELP)) -> None:
    """Export chained records with their hashes (verify offline: `audit verify --export`).

    The file appears only once complete (written beside it, then renamed) and only when the
    chains it draws from verify (against the published signed heads, when there are any),
    with its signed manifest `<file>.manifest.json`."""
    from guardian.audit.export import export as do_export
    from guardian.audit.export import make_manifest, manifest_path
    from guardian.audit.heads import latest_head
    from guardian.audit.queries import iter_chained
    from guardian.audit.signing import SigningError, signer_for
    from guardian.audit.writer import default_replica_id
    from guardian.core.fileio import write_atomic
    from guardian.settings import get_settings

    _require_text({"--out": out, "--since": since, "--until": until, "--route": route,
                   "--request-id": request_id, "--url": url})
    if fmt not in ("jsonl", "csv", "parquet"):
        raise typer.BadParameter(f"unknown format {fmt!r}; use jsonl, csv or parquet",
                                 param_hint="--format")
    _out_path(out, "--out")
    _out_path(manifest_path(out), "the manifest")
    t0, t1 = _parse_time(since, "--since"), _parse_time(until, "--until")
    if t0 is not None and t1 is not None and t0 >= t1:
        raise typer.BadParameter(f"--since {since} ({t0.isoformat()}) is not before --until "
                                 f"{until} ({t1.isoformat()}): nothing could match",
                                 param_hint="--since/--until")
    db = _db(url)  # before the key: a wrong --url must not generate one
    settings = get_settings()
    try:
        signer = signer_for(settings, settings.replica_id or default_replica_id())
    except SigningError as exc:
        _fail(f"cannot sign the export manifest: {exc}", 1)
    hashes: list[str] = []
    records = iter_chained(db, since=t0, until=t1, route=route, request_id=request_id)
    chains: set[str] = set()

    def seen(recs: Any) -> Any:
        for table, row in recs:
            chains.add(row["chain_id"])
            yield table, row

    tmp = out.with_name(f".{out.name}.{os.getpid()}.partial")
    try:
        n = do_export(seen(records), tmp, fmt, hashes)  # type: ignore[arg-type]
        if n == 0 and request_id is not None:
            _fail(f"no request with id {request_id!r} in the audit store", 1)
        # The manifest vouches for what the database holds: not for a database that fails
        # verification (records rewritten and re-hashed, say), filtered exports included.
        problem = _unverifiable(db, chains, settings)
        if problem is not None:
            _fail(f"not exported: the exported records' chains fail verification: {problem} "
                  "(`guardian audit verify` lists every finding)", 1)
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    heads = [h for c in sorted(chains) if (h := latest_head(settings.resolved_heads_dir, c))]
    m = make_manifest(out, hashes, signer, heads)
    write_atomic(manifest_path(out), json.dumps(m, indent=2) + "\n", mode=0o644)
    typer.echo(f"exported {n} records to {out} (signed manifest {manifest_path(out)})")
