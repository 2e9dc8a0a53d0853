"""engine/stopping.py against byte-fallback tokenizers (SentencePiece's <0xNN> tokens, whose
runs the ByteFallback decoder turns into text all at once, or into one U+FFFD per byte when
a run is not valid UTF-8) and decoders that join text across tokens: incremental text equals
whole decodes, a block of tokens ends where one-at-a-time decoding would, and streamed text
is never taken back."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast

from engine.stopping import Completion, incremental_ok
from tests.support.tiny_models import CORPUS

WORDS = ["a", "b", "é", "hello", "ab", "\n", ".", "x", "😀"]


def byte_fallback_tokenizer(metaspace: bool = False) -> PreTrainedTokenizerFast:
    """Llama's conventions, byte tokens in the vocabulary (not special, as in Llama/Mistral)."""
    vocab = {"<unk>": 0, "<s>": 1, "</s>": 2}
    for b in range(256):
        vocab[f"<0x{b:02X}>"] = len(vocab)
    for w in [*WORDS, *("▁" + w for w in WORDS), "▁", "▁▁"]:
        vocab.setdefault(w, len(vocab))
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[], byte_fallback=True, unk_token="<unk>"))
    if metaspace:
        tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first")
        tok.decoder = decoders.Sequence([decoders.Metaspace(replacement="▁", prepend_scheme="first"),
                                         decoders.ByteFallback(), decoders.Fuse()])
    else:
        tok.normalizer = normalizers.Sequence([normalizers.Prepend("▁"),
                                               normalizers.Replace(" ", "▁")])
        tok.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(),
                                         decoders.Fuse(), decoders.Strip(" ", 1, 0)])
    tok.add_special_tokens(["<unk>", "<s>", "</s>"])
    return PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<s>", eos_token="</s>",
                                   unk_token="<unk>", clean_up_tokenization_spaces=False)


TOK = byte_fallback_tokenizer()


def ids(*pieces: str | int) -> list[int]:
    """Token ids: a str is a token, an int is that byte's <0xNN> token."""
    return [TOK.convert_tokens_to_ids(p if isinstance(p, str) else f"<0x{p:02X}>")
            for p in pieces]


def run(tokens: list[int], blocks: list[int], stop: list[str] = (), incremental: bool = True,
        tok: PreTrainedTokenizerFast = TOK, eos: set[int] = frozenset()):
    streamed: list[str] = []
    c = Completion(tok, set(eos), list(stop), len(tokens),
                   on_text=lambda d, _t: streamed.append(d), incremental=incremental)
    at = i = 0
    kept = []
    while at < len(tokens) and not c.finished:
        n = blocks[i % len(blocks)]
        kept.append(c.extend(tokens[at:at + n], [None] * n))  # type: ignore[list-item]
        at, i = at + n, i + 1
    return c, kept, streamed


def test_the_anchor_never_splits_a_run_of_byte_tokens() -> None:
    """<0xC3><0xA9> is "é", but <0xC3><0xA9><0xA9> decodes to three U+FFFD: an anchor after
    the first two had kept "é" (incremental "helloé\ufffd hello", whole "hello\ufffd\ufffd\ufffd hello")."""
    tokens = ids("▁hello", 0xC3, 0xA9, 0xA9, "▁hello")
    whole = TOK.decode(tokens, skip_special_tokens=True)
    assert whole == "hello\ufffd\ufffd\ufffd hello"
    for blocks in ([2, 1, 2], [1], [3, 2], [2, 1, 1, 1]):
        c, _, _ = run(tokens, blocks)
        assert c.text == whole, blocks
    # Skipped specials inside the run do not end it: "A" + <0xFF> is two U+FFFD.
    tokens = ids("▁hello", 0x41, "</s>", 0xFF, "a")
    c, _, _ = run(tokens, [3, 2])
    assert c.text == TOK.decode(tokens, skip_special_tokens=True) == "hello\ufffd\ufffda"


@pytest.mark.parametrize("incremental", [True, False])
def test_the_text_of_a_run_of_byte_tokens_is_not_streamed_until_the_run_ends(incremental) -> None:
    """"é" streamed after <0xC3><0xA9> would have to be taken back when <0xA9> follows."""
    tokens = ids("▁hello", 0xC3, 0xA9, 0xA9, "▁x")
    c, _, streamed = run(tokens, [1], incremental=incremental)
    assert streamed == ["hello", "", "", "", "\ufffd\ufffd\ufffd x"]
    assert "".join(streamed) == c.text
    # Finished inside a run: all of it is released.
    c, _, streamed = run(ids("▁hello", 0xC3, 0xA9), [1], incremental=incremental)
    assert "".join(streamed) == c.text == "helloé"


