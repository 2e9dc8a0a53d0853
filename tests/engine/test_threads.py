"""engine.threads: on the CPU, the intra-op thread count is chosen by timing a decode forward;
one thread unless the pool is clearly faster; nothing changes on other devices or when the
operator set a count."""

from __future__ import annotations

import pytest
import torch

from engine import threads


@pytest.fixture
def restore_threads():
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


def test_decode_forward_is_timed_on_the_real_pair(llama_pair, restore_threads) -> None:
    ms = threads.decode_forward_ms(llama_pair, n=3)
    assert 0 < ms < 10_000


@pytest.mark.parametrize(("pool_ms", "one_ms", "chosen"), [
    (5.0, 10.0, 4),   # the pool is twice as fast: kept
    (9.5, 10.0, 1),   # within the margin: one thread (nothing to wake or spin)
    (12.0, 3.0, 1),   # a woken pool per operator: one thread
])
def test_choose_keeps_the_faster_count(llama_pair, restore_threads, monkeypatch, pool_ms,
                                       one_ms, chosen) -> None:
    torch.set_num_threads(4)
    monkeypatch.setattr(threads, "decode_forward_ms",
                        lambda pair: pool_ms if torch.get_num_threads() == 4 else one_ms)
    choice = threads.choose(llama_pair)
    assert choice is not None and choice.threads == chosen
    assert choice.ms_by_threads == {4: pool_ms, 1: one_ms}
    assert torch.get_num_threads() == chosen
    assert "torch threads" in choice.describe()


def test_choose_changes_nothing_with_one_thread(llama_pair, restore_threads) -> None:
    torch.set_num_threads(1)
    assert threads.choose(llama_pair) is None and torch.get_num_threads() == 1


def test_backend_from_settings_chooses_only_when_unset(monkeypatch, model_dirs,
                                                       restore_threads) -> None:
    from guardian.backends import local
    from guardian.settings import Settings

    calls = []
    monkeypatch.setattr(threads, "choose", lambda pair: calls.append(pair))
    dirs = {"draft_dir": model_dirs("llama-draft"), "target_dir": model_dirs("llama-target")}
    local.LocalEngineBackend.from_settings(Settings(**dirs, torch_threads=1))
    assert calls == [] and torch.get_num_threads() == 1
    local.LocalEngineBackend.from_settings(Settings(**dirs))
    assert len(calls) == 1


def test_settle_times_the_kernels_under_the_thread_count_it_settled(llama_pair, monkeypatch):
    """As the cache mode: "auto" kernels are timed with the threads that will decode, after
    the thread count is set, not at load under torch's default count."""
    from engine import packed
    from engine.threads import settle

    seen: list[int] = []

    def timed(model, **_):  # type: ignore[no-untyped-def]
        seen.append(torch.get_num_threads())
        return packed.KernelChoice("plain", {"plain": 1.0, "packed": 2.0}, 4)

    monkeypatch.setattr(packed, "choose_kernels", timed)
    before = torch.get_num_threads()
    try:
        settle(llama_pair, 1, kernels="auto")
    finally:
        torch.set_num_threads(before)
    assert seen == [1]
    assert llama_pair.kernels == "plain" and llama_pair.kernels_choice["kernels"] == "plain"
