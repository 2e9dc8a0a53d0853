"""`guardian gate` on the command line: serve's runtime settings, and a report whose speedup
verdict is the one its totals give."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.cli import app
from tests.support.fakes import FakeBackend


@pytest.fixture
def fake_pair(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    from guardian.backends.local import LocalEngineBackend

    fake = FakeBackend()
    fake.pair = None  # type: ignore[attr-defined]  # what the thread rule is given
    monkeypatch.setattr(LocalEngineBackend, "load", classmethod(lambda cls, *a, **k: fake))
    # no models, so no kernels or cache mode to time after the threads are settled
    import engine.loading

    monkeypatch.setattr(engine.loading, "set_kernels", lambda pair, kernels: None)
    monkeypatch.setattr(engine.loading, "choose_decode", lambda pair: None)
    golden = tmp_path / "golden.jsonl"
    golden.write_text('{"id": "a", "prompt": "def add(a, b):", "max_tokens": 8}\n'
                      '{"id": "s", "prompt": "x = ", "max_tokens": 8, "stop": ["\\n"]}\n'
                      '{"id": "t", "prompt": "y", "max_tokens": 8, "temperature": 0.8, '
                      '"top_p": 0.9, "top_k": 20, "seed": 1}\n')
    return golden


def test_gate_runs_with_serves_thread_and_wait_settings(fake_pair: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import torch

    from guardian.settings import get_settings

    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    monkeypatch.setenv("GUARDIAN_TORCH_THREADS", "1")
    get_settings.cache_clear()
    before = torch.get_num_threads()
    try:
        out = CliRunner().invoke(app, ["gate", "--pair", "d,t", "--golden", str(fake_pair),
                                       "--no-audit", "--report-dir", str(tmp_path / "r")])
        threads = torch.get_num_threads()
    finally:
        torch.set_num_threads(before)
        get_settings.cache_clear()
    assert "Traceback" not in out.output, out.output
    report = json.loads(next((tmp_path / "r").glob("*.json")).read_text())
    assert report["runtime"] == {"omp_wait_policy": "PASSIVE", "torch_threads": 1}
    assert threads == 1 and "OMP_WAIT_POLICY PASSIVE" in out.output
    speed = next(c for c in report["checks"] if c["name"] == "min_speedup")
    timed = [p for p in report["prompts"] if p["temperature"] == 0]
    totals = sum(p["target_time_s"] for p in timed) / sum(p["speculative_time_s"] for p in timed)
    assert speed["value"] == pytest.approx(totals) and "95% CI" in speed["detail"]
    # (this three-prompt golden set cannot meet the stopping quota: that check aside)
    passed = all(c["outcome"] != "fail" for c in report["checks"]
                 if c["name"] != "stopping_coverage")
    assert (speed["outcome"] == "pass") == (passed and totals >= speed["threshold"])
    assert [p["stop"] for p in report["prompts"]] == [[], ["\n"], []]
    assert report["prompts"][2]["top_k"] == 20


@pytest.mark.parametrize("configured", [None, "1"])
def test_gate_chooses_threads_as_serve_does_when_unset(fake_pair: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       configured: str | None) -> None:
    """Unset, the gate times with the thread count the sidecar would choose (engine.threads):
    with torch's default count and passive waits, one-row forwards here ran 4x slower than
    with one thread and target-only more so than speculation, so the gate reported a 2.56x
    speedup where serving gets 1.45x. Configured, the count is the operator's."""
    import torch

    from engine import threads
    from guardian.settings import get_settings
    from tests.support.fakes import FakeBackend

    fake = FakeBackend()
    fake.pair = object()  # type: ignore[attr-defined]
    from guardian.backends.local import LocalEngineBackend

    monkeypatch.setattr(LocalEngineBackend, "load", classmethod(lambda cls, *a, **k: fake))
    calls: list[object] = []
    monkeypatch.setattr(threads, "choose", lambda pair: calls.append(pair))
    if configured:
        monkeypatch.setenv("GUARDIAN_TORCH_THREADS", configured)
    else:
        monkeypatch.delenv("GUARDIAN_TORCH_THREADS", raising=False)
    get_settings.cache_clear()
    before = torch.get_num_threads()
    try:
        out = CliRunner().invoke(app, ["gate", "--pair", "d,t", "--golden", str(fake_pair),
                                       "--no-audit", "--report-dir", str(tmp_path / "r")])
    finally:
        torch.set_num_threads(before)
        get_settings.cache_clear()
    assert "Traceback" not in out.output, out.output
    assert calls == ([] if configured else [fake.pair])
