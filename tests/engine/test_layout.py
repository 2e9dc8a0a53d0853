"""Column-major CPU weights (engine.layout): same values, same tokens, ties kept."""

from __future__ import annotations

import pytest
import torch
from transformers import AutoModelForCausalLM

from engine import generate, load_pair
from engine.layout import column_major_linears, is_column_major
from tests.support.tiny_models import PROMPTS


def test_column_major_keeps_values_ties_and_is_idempotent(model_dirs):
    model = AutoModelForCausalLM.from_pretrained(model_dirs("llama-target")).eval()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    tied = model.lm_head.weight is model.model.embed_tokens.weight
    changed = column_major_linears(model)
    assert changed > 0
    assert all(is_column_major(m.weight) for m in model.modules()
               if isinstance(m, torch.nn.Linear))
    for name, value in model.state_dict().items():
        assert torch.equal(value, before[name]), name
    assert (model.lm_head.weight is model.model.embed_tokens.weight) == tied
    assert column_major_linears(model) == 0  # already laid out: nothing to do


def test_non_float32_weights_are_left_alone():
    layer = torch.nn.Linear(8, 4).to(torch.bfloat16)
    assert column_major_linears(layer) == 0
    assert layer.weight.is_contiguous()


@pytest.mark.parametrize("arch", ["llama", "gpt2"])
def test_layout_changes_no_token(model_dirs, arch):
    """Greedy output of the column-major pair == row-major pair == untouched transformers."""
    draft, target = model_dirs(f"{arch}-draft"), model_dirs(f"{arch}-target")
    column = load_pair(draft, target, device="cpu")
    row = load_pair(draft, target, device="cpu", weight_layout="row")
    assert is_column_major(next(m for m in column.target.modules()
                                if isinstance(m, torch.nn.Linear)).weight)
    assert not any(is_column_major(m.weight) for m in row.target.modules()
                   if isinstance(m, torch.nn.Linear))
    plain = AutoModelForCausalLM.from_pretrained(target).eval()
    for prompt in PROMPTS[:6]:
        ids = column.tokenizer(prompt, return_tensors="pt")["input_ids"]
        hf = plain.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False,
                            max_new_tokens=20, eos_token_id=sorted(column.eos_token_ids),
                            pad_token_id=column.pad_token_id)[0, ids.shape[1]:].tolist()
        for pair in (column, row):
            spec = generate(pair, prompt, speculative=True, max_new_tokens=20, gamma=4)
            assert spec.token_ids == hf, (arch, prompt)


def test_unknown_layout_is_refused(model_dirs):
    with pytest.raises(ValueError, match="weight_layout must be one of"):
        load_pair(model_dirs("llama-draft"), model_dirs("llama-target"), weight_layout="diag")
