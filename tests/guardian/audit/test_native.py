"""The C sealer (guardian.audit._seal) against the pure-Python reference, on arbitrary input.

Same COPY lines, same chain hashes, same RFC 6962 leaves, same Merkle compact ranges, same
errors - for every string, int and float a trace can hold. Where the extension was not built
these tests skip, unless GUARDIAN_REQUIRE_NATIVE_SEAL=1 (CI sets it: there it must be built).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import os
import random
import struct
from datetime import UTC, datetime

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.trace import TokenTrace
from guardian.audit import merkle, native
from guardian.audit.chain import GENESIS
from guardian.audit.heads import batch_leaves, leaf_hashes
from guardian.audit.merkle import Frontier
from guardian.audit.rows import Sealer, copy_lines
from guardian.audit.testing import request_event

if native.seal_tokens is None:
    if os.environ.get("GUARDIAN_REQUIRE_NATIVE_SEAL") == "1":
        raise RuntimeError("guardian.audit._seal is not built, and this run requires it "
                           "(a C compiler and OpenSSL's headers: Debian libssl-dev)")
    pytest.skip("guardian.audit._seal not built here", allow_module_level=True)

from guardian.audit import _seal as native_seal

ORIGINS = ["accepted", "resampled", "bonus", "target", "upstream"]
ints = st.one_of(st.integers(-3, 10**6), st.integers(-(2**70), 2**70))
floats = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                   st.floats(0, 1, width=32), st.sampled_from([0.0, -0.0, 1.0, 5e-324, 1e16]))


@st.composite
def traces(draw: st.DrawFn) -> list[TokenTrace]:
    n = draw(st.integers(0, 12))
    return [TokenTrace(position=draw(ints), token_id=draw(st.integers(0, 2**40)),
                       origin=draw(st.sampled_from(ORIGINS)),
                       draft_prob=draw(st.none() | floats), target_prob=draw(floats),
                       target_margin=draw(floats), step=draw(ints), gamma=draw(ints))
            for _ in range(n)]


def _event(mode: str, request_id: str, trace: list[TokenTrace]):
    return dataclasses.replace(request_event(1, redaction=mode, request_id=request_id),  # type: ignore[arg-type]
                               trace=trace)


def _seal(ev, use_c: bool):
    sealer = Sealer("replica/é\tx", salt=b"k", copy_lines=True)
    sealer._native = use_c
    return sealer.seal([ev]), sealer.head


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trace=traces(), mode=st.sampled_from(["full", "hashed", "redacted", "none"]),
       request_id=st.text(max_size=20))
def test_c_sealer_writes_what_the_python_sealer_writes(trace, mode, request_id) -> None:
    ev = _event(mode, request_id, trace)
    (c_batch, c_head), (py_batch, py_head) = _seal(ev, True), _seal(ev, False)
    assert c_batch.token_lines == py_batch.token_lines
    assert c_head == py_head
    assert py_batch.token_leaves is None and c_batch.token_leaves is not None
    # Its leaves are RFC 6962 leaf hashes of the record hashes at the end of the lines.
    assert leaf_hashes(c_batch) == leaf_hashes(py_batch) == [
        hashlib.sha256(b"\x00" + bytes.fromhex(h)).digest() for h in batch_leaves(py_batch)]


def test_numbers_of_other_types_format_as_python_formats_them() -> None:
    t = TokenTrace(position=np.int64(3), token_id=np.int32(7), origin="accepted",  # type: ignore[arg-type]
                   draft_prob=np.float32(0.1), target_prob=np.float64(math.pi),  # type: ignore[arg-type]
                   target_margin=True, step=False, gamma=2**65)  # type: ignore[arg-type]
    ev = _event("full", "r", [t])
    (c_batch, c_head), (py_batch, py_head) = _seal(ev, True), _seal(ev, False)
    assert c_batch.token_lines == py_batch.token_lines and c_head == py_head
    line = c_batch.token_lines[0]
    assert "\t3\t7\t\\N\taccepted\t0.100000001\t3.14159265\t1\t0\t36893488147419103232\t" \
        in line


class _Sneaky:
    """An integer whose str() would end the COPY line and inject a forged one."""

    def __index__(self) -> int:
        return 5

    def __str__(self) -> str:
        return "5\n\\.\nforged"


class _Origin(str):
    def __str__(self) -> str:
        return "accepted\tX"


@pytest.mark.parametrize("use_c", [True, False])
def test_no_foreign_str_reaches_the_copy_text(use_c: bool) -> None:
    t = TokenTrace(position=_Sneaky(), token_id=1, origin="accepted", draft_prob=None,  # type: ignore[arg-type]
                   target_prob=0.5, target_margin=1.0, step=_Sneaky(), gamma=_Sneaky())  # type: ignore[arg-type]
    batch, _ = _seal(_event("full", "r", [t]), use_c)
    (line,) = batch.token_lines
    assert line.count("\n") == 1 and "forged" not in line and "\t5\t1\t\\N\taccepted\t" in line
    # An origin that is not exactly one of the names (a subclass could print anything).
    bad = dataclasses.replace(t, origin=_Origin("accepted"))
    with pytest.raises(ValueError, match="unknown token origin"):
        _seal(_event("full", "r", [bad]), use_c)
    # A position that is no integer at all.
    with pytest.raises(TypeError):
        _seal(_event("full", "r", [dataclasses.replace(t, position="5")]), use_c)


@pytest.mark.parametrize("bad, exc", [({"origin": "forged"}, ValueError),
                                      ({"target_prob": None}, TypeError),
                                      ({"target_margin": "1.0"}, TypeError),
                                      ({"token_id": None}, TypeError)])
def test_bad_trace_values_fail_alike_and_leave_the_chain_where_it_was(bad, exc) -> None:
    good = TokenTrace(0, 1, "accepted", 0.5, 0.5, 1.0, 0, 4)
    bad_t = dataclasses.replace(good, **bad)
    for use_c in (True, False):
        sealer = Sealer("c/1", salt=b"k", copy_lines=True)
        sealer._native = use_c
        with pytest.raises(exc):
            sealer.seal([_event("full", "r", [good, bad_t])])
        # The request row was chained before the tokens failed; the tokens were not.
        assert sealer.head[0] == 1


@settings(max_examples=100, deadline=None)
@given(start=st.integers(0, 300), n=st.integers(0, 300))
def test_c_merkle_extend_is_the_python_frontier(start: int, n: int) -> None:
    leaves = [hashlib.sha256(i.to_bytes(4, "big")).digest() for i in range(start + n)]
    c = Frontier()
    c.extend(leaves[:start])
    c.extend(leaves[start:])
    saved, merkle.merkle_extend = merkle.merkle_extend, None
    try:
        py = Frontier()
        for leaf in leaves:
            py.append(leaf)
        py2 = Frontier()
        py2.extend(leaves)
    finally:
        merkle.merkle_extend = saved
    assert (c.size, c.peaks) == (py.size, py.peaks) == (py2.size, py2.peaks)
    assert c.root() == py.root()


def test_c_merkle_extend_rejects_what_is_not_a_leaf_hash_and_changes_nothing() -> None:
    f = Frontier()
    f.extend([bytes([i]) * 32 for i in range(5)])
    before = (f.size, list(f.peaks))
    with pytest.raises(ValueError):
        f.extend([bytes(32), bytes(32), b"short"])  # the bad leaf comes after two good ones
    assert (f.size, f.peaks) == before
    assert native.merkle_extend is not None
    with pytest.raises(ValueError):
        native.merkle_extend([], 1, [bytes(32)])  # size 1 needs one peak
    with pytest.raises(ValueError):
        native.merkle_extend([b"x"], 1, [bytes(32)])  # a peak is a 32-byte hash
    with pytest.raises(TypeError):
        native.merkle_extend([], 0, None)


def test_seal_tokens_argument_checks() -> None:
    assert native.seal_tokens is not None
    t = [TokenTrace(0, 1, "accepted", 0.5, 0.5, 1.0, 0, 4)]
    with pytest.raises(ValueError):
        native.seal_tokens("p\t", 1, "abc", t, 1, None)  # prev is not a hash
    with pytest.raises(ValueError):
        native.seal_tokens("p\t", 1, GENESIS, t, 2, [])  # one token hash per token
    with pytest.raises(ValueError):
        native.seal_tokens("p\t", 1, GENESIS, t, 7, None)
    with pytest.raises(UnicodeEncodeError):
        native.seal_tokens("\ud800\t", 1, GENESIS, t, 1, None)
    text, leaves, prev, seq = native.seal_tokens("p\t", 41, GENESIS, t * 2, 1, None)
    first, second = copy_lines([text])
    assert seq == 43 and first.startswith("p\t41\t0\t1\t\\N\taccepted\t0.5\t0.5\t1\t0\t4\t")
    assert second.startswith("p\t42\t") and second.endswith(f"\t{prev}\n")
    assert first.endswith(f"\t{GENESIS}\t{second[-130:-66]}\n") and len(leaves) == 2
    assert native.seal_tokens("p\t", 1, GENESIS, [], 1, None) == ("", [], GENESIS, 1)


# Floats the exact-integer path must round as Python does: halfway cases at 9 significant
# digits (exactly representable), powers of ten and their neighbours, the edges of its range
# (1e-19 .. 1e9) and of the fixed / exponent notation (1e-5, 1e-4, 1e8), and what it hands to
# dtoa (zero, -0.0, subnormals, inf, nan, huge).
_EDGES = [0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1e-5, 9.9999999995e-5, 1e-4, 123456788.5, 123456789.5,
          999999999.5, 999999999.4, 99999999.95, 1e8, 1e9, 1e-19, 9.99999999e-20, 1e-20,
          12345678.25, 12345678.75, 0.30000000000000004, 5e-324, 2.2250738585072014e-308,
          1.7976931348623157e308, math.inf, -math.inf, math.nan, 0.999999999499999, 0.9999999995]


@settings(max_examples=3000, deadline=None)
@given(x=st.one_of(st.floats(), st.floats(min_value=1e-20, max_value=1e10),
                   st.sampled_from(_EDGES),
                   st.integers(10**8, 10**9).map(lambda n: (n + 0.5) / 2**10)))
def test_the_c_float_format_is_pythons(x: float) -> None:
    assert native_seal.format_g9(x) == format(x, ".9g")
    assert native_seal.format_g9(-x) == format(-x, ".9g")


def test_the_c_float_format_on_a_million_random_doubles() -> None:
    """Random bit patterns and random probabilities: every one formats as Python does."""
    rnd = random.Random(7)
    bits = struct.unpack(f"{200_000}d", rnd.randbytes(8 * 200_000))
    probs = [rnd.random() ** rnd.randint(1, 40) for _ in range(400_000)]
    halves = [(rnd.randint(10**8, 10**9 - 1) + 0.5) / 10 ** rnd.randint(0, 19)
              for _ in range(400_000)]
    bad = [x for x in (*bits, *probs, *halves) if native_seal.format_g9(x) != format(x, ".9g")]
    assert bad == []


def test_a_batch_made_by_the_c_sealer_survives_the_writer_paths() -> None:
    """Merged, split and spooled batches keep (or drop, then recompute) the leaves right."""
    from guardian.audit.rows import SealedBatch
    from guardian.audit.writer import _merge

    sealer = Sealer("c/1", salt=b"k", copy_lines=True)
    created = datetime.now(UTC)
    parts = [sealer.seal([request_event(5, request_id=f"r{i}", created_at=created)])
             for i in range(3)]
    merged = _merge(parts)
    assert merged is not None and merged.token_leaves is not None
    reference = [hashlib.sha256(b"\x00" + bytes.fromhex(h)).digest()
                 for h in batch_leaves(merged)]
    assert leaf_hashes(merged) == reference
    round_trip = SealedBatch.from_json(merged.to_json())
    assert round_trip.token_leaves is None and leaf_hashes(round_trip) == reference
    assert [leaf for p in merged.split() for leaf in leaf_hashes(p)] == reference


def test_a_batch_holding_one_line_per_item_reads_the_same() -> None:
    """A spool written before the sealer kept one text per trace holds one COPY line per
    item: replayed, it splits and hashes exactly as the batch it was sealed as."""
    from guardian.audit.rows import SealedBatch

    sealer = Sealer("c/1", salt=b"k", copy_lines=True)
    batch = sealer.seal([request_event(4, request_id=f"r{i}") for i in range(3)])
    assert len(batch.token_lines) == 3  # one text per trace
    old = SealedBatch.from_json(batch.to_json())
    old.token_lines = list(copy_lines(batch.token_lines))
    assert len(old.token_lines) == 12
    assert leaf_hashes(old) == leaf_hashes(batch) and batch_leaves(old) == batch_leaves(batch)
    assert [list(copy_lines(p.token_lines)) for p in old.split()] == \
        [list(copy_lines(p.token_lines)) for p in batch.split()]


def test_long_traces_with_floats_only_dtoa_formats_match_python() -> None:
    """The C loop formats lines with the GIL released and goes back for the floats only
    CPython's dtoa formats (subnormal, inf, nan, out of its exact range): rows past such a
    float - and past an int beyond 64 bits - are still the Python loop's, byte for byte."""
    odd = {13: 5e-324, 20: math.inf, 21: -math.nan, 35: 1e300, 36: 1e-30, 50: -0.0}
    trace = [TokenTrace(position=i, token_id=2**70 if i == 30 else i, origin="accepted",
                        draft_prob=odd.get(i, 0.25 + i / 1000), target_prob=0.5,
                        target_margin=odd.get(i + 1, 1.5), step=i // 4, gamma=4)
             for i in range(64)]
    for mode in ("full", "hashed", "none"):
        ev = _event(mode, "r", trace)
        (c_batch, c_head), (py_batch, py_head) = _seal(ev, True), _seal(ev, False)
        assert c_batch.token_lines == py_batch.token_lines and c_head == py_head
        assert leaf_hashes(c_batch) == leaf_hashes(py_batch)
