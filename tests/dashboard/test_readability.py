"""What a number means, said next to it: a speedup below 1x is a slowdown, a saving is known
without a price, and a chart of one bucket says why it is a dot (pure helpers, no database)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pandas as pd
import pytest

from dashboard import data
from dashboard.filters import RANGES, Filters

T0 = datetime(2026, 11, 23, 15, 15, tzinfo=UTC)


def _flt(range_key: str) -> Filters:
    return Filters(T0 - RANGES[range_key], T0, (), range_key)


@pytest.mark.parametrize(("gain", "want"), [(0.94, "-6% vs target-only"),
                                            (1.5, "+50% vs target-only"),
                                            (None, None), (float("nan"), None)])
def test_speedup_delta_says_slower_or_faster(gain, want) -> None:  # type: ignore[no-untyped-def]
    assert data.speedup_delta(gain) == want


def test_saving_without_a_price_comes_from_seconds_per_token() -> None:
    assert data.saving_of(0.25, 1.0, 2.0) == 0.25  # cost.figures' own, when it has one
    assert data.saving_of(None, 2.422, 2.395) == pytest.approx(1 - 2.422 / 2.395)
    assert data.saving_of(float("nan"), 1.0, 2.0) == pytest.approx(0.5)
    assert data.saving_of(None, 1.0, None) is None
    assert data.saving_of(None, 1.0, 0.0) is None


def test_a_chart_of_one_bucket_says_why_it_is_a_dot() -> None:
    one = pd.Series([T0 - timedelta(minutes=10)] * 3)
    note = _flt("24h").few_buckets_note(one)
    assert note is not None and "one 15-minute bucket" in note and "shorter time range" in note
    assert "shorter" not in (_flt("1h").few_buckets_note(one) or "")  # no shorter range left
    assert _flt("7d").bucket_label == "1-hour"
    two = pd.Series([T0 - timedelta(minutes=30), T0 - timedelta(minutes=10)])
    assert _flt("24h").few_buckets_note(two) is None
    assert _flt("24h").few_buckets_note(pd.Series([], dtype=object)) is None  # pages say "no data"
    assert _flt("24h").few_buckets_note(None) is None
