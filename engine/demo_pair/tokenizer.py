"""The demo pair's tokenizer: a byte-level BPE trained on the training split.

Saved as a transformers `PreTrainedTokenizerFast` so both model directories load it with
`AutoTokenizer.from_pretrained`; it carries a ChatML-style chat template so the sidecar's
`/v1/chat/completions` path has something real to render (the models themselves only ever
saw code, so chat output is code-flavoured).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
from transformers import PreTrainedTokenizerFast

logger = logging.getLogger(__name__)

EOS = "<|endoftext|>"  # also bos: documents are joined as EOS + text
PAD = "<|pad|>"
IM_START = "<|im_start|>"
IM_END = "<|im_end|>"
SPECIAL_TOKENS = [EOS, PAD, IM_START, IM_END]

CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)


def train_tokenizer(texts: Sequence[str], vocab_size: int = 4096) -> PreTrainedTokenizerFast:
    """Train a byte-level BPE (GPT-2 style pre-tokenisation) on `texts`. Deterministic."""
    tok = Tokenizer(models.BPE())
    # add_prefix_space=False: code lines start with indentation, not a word boundary.
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=2,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(texts, trainer=trainer, length=len(texts))
    logger.info("trained byte-level BPE: %d tokens", tok.get_vocab_size())
    return wrap(tok)


def wrap(tok: Tokenizer) -> PreTrainedTokenizerFast:
    """The transformers view of a trained tokenizer, with special tokens and chat template."""
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token=EOS,
        eos_token=EOS,
        pad_token=PAD,
        unk_token=None,
        additional_special_tokens=[IM_START, IM_END],
        model_max_length=1024,
        clean_up_tokenization_spaces=False,
    )
    fast.chat_template = CHAT_TEMPLATE
    return fast
