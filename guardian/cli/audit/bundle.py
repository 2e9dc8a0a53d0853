"""`guardian audit bundle`: a compliance bundle of one request's evidence, or of every
request of a route in a time window."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import typer

from guardian.cli.audit.common import (
    HEADS_HELP,
    TRUST_HELP,
    _db,
    _fail,
    _heads_dir,
    _out_path,
    _require_text,
    _tlog_proof,
    _trust,
)
from guardian.cli.db import URL_HELP
from guardian.cli.route import check_input_file


def bundle_cmd(request_id: str | None = typer.Argument(None, help="Request id (or --route "
                                                        "with --since and --until)."),
               out: Path = typer.Option(..., "--out", "-o", help="The bundle (.tar.gz)."),
               route: str | None = typer.Option(None, "--route", help="Bundle every record "
                                                "of this route in the window instead."),
               since: str | None = typer.Option(None, "--since", help="With --route: from "
                                                "this time (ISO 8601)."),
               until: str | None = typer.Option(None, "--until", help="With --route: before "
                                                "this time (ISO 8601)."),
               url: str | None = typer.Option(None, "--url", help=URL_HELP),
               heads_dir: Path | None = typer.Option(None, "--heads-dir", help=HEADS_HELP),
               trust: Path | None = typer.Option(None, "--trust", help=TRUST_HELP),
               policy: Path | None = typer.Option(None, "--policy", help="A tlog-policy file "
                                                  "to include (witnesses and quorum)."),
               ) -> None:
    """Write one request's evidence as a compliance bundle: its tlog-proof receipt, the log's
    vkeys, the policy, any RFC 3161 timestamp of the checkpoint, and how to check them."""
    import base64

    from guardian.audit.bundle import write_bundle
    from guardian.audit.checkpoints import log_name
    from guardian.audit.heads import chain_dirname
    from guardian.audit.notes import verifier
    from guardian.audit.proofs import ProveError, prove_request
    from guardian.audit.receipts import parse_receipt

    _require_text({"REQUEST_ID": request_id, "--out": out, "--url": url,
                   "--heads-dir": heads_dir, "--trust": trust, "--policy": policy,
                   "--route": route, "--since": since, "--until": until})
    if route is not None or since is not None or until is not None:
        if request_id is not None:
            _fail("give either REQUEST_ID or --route with --since and --until, not both")
        _route_bundle(out, route, since, until, url, heads_dir, trust)
        return
    if request_id is None:
        _fail("give a REQUEST_ID, or --route with --since and --until")
    _out_path(out, "--out")
    check_input_file(policy, "policy file")
    hdir = _heads_dir(heads_dir)
    keys = _trust(trust)["keys"]
    name = log_name()
    try:
        proof = prove_request(_db(url), request_id, hdir)
    except (ProveError, OSError, ValueError, KeyError) as exc:
        typer.secho(f"cannot prove: {exc}", fg="red", err=True)
        raise typer.Exit(1) from None
    text, _ = _tlog_proof(proof, hdir, request_id)
    head = proof["head"]
    vkeys = [verifier(name, base64.b64decode(k["public_key"])).vkey for k in keys]
    names = write_bundle(out, parse_receipt(text), vkeys, name, int(head["size"]),
                         hdir / chain_dirname(head["chain_id"]), policy)
    typer.echo(f"bundle of {request_id!r} written to {out}: {', '.join(names)}", err=True)


def _iso(value: str | None, name: str) -> datetime:
    if value is None:
        _fail(f"{name} is required with --route (an ISO 8601 date or time)")
    try:
        t = datetime.fromisoformat(value)
    except ValueError:
        _fail(f"{name} {value!r} is not an ISO 8601 date or time (e.g. 2026-01-31 or "
              "2026-01-31T12:00:00Z)")
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t


def _route_bundle(out: Path, route: str | None, since: str | None, until: str | None,
                  url: str | None, heads_dir: Path | None, trust: Path | None) -> None:
    """`guardian audit bundle --route R --since ... --until ...` (guardian.audit.bundle)."""
    import base64

    import sqlalchemy as sa
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from guardian.audit.bundle import route_bundle_parts, write_parts
    from guardian.audit.checkpoints import CheckpointError, log_name
    from guardian.audit.models import AuditRequest
    from guardian.audit.notes import NoteError, verifier
    from guardian.audit.proofs import ProveError

    if not route:
        _fail("--route is required with --since and --until")
    t0, t1 = _iso(since, "--since"), _iso(until, "--until")
    if t0 >= t1:
        _fail(f"--since {since} is not before --until {until}: the window is empty")
    _out_path(out, "--out")
    hdir = _heads_dir(heads_dir)
    keys = _trust(trust)["keys"]
    name = log_name()
    db = _db(url)
    t = AuditRequest.__table__
    with db.connect() as conn:
        known = conn.execute(sa.select(t.c.route).where(t.c.route == route).limit(1)).first()
    if known is None:
        _fail(f"unknown route {route!r}: the audit store holds no request of it")
    vkeys = [verifier(name, base64.b64decode(k["public_key"])).vkey for k in keys]
    from guardian.audit.signing import SigningError, signer_for
    from guardian.audit.writer import default_replica_id
    from guardian.settings import get_settings

    settings = get_settings()
    try:  # the manifest is signed, as an export's is: a member edited after cannot hide
        signer = signer_for(settings, settings.replica_id or default_replica_id())
    except SigningError as exc:
        _fail(f"cannot sign the bundle's manifest: {exc}", 1)
    with Progress(TextColumn("receipts"), BarColumn(), TextColumn("{task.completed}/"
                  "{task.total}"), TimeRemainingColumn(), transient=True,
                  disable=not os.isatty(2)) as bar:
        task = bar.add_task("receipts", total=None)
        try:
            parts = route_bundle_parts(
                db, route, t0, t1, hdir, vkeys,
                progress=lambda n, total: bar.update(task, completed=n, total=total),
                signer=signer, log_name=name)
        except ValueError as exc:
            _fail(str(exc))
        except (ProveError, CheckpointError, NoteError, OSError, KeyError) as exc:
            _fail(f"cannot prove every record: {exc}", 1)
    try:
        names = write_parts(out, parts)
    except OSError as exc:
        _fail(f"cannot write {out}: {exc}")
    receipts = sum(n.startswith("receipts/") for n in names)
    typer.echo(f"bundle of route {route!r} ({t0.isoformat()} to {t1.isoformat()}): "
               f"{receipts} request records with their receipts, {len(names)} members, "
               f"written to {out}; check it with `python -m guardian.audit.proofcheck "
               f"--bundle {out}`", err=True)
