"""The sidecar's own witnessing: each checkpoint its head publisher signs goes to the
witnesses of `GUARDIAN_AUDIT_WITNESS_POLICY` (a c2sp.org/tlog-policy file) at once.

A consistency proof needs the tree between the size a witness last cosigned and the new one.
The database has it (`guardian witness submit`), but reading a chain back for each head would
cost the sidecar O(records); `WitnessFeeder` instead keeps the compact range (`Frontier`) of
the size every witness has cosigned and the leaf hashes since, fed by the publisher as it
advances, and proves from there (`merkle.Tree` over that prefix). When all witnesses have
cosigned a size, the leaves below it are folded into the compact range and dropped. Past
`MAX_LEAVES` kept leaves (a witness down for long) it stops, saying so: `guardian witness
submit`, which proves from the database, catches up. Submissions run on a thread of their
own, never on the writer's.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from guardian.audit.checkpoints import read_checkpoints
from guardian.audit.merkle import Frontier, Tree
from guardian.audit.policy import Policy
from guardian.audit.witnessing import witness_checkpoint, witnessed_sizes

log = logging.getLogger(__name__)

MAX_LEAVES = 1 << 20
POLICY_ENV = "GUARDIAN_AUDIT_WITNESS_POLICY"


class WitnessFeeder:
    def __init__(self, chain_dir: Path, policy: Policy) -> None:
        self.chain_dir, self.policy = chain_dir, policy
        self._base = Frontier()  # what every witness has cosigned, as a compact range
        self._leaves: list[bytes] = []  # leaf hashes after it
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._closing = threading.Event()
        self._stopped = False
        self.rounds = 0  # submission rounds done (tests wait on it)
        self._thread = threading.Thread(target=self._loop, name="audit-witness", daemon=True)
        self._thread.start()

    def add(self, leaves: list[bytes]) -> None:
        """Leaves the publisher's frontier just took in, in order (its lock held)."""
        if self._stopped:
            return
        with self._lock:
            self._leaves += leaves
            if len(self._leaves) > MAX_LEAVES:
                self._stopped, self._leaves = True, []
                log.error("audit witnessing of %s stopped: more than %d records since the "
                          "witnesses' last cosigned size (is one down?); run `guardian witness "
                          "submit`, which proves from the database", self.chain_dir.name,
                          MAX_LEAVES)

    def kick(self) -> None:
        """A checkpoint was published."""
        self._wake.set()

    def close(self, timeout_s: float = 5.0) -> None:
        self._closing.set()
        self._wake.set()
        self._thread.join(timeout_s)

    def _loop(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            try:
                self.submit()
            except Exception:  # the next checkpoint tries again; this thread must not end
                log.exception("audit witnessing of %s failed", self.chain_dir.name)
            if self._closing.is_set():
                return

    def submit(self) -> None:
        if self._stopped:
            return
        cps = read_checkpoints(self.chain_dir)
        if not cps:
            return
        with self._lock:
            tree = Tree(list(self._leaves), self._base.copy())
        for o in witness_checkpoint(self.chain_dir, cps[-1], tree, self.policy):
            if not o.ok:
                log.warning("audit witness %s: checkpoint %d of %s: %s", o.witness,
                            cps[-1].size, self.chain_dir.name, o.detail)
        self.rounds += 1
        sizes = witnessed_sizes(self.chain_dir)
        urls = [w.name for w in self.policy.witnesses.values() if w.url]
        low = min((sizes.get(n, 0) for n in urls), default=0)
        with self._lock:
            fold = low - self._base.size
            if fold > 0 and fold <= len(self._leaves):
                self._base.extend(self._leaves[:fold])
                del self._leaves[:fold]
