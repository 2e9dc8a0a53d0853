"""engine.attention: cuDNN attention off for decoding on CUDA, nothing touched elsewhere."""

from __future__ import annotations

import pytest
import torch

from engine.attention import avoid_per_shape_attention


@pytest.fixture
def cudnn_flag():
    before = torch.backends.cuda.cudnn_sdp_enabled()
    yield
    torch.backends.cuda.enable_cudnn_sdp(before)


def test_cpu_leaves_the_flag_alone(cudnn_flag) -> None:
    torch.backends.cuda.enable_cudnn_sdp(True)
    assert avoid_per_shape_attention(torch.device("cpu")) is False
    assert torch.backends.cuda.cudnn_sdp_enabled()


def test_cuda_turns_cudnn_attention_off_once(cudnn_flag) -> None:
    torch.backends.cuda.enable_cudnn_sdp(True)
    assert avoid_per_shape_attention(torch.device("cuda")) is True
    assert not torch.backends.cuda.cudnn_sdp_enabled()
    assert avoid_per_shape_attention(torch.device("cuda")) is False  # already off
    # the other kernels stay as they were
    assert torch.backends.cuda.flash_sdp_enabled() and torch.backends.cuda.mem_efficient_sdp_enabled()
