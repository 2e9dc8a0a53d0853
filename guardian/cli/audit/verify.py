"""`guardian audit verify`: the hash chains against the signed heads (and a checkpoint,
a witness policy), or an export file offline against its signed manifest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from guardian.cli.audit.common import (
    HEADS_HELP,
    TRUST_HELP,
    _db,
    _fail,
    _heads_dir,
    _print_report,
    _require_text,
    _trust,
    _trust_path,
)
from guardian.cli.db import URL_HELP
from guardian.cli.route import check_input_file

if TYPE_CHECKING:
    from sqlalchemy import Engine


NO_HEADS_HELP = ("Check the hash chains only, without signed heads. Gives up detecting records "
                 "appended or cut off at a chain's end, consistent rewrites, forged chains and "
                 "forged gap/anchor rows (the warning printed lists them).")
NO_HEADS_WARNING = (
    "no signed tree heads: only the hash chains were checked. Undetectable without a head: "
    "a consistent rewrite of any chain, a whole chain forged from the genesis hash, records "
    "appended or cut off at a chain's end, deleted ranges covered by forged audit_gap or "
    "anchor rows. Point --heads-dir/--trust at the published heads.")


def _holds_records(db: Engine) -> bool:
    import sqlalchemy as sa

    from guardian.audit.models import CHAINED_TABLES

    with db.connect() as conn:
        return any(conn.execute(sa.select(t.c.seq).limit(1)).first() is not None
                   for t in CHAINED_TABLES.values())


def _load_checkpoint(path: Path | None) -> dict[str, Any] | None:
    from guardian.audit.verify import checkpoint_problem

    if path is None:
        return None
    check_input_file(path, "checkpoint")
    try:
        cp = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        _fail(f"cannot read checkpoint {path}: {exc}")
    problem = checkpoint_problem(cp)
    if problem:  # an empty or stripped checkpoint would otherwise check nothing and pass
        _fail(f"invalid checkpoint {path}: {problem}; use a file written by "
              "`guardian audit checkpoint`")
    return cp


def verify(url: str | None = typer.Option(None, "--url", help=URL_HELP),
           checkpoint: Path | None = typer.Option(
               None, "--checkpoint", help="Signed checkpoint from `guardian audit checkpoint`: "
               "also detects deleted newest records and rewritten history."),
           export_file: Path | None = typer.Option(
               None, "--export", help="Verify an export file offline instead of the database."),
           manifest: Path | None = typer.Option(
               None, "--manifest", help="Signed manifest of the export (default: "
               "<export>.manifest.json)."),
           heads_dir: Path | None = typer.Option(None, "--heads-dir", help=HEADS_HELP),
           trust: Path | None = typer.Option(None, "--trust", help=TRUST_HELP),
           no_heads: bool = typer.Option(False, "--no-heads", help=NO_HEADS_HELP),
           grace_s: float = typer.Option(60.0, "--grace-s", help="Records newer than a chain's "
                                         "latest head count as pending (not an error) while "
                                         "that head is younger than this."),
           policy: Path | None = typer.Option(None, "--policy", help="A c2sp.org/tlog-policy "
                                              "file: report each chain's witnessed size (its "
                                              "largest checkpoint cosigned by the quorum) and "
                                              "check the database still matches it."),
           ) -> None:
    """Walk every hash chain and check it against the latest signed heads; exit 1 naming the
    first edited/deleted/inserted/reordered/forged record, or when the trust file pins a key
    but no signed head is found (unless --no-heads); exit 2 for unreadable input."""
    _require_text({"--url": url, "--checkpoint": checkpoint, "--export": export_file,
                   "--manifest": manifest, "--heads-dir": heads_dir, "--trust": trust})
    if not 0 <= grace_s <= 86400:  # also nan: `age > nan` is never true, so appended records
        # would all pass as "pending" and verification would succeed
        raise typer.BadParameter("seconds from 0 to 86400 (one day)", param_hint="--grace-s")
    if export_file is not None:
        _verify_export(export_file, manifest, trust)
        return
    from guardian.audit.config import AuditSettings
    from guardian.audit.heads import read_heads
    from guardian.audit.verify import verify_db

    cp = _load_checkpoint(checkpoint)
    # The key only matters against a checkpoint: plain verification needs no secret.
    key = AuditSettings().checkpoint_key if cp is not None else None
    heads = None
    hdir = _heads_dir(heads_dir)
    db = _db(url)
    if not no_heads:
        trust_doc = _trust(trust, missing_ok=True)
        heads = read_heads(hdir, trust_doc)
        if (heads[0] or heads[1]) and not _trust_path(trust).exists():
            _fail(f"cannot read trust file {_trust_path(trust)}: no such file; the signed "
                  f"heads in {hdir} are checked against it (pass --trust)")
        if not heads[0] and not heads[1]:
            if trust_doc["keys"] and _holds_records(db):
                _fail(f"FAILED: no signed tree head found in {hdir}, though the trust file pins "
                      f"{len(trust_doc['keys'])} key(s): without one, records appended or "
                      "removed cannot be detected. Point --heads-dir at the published heads, "
                      "or pass --no-heads to check the hash chains only.", 1)
            heads = None
    if heads is None:
        typer.secho(f"warning: {NO_HEADS_WARNING}", fg="yellow", err=True)
    rep = verify_db(db, checkpoint=cp, checkpoint_key=key, heads=heads, grace_s=grace_s)
    for line in rep.pending:
        typer.secho(f"pending: {line}", fg="yellow", err=True)
    for line in rep.recovered:
        typer.secho(f"recovered: {line}", fg="yellow")
    if heads is not None and rep.ok:
        typer.echo(f"{len(rep.attested)} chains match their signed heads in {hdir}")
    if policy is not None:
        _witnessed(rep, db, hdir, policy, sorted(heads[0]) if heads else [])
    _print_report(rep, "audit database" + (f" against {checkpoint}" if checkpoint else ""))


def _witnessed(rep: Any, db: Engine, hdir: Path, policy: Path, chains: list[str]) -> None:
    from guardian.audit.policy import PolicyError, load_policy
    from guardian.audit.witness_db import check_witnessed

    check_input_file(policy, "policy file")
    try:
        pol = load_policy(policy)
    except PolicyError as exc:
        _fail(str(exc))
    lines, errors = check_witnessed(db, hdir, chains, pol)
    for line in lines:
        typer.echo(f"witnessed: {line}")
    rep.errors += errors


def _verify_export(export_file: Path, manifest: Path | None, trust: Path | None) -> None:
    from guardian.audit.export import manifest_path, verify_export

    for name, path in (("--export", export_file), ("--manifest", manifest)):
        if path is not None and path.is_dir():
            _fail(f"{name} {path} is a directory; give the file")
        if path is not None and not path.exists():
            _fail(f"{name} {path} does not exist")
    mpath = manifest or manifest_path(export_file)
    check_input_file(export_file, "export", None)  # an export can be large: no cap
    check_input_file(mpath, "manifest")  # a manifest is a few KiB: capped like other inputs
    trust_doc = _trust(trust)
    try:
        m = json.loads(mpath.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        detail = "JSON nested too deeply" if isinstance(exc, RecursionError) else exc
        _fail(f"TAMPERED?: no readable signed manifest for {export_file} ({mpath}: {detail}); "
              "without it removed or added records cannot be detected", 1)
    try:
        rep = verify_export(export_file, manifest=m, trust=trust_doc)
    except (ValueError, KeyError, TypeError) as exc:
        detail = f"a record has no field {exc}" if isinstance(exc, KeyError) else str(exc)
        _fail(f"malformed export: {export_file} is not a readable audit export: {detail}", 1)
    named = m.get("file") if isinstance(m, dict) else None
    if rep.ok and isinstance(named, str) and named != export_file.name:
        # A renamed export is fine; another genuine export under this one's name is not:
        # the manifest vouches for *its* file's records, so say which file that was.
        typer.secho(f"note: the manifest was written for {named!r}, not "
                    f"{export_file.name!r}: these are that export's records", fg="yellow",
                    err=True)
    _print_report(rep, str(export_file))
