"""`guardian audit ...`: read, verify, export and prune the audit trail."""

from __future__ import annotations

import json
import os
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from rich.markup import escape

from guardian.cli.db import URL_HELP, _url, require_sqlite_file
from guardian.cli.route import (
    DEV_HELP,
    KEY_HELP,
    KEYS_FILE_HELP,
    check_input_file,
    open_writer,
)
from guardian.core.fileio import private_opener

if TYPE_CHECKING:
    from sqlalchemy import Engine

app = typer.Typer(help="Audit trail: show, verify, prove, checkpoint, export, prune, keys.",
                  no_args_is_help=True)

ORIGIN_STYLE = {"accepted": "green", "resampled": "yellow", "bonus": "cyan", "target": "blue",
                "upstream": "magenta"}


def _fail(message: str, code: int = 2) -> NoReturn:
    """One red line on stderr, then exit `code` (2: bad input, refused before any work)."""
    typer.secho(message, fg="red", err=True)
    raise typer.Exit(code)


def _require_text(values: dict[str, str | Path | list[str] | None]) -> None:
    """Refuse arguments that are not UTF-8 text, up front: their undecodable bytes reach Python
    as lone surrogates, which fail later - in the database driver, or mid-export."""
    for name, value in values.items():
        for v in value if isinstance(value, list) else [value]:
            try:
                str(v or "").encode("utf-8")
            except UnicodeEncodeError:
                _fail(f"{name} {str(v)!r} is not valid UTF-8 text (undecodable bytes in the "
                      "argument); pass it as UTF-8")


def _out_path(path: Path, name: str) -> Path:
    """An output file that can be written, checked before any work is done."""
    if path.is_dir():
        _fail(f"{name} {path} is a directory; give a file name")
    if not path.parent.is_dir():
        _fail(f"{name} {path}: the directory {path.parent} does not exist")
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        _fail(f"{name} {path} is not writable")
    return path


def _parse_time(value: str | None, name: str) -> datetime | None:
    if value is None:
        return None
    from guardian.audit.retention import older_than

    try:
        return older_than(value)  # an age (7d) or an ISO date
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint=name) from None


def _holds_records(db: Engine) -> bool:
    import sqlalchemy as sa

    from guardian.audit.models import CHAINED_TABLES

    with db.connect() as conn:
        return any(conn.execute(sa.select(t.c.seq).limit(1)).first() is not None
                   for t in CHAINED_TABLES.values())


def _db(url: str | None) -> Engine:
    """The audit DB (a SQLAlchemy Engine), migrated, or a clear error (exit 1)."""
    import sqlalchemy as sa

    from guardian.core.db import make_engine

    resolved = _url(url)
    require_sqlite_file(resolved)  # only reads (or prunes): never creates an empty database
    db = make_engine(resolved)
    try:
        with db.connect() as conn:
            if not sa.inspect(conn).has_table("audit_requests"):
                typer.secho(f"no audit schema in {db.url.render_as_string(hide_password=True)}"
                            "; run `guardian db upgrade` first", fg="red", err=True)
                raise typer.Exit(1)
    except typer.Exit:
        raise
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        typer.secho(f"cannot open the audit database "
                    f"{db.url.render_as_string(hide_password=True)}: {first}", fg="red", err=True)
        raise typer.Exit(1) from None
    return db


def _num(x: float | None, digits: int = 4) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


