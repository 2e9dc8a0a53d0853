"""Signed tree heads: each writer publishes its chain's Merkle root outside the database.

`HeadPublisher` is fed by the audit writer after a batch is durably in the database
(`observe(batch)`, any DB thread). It keeps the chain's compact range (`merkle.Frontier`,
O(log n) memory), advancing in `seq` order: batches written out of order (parallel DB threads,
spool replays) wait until the records before them are in, and ranges the writer declared lost
(`lost_seq` of an `audit_gap` record, which always follows them in the chain) are skipped, as
they never reach the database. A background thread signs and publishes a head

    {format, chain_id, replica_id, size, root, last_seq, time, final, key_id, signature}

when `every` new leaves are in or `interval_s` passed with new leaves; one of size 0 at start
(announces the chain: a chain with no head at all is not attested) and a `final` one at close
(nothing may follow it). Heads go to `<dir>/<chain>/heads.jsonl` (appended, fsync'd) and
`<dir>/<chain>/latest.json`; optionally POSTed to a webhook (a witness), off the writer's
threads. `read_heads` loads them for `guardian audit verify`. Each head is also published as
a C2SP checkpoint beside it (`guardian.audit.checkpoints`), and submitted to the witnesses
of `GUARDIAN_AUDIT_WITNESS_POLICY` when one is set (`guardian.audit.autowitness`).

What the database writer cannot do: change, drop or add a record covered by a published head
without the root differing (Ed25519 over the head; only the replica holds the key).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import queue
import re
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from guardian.audit.autowitness import WitnessFeeder
from guardian.audit.checkpoints import DEFAULT_LOG_NAME, safe_publish
from guardian.audit.merkle import Frontier
from guardian.audit.policy import Policy
from guardian.audit.proofcheck import HEAD_FORMAT, ProofError, check_head, head_body
from guardian.audit.rows import SealedBatch, copy_lines
from guardian.audit.signing import Signer
from guardian.core.fileio import append_whole, file_signature, write_atomic
from guardian.core.limits import MAX_WAIT_S

if TYPE_CHECKING:
    from guardian.settings import Settings

log = logging.getLogger(__name__)
T = TypeVar("T")


def chain_dirname(chain_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", chain_id.replace("/", "__"))


def make_head(signer: Signer, chain_id: str, replica_id: str, frontier: Frontier,
              last_seq: int, *, final: bool = False, when: datetime | None = None
              ) -> dict[str, Any]:
    head: dict[str, Any] = {
        "format": HEAD_FORMAT, "chain_id": chain_id, "replica_id": replica_id,
        "size": frontier.size, "root": frontier.root().hex(), "last_seq": last_seq,
        "time": (when or datetime.now(UTC)).isoformat(timespec="microseconds"),
        "final": final, "key_id": signer.key_id}
    head["signature"] = signer.sign(head_body(head))
    return head


def batch_leaves(batch: SealedBatch) -> list[str]:
    """Record hashes of a sealed batch in seq order (first_seq .. last_seq, no holes: a
    batch is sealed contiguously). Token hashes are read off the end of each COPY line /
    row tuple; parents are placed by seq, tokens fill the other slots in order."""
    tokens = [line[-65:-1] for line in copy_lines(batch.token_lines)] + [t[-1] for t in batch.token_rows]
    return _in_seq_order(batch, tokens, lambda h: h)


def leaf_hashes(batch: SealedBatch) -> list[bytes]:
    """RFC 6962 leaf hashes of a sealed batch's records in seq order: the token leaves the C
    sealer already made when the batch carries them, else hashed here."""
    sha, unhex = hashlib.sha256, bytes.fromhex  # proofcheck.leaf_hash, inlined (hot path)
    if batch.token_leaves is not None and not batch.token_rows \
            and len(batch.token_leaves) == sum(t.count("\n") for t in batch.token_lines):
        return _in_seq_order(batch, batch.token_leaves,
                             lambda h: sha(b"\x00" + unhex(h)).digest())
    return [sha(b"\x00" + unhex(h)).digest() for h in batch_leaves(batch)]


def _in_seq_order(batch: SealedBatch, tokens: list[T], parent: Callable[[str], T]) -> list[T]:
    """Merge the parents' (request, shadow, governance rows') `parent(hash)` into the token
    items, by seq."""
    parents = sorted((r["seq"], r["hash"]) for rows in (batch.requests, batch.shadow,
                                                         batch.governance) for r in rows)
    out: list[T] = []
    taken, expected = 0, batch.first_seq
    for seq, h in parents:
        k = seq - expected  # token records between the previous parent and this one
        out += tokens[taken:taken + k]
        out.append(parent(h))
        taken, expected = taken + k, seq + 1
    out += tokens[taken:]
    if len(out) != batch.n_rows:
        raise ValueError(f"batch {batch.chain_id}:{batch.first_seq}-{batch.last_seq} holds "
                         f"{len(out)} records, not {batch.n_rows}")
    return out


def declared_lost(batch: SealedBatch) -> list[tuple[int, int]]:
    return [(int(lo), int(hi)) for g in batch.governance if g.get("kind") == "audit_gap"
            for lo, hi in (g.get("details") or {}).get("lost_seq", [])]


@dataclass(frozen=True)
class HeadsConfig:
    """What a writer needs to publish heads (built from `Settings` by `heads_config`)."""

    signer: Signer
    heads_dir: Path
    every: int = 1000
    interval_s: float = 10.0
    webhook: str | None = None
    key_path: Path | None = None  # re-read when it changes (`guardian audit keys rotate`)
    log_name: str | None = DEFAULT_LOG_NAME  # C2SP checkpoints' key name; None: no checkpoints
    witness_policy: Policy | None = None  # submit each checkpoint to its witnesses

    def publisher(self, chain_id: str, replica_id: str) -> HeadPublisher:
        return HeadPublisher(chain_id, replica_id, self.signer, self.heads_dir,
                             every=self.every, interval_s=self.interval_s, webhook=self.webhook,
                             key_path=self.key_path, log_name=self.log_name,
                             witness_policy=self.witness_policy)


def heads_config(settings: Settings, replica_id: str, *, required: bool = True
                 ) -> HeadsConfig | None:
    """From settings; None when heads are switched off. Without a usable key: `SigningError`
    (see `guardian.audit.signing.signer_for`), or, not `required` (short-lived CLI writers),
    a warning and None - that chain will show as unattested in `guardian audit verify`."""
    if not settings.audit_heads:
        return None
    from guardian.audit.autowitness import POLICY_ENV
    from guardian.audit.checkpoints import CheckpointError, log_name
    from guardian.audit.config import TransparencySettings
    from guardian.audit.policy import PolicyError, load_policy
    from guardian.audit.signing import SigningError, key_paths, signer_for

    try:
        signer = signer_for(settings, replica_id)
        name = log_name()
        policy_file = TransparencySettings().witness_policy
        witness_policy = load_policy(Path(policy_file)) if policy_file else None
    except (CheckpointError, PolicyError) as exc:
        raise SigningError(f"{exc}" if not isinstance(exc, PolicyError)
                           else f"{POLICY_ENV}: {exc}") from None
    except SigningError as exc:
        if required:
            raise
        log.warning("%s; this command's audit records will not be covered by a signed head",
                    exc)
        return None
    return HeadsConfig(signer, settings.resolved_heads_dir, settings.audit_heads_every,
                       settings.audit_heads_interval_s, settings.audit_heads_webhook,
                       key_path=key_paths(settings)[0], log_name=name,
                       witness_policy=witness_policy)


class HeadPublisher:
    """Keeps one chain's Merkle frontier and publishes signed heads (module docstring)."""

    def __init__(self, chain_id: str, replica_id: str, signer: Signer, heads_dir: Path, *,
                 every: int = 1000, interval_s: float = 10.0, webhook: str | None = None,
                 start: bool = True, key_path: Path | None = None,
                 log_name: str | None = None, witness_policy: Policy | None = None) -> None:
        self.chain_id, self.replica_id, self.signer = chain_id, replica_id, signer
        self.log_name = log_name  # also publish each head as a C2SP checkpoint under it
        # A key rotated while this runs (`guardian audit keys rotate` retires the old key
        # at once): the next head is signed with the new one, not with a retired key, which
        # `verify` would call forged for ever.
        self.key_path = key_path
        self._key_stamp = file_signature(key_path) if key_path is not None else None
        self.dir = heads_dir / chain_dirname(chain_id)
        self.every, self.interval_s, self.webhook = every, interval_s, webhook
        self._lock = threading.Lock()
        self._frontier = Frontier()
        self._next_seq = 1
        self._last_seq = 0
        self._pending: dict[int, tuple[int, list[bytes]]] = {}  # first seq -> (last, leaves)
        self._lost: list[tuple[int, int]] = []
        self._published_size = -1
        self._wake = threading.Event()
        self._closing = threading.Event()
        self._hooks: queue.Queue[dict[str, Any] | None] = queue.Queue(maxsize=1000)
        self.last_head: dict[str, Any] | None = None
        self.last_head_at: float | None = None  # time.monotonic() of the last publication
        self._feeder = (WitnessFeeder(self.dir, witness_policy)
                        if witness_policy is not None and log_name else None)
        self._thread = threading.Thread(target=self._loop, name="audit-heads", daemon=True)
        self._hook_thread = (threading.Thread(target=self._post_loop, name="audit-heads-hook",
                                              daemon=True) if webhook else None)
        if start:
            self.start()

    def start(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        self.publish()  # size 0: the chain exists and is this replica's
        self._thread.start()
        if self._hook_thread is not None:
            self._hook_thread.start()

    # -- the writer's side ----------------------------------------------------------------
    def observe(self, batch: SealedBatch) -> None:
        """A batch is durably in the database (also called for a duplicate replay)."""
        if batch.chain_id != self.chain_id:
            return  # a dead incarnation's spool replayed by this writer: not our chain
        if batch.last_seq < batch.first_seq or batch.first_seq < self._next_seq:
            lost = declared_lost(batch)  # empty, or a replay of what is already in
            if lost:
                with self._lock:
                    self._lost += lost
                    self._advance()
            return
        leaves = leaf_hashes(batch)
        with self._lock:
            self._lost += declared_lost(batch)
            self._pending.setdefault(batch.first_seq, (batch.last_seq, leaves))
            self._advance()
            new = self._frontier.size - max(self._published_size, 0)
            # `every` new leaves, or new leaves after a quiet spell: the first records after
            # an idle minute used to wait for the loop's next tick (up to `interval_s`)
            # behind a head older than verify's grace, which read them as unattested.
            due = new >= self.every or (new > 0 and (
                self.last_head_at is None
                or time.monotonic() - self.last_head_at >= self.interval_s))
        if due:
            self._wake.set()

    def _advance(self) -> None:
        while True:
            batch = self._pending.pop(self._next_seq, None)
            if batch is not None:
                last, leaves = batch
                self._frontier.extend(leaves)
                if self._feeder is not None:
                    self._feeder.add(leaves)
                self._last_seq, self._next_seq = last, last + 1
                continue
            lost = next((hi for lo, hi in self._lost if lo <= self._next_seq <= hi), None)
            if lost is None:
                return
            self._next_seq = lost + 1

    def close(self, *, final: bool = True, timeout_s: float = 5.0) -> None:
        """Publish the last head - `final` (nothing may follow it in this chain) unless told
        records of this chain are still on their way (spooled) - and stop."""
        if self._closing.is_set():
            return
        self._closing.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout_s)
        with self._lock:
            complete = not self._pending
        self.publish(final=final and complete)
        if self._feeder is not None:
            self._feeder.close(timeout_s)
        if self._hook_thread is not None:
            self._hooks.put(None)
            self._hook_thread.join(timeout_s)

    # -- publication ----------------------------------------------------------------------
    def _follow_key(self) -> bool:
        """Load the key file again if it changed since it was read (True when the signer
        changed). A file that cannot be read keeps the current key, with an error logged."""
        if self.key_path is None:
            return False
        stamp = file_signature(self.key_path)
        if stamp == self._key_stamp or stamp is None:
            return False
        from guardian.audit.signing import SigningError, load_signer

        try:
            signer = load_signer(self.key_path)
        except SigningError as exc:
            log.error("audit signing key changed but cannot be read (%s); still signing heads "
                      "with key %s", exc, self.signer.key_id)
            return False
        self._key_stamp = stamp
        if signer.key_id == self.signer.key_id:
            return False
        log.warning("audit signing key rotated: heads of %s are now signed with key %s "
                    "(was %s)", self.chain_id, signer.key_id, self.signer.key_id)
        self.signer = signer
        return True

    def publish(self, *, final: bool = False) -> dict[str, Any] | None:
        with self._lock:
            if self._frontier.size == self._published_size and not final:
                return None
            frontier, last_seq = self._frontier.copy(), self._last_seq
        self._follow_key()
        head = make_head(self.signer, self.chain_id, self.replica_id, frontier, last_seq,
                         final=final)
        if self._follow_key():  # rotated while this head was being signed: sign it again
            head = make_head(self.signer, self.chain_id, self.replica_id, frontier, last_seq,
                             final=final)
        line = json.dumps(head, separators=(",", ":")) + "\n"
        try:
            fd = os.open(self.dir / "heads.jsonl", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            try:
                append_whole(fd, line.encode())  # never a torn head line
                os.fsync(fd)
            finally:
                os.close(fd)
            write_atomic(self.dir / "latest.json", json.dumps(head, indent=2) + "\n", mode=0o644)
            if self.log_name:
                safe_publish(self.dir, self.signer, self.log_name, head)
                if self._feeder is not None:
                    self._feeder.kick()
        except OSError as exc:
            log.error("could not publish the audit head of %s (size %d) to %s: %s",
                      self.chain_id, frontier.size, self.dir, exc)
            return None
        self._published_size = frontier.size
        self.last_head, self.last_head_at = head, time.monotonic()
        if self.webhook:
            try:
                self._hooks.put_nowait(head)
            except queue.Full:
                log.warning("audit head webhook backlog full; head size %d not posted",
                            frontier.size)
        return head

    def _loop(self) -> None:
        while not self._closing.is_set():
            # Capped: a wait past threading.TIMEOUT_MAX raises OverflowError and would end
            # this thread, and with it tamper evidence, silently (settings bound it too).
            self._wake.wait(min(self.interval_s, MAX_WAIT_S))
            self._wake.clear()
            if self._closing.is_set():
                return
            with self._lock:
                stalled = bool(self._pending)
            try:
                self.publish()
            except Exception:  # the next pass tries again; this thread must not end
                log.exception("publishing the audit head of %s failed", self.chain_id)
            if stalled:
                log.debug("audit heads of %s wait for seq %d (written out of order)",
                          self.chain_id, self._next_seq)

    def _post_loop(self) -> None:
        while (head := self._hooks.get()) is not None:
            req = urllib.request.Request(self.webhook or "", data=json.dumps(head).encode(),
                                         headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=5) as resp:
                    resp.read()
            except OSError as exc:
                log.warning("could not POST audit head size %d to %s: %s", head["size"],
                            self.webhook, exc)


# -- reading published heads -----------------------------------------------------------------
def iter_heads(heads_dir: Path) -> Iterator[tuple[Path, int, dict[str, Any] | None]]:
    """(file, line number, head or None when unreadable) for every published head."""
    for path in sorted(heads_dir.glob("*/heads.jsonl")):
        with open(path, encoding="utf-8") as fh:
            for i, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    yield path, i, json.loads(line)
                except ValueError:
                    yield path, i, None


def read_heads(heads_dir: Path, trust: dict[str, Any]
               ) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    """Signature-checked heads per chain (sorted by size, then time) and a list of problems
    (unreadable lines, bad signatures, untrusted keys) - each of which is a verify error."""
    out: dict[str, list[dict[str, Any]]] = {}
    problems: list[str] = []
    for path, lineno, head in iter_heads(heads_dir):
        if head is None:
            problems.append(f"unreadable head: {path}:{lineno}")
            continue
        try:
            check_head(head, trust)
        except (ProofError, KeyError, ValueError) as exc:
            problems.append(f"forged or untrusted head: {path}:{lineno}: {exc}")
            continue
        out.setdefault(head["chain_id"], []).append(head)
    for heads in out.values():
        heads.sort(key=lambda h: (h["size"], h["time"]))
    return out, problems


def latest_head(heads_dir: Path, chain_id: str) -> dict[str, Any] | None:
    """The largest published head of one chain (signature not checked here: the verifier
    of whatever is proven against it checks it)."""
    path = heads_dir / chain_dirname(chain_id) / "heads.jsonl"
    best: dict[str, Any] | None = None
    if path.exists():
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                try:
                    head = json.loads(line)
                except ValueError:
                    continue
                if head.get("chain_id") == chain_id and (best is None
                                                         or head["size"] >= best["size"]):
                    best = head
    return best
