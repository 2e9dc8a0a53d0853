"""The per-request drift test (`request_drift`): its p-value, and that it runs on the
runtime dependencies alone (SciPy is a dev dependency only)."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from collections import Counter

import pytest

from guardian.governance.triggers.drift import request_drift


def _requests(rng: random.Random, n: int, weights: list[float]) -> list[Counter]:
    return [Counter(rng.choices(range(len(weights)), weights, k=24)) for _ in range(n)]


def test_p_value_is_the_bonferroni_corrected_normal_tail() -> None:
    stats = pytest.importorskip("scipy.stats")
    rng = random.Random(7)
    for shift in (0.0, 0.05, 0.15):
        ref = _requests(rng, 200, [0.4, 0.3, 0.2, 0.1])
        cur = _requests(rng, 80, [0.4 - shift, 0.3, 0.2, 0.1 + shift])
        m = request_drift("d", ref, cur, bins=4, alpha=0.01, reference_requests=100,
                          min_requests=50, binning="value")
        z = m.details["max_abs_z"]
        assert m.value == pytest.approx(min(1.0, 4 * 2 * stats.norm.sf(z)), rel=1e-12, abs=1e-300)
    assert m.outcome == "fail" and m.value < 1e-6  # the largest shift is caught


def test_runs_without_scipy() -> None:
    # A production install has no SciPy: the trigger must not need it (it raised ImportError
    # on every pass before) and the serving process must not pay for importing it.
    code = (
        "import sys; sys.modules['scipy'] = None\n"
        "from collections import Counter\n"
        "from guardian.governance.triggers.drift import request_drift\n"
        "ref = [Counter({0: 5, 1: 3})] * 60 + [Counter({0: 3, 1: 5})] * 60\n"
        "cur = [Counter({1: 8})] * 60\n"
        "m = request_drift('d', ref, cur, bins=2, alpha=0.01, reference_requests=100,\n"
        "                  min_requests=50, binning='value')\n"
        "print(m.outcome, m.value)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    outcome, p = out.stdout.split()
    assert outcome == "fail" and 0 <= float(p) < 1e-6 and not math.isnan(float(p))
