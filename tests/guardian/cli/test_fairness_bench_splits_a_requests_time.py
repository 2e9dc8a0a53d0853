"""`guardian bench fairness` splits each quiet request's latency by its audit record: serving
queue, engine time to the first token (row wait + prefill), decode steps, and the rest."""

from __future__ import annotations

import pytest

from guardian.devtools.benchmarks import fairness_bench as fb


def test_the_parts_are_medians_of_each_requests_split() -> None:
    latencies = [0.30, 0.50, 0.40]
    timings = [{"queue_s": 0.0, "engine_s": 0.28, "first_token_s": 0.05},
               {"queue_s": 0.01, "engine_s": 0.45, "first_token_s": 0.30},
               {"queue_s": 0.0, "engine_s": 0.39, "first_token_s": 0.10}]
    b = fb._breakdown(latencies, timings)
    assert b["latency_s"] == pytest.approx(0.40)
    assert b["first_token_s"] == pytest.approx(0.10)
    assert b["decode_s"] == pytest.approx(0.23)  # median of 0.23, 0.15, 0.29
    assert b["outside_engine_s"] == pytest.approx(0.02)  # median of 0.02, 0.04, 0.01
    with pytest.raises(ValueError):  # one audit record per request, or no split at all
        fb._breakdown(latencies, timings[:2])


def test_the_variants_run_side_by_side_in_one_bench() -> None:
    assert fb.VARIANTS == {"fair": ("fair", None), "fair, no headroom": ("fair", "0"),
                           "fifo": ("fifo", None)}
    dbs = {fb._db(fb.Path("/h"), v).name for v in fb.VARIANTS}
    assert len(dbs) == 3 and all(" " not in n and "," not in n for n in dbs)
