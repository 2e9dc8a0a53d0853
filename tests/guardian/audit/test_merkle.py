"""RFC 6962 trees: roots against the RFC's recursive definition, RFC 9162 proofs checked by the
offline verifier, and trees whose pruned prefix is known only through its compact range."""

from __future__ import annotations

import hashlib

import pytest

from guardian.audit.merkle import EMPTY_ROOT, Frontier, Tree
from guardian.audit.proofcheck import leaf_hash, node_hash, verify_consistency, verify_inclusion


def mth(leaves: list[bytes]) -> bytes:
    """RFC 6962 section 2.1, literally."""
    n = len(leaves)
    if n == 0:
        return hashlib.sha256(b"").digest()
    if n == 1:
        return leaves[0]
    k = 1
    while k * 2 < n:
        k *= 2
    return node_hash(mth(leaves[:k]), mth(leaves[k:]))


LEAVES = [leaf_hash(f"record {i}".encode()) for i in range(40)]


def test_hashing_has_domain_separation() -> None:
    a, b = LEAVES[0], LEAVES[1]
    assert leaf_hash(a + b) != node_hash(a, b)
    assert hashlib.sha256(b"").digest() == EMPTY_ROOT


@pytest.mark.parametrize("n", range(0, 41))
def test_frontier_root_is_the_rfc_root(n: int) -> None:
    f = Frontier()
    f.extend(LEAVES[:n])
    assert f.root() == mth(LEAVES[:n])
    assert Tree(LEAVES[:n]).root() == mth(LEAVES[:n])
    assert len(f.peaks) == bin(n).count("1")


def test_every_inclusion_proof_verifies_and_a_wrong_one_does_not() -> None:
    for n in range(1, 24):
        tree, root = Tree(LEAVES[:n]), mth(LEAVES[:n])
        for i in range(n):
            path = tree.inclusion(i)
            assert verify_inclusion(LEAVES[i], i, n, path, root), (i, n)
            assert not verify_inclusion(LEAVES[(i + 1) % 40], i, n, path, root)
            if path:
                bad = [bytes(32), *path[1:]]
                assert not verify_inclusion(LEAVES[i], i, n, bad, root)
            assert not verify_inclusion(LEAVES[i], i + 1 if i + 1 < n else i - 1, n, path,
                                        root) or n == 1


def test_every_consistency_proof_verifies_and_a_fork_does_not() -> None:
    forked = [*LEAVES[:5], leaf_hash(b"forged"), *LEAVES[6:]]
    for n in range(1, 24):
        tree = Tree(LEAVES[:n])
        for m in range(0, n + 1):
            proof = tree.consistency(m, n)
            assert verify_consistency(m, n, mth(LEAVES[:m]), mth(LEAVES[:n]), proof), (m, n)
            if 5 < m < n:  # the old head saw the original leaf 5: the fork cannot extend it
                assert not verify_consistency(m, n, mth(LEAVES[:m]), mth(forked[:n]), proof)


@pytest.mark.parametrize("pruned", [1, 3, 4, 7, 8, 13, 16, 21])
def test_after_pruning_a_prefix_every_remaining_leaf_is_provable(pruned: int) -> None:
    prefix = Frontier()
    prefix.extend(LEAVES[:pruned])
    tree = Tree(LEAVES[pruned:], prefix)
    for n in range(pruned + 1, 41):
        root = mth(LEAVES[:n])
        assert tree.root(n) == root
        for i in range(pruned, n):
            assert verify_inclusion(LEAVES[i], i, n, tree.inclusion(i, n), root)


def test_frontier_json_round_trip_rejects_wrong_peak_count() -> None:
    f = Frontier()
    f.extend(LEAVES[:11])
    assert Frontier.from_json(11, f.to_json()).root() == f.root()
    with pytest.raises(ValueError, match="3 subtrees"):
        Frontier.from_json(11, f.to_json()[:2])
