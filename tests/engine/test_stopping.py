"""engine/stopping.py: incremental decoding equals whole decodes, stop strings and streamed
text included, on a byte-level BPE and a SentencePiece-style (Metaspace) tokenizer; a
tokenizer whose text is not a concatenation of its tokens' texts is decoded whole."""

from __future__ import annotations

import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast

from engine.stopping import Completion, incremental_ok
from tests.support.tiny_models import CORPUS, build_tokenizer

TEXT = ["héllo wörld 😀 — ünïcode ∑ ok\n", "def f(x):\n    return x  # ✓\n", "naïve café 東京\n"]


def metaspace_tokenizer() -> PreTrainedTokenizerFast:
    """SentencePiece's conventions: '▁' for spaces, the first token's leading space dropped
    on decode, byte fallback for characters outside the vocabulary."""
    tok = Tokenizer(models.BPE(byte_fallback=True, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first")
    tok.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(),
                                     decoders.Fuse(), decoders.Strip(" ", 1, 0)])
    byte_tokens = [f"<0x{b:02X}>" for b in range(256)]
    trainer = trainers.BpeTrainer(vocab_size=600, special_tokens=["<unk>", "</s>", *byte_tokens],
                                  show_progress=False)
    tok.train_from_iterator(CORPUS + TEXT * 5, trainer=trainer)
    return PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="</s>", unk_token="<unk>",
                                   clean_up_tokenization_spaces=False)


TOKENIZERS = {"byte-level": build_tokenizer(), "metaspace": metaspace_tokenizer()}


def _ids(tok, data) -> list[int]:
    mode = data.draw(st.sampled_from(["text", "random"]))
    if mode == "text":
        text = data.draw(st.text(alphabet=st.sampled_from(list("".join(TEXT) + " \n\t")),
                                 min_size=1, max_size=80))
        ids = tok(text, add_special_tokens=False)["input_ids"]
        return ids or [0]
    return data.draw(st.lists(st.integers(0, len(tok) - 1), min_size=1, max_size=60))


@pytest.mark.parametrize("name", list(TOKENIZERS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_incremental_text_equals_the_whole_decode_at_every_step(name, data) -> None:
    tok = TOKENIZERS[name]
    assert incremental_ok(tok)
    ids = _ids(tok, data)
    stop = data.draw(st.lists(st.sampled_from(["\n\n", "ö", "return", " x", "😀", "é"]),
                              max_size=2))
    streamed: list[str] = []
    inc = Completion(tok, set(), stop, len(ids), on_text=lambda d, _t: streamed.append(d),
                     incremental=True)
    whole_streamed: list[str] = []
    whole = Completion(tok, set(), stop, len(ids),
                       on_text=lambda d, _t: whole_streamed.append(d), incremental=False)
    at = 0
    while at < len(ids) and not inc.finished:
        n = data.draw(st.integers(1, 7))
        kept = inc.extend(ids[at:at + n], [None] * n)  # type: ignore[list-item]
        assert whole.extend(ids[at:at + n], [None] * n) == kept  # type: ignore[list-item]
        at += n
        assert inc._text == whole._text == whole._decode(inc.token_ids)
    assert inc.finish_reason == whole.finish_reason
    assert inc.text == whole.text
    assert streamed == whole_streamed
    assert "".join(streamed) == inc.text


def test_the_step_decodes_a_window_not_the_whole_completion() -> None:
    """The point of it: per step, the tokens decoded do not grow with the completion."""
    tok = TOKENIZERS["byte-level"]
    ids = tok("".join(TEXT) * 40, add_special_tokens=False)["input_ids"][:1500]
    for incremental, bound in ((True, 60), (False, None)):
        c = Completion(tok, set(), ["never"], len(ids), on_text=lambda _d, _t: None,
                       incremental=incremental)
        seen: list[int] = []
        decode = c._decode
        c._decode = lambda xs, seen=seen, decode=decode: seen.append(len(xs)) or decode(xs)
        for i in range(0, len(ids), 4):
            before = len(seen)
            c.extend(ids[i:i + 4], [None] * 4)  # type: ignore[list-item]
            step = seen[before:]
            if bound is not None and len(c.token_ids) not in (64, 128, 256, 512, 1024):
                assert max(step) <= bound, step  # a self-check step may decode everything
        total = sum(seen)
        if incremental:
            # windows, plus whole decodes at 64, 128, ..., 1024 tokens: O(T)
            assert total < 12 * len(ids)
        else:
            assert total > len(ids) ** 2 / 8  # O(T^2)
        assert c._text == decode(ids)


def test_a_tokenizer_that_cleans_up_spaces_is_decoded_whole() -> None:
    tok = metaspace_tokenizer()
    tok.clean_up_tokenization_spaces = True
    assert not incremental_ok(tok)
    assert not Completion(tok, set(), ["x"], 8)._incremental


class _Joining:
    """A tokenizer whose decode is not a concatenation: it drops a space before '.'
    across the token boundary (what cleanup does) without saying so."""

    clean_up_tokenization_spaces = False
    all_special_ids: tuple[int, ...] = ()
    pieces = ("a", " ", ".", "b", " c")

    def __len__(self) -> int:
        return len(self.pieces)

    def decode(self, ids, skip_special_tokens=True) -> str:
        return "".join(self.pieces[i] for i in ids).replace(" .", ".")


def test_a_tokenizer_that_is_not_concatenative_fails_the_check_and_is_decoded_whole() -> None:
    tok = _Joining()
    assert not incremental_ok(tok)  # type: ignore[arg-type]
    c = Completion(tok, set(), ["zz"], 20)  # type: ignore[arg-type]
    assert not c._incremental
    for t in [0, 1, 2, 3, 1, 2]:
        c.extend([t], [None])  # type: ignore[list-item]
    assert c.text == "a.b."


def test_the_self_check_catches_a_difference_and_turns_to_whole_decodes(caplog) -> None:
    """Forced incremental on a tokenizer it is wrong for: the check at 64 tokens finds the
    difference, logs it, and the completion's text is the whole decode from then on."""
    tok = _Joining()
    ids = [0, 1, 2, 3] * 40  # "a" " " "." "b": the " ." straddles step boundaries
    c = Completion(tok, set(), ["zz"], len(ids), incremental=True)  # type: ignore[arg-type]
    with caplog.at_level(logging.ERROR, logger="engine.stopping"):
        for i in range(0, len(ids), 2):
            c.extend(ids[i:i + 2], [None, None])  # type: ignore[list-item]
    assert "differs from the whole decode" in caplog.text
    assert not c._incremental
    assert c.text == tok.decode(ids)
