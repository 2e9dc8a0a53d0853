"""`guardian audit prove`: an inclusion proof of a request's records (or a consistency
proof between two heads), as JSON or a tlog-proof receipt."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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
from guardian.core.fileio import private_opener


def prove(request_id: str = typer.Argument(..., help="Request id to prove."),
          url: str | None = typer.Option(None, "--url", help=URL_HELP),
          head: Path | None = typer.Option(None, "--head", help="Signed head to prove against "
                                           "(default: the latest of the record's chain)."),
          heads_dir: Path | None = typer.Option(None, "--heads-dir", help=HEADS_HELP),
          trust: Path | None = typer.Option(None, "--trust", help=TRUST_HELP + " Checks the "
                                            "signature of a head given as a file."),
          out: Path | None = typer.Option(None, "--out", "-o", help="Write the proof here "
                                          "(default: stdout)."),
          consistency: bool = typer.Option(False, "--consistency", help="Instead: prove that "
                                           "the chain's latest head extends the head given as "
                                           "REQUEST_ID's place, a head file you kept."),
          fmt: str = typer.Option("json", "--format", help="json (guardian-audit-proof/v1, "
                                  "for guardian.audit.proofcheck) or tlog-proof (a "
                                  "c2sp.org/tlog-proof@v1 receipt of the request record "
                                  "against its chain's C2SP checkpoint)."),
          ) -> None:
    """Print an inclusion proof (JSON) of a request's records in a signed tree head.

    Check it offline, without the database:
    `python -m guardian.audit.proofcheck proof.json --trust audit-trust.json [--head head.json]`.
    With --consistency, REQUEST_ID is the path of an old head you kept: the proof shows the
    latest head extends it (history since was only appended to). A head given as a file must
    be signed by a key the trust file pins, and match the database.
    """
    from guardian.audit.proofs import ProveError, prove_consistency, prove_request

    _require_text({"REQUEST_ID": request_id, "--url": url, "--head": head,
                   "--heads-dir": heads_dir, "--trust": trust, "--out": out})
    if fmt not in ("json", "tlog-proof"):
        _fail(f"--format {fmt!r}: use json or tlog-proof")
    if fmt == "tlog-proof" and consistency:
        _fail("--format tlog-proof proves a request's inclusion; drop --consistency")
    if out is not None:
        _out_path(out, "--out")
    check_input_file(head, "head file")
    check_input_file(Path(request_id) if consistency else None, "head file")
    hdir = _heads_dir(heads_dir)
    trust_doc = _trust(trust) if head is not None or consistency else {}
    given = _load_head(head, trust_doc) if head is not None else None
    old = _load_head(Path(request_id), trust_doc) if consistency else None
    try:
        if old is not None:
            proof = prove_consistency(_db(url), old, hdir, given)
            what = (f"consistency of head size {proof['old']['size']} -> "
                    f"{proof['new']['size']}")
        else:
            proof = prove_request(_db(url), request_id, hdir, given)
            what = (f"proof of {len(proof['records'])} records of {request_id!r} against the "
                    f"head of size {proof['head']['size']}")
    except (ProveError, OSError, ValueError, KeyError) as exc:
        typer.secho(f"cannot prove: {exc}", fg="red", err=True)
        raise typer.Exit(1) from None
    text = json.dumps(proof, indent=2) + "\n"
    if fmt == "tlog-proof":
        text, what = _tlog_proof(proof, hdir, request_id)
    if out is None:
        typer.echo(text, nl=False)
        return
    try:  # a proof's records hold prompt and completion text: for the owner only (0600)
        with open(out, "w", encoding="utf-8", opener=private_opener) as fh:
            fh.write(text)
    except OSError as exc:
        _fail(f"cannot write {out}: {exc}", 1)
    typer.echo(f"{what} written to {out}", err=True)


def _load_head(path: Path, trust: dict[str, Any]) -> dict[str, Any]:
    """A signed tree head from a file: well formed and signed by a pinned key, or exit."""
    from guardian.audit.proofcheck import ProofError, check_head
    from guardian.audit.proofs import head_problem

    try:
        head = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        _fail(f"cannot read head file {path}: {exc}")
    problem = head_problem(head)
    if problem:
        _fail(f"{path} is not a signed tree head: {problem}")
    try:
        check_head(head, trust)
    except (ProofError, KeyError, ValueError) as exc:
        _fail(f"cannot prove: the head in {path} does not verify against the trust file: {exc}",
              1)
    return head
