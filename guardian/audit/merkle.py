"""RFC 6962 Merkle trees over one audit chain: roots, compact ranges and proofs.

The leaves of a chain's tree are its records *present in the database*, in `seq` order
(records the writer declared lost in an `audit_gap` record never become leaves); a leaf's data
is the record's 32-byte chain hash (`guardian.audit.chain.link`). Hashing, and the checking of
proofs, live in `guardian.audit.proofcheck` (stdlib + cryptography only, for offline use);
this module builds:

* `Frontier` - the compact range of a prefix of the leaves (one subtree hash per set bit of
  its size, largest first). It grows one leaf at a time in O(log n) memory, gives the root at
  any size it passes through, and is what a writer keeps to sign heads, and what `prune`
  stores so that the records left after a prune stay provable;
* `Tree` - a tree whose first `prefix.size` leaves are known only through such a compact range
  (pruned), the rest as leaf hashes: roots, RFC 9162 inclusion and consistency proofs.

Every aligned subtree that straddles the pruned boundary splits into compact-range subtrees and
present leaves, so inclusion proofs for every remaining leaf exist after a prune.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from guardian.audit.native import merkle_extend
from guardian.audit.proofcheck import leaf_hash, node_hash

_sha256 = hashlib.sha256
EMPTY_ROOT = bytes.fromhex("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")


def _split(n: int) -> int:
    """Largest power of two strictly below n (n >= 2): RFC 6962's k."""
    return 1 << ((n - 1).bit_length() - 1)


@dataclass
class Frontier:
    """Compact range [0, size): `peaks[i]` is the hash of the i-th complete subtree from the
    left, sizes = the set bits of `size`, largest first."""

    size: int = 0
    peaks: list[bytes] = field(default_factory=list)

    def append(self, leaf: bytes) -> None:
        """Add one leaf *hash* (already `leaf_hash`ed)."""
        h, n, peaks = leaf, self.size, self.peaks
        while n & 1:  # merge equal-sized subtrees (node_hash, inlined: the writer's hot path)
            h = _sha256(b"\x01" + peaks.pop() + h).digest()
            n >>= 1
        peaks.append(h)
        self.size += 1

    def extend(self, leaves: Iterable[bytes]) -> None:
        """`append` each leaf, inlined: the head publisher's hot path (one merge per leaf
        on average, no method call per leaf; in C when `guardian.audit.native` has it)."""
        if merkle_extend is not None:
            self.size = merkle_extend(self.peaks, self.size, list(leaves))
            return
        peaks, size = list(self.peaks), self.size  # a copy: an error changes nothing
        pop, push, sha = peaks.pop, peaks.append, _sha256
        for h in leaves:
            if type(h) is not bytes or len(h) != 32:
                raise ValueError("a leaf hash is 32 bytes")
            n = size
            while n & 1:
                h = sha(b"\x01" + pop() + h).digest()
                n >>= 1
            push(h)
            size += 1
        self.peaks[:] = peaks
        self.size = size

    def root(self) -> bytes:
        if not self.peaks:
            return EMPTY_ROOT
        acc = self.peaks[-1]
        for p in reversed(self.peaks[:-1]):
            acc = node_hash(p, acc)
        return acc

    def ranges(self) -> list[tuple[int, int]]:
        """[lo, hi) of each peak."""
        out, lo = [], 0
        for bit in reversed(range(self.size.bit_length())):
            if self.size >> bit & 1:
                out.append((lo, lo + (1 << bit)))
                lo += 1 << bit
        return out

    def copy(self) -> Frontier:
        return Frontier(self.size, list(self.peaks))

    def to_json(self) -> list[str]:
        return [p.hex() for p in self.peaks]

    @classmethod
    def from_json(cls, size: int, peaks: list[str]) -> Frontier:
        f = cls(size, [bytes.fromhex(p) for p in peaks])
        if len(f.peaks) != bin(size).count("1"):
            raise ValueError(f"a compact range of {size} leaves has {bin(size).count('1')} "
                             f"subtrees, not {len(f.peaks)}")
        return f


def record_leaf(record_hash_hex: str) -> bytes:
    return leaf_hash(bytes.fromhex(record_hash_hex))


class Tree:
    """Leaves [prefix.size, prefix.size + len(leaves)) known; the prefix through its peaks."""

    def __init__(self, leaves: list[bytes], prefix: Frontier | None = None) -> None:
        self.prefix = prefix or Frontier()
        self.leaves = leaves
        self._known = dict(zip(self.prefix.ranges(), self.prefix.peaks, strict=True))

    @property
    def size(self) -> int:
        return self.prefix.size + len(self.leaves)

    def subtree(self, lo: int, hi: int) -> bytes:
        """MTH(D[lo:hi]) for an RFC 6962 subtree range."""
        known = self._known.get((lo, hi))
        if known is not None:
            return known
        if hi - lo == 1:
            if lo < self.prefix.size:
                raise ValueError(f"leaf {lo} was pruned and is not part of the kept compact "
                                 "range")
            return self.leaves[lo - self.prefix.size]
        k = _split(hi - lo)
        return node_hash(self.subtree(lo, lo + k), self.subtree(lo + k, hi))

    def root(self, size: int | None = None) -> bytes:
        size = self.size if size is None else size
        if size == 0:
            return EMPTY_ROOT
        self._check(size)
        return self.subtree(0, size)

    def inclusion(self, index: int, size: int | None = None) -> list[bytes]:
        """RFC 9162 2.1.3.1 PATH(index, D[0:size])."""
        size = self.size if size is None else size
        self._check(size)
        if not 0 <= index < size:
            raise ValueError(f"leaf {index} is not in a tree of size {size}")
        return self._path(index, 0, size)

    def _path(self, m: int, lo: int, hi: int) -> list[bytes]:
        if hi - lo <= 1:
            return []
        k = _split(hi - lo)
        if m < lo + k:
            return [*self._path(m, lo, lo + k), self.subtree(lo + k, hi)]
        return [*self._path(m, lo + k, hi), self.subtree(lo, lo + k)]

    def consistency(self, size1: int, size2: int | None = None) -> list[bytes]:
        """RFC 9162 2.1.4.1 PROOF(size1, D[0:size2])."""
        size2 = self.size if size2 is None else size2
        self._check(size2)
        if not 0 <= size1 <= size2:
            raise ValueError(f"no consistency proof from size {size1} to {size2}")
        if size1 in (0, size2):
            return []
        return self._subproof(size1, 0, size2, True)

    def _subproof(self, m: int, lo: int, hi: int, whole: bool) -> list[bytes]:
        n = hi - lo
        if m == n:
            return [] if whole else [self.subtree(lo, hi)]
        k = _split(n)
        if m <= k:
            return [*self._subproof(m, lo, lo + k, whole), self.subtree(lo + k, hi)]
        return [*self._subproof(m - k, lo + k, hi, False), self.subtree(lo, lo + k)]

    def _check(self, size: int) -> None:
        if size > self.size:
            raise ValueError(f"the tree has {self.size} leaves, not {size}")
