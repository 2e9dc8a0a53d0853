"""process_logits / sample stay finite for every temperature > 0 and top_p > 0 the API accepts
(the reported 500s: temperature 5e-324, top_p 1e-300 -> "probability tensor contains inf/nan")."""

from __future__ import annotations

import pytest
import torch

from engine.sampling import SamplingParams, process_logits, sample

LOGITS = torch.tensor([[1.0, 3.0, 2.0, -1.0, 3.0 - 1e-3], [0.5, -2.0, 4.0, 4.0, 1.0]])


@pytest.mark.parametrize("temperature", [5e-324, 1e-300, 1e-45, 1e-30, 1e-8, 1e-4])
def test_tiny_temperatures_give_the_argmax_limit(temperature: float) -> None:
    probs = process_logits(LOGITS, SamplingParams(temperature=temperature))
    assert torch.isfinite(probs).all()
    assert torch.allclose(probs.sum(-1), torch.ones(2))
    assert probs[0].argmax() == 1 and probs[0, 1] > 0.99
    # an exact tie shares the mass, as the t -> 0 limit of the softmax does
    assert torch.allclose(probs[1, 2:4], torch.tensor([0.5, 0.5]))
    gen = torch.Generator().manual_seed(0)
    assert sample(probs, gen)[0] == 1


@pytest.mark.parametrize("top_p", [1e-300, 1e-45, 1e-9])
def test_tiny_top_p_keeps_the_top_token(top_p: float) -> None:
    probs = process_logits(LOGITS, SamplingParams(temperature=1.0, top_p=top_p))
    assert torch.isfinite(probs).all()
    assert probs[0, 1] == 1.0 or probs[0, 4] == 1.0  # one of the (near-)tied top tokens
    assert probs.sum(-1).tolist() == [1.0, 1.0]
    sample(probs, torch.Generator().manual_seed(0))  # no "inf/nan" error


@pytest.mark.parametrize("temperature", [1e-3, 0.7, 1.0, 2.0])
def test_ordinary_temperatures_compute_exactly_as_before(temperature: float) -> None:
    logits = torch.randn(3, 50, generator=torch.Generator().manual_seed(1)) * 5
    expected = torch.softmax(logits / temperature, dim=-1)
    assert torch.equal(process_logits(logits, SamplingParams(temperature=temperature)), expected)


def test_sample_never_feeds_nan_inf_or_empty_rows_to_multinomial() -> None:
    bad = torch.tensor([[float("nan"), 0.2, 0.1], [0.0, 0.0, 0.0], [float("inf"), 1.0, -1.0],
                        [0.1, 0.7, 0.2]])
    tokens = sample(bad, torch.Generator().manual_seed(0))
    assert tokens.shape == (4,)
    assert tokens[0] in (1, 2) and tokens[2] == 1  # only the valid mass is drawn from
    good = torch.softmax(torch.randn(64, 100, generator=torch.Generator().manual_seed(2)), -1)
    a = sample(good, torch.Generator().manual_seed(3))
    b = torch.multinomial(good, 1, generator=torch.Generator().manual_seed(3)).view(64)
    assert torch.equal(a, b)  # valid rows: the same draws as before