@pytest.mark.parametrize("incremental", [True, False])
def test_a_stop_string_completed_by_a_byte_that_shortens_the_text(incremental) -> None:
    """"x" + <0xF0><0x9F><0x98> is "x" and three U+FFFD; <0x80> makes it "x😀", shorter than
    the text before it: the stop string was searched for only from 3 characters on, found one
    token late, and "😀" streamed."""
    tokens = ids("▁hello", 0xF0, 0x9F, 0x98, 0x80, "▁hello")
    for blocks in ([1], [2, 3], [5]):
        c, _, streamed = run(tokens, blocks, ["😀"], incremental=incremental)
        assert (c.text, len(c.token_ids), c.finish_reason) == ("hello", 5, "stop"), blocks
        assert "".join(streamed) == "hello"


@pytest.mark.parametrize("incremental", [True, False])
def test_a_stop_string_in_a_shorter_prefix_ends_a_block_there(incremental) -> None:
    """One at a time, <0xC3><0xA9> completes "é" and ends the completion; in one block the
    block's own text has three U+FFFD instead, so the block's prefixes must be looked at."""
    tokens = ids("▁hello", 0xC3, 0xA9, 0xA9, "▁x")
    for blocks in ([1], [5], [2, 3], [1, 4]):
        c, _, streamed = run(tokens, blocks, ["é"], incremental=incremental)
        assert (c.text, len(c.token_ids), c.finish_reason) == ("hello", 3, "stop"), blocks
        assert "".join(streamed) == "hello"
    # A stop string with U+FFFD (an incomplete character) likewise.
    tokens = ids("▁hello", 0xE2, 0x82, 0xAC, "▁x")  # "€"
    for blocks in ([1], [5]):
        c, _, _ = run(tokens, blocks, ["\ufffd"], incremental=incremental)
        assert (c.text, len(c.token_ids)) == ("hello", 2), blocks


@pytest.mark.parametrize("metaspace", [False, True])
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_byte_fallback_incremental_equals_whole_and_one_at_a_time(metaspace, data) -> None:
    tok = TOK if not metaspace else _METASPACE
    pool = list(range(len(tok)))
    tokens = data.draw(st.lists(st.one_of(st.sampled_from(pool[3:3 + 256]), st.sampled_from(pool)),
                                min_size=1, max_size=30))
    blocks = data.draw(st.lists(st.integers(1, 5), min_size=1, max_size=8))
    stop = data.draw(st.lists(st.sampled_from(["é", "\ufffd", "😀", " a", "x\ufffd", "\n"]),
                              max_size=2))
    eos = data.draw(st.sampled_from([set(), {2}]))
    inc, inc_kept, inc_streamed = run(tokens, blocks, stop, True, tok, eos)
    whole, whole_kept, whole_streamed = run(tokens, blocks, stop, False, tok, eos)
    one, _, one_streamed = run(tokens, [1], stop, False, tok, eos)
    assert inc_kept == whole_kept
    assert inc._text == whole._text
    assert inc_streamed == whole_streamed
    assert (inc.text, inc.finish_reason, inc.token_ids) == (whole.text, whole.finish_reason,
                                                            whole.token_ids)
    assert (inc.text, inc.finish_reason, inc.token_ids) == (one.text, one.finish_reason,
                                                            one.token_ids)
    for streamed, c in ((inc_streamed, inc), (one_streamed, one)):
        assert "".join(streamed) == c.text


_METASPACE = byte_fallback_tokenizer(metaspace=True)


def _byte_level(decoder) -> PreTrainedTokenizerFast:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoder
    trainer = trainers.BpeTrainer(vocab_size=300, special_tokens=["</s>"], show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(CORPUS, trainer=trainer)
    return PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="</s>",
                                   clean_up_tokenization_spaces=False)


def test_a_decoder_that_replaces_across_tokens_is_refused() -> None:
    """A Replace of more than one character after the texts are fused ("  " -> "_") matches
    across tokens, as does CTC's merging of repeats: the randomized check passed the first."""
    joined = _byte_level(decoders.Sequence([decoders.ByteLevel(), decoders.Fuse(),
                                            decoders.Replace("  ", "_")]))
    assert not incremental_ok(joined)
    assert not incremental_ok(_byte_level(decoders.Sequence([decoders.ByteLevel(),
                                                             decoders.CTC()])))
    # Per token (before any fusing) or of one character, a Replace is harmless.
    assert incremental_ok(_byte_level(decoders.Sequence([decoders.ByteLevel(),
                                                         decoders.Replace("e", "E")])))
    assert incremental_ok(TOK)


def test_a_tokenizer_whose_decode_panics_is_refused_not_raised() -> None:
    """tokenizers' Strip with a right count panics (pyo3's PanicException, a BaseException) on
    an empty text, which a window of special tokens is."""
    tok = _byte_level(decoders.Sequence([decoders.ByteLevel(), decoders.Strip(" ", 0, 1)]))
    assert not incremental_ok(tok)
