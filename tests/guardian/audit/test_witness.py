"""The witness's add-checkpoint rules (c2sp.org/tlog-witness) and tlog-policy quorums, in
process: a witness cosigns only a checkpoint that extends the last one it cosigned."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from guardian.audit.merkle import Tree, record_leaf
from guardian.audit.notes import (
    ALG_COSIGNATURE_V1,
    Checkpoint,
    b64,
    cosignature_time,
    public_raw,
    sign_line,
    split_note,
    verifier,
)
from guardian.audit.policy import PolicyError, parse_policy
from guardian.audit.witness import SIZE_TYPE, Witness

LOG = "log.example/audit"
ORIGIN = LOG + "/replica/abc"


def leaves(n: int, salt: int = 0) -> list[bytes]:
    return [record_leaf(f"{i + salt:064x}") for i in range(n)]


def note(key: Ed25519PrivateKey, tree: Tree, size: int, origin: str = ORIGIN,
         name: str = LOG) -> str:
    text = Checkpoint(origin, size, tree.root(size)).text
    return text + "\n" + sign_line(text, name, key)


def body(old: int, proof: list[bytes], checkpoint: str) -> bytes:
    return (f"old {old}\n" + "".join(f"{b64(h)}\n" for h in proof) + "\n" + checkpoint).encode()


@pytest.fixture
def log_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


@pytest.fixture
def witness(tmp_path: Path, log_key: Ed25519PrivateKey) -> Witness:
    return Witness("w.example/1", Ed25519PrivateKey.generate(),
                   [verifier(LOG, public_raw(log_key))], tmp_path / "state.json")


def test_cosigns_a_growing_log_and_keeps_its_state(witness: Witness, log_key: Ed25519PrivateKey,
                                                   tmp_path: Path) -> None:
    tree = Tree(leaves(13))
    ans = witness.add_checkpoint(body(0, [], note(log_key, tree, 5)))
    assert ans.status == 200, ans.body
    text, _ = split_note(note(log_key, tree, 5))
    (sig,) = split_note(text + "\n" + ans.body)[1]
    wkey = verifier("w.example/1", public_raw(witness.key), ALG_COSIGNATURE_V1)
    assert cosignature_time(text, sig, wkey) is not None
    assert witness.vkey == wkey.vkey
    ans = witness.add_checkpoint(body(5, tree.consistency(5, 13), note(log_key, tree, 13)))
    assert ans.status == 200, ans.body
    again = Witness("w.example/1", witness.key, witness.logs, tmp_path / "state.json")
    stale = again.add_checkpoint(body(5, tree.consistency(5, 13), note(log_key, tree, 13)))
    assert (stale.status, stale.body, stale.content_type) == (409, "13\n", SIZE_TYPE)


def test_refuses_what_does_not_extend_what_it_cosigned(witness: Witness,
                                                       log_key: Ed25519PrivateKey) -> None:
    tree, other = Tree(leaves(13)), Tree(leaves(13, salt=7))
    assert witness.add_checkpoint(body(0, [], note(log_key, tree, 5))).status == 200
    # a larger tree that does not contain the cosigned one: no proof from 5 can verify
    ans = witness.add_checkpoint(body(5, other.consistency(5, 13), note(log_key, other, 13)))
    assert ans.status == 422 and "does not verify" in ans.body
    ans = witness.add_checkpoint(body(5, [], note(log_key, tree, 13)))  # proof left out
    assert ans.status == 422
    assert witness.add_checkpoint(body(5, tree.consistency(5, 13),
                                       note(log_key, tree, 13))).status == 200
    ans = witness.add_checkpoint(body(13, [], note(log_key, other, 13)))
    assert ans.status == 409 and ans.body == "13\n"  # same size, another root: a fork
    assert witness.add_checkpoint(body(13, [], note(log_key, tree, 13))).status == 200
    ans = witness.add_checkpoint(body(3, [], note(log_key, tree, 13)))
    assert ans.status == 409 and ans.body == "13\n"  # a stale old size: told the witness's
    assert witness.add_checkpoint(body(14, [], note(log_key, tree, 13))).status == 400


def test_unknown_origins_and_keys_are_refused(witness: Witness,
                                              log_key: Ed25519PrivateKey) -> None:
    tree = Tree(leaves(4))
    ans = witness.add_checkpoint(body(0, [], note(log_key, tree, 4, origin="else.example/x")))
    assert ans.status == 404
    ans = witness.add_checkpoint(body(0, [], note(log_key, tree, 4,
                                                  origin=LOG + "x/replica")))
    assert ans.status == 404  # a name sharing the log's prefix is not under it
    ans = witness.add_checkpoint(body(0, [], note(Ed25519PrivateKey.generate(), tree, 4)))
    assert ans.status == 403
    forged = note(log_key, tree, 4).replace(b64(tree.root(4)), b64(bytes(32)))
    assert witness.add_checkpoint(body(0, [], forged)).status == 403
    assert witness.add_checkpoint(b"old 00\n\n" + note(log_key, tree, 4).encode()).status == 400
    assert witness.add_checkpoint(body(0, [bytes(32)], note(log_key, tree, 4))).status == 422


def test_policy_quorum_of_groups() -> None:
    keys = {n: verifier(n, public_raw(Ed25519PrivateKey.generate()), ALG_COSIGNATURE_V1).vkey
            for n in ("a.example", "b.example", "c.example")}
    log = verifier(LOG, public_raw(Ed25519PrivateKey.generate())).vkey
    p = parse_policy(f"""# two of three