@app.command()
def show(request_id: str = typer.Argument(..., help="Request id (as returned in the API response)."),
         url: str | None = typer.Option(None, "--url", help=URL_HELP),
         as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")) -> None:
    """Show one request: pair, policy, timings, shadow verdict and the per-token table."""
    from rich.console import Console
    from rich.table import Table

    from engine.metrics import SpecCounters
    from guardian.audit.queries import get_request

    _require_text({"REQUEST_ID": request_id, "--url": url})
    rec = get_request(_db(url), request_id)
    if rec is None:
        typer.secho(f"no request with id {request_id!r} in the audit store "
                    "(check the id, or --url if it was served against another database)",
                    fg="red", err=True)
        raise typer.Exit(1)
    if as_json:
        typer.echo(json.dumps({"request": rec.request, "tokens": rec.tokens,
                               "shadow": rec.shadows, "shadow_tokens": rec.shadow_tokens},
                              default=str, indent=2))
        return
    r = rec.request
    console = Console()
    # Stored text is printed literally: rich would read "[/bold]" in a prompt as markup (and
    # raise on it), so every value from the database goes through `esc`.
    console.print(f"[bold]request[/bold] {esc(r['request_id'])}  "
                  f"{r['created_at']:%Y-%m-%d %H:%M:%S} UTC  route [bold]{esc(r['route'])}[/bold]"
                  f"  mode {esc(r['mode'])}  served by {esc(r['served_path'])}")
    console.print(f"pair {esc(r['pair_hash'])}  policy {esc(r['policy_hash'])}  redaction "
                  f"{esc(r['redaction'])}  finish {esc(r['finish_reason'])}  tokens "
                  f"{r['prompt_tokens']}+{r['completion_tokens']}")
    # Ratios from the stored counters (engine.metrics), like every other view of them.
    spec = SpecCounters.from_stats(r.get("stats"))
    unreported = set((r.get("stats") or {}).get("unreported") or ())

    def ratio(value: float, needs: str, fmt: str) -> str:
        return "not reported" if needs in unreported else format(value, fmt)

    rates = (f"  acceptance rate {spec.acceptance_rate:.3f}  α "
             f"{ratio(spec.alpha, 'judged_tokens', '.3f')}  mean acceptance length "
             f"{ratio(spec.mean_acceptance_length, 'steps', '.2f')}" if spec.proposed else "")
    if (r.get("stats") or {}).get("latency_unreported"):
        per_token = "not reported (a whole upstream answer)"
    else:
        per_token = f"{r['time_per_output_token_s'] * 1e3:.2f} ms"
    console.print(f"queue {r['queue_time_s'] * 1e3:.1f} ms  compute {r['compute_time_s'] * 1e3:.1f} ms"
                  f"  TTFT {r['time_to_first_token_s'] * 1e3:.1f} ms  per token "
                  f"{per_token}{rates}")
    if r["prompt_text"] is not None:
        console.print(f"[dim]prompt:[/dim] {esc(repr(r['prompt_text']))}")
        console.print(f"[dim]completion:[/dim] {esc(repr(r['completion_text']))}")
    for s in rec.shadows:
        colour = {"match": "green", "near_tie": "yellow", "distribution_ok": "green"}.get(
            s["verdict"], "red")
        console.print(f"shadow ({esc(s['shadow_path'])}): [{colour}]{esc(s['verdict'])}[/{colour}]"
                      + (f" first divergence at position {s['first_divergence_position']}, "
                         f"target margin {_num(s['margin_at_divergence'])} (tolerance "
                         f"{s['tolerance']})" if s["first_divergence_position"] is not None else ""))
    table = Table(title=f"{len(rec.tokens)} emitted tokens (served path)")
    for col in ("pos", "token", "from", "origin", "q draft", "p target", "margin", "step", "γ"):
        table.add_column(col, justify="left" if col in ("token", "from", "origin") else "right",
                         no_wrap=col in ("from", "origin"))
    for t in rec.tokens:
        token = (str(t["token_id"]) if t["token_id"] is not None
                 else (t["token_hash"][:12] + "…") if t["token_hash"] else "—")
        style = ORIGIN_STYLE.get(t["origin"])
        who = {"accepted": "draft", "upstream": "pool"}.get(t["origin"], "target")
        table.add_row(str(t["position"]), token, styled(who, style), styled(t["origin"], style),
                      _num(t["draft_prob"]), _num(t["target_prob"]), _num(t["target_margin"]),
                      str(t["step"]), str(t["gamma"]))
    console.print(table)
    pooled = sum(t["origin"] == "upstream" for t in rec.tokens)
    if pooled:  # an upstream pool tells no origin per token, only its counters (above)
        console.print(f"{pooled} of {len(rec.tokens)} tokens came from an upstream pool "
                      "(which tokens were drafted it does not say per token)")
        return
    drafted = sum(t["origin"] == "accepted" for t in rec.tokens)
    console.print(f"{drafted} of {len(rec.tokens)} tokens came from the draft model (accepted), "
                  f"{len(rec.tokens) - drafted} from the target")


def styled(value: object, style: str | None) -> str:
    """`value` as literal text in `style` (none: plain; "[]...[/]" is a markup error)."""
    return f"[{style}]{esc(value)}[/{style}]" if style else esc(value)


def esc(value: object) -> str:
    """A stored value as literal text inside rich markup."""
    return escape(str(value))


def _print_report(rep: Any, label: str) -> None:
    for loss in rep.declared_losses:
        typer.secho(f"declared loss: {loss}", fg="yellow", err=True)
    if rep.ok:
        typer.secho(f"OK: {label}: {rep.records} records in {rep.chains} chains verified",
                    fg="green")
        return
    if all(e.startswith("unattested") for e in rep.errors):
        # No record is known bad: a writer died before its next head (its restart attests
        # the tail, guardian.audit.recovery), or someone without the key appended.
        typer.secho(f"UNATTESTED: {label}: {rep.first_error}; a killed writer's records are "
                    "attested when its replica restarts, else review and `guardian audit "
                    "adopt`", fg="red", err=True)
        for e in rep.errors[1:]:
            typer.echo(f"  also: {e}", err=True)
        raise typer.Exit(1)
    typer.secho(f"TAMPERED: {label}: first bad record: {rep.first_error}", fg="red", err=True)
    for e in rep.errors[1:]:
        typer.echo(f"  also: {e}", err=True)
    raise typer.Exit(1)


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


HEADS_HELP = "Directory of published signed tree heads (default: <home>/audit-heads)."
TRUST_HELP = "Trust file pinning the replicas' public keys (default: <home>/audit-trust.json)."
NO_HEADS_HELP = ("Check the hash chains only, without signed heads. Gives up detecting records "
                 "appended or cut off at a chain's end, consistent rewrites, forged chains and "
                 "forged gap/anchor rows (the warning printed lists them).")
NO_HEADS_WARNING = (
    "no signed tree heads: only the hash chains were checked. Undetectable without a head: "
    "a consistent rewrite of any chain, a whole chain forged from the genesis hash, records "
    "appended or cut off at a chain's end, deleted ranges covered by forged audit_gap or "
    "anchor rows. Point --heads-dir/--trust at the published heads.")


def _trust_path(path: Path | None) -> Path:
    from guardian.audit.signing import key_paths
    from guardian.settings import get_settings

    return path or key_paths(get_settings())[1]


def _trust(path: Path | None, *, missing_ok: bool = False) -> dict[str, Any]:
    """The trust file (`--trust`, else the home's), or exit 2 saying why it cannot be read.
    Only the default file may be missing, and only where `missing_ok` (no key pinned yet): a
    missing file is never an empty trust list behind a tamper verdict."""
    from guardian.audit.signing import SigningError, load_trust

    trust_path = _trust_path(path)
    try:  # load_trust reads regular files only, capped (guardian.core.fileio.read_small)
        doc = load_trust(trust_path, missing_ok=missing_ok and path is None)
    except SigningError as exc:
        hint = ("" if path is not None else
                "; pass --trust, or create a key with `guardian audit keys init`")
        _fail(f"{exc}{hint}")
    return doc


def _heads_dir(path: Path | None) -> Path:
    """`--heads-dir` (it must exist: a typo is not "no heads"), else the home's."""
    from guardian.settings import get_settings

    hdir = path or get_settings().resolved_heads_dir
    if path is not None and not hdir.exists():
        _fail(f"--heads-dir {hdir} does not exist")
    if hdir.exists() and not hdir.is_dir():
        _fail(f"heads directory {hdir} is not a directory")
    return hdir


@app.command()
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


@app.command()
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


def _tlog_proof(proof: dict[str, Any], hdir: Path, request_id: str) -> tuple[str, str]:
    """The tlog-proof receipt of a `prove_request` proof, or exit 1 saying why not."""
    from guardian.audit.checkpoints import CheckpointError, cosigned_checkpoint
    from guardian.audit.heads import chain_dirname
    from guardian.audit.notes import NoteError
    from guardian.audit.receipts import build_receipt

    head = proof["head"]
    try:
        note = cosigned_checkpoint(hdir / chain_dirname(head["chain_id"]), int(head["size"]),
                                   head["root"])
        receipt = build_receipt(proof, note)
    except (CheckpointError, NoteError) as exc:
        typer.secho(f"cannot write a tlog-proof: {exc} (heads published before C2SP "
                    "checkpoints have none: prove against a later head)", fg="red", err=True)
        raise typer.Exit(1) from None
    return receipt.text, (f"tlog-proof of {request_id!r} (index {receipt.index}) against the "
                          f"checkpoint of size {head['size']}")


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


@app.command()
def adopt(chains: list[str] | None = typer.Argument(None, help="Chain ids (default: every "
                                                    "unattested chain)."),
          url: str | None = typer.Option(None, "--url", help=URL_HELP),
          heads_dir: Path | None = typer.Option(None, "--heads-dir", help=HEADS_HELP),
          trust: Path | None = typer.Option(None, "--trust", help=TRUST_HELP),
          yes: bool = typer.Option(False, "--yes", help="Confirm: I reviewed these records."),
          ) -> None:
    """Sign a final head over unattested chains: chains written before signed heads existed
    (after an upgrade), or a crashed writer's unattested tail once reviewed. Refused for a
    chain with any other problem (it must verify, and match every existing head)."""
    from guardian.audit.adopt import adoptable, sign_final_heads
    from guardian.audit.signing import SigningError, signer_for
    from guardian.audit.writer import default_replica_id
    from guardian.settings import get_settings

    if not yes:
        typer.secho("adopting attests records nobody signed so far: review them, then pass "
                    "--yes", fg="red", err=True)
        raise typer.Exit(1)
    _require_text({"CHAINS": chains, "--url": url, "--heads-dir": heads_dir, "--trust": trust})
    hdir, trust_doc = _heads_dir(heads_dir), _trust(trust, missing_ok=True)
    db = _db(url)
    wanted, refused = adoptable(db, hdir, trust_doc, chains or None)
    done: list[str] = []
    if wanted:  # a signing key only once there is something to sign
        settings = get_settings()
        replica = settings.replica_id or default_replica_id()
        try:
            signer = signer_for(settings, replica)
        except SigningError as exc:
            _fail(str(exc), 1)
        done = sign_final_heads(db, hdir, wanted, signer, replica)
    elif not refused:
        typer.echo("nothing to adopt: no unattested chain in the database")
    for line in done:
        typer.echo(f"adopted {line}")
    for line in refused:
        typer.secho(f"refused {line}", fg="red", err=True)
    if refused:
        raise typer.Exit(1)


keys_app = typer.Typer(help="Signing keys of signed tree heads: init, rotate, show.",
                       no_args_is_help=True)
app.add_typer(keys_app, name="keys")


@keys_app.command("init")
def keys_init() -> None:
    """Create this replica's Ed25519 signing key (0600) and pin it in the trust file."""
    from guardian.audit.signing import generate, key_paths
    from guardian.audit.writer import default_replica_id
    from guardian.settings import get_settings

    settings = get_settings()
    key_path, trust_path = key_paths(settings)
    if key_path.exists():
        typer.secho(f"{key_path} exists; use `guardian audit keys rotate` to replace it",
                    fg="red", err=True)
        raise typer.Exit(1)
    signer = generate(key_path, trust_path, settings.replica_id or default_replica_id())
    typer.echo(f"key {signer.key_id} written to {key_path}, pinned in {trust_path}")


@keys_app.command("rotate")
def keys_rotate() -> None:
    """New signing key; the old one is retired in the trust file (its heads stay valid)."""
    from guardian.audit.signing import key_paths, rotate
    from guardian.audit.writer import default_replica_id
    from guardian.settings import get_settings

    settings = get_settings()
    key_path, trust_path = key_paths(settings)
    old, signer = rotate(key_path, trust_path, settings.replica_id or default_replica_id())
    typer.echo(f"key {signer.key_id} now signs (retired: {old or 'none'}); trust file "
               f"{trust_path} updated - copy it to wherever heads are verified; restart "
               "the sidecar to use the new key")


@keys_app.command("show")
def keys_show(trust: Path | None = typer.Option(None, "--trust", help=TRUST_HELP)) -> None:
    """List the pinned keys and their validity."""
    _require_text({"--trust": trust})
    keys = _trust(trust)["keys"]
    if not keys:
        typer.echo(f"no keys pinned in {_trust_path(trust)}", err=True)
    for k in keys:
        typer.echo(f"{k['key_id']}  {k.get('replica', '?')}  from {k.get('not_before')}  "
                   f"until {k.get('not_after') or 'now'}")


@keys_app.command("vkey")
def keys_vkey(trust: Path | None = typer.Option(None, "--trust", help=TRUST_HELP),
              name: str | None = typer.Option(None, "--name", help="Log name (key name of the "
                                              "C2SP checkpoints; default "
                                              "$GUARDIAN_AUDIT_LOG_NAME or "
                                              "spec-guardian.local/audit).")) -> None:
    """Print each pinned key as a signed-note verifier key (vkey), one a line.

    Give these to anyone verifying the C2SP checkpoints and tlog-proof receipts (e.g. with
    golang.org/x/mod/sumdb/note) or running a witness; the checkpoint origins are
    `<name>/<chain id>`. Retired keys are listed too: what they signed stays verifiable.
    """
    import base64

    from guardian.audit.checkpoints import CheckpointError, log_name
    from guardian.audit.notes import NoteError, verifier

    _require_text({"--trust": trust, "--name": name})
    try:
        key_name = log_name(name)
    except CheckpointError as exc:
        _fail(str(exc))
    keys = _trust(trust)["keys"]
    if not keys:
        _fail(f"no keys pinned in {_trust_path(trust)}", 1)
    for k in keys:
        try:
            typer.echo(verifier(key_name, base64.b64decode(k["public_key"])).vkey)
        except (NoteError, ValueError) as exc:
            _fail(f"key {k['key_id']} in the trust file is not an Ed25519 key: {exc}", 1)


@app.command("tiles")
def tiles_cmd(out: Path = typer.Option(..., "--out", "-o", help="Directory to write (one "
                                       "sub-directory per chain)."),
              url: str | None = typer.Option(None, "--url", help=URL_HELP),
              heads_dir: Path | None = typer.Option(None, "--heads-dir", help=HEADS_HELP),
              ) -> None:
    """Write a static c2sp.org/tlog-tiles view of every chain: checkpoint, hash tiles and
    entry bundles (record hashes only), for a web server or a mirror to serve."""
    import json as _json

    from guardian.audit.heads import chain_dirname
    from guardian.audit.proofs import ProveError
    from guardian.audit.tiles import write_tiles

    _require_text({"--out": out, "--url": url, "--heads-dir": heads_dir})
    if out.exists() and not out.is_dir():
        _fail(f"--out {out} is not a directory")
    hdir = _heads_dir(heads_dir)
    db = _db(url)
    failed = False
    for latest in sorted(hdir.glob("*/latest.json")):
        cid = _json.loads(latest.read_text(encoding="utf-8"))["chain_id"]
        try:
            size, files = write_tiles(db, latest.parent, cid, out / chain_dirname(cid))
        except ProveError as exc:
            typer.secho(f"{cid}: no tiles: {exc}", fg="red", err=True)
            failed = True
            continue
        typer.echo(f"{cid}: {files} files for the checkpoint of size {size} in "
                   f"{out / chain_dirname(cid)}")
    raise typer.Exit(1 if failed else 0)


@app.command("bundle")
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


@app.command("timestamp")
def timestamp_cmd(tsa: str = typer.Option(..., "--tsa", help="URL of an RFC 3161 "
                                          "Time-Stamp Authority (HTTP POST)."),
                  heads_dir: Path | None = typer.Option(None, "--heads-dir", help=HEADS_HELP),
                  ) -> None:
    """Get each chain's latest C2SP checkpoint timestamped by an RFC 3161 TSA; the token is
    kept as <heads dir>/<chain>/timestamps/<size>.tsr beside the exact bytes stamped
    (check: `openssl ts -verify -data <size>.checkpoint -in <size>.tsr -CAfile tsa.pem`)."""
    from guardian.audit.timestamps import TimestampError, stamp_checkpoint

    _require_text({"--tsa": tsa, "--heads-dir": heads_dir})
    if not tsa.startswith(("http://", "https://")):
        _fail(f"--tsa {tsa!r}: an http:// or https:// URL")
    hdir = _heads_dir(heads_dir)
    failed = False
    for chain_dir in sorted(p.parent for p in hdir.glob("*/checkpoints.jsonl")):
        try:
            typer.echo(f"{chain_dir.name}: {stamp_checkpoint(chain_dir, tsa)}")
        except TimestampError as exc:
            typer.secho(f"{chain_dir.name}: no timestamp: {exc}", fg="red", err=True)
            failed = True
    raise typer.Exit(1 if failed else 0)


@app.command("checkpoint")
def checkpoint_cmd(out: Path = typer.Option(..., "--out", "-o", help="Where to write the JSON."),
                   url: str | None = typer.Option(None, "--url", help=URL_HELP)) -> None:
    """Verify, then export every chain's head (seq, hash) signed with HMAC-SHA256.

    Keep the file outside the database (ticket, WORM bucket): verifying against it later
    detects deletion of the newest records and any rewrite of the history it covers.
    """
    from guardian.audit.config import AuditSettings
    from guardian.audit.verify import make_checkpoint, verify_db

    _require_text({"--out": out, "--url": url})
    _out_path(out, "--out")
    rep = verify_db(_db(url))
    if not rep.ok:
        _print_report(rep, "audit database (not checkpointing a broken chain)")
    cp = make_checkpoint(rep, AuditSettings().checkpoint_key)
    try:
        out.write_text(json.dumps(cp, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        _fail(f"cannot write {out}: {exc}", 1)
    typer.echo(f"checkpoint of {len(cp['chains'])} chains ({rep.records} records) written to {out}")


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


@app.command()
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


@app.command()
def prune(older_than: str = typer.Option(..., "--older-than",
                                         help="Age (90d, 36h, 2w) or ISO date of the cutoff: at "
                                         "least one day ago, never in the future."),
          url: str | None = typer.Option(None, "--url", help=URL_HELP),
          key: str | None = typer.Option(None, "--key", envvar="GUARDIAN_API_KEY", help=KEY_HELP),
          keys_file: Path | None = typer.Option(None, "--keys-file", help=KEYS_FILE_HELP),
          dev: bool = typer.Option(False, "--dev", envvar="GUARDIAN_DEV_MODE", help=DEV_HELP),
          ) -> None:
    """Delete records older than the cutoff, keeping the remaining chains verifiable.

    Deleting audit records is a retention act: it needs a compliance (or admin) API key, and
    the prune is recorded in the governance log under that key's name."""
    from guardian.audit.retention import prune as do_prune
    from guardian.audit.retention import prune_cutoff
    from guardian.cli.route import authenticate

    _require_text({"--older-than": older_than, "--url": url, "--keys-file": keys_file})
    try:
        cutoff = prune_cutoff(older_than)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--older-than") from None
    who = authenticate(key, keys_file, dev, roles=("compliance",)).actor
    db = _db(url)
    # The writer first, its start's recovery done, before the prune plans: that recovery
    # replays dead writers' spools into the database, and a replay landing between the plan
    # and the deletion (old tokens into a day partition the plan drops, on Postgres) was
    # deleted with no anchor covering it.
    with closing(open_writer(db.url.render_as_string(hide_password=False))) as sink:
        sink.flush(timeout_s=60.0)
        res = do_prune(db, cutoff, actor=who,
                       before_delete=lambda plan, parts: _record_prune(db, sink, plan, parts,
                                                                       who))
    typer.echo(f"pruned records before {res.cutoff.isoformat()}: "
               f"{sum(res.deleted.values())} rows deleted, "
               f"{len(res.dropped_partitions)} token partitions dropped, "
               f"{len(res.anchors)} chains anchored")


def _record_prune(db: Any, sink: Any, plan: Any, partitions: list[str], actor: str) -> None:
    """Before a prune deletes anything: put the prune in the tamper-evident governance log
    (its anchors and Merkle prefixes, which `verify` requires for every anchor) and each
    route's highest state version in a `state_floor` record, so replicas started after the
    prune still refuse a replayed older route state (governance.statesig) - and see both in
    the database. Recorded first, a prune killed midway never leaves a deletion that no
    record names (`verify` would call its anchor forged); unsure, it prunes nothing and
    records that (`audit_prune_aborted`, naming the prune record, which may still land)."""
    import uuid

    import sqlalchemy as sa

    from guardian.audit.acts import ACT_ORIGIN
    from guardian.audit.events import GovernanceEvent
    from guardian.audit.models import AuditGovernance
    from guardian.governance.statesig import floor_events, recorded_versions

    floors = floor_events(db, actor=actor, why=f"carried over by guardian audit prune "
                          f"(cutoff {plan.cutoff.isoformat()}): the acts that recorded it may go")
    record = GovernanceEvent(
        event_id=f"prune-{uuid.uuid4().hex}", created_at=datetime.now(UTC), kind="audit_prune",
        route=None, pair_hash=None, policy_hash=None, actor=actor,
        details={"cutoff": plan.cutoff.isoformat(), "recorded": "before the deletion",
                 "origin": ACT_ORIGIN.get(),
                 "dropped_partitions": partitions,
                 "anchors": {c: [s, h] for c, (s, h) in plan.anchors.items()},
                 "merkle_prefix": {c: [f.size, f.root().hex()]
                                   for c, f in plan.prefixes.items()}})
    for event in [*floors, record]:
        sink.submit(event)
    sink.flush(timeout_s=30.0)
    heads = getattr(sink, "heads", None)
    if heads is not None:  # a signed head covers the record before anything is deleted
        heads.publish()
    t = AuditGovernance.__table__
    db_error = ""
    try:
        with db.connect() as conn:
            recorded = conn.execute(sa.select(sa.func.count()).where(
                t.c.event_id == record.event_id)).scalar_one()
        kept = recorded_versions(db, since=min([record.created_at, *(
            e.created_at for e in floors)])) if floors else {}
    except sa.exc.SQLAlchemyError as exc:
        recorded, kept = 0, {}
        db_error = f" ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})"
    missing = [str(e.route) for e in floors
               if kept.get(str(e.route), -1) < e.details["state_version"]]
    if not recorded or missing:
        what = ("the prune's own record" if not recorded
                else "the route-state versions of " + ", ".join(missing))
        # The prune record may sit in this writer's spool (the database went away) or even
        # in the database (it went away after the write): wherever it lands, a record that
        # it never took effect follows it in the same chain, so no reader takes a prune that
        # deleted nothing for one that did.
        sink.submit(GovernanceEvent(
            event_id=f"prune-aborted-{uuid.uuid4().hex}", created_at=datetime.now(UTC),
            kind="audit_prune_aborted", route=None, pair_hash=None, policy_hash=None,
            actor=actor, details={"prune_event_id": record.event_id,
                                  "cutoff": plan.cutoff.isoformat(), "deleted": 0,
                                  "reason": f"{what} could not be recorded{db_error}",
                                  "origin": ACT_ORIGIN.get()}))
        sink.flush(timeout_s=10.0)
        typer.echo(f"error: {what} could not be recorded before pruning{db_error} (is the "
                   "audit database writable?); nothing was pruned", err=True)
        raise typer.Exit(1)


