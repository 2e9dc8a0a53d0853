"""`guardian witness ...`: run a c2sp.org/tlog-witness, and get the audit checkpoints cosigned.

* `init` / `vkey`: a witness key (Ed25519, PEM, 0600) and its cosigner vkey (type 0x04) for
  the tlog-policy files of whoever verifies;
* `serve`: the witness (`guardian.audit.witness`) on POST <prefix>/add-checkpoint;
* `submit`: the log's side: every chain's latest checkpoint to each witness of a policy
  (`guardian.audit.witnessing`), exit 1 unless the quorum cosigned each of them.
"""

from __future__ import annotations

import logging
from pathlib import Path

import typer

from guardian.cli.db import URL_HELP

log = logging.getLogger(__name__)

app = typer.Typer(help="Transparency-log witness: init, vkey, serve, submit.",
                  no_args_is_help=True)

KEY_HELP = "The witness's Ed25519 private key (PEM)."
NAME_HELP = "The witness's key name (a schema-less URL, e.g. witness.example.org/w1)."
POLICY_HELP = "A c2sp.org/tlog-policy file."


def _fail(message: str, code: int = 2) -> None:
    typer.secho(message, fg="red", err=True)
    raise typer.Exit(code)


def _vkey(key_path: Path, name: str) -> str:
    from guardian.audit.notes import ALG_COSIGNATURE_V1, NoteError, public_raw, verifier
    from guardian.audit.witness import load_key

    try:
        return verifier(name, public_raw(load_key(key_path)), ALG_COSIGNATURE_V1).vkey
    except (OSError, ValueError, NoteError) as exc:
        _fail(f"cannot use the witness key {key_path}: {exc}")
        raise  # unreachable: _fail exits


@app.command("init")
def init(key: Path = typer.Option(..., "--key", help=KEY_HELP),
         name: str = typer.Option(..., "--name", help=NAME_HELP)) -> None:
    """Create a witness key (never overwriting one) and print its vkey."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from guardian.core.fileio import write_atomic

    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()).decode()
    if not write_atomic(key, pem, mode=0o600, exclusive=True):
        _fail(f"{key} exists; not overwriting a witness key")
    typer.echo(_vkey(key, name))


@app.command("vkey")
def vkey(key: Path = typer.Option(..., "--key", help=KEY_HELP),
         name: str = typer.Option(..., "--name", help=NAME_HELP)) -> None:
    """Print the witness's cosigner vkey (for `witness <name> <vkey> <url>` policy lines)."""
    typer.echo(_vkey(key, name))


@app.command("serve")
def serve(key: Path = typer.Option(..., "--key", help=KEY_HELP),
          name: str = typer.Option(..., "--name", help=NAME_HELP),
          log_vkeys: list[str] = typer.Option([], "--log", help="A log's vkey (repeatable): "
                                              "checkpoints whose origin is its name or under "
                                              "it are accepted."),
          policy: Path | None = typer.Option(None, "--policy", help=POLICY_HELP + " Its `log` "
                                             "lines are the logs followed."),
          state: Path = typer.Option(..., "--state", help="Where the latest cosigned size and "
                                     "root of each log are kept (JSON)."),
          host: str = typer.Option("127.0.0.1", "--host"),
          port: int = typer.Option(8088, "--port"),
          prefix: str = typer.Option("", "--prefix", help="Submission prefix path."),
          ) -> None:
    """Run the witness: cosign each checkpoint that extends the last one it cosigned."""
    from guardian.audit.notes import NoteError, parse_vkey
    from guardian.audit.policy import PolicyError, load_policy
    from guardian.audit.witness import Witness, load_key, make_server

    try:
        logs = [parse_vkey(v) for v in log_vkeys]
        if policy is not None:
            logs += load_policy(policy).log_keys
        witness = Witness(name, load_key(key), logs, state)
    except (NoteError, PolicyError, OSError, ValueError) as exc:
        _fail(f"cannot start the witness: {exc}")
        return
    if not logs:
        _fail("no log to witness: pass --log VKEY or a --policy with log lines")
    server = make_server(witness, host, port, prefix)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    typer.echo(f"witness {name} ({witness.vkey}) on http://{host}:{server.server_port}"
               f"{prefix.rstrip('/')}/add-checkpoint, {len(logs)} log key(s)", err=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


@app.command("submit")
def submit(policy: Path = typer.Option(..., "--policy", help=POLICY_HELP),
           url: str | None = typer.Option(None, "--url", help=URL_HELP),
           heads_dir: Path | None = typer.Option(None, "--heads-dir", help="Published heads "
                                                 "(default: <home>/audit-heads)."),
           ) -> None:
    """Submit every chain's latest checkpoint to the policy's witnesses; keep their
    cosignatures (they go into tlog-proof receipts). Exit 1 unless each chain's latest
    checkpoint met the quorum."""
    import json

    from guardian.audit.checkpoints import read_checkpoints
    from guardian.audit.heads import chain_dirname
    from guardian.audit.policy import PolicyError, load_policy
    from guardian.audit.witness_db import witness_chain
    from guardian.audit.witnessing import cosigners
    from guardian.cli.audit import _db, _heads_dir

    try:
        pol = load_policy(policy)
    except PolicyError as exc:
        _fail(str(exc))
        return
    hdir = _heads_dir(heads_dir)
    db = _db(url)
    short = False
    for latest in sorted(hdir.glob("*/latest.json")):
        cid = json.loads(latest.read_text(encoding="utf-8"))["chain_id"]
        d = hdir / chain_dirname(cid)
        for o in witness_chain(db, d, cid, pol):
            typer.echo(f"{cid}: {o.witness}: {'OK' if o.ok else 'FAILED'}: {o.detail}")
        cps = read_checkpoints(d)
        if cps:
            cp = cps[-1]
            names = cosigners(d, cp.size, cp.root, cp.note[:cp.note.index("\n\n") + 1], pol)
            met = pol.satisfied(names)
            short |= not met
            by = ", ".join(sorted(names)) or "none"
            typer.echo(f"{cid}: checkpoint {cp.size} cosigned by {by} - quorum {pol.quorum} "
                       f"{'met' if met else 'NOT met'}")
    raise typer.Exit(1 if short else 0)
