"""Review probes of the sealer change (one COPY text per trace, g9_fast, GIL-free chain(),
esc() fast path). Each test here failed on the code under review (afccb0e..9c974a9)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from enum import Enum
from pathlib import Path

import pytest

from guardian.audit import chain, native
from guardian.audit.chain import esc
from guardian.audit.heads import leaf_hashes
from guardian.audit.rows import TOKEN_COLUMNS, Sealer, copy_lines
from guardian.audit.testing import request_event

ROOT = Path(__file__).resolve().parents[3]


class _Rid(str, Enum):  # noqa: UP042 - the (str, Enum) mixin is the point
    """A str-mixin Enum: in Python 3.11+ format()/f-strings give 'Rid.A', its data is 'req-1'."""

    A = "req-1"


class _Forging(str):
    """A str whose format() (what an f-string calls) would inject a COPY line."""

    def __format__(self, spec: str) -> str:
        return "r\t1\n\\.\nforged"


@pytest.mark.parametrize("s", [_Rid.A, _Forging("r")])
def test_esc_returns_an_exact_str_as_translate_did(s: str) -> None:
    # Before the fast path, esc() was s.translate(_ESC): always an exact str, so the
    # f-string of the token prefix (rows.Sealer._tokens) used the string's data. The fast
    # path hands a subclass back as is, and the f-string calls its __format__.
    assert type(esc(s)) is str
    assert f"{esc(s)}" == s.translate(chain._ESC)


def _copy_sealer(use_c: bool) -> Sealer:
    """A Postgres (COPY-line) sealer running the C loop or the Python one."""
    if use_c and native.seal_tokens is None:
        pytest.skip("guardian.audit._seal not built")
    sealer = Sealer("c/1", salt=b"k", copy_lines=True)
    sealer._native = use_c
    return sealer


@pytest.mark.parametrize("use_c", [True, False])
def test_token_lines_name_the_request_id_the_request_row_holds(use_c: bool) -> None:
    sealer = _copy_sealer(use_c)
    batch = sealer.seal([request_event(3, redaction="full", request_id=_Rid.A)])
    lines = list(copy_lines(batch.token_lines))
    assert len(lines) == 3
    # The request row's canonical/stored value is the string's data ("req-1"); its tokens
    # must carry the same request id, or they are orphaned from their request.
    assert {line.split("\t")[1] for line in lines} == {"req-1"}


def test_sqlite_token_rows_verify_with_a_str_enum_request_id() -> None:
    sealer = Sealer("c/1", salt=b"k", copy_lines=False)
    batch = sealer.seal([request_event(2, redaction="full", request_id=_Rid.A)])
    for t in batch.token_rows:
        row = dict(zip(TOKEN_COLUMNS, t, strict=True))
        row["request_id"] = str.__str__(row["request_id"])  # what SQLite stores and returns
        assert chain.link(row["prev_hash"], "audit_tokens", chain.token_line(row)) == row["hash"]


@pytest.mark.parametrize("use_c", [True, False])
def test_a_str_subclass_request_id_cannot_inject_copy_lines(use_c: bool) -> None:
    sealer = _copy_sealer(use_c)
    batch = sealer.seal([request_event(2, redaction="none", request_id=_Forging("r"))])
    text = "".join(batch.token_lines)
    assert text.count("\n") == 2 and "forged" not in text
    assert len(leaf_hashes(batch)) == batch.n_rows


_NULL_LIST_PROBE = textwrap.dedent("""
    import gc, sys
    from types import SimpleNamespace
    from guardian.audit._seal import seal_tokens

    class Probe:
        # A __float__ (or any other thread while chain() runs without the GIL) walking the
        # heap finds seal_tokens' leaves list while its slots are still NULL.
        def __float__(self):
            for o in gc.get_objects():
                if type(o) is list and len(o) == 3 and "<NULL>" in repr(o):
                    o[0]  # a NULL item: segfault
            return 0.5

    tr = [SimpleNamespace(origin="accepted", token_id=1, position=i, step=0, gamma=0,
                          draft_prob=None, target_prob=Probe(), target_margin=0.1)
          for i in range(3)]
    seal_tokens("c\\tr\\tts\\tserved\\t", 1, "0" * 64, tr, 0, None)
    print("ok")
""")


def test_seal_tokens_exposes_no_list_with_null_items() -> None:
    if native.seal_tokens is None:
        pytest.skip("guardian.audit._seal not built")
    proc = subprocess.run([sys.executable, "-c", _NULL_LIST_PROBE], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", (proc.returncode, proc.stderr)


def test_out_of_memory_on_a_separator_raises_memoryerror_not_a_result() -> None:
    """buf_put of the tab after draft_prob / target_prob / target_margin failing left rc at 0:
    the loop went on and seal_tokens returned a value with MemoryError set (SystemError)."""
    if native.seal_tokens is None:
        pytest.skip("guardian.audit._seal not built")
    _testcapi = pytest.importorskip("_testcapi")
    from types import SimpleNamespace

    from guardian.audit import _seal

    # 490 bytes of prefix: the line reaches exactly 512 bytes (the buffer's first size)
    # just before the tab after draft_prob, so that tab is the put that must grow it.
    prefix = "c" * (490 - len("\tr\tts\tserved\t")) + "\tr\tts\tserved\t"
    trace = [SimpleNamespace(origin="accepted", token_id=1, position=0, step=0, gamma=0,
                             draft_prob=0.5, target_prob=0.25, target_margin=0.1)]
    ref = _seal.seal_tokens(prefix, 1, "0" * 64, trace, 0, None)
    outcomes = []
    for start in range(40):  # fail exactly one allocation, each in turn
        _testcapi.set_nomemory(start, start + 1)
        try:
            got = _seal.seal_tokens(prefix, 1, "0" * 64, trace, 0, None)
            outcome = "ok" if got == ref else "different"
        except MemoryError:
            outcome = "MemoryError"
        except BaseException as exc:
            outcome = f"{type(exc).__name__}: {exc}"
        finally:
            _testcapi.remove_mem_hooks()
        outcomes.append(outcome)
    assert set(outcomes) <= {"ok", "MemoryError"}, outcomes

