"""KV-cache rollback, position ids and left-padding masks on a tiny model."""

from __future__ import annotations

import torch

from engine.batch import Batch, DecodeRequest, forward
from engine.kv import cache_length, crop_to, new_cache, position_ids, with_cache
from engine.sampling import SamplingParams

TOL = dict(atol=1e-4, rtol=1e-4)


def _full_logits(model, ids: torch.Tensor) -> torch.Tensor:
    return model(input_ids=ids, use_cache=False).logits


@torch.inference_mode()
def test_crop_keeps_exactly_the_accepted_prefix(llama_pair):
    model = llama_pair.target
    ids = torch.randint(5, 300, (1, 12), generator=torch.Generator().manual_seed(0))
    cache = new_cache()
    model(input_ids=ids[:, :8], **with_cache(model, cache), use_cache=True)
    model(input_ids=ids[:, 8:], **with_cache(model, cache), use_cache=True)  # a "draft block"
    assert cache_length(cache) == 12
    crop_to(cache, 9)  # accepted one of four
    assert cache_length(cache) == 9
    crop_to(cache, 11)  # never grows
    assert cache_length(cache) == 9


@torch.inference_mode()
def test_rollback_then_continue_equals_a_fresh_forward(llama_pair):
    """Feed a rejected block, roll back, feed the real continuation: logits must equal a
    single forward over the real sequence (no stale key/value survives the crop)."""
    model = llama_pair.target
    gen = torch.Generator().manual_seed(1)
    prefix = torch.randint(5, 300, (1, 7), generator=gen)
    rejected = torch.randint(5, 300, (1, 5), generator=gen)
    real = torch.randint(5, 300, (1, 4), generator=gen)
    cache = new_cache()
    model(input_ids=prefix, **with_cache(model, cache), use_cache=True)
    model(input_ids=torch.cat([real[:, :1], rejected], dim=1), **with_cache(model, cache),
          use_cache=True)
    crop_to(cache, 8)  # keep prefix + the first (accepted) token
    cont = model(input_ids=real[:, 1:], **with_cache(model, cache), use_cache=True).logits
    fresh = _full_logits(model, torch.cat([prefix, real], dim=1))[:, 8:]
    assert torch.allclose(cont, fresh, **TOL)


def test_position_ids_skip_left_padding():
    pad = torch.tensor([[0], [3]])
    assert position_ids(3, 4, pad).tolist() == [[3, 4, 5, 6], [0, 1, 2, 3]]
    assert position_ids(0, 4, pad).tolist() == [[0, 1, 2, 3], [0, 0, 0, 0]]
    assert position_ids(5, 2, None).tolist() == [[5, 6]]


@torch.inference_mode()
def test_left_padded_rows_match_the_prompt_alone(llama_pair):
    """Prefill + two incremental steps on a padded batch give each row the logits it gets
    alone, at every step."""
    pair = llama_pair
    prompts = [[11, 12, 13, 14, 15, 16, 17], [21, 22, 23], [31]]
    req = DecodeRequest(prompts=prompts, params=SamplingParams(), max_new_tokens=4, stop=[])
    batch = Batch(pair, req, extra_columns=8)
    assert batch.mask(7).tolist()[1] == [0, 0, 0, 0, 1, 1, 1]
    cache = new_cache()
    logits = [forward(pair.target, batch.tokens, cache, 0, batch, last_only=True)[:, -1]]
    steps = torch.tensor([[40, 41], [50, 51], [60, 61]])
    logits.append(forward(pair.target, steps[:, :1], cache, 7, batch)[:, -1])
    # A two-token step, as a verify forward would be.
    two = forward(pair.target, torch.tensor([[42, 43], [52, 53], [62, 63]]), cache, 8, batch)
    for row, prompt in enumerate(prompts):
        fed = [*prompt, steps[row, 0].item(), 40 + 10 * row + 2, 40 + 10 * row + 3]
        alone = _full_logits(pair.target, torch.tensor([fed]))
        n = len(prompt)
        assert torch.allclose(logits[0][row], alone[0, n - 1], **TOL)
        assert torch.allclose(logits[1][row], alone[0, n], **TOL)
        assert torch.allclose(two[row], alone[0, n + 1:n + 3], **TOL)


def test_the_cache_goes_by_the_name_the_forward_takes() -> None:
    """transformers 5.2x renamed the forward's `past_key_values` to `cache` (warning on the
    old name, dropping it in 5.40); before, only `past_key_values` existed. The name comes
    from the model class's own signature."""
    from engine.kv import with_cache

    class Old:
        def forward(self, input_ids=None, past_key_values=None, use_cache=None): ...

    class New:
        def forward(self, input_ids=None, cache=None, use_cache=None): ...

    class Opaque:
        forward = staticmethod(len)  # no inspectable signature: the old name

    def wrapper(**kwargs):  # a callable standing in for a model (fault injection does)
        return kwargs

    cache = new_cache()
    assert with_cache(wrapper, cache) == {"past_key_values": cache}
    assert with_cache(Old(), cache) == {"past_key_values": cache}
    assert with_cache(New(), cache) == {"cache": cache}
    assert list(with_cache(Opaque(), cache)) in (["past_key_values"], ["cache"])


def test_decoding_raises_no_cache_deprecation_warning(close_pair, recwarn) -> None:
    from engine import generate

    generate(close_pair, "hello", speculative=True, max_new_tokens=4)
    assert not [w for w in recwarn if "past_key_values" in str(w.message)]
