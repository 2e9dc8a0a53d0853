"""The measurement commands behind the evaluator's defaults: `guardian bench tolerance`
(verify-vs-one-token logit noise) and `guardian bench clean` (false alarms on clean traffic)."""

from __future__ import annotations

import pytest

from guardian.benchmarks.tolerance_bench import measure, recommended, round_up_1sig

from .conftest import PROMPTS


def test_rounding_and_margin() -> None:
    assert round_up_1sig(3.2e-6) == pytest.approx(4e-6)
    assert round_up_1sig(4e-6) == pytest.approx(4e-6)
    assert recommended(3.3e-5) == pytest.approx(4e-4)
    assert recommended(0.0) == pytest.approx(1e-6)  # a floor: exact agreement is not promised


def test_tolerance_measurement_sees_small_nonzero_noise(close_pair) -> None:
    r = measure(close_pair, PROMPTS[:3], gamma=3, max_new_tokens=12)
    assert r.key == "float32/cpu" and r.positions > 20
    # fp32 verify and one-token forwards agree closely but not bit for bit
    assert 0.0 <= r.max_top2_logit_diff <= r.max_logit_diff < 1e-3
    assert r.recommended_tolerance >= r.max_logit_diff


def test_clean_traffic_raises_no_alarm(close_pair) -> None:
    from guardian.backends.local import LocalEngineBackend
    from guardian.benchmarks.clean_bench import run_clean

    report = run_clean(LocalEngineBackend(close_pair), PROMPTS, 8, max_tokens=16)
    assert report.requests == 8
    assert report.correctness_alarms == 0, report.alarm_examples
    assert report.trigger_failures["divergence"] == 0
    assert set(report.verdicts) <= {"match", "near_tie", "distribution_ok"}
    assert 0.0 < report.max_logit_disagreement < 1e-3