log {log} http://log.example
witness A {keys['a.example']} http://127.0.0.1:1
witness B {keys['b.example']}
\twitness C {keys['c.example']}
group two 2 A B C
quorum two
""")
    assert p.log_keys[0].name == LOG and p.witnesses["A"].url == "http://127.0.0.1:1"
    assert not p.satisfied({"A"}) and p.satisfied({"A", "C"})
    assert parse_policy("quorum none\n").satisfied(set())
    for bad, why in [("quorum X\n", "not defined above"),
                     (f"witness A {keys['a.example']}\ngroup g 2 A\nquorum g\n", "threshold"),
                     (f"witness A {keys['a.example']}\ngroup g any A A\nquorum g\n", "twice"),
                     (f"witness A {log}\nquorum A\n", "type 0x04"),
                     (f"log {keys['a.example']}\nquorum none\n", "type 0x01"),
                     ("", "no quorum line"),
                     ("quorum none\nquorum none\n", "second quorum")]:
        with pytest.raises(PolicyError, match=why):
            parse_policy(bad)


def test_the_head_publisher_gets_each_checkpoint_cosigned(tmp_path: Path) -> None:
    """GUARDIAN_AUDIT_WITNESS_POLICY: every checkpoint goes to the witnesses as it is signed,
    proven consistent from the publisher's own leaves (no database read)."""
    import threading
    import time

    from guardian.audit.heads import HeadPublisher
    from guardian.audit.rows import SealedBatch
    from guardian.audit.signing import generate
    from guardian.audit.witness import make_server
    from guardian.audit.witnessing import witnessed_size

    signer = generate(tmp_path / "k", tmp_path / "trust.json", "t")
    witness = Witness("w.example/1", Ed25519PrivateKey.generate(),
                      [verifier(LOG, signer.public_raw)], tmp_path / "w.json")
    server = make_server(witness, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    policy = parse_policy(f"log {verifier(LOG, signer.public_raw).vkey}\n"
                          f"witness W {witness.vkey} http://127.0.0.1:{server.server_port}\n"
                          "quorum W\n")
    pub = HeadPublisher("c/1", "t", signer, tmp_path / "heads", every=10**6, interval_s=3600,
                        log_name=LOG, witness_policy=policy)

    def batch(first: int, last: int) -> SealedBatch:
        b = SealedBatch("c/1", first, last)
        b.requests += [{"seq": s, "hash": f"{s:064x}"} for s in range(first, last + 1)]
        return b

    def settle(rounds: int) -> None:
        deadline = time.monotonic() + 10
        while pub._feeder is not None and pub._feeder.rounds < rounds \
                and time.monotonic() < deadline:
            time.sleep(0.02)

    try:
        settle(1)  # the size-0 head of the start
        for lo, hi, rounds in ((1, 5, 2), (6, 13, 3)):
            pub.observe(batch(lo, hi))
            pub.publish()
            settle(rounds)
            assert witnessed_size(pub.dir, policy) == hi
        assert pub._feeder is not None and pub._feeder._base.size == 13  # leaves folded away
        assert not pub._feeder._leaves
    finally:
        pub.close()
        server.shutdown()
    assert '"size": 13' in (tmp_path / "w.json").read_text()  # 5 -> 13 proven and cosigned
