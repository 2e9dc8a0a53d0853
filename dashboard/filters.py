"""Time-range and route filters shared by every page and kept in the URL.

`?range=24h&route=chat,code&until=2026-11-22T12:00` is a shareable view: the entry point
(`dashboard/app.py`) renders the sidebar widgets once per run, seeded from the URL, and writes
the choice back to `st.query_params` - so the filters survive page switches and a copied link
opens the same view. Without `until` the range ends now, rounded up to the minute so
cached queries are reused across reruns in that minute. A link is anybody's text: what the
URL holds is shown as plain text (`dashboard.plain`), never as Markdown.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import streamlit as st

from dashboard.plain import code, md

RANGES: dict[str, timedelta] = {
    "1h": timedelta(hours=1), "6h": timedelta(hours=6), "24h": timedelta(days=1),
    "3d": timedelta(days=3), "7d": timedelta(days=7), "30d": timedelta(days=30),
}
DEFAULT_RANGE = "24h"


@dataclass(frozen=True)
class Filters:
    since: datetime
    until: datetime
    routes: tuple[str, ...]  # empty = all routes
    range_key: str

    @property
    def span(self) -> timedelta:
        return self.until - self.since

    @property
    def bucket_s(self) -> int:
        """Chart bucket: about 60-150 points whatever the range."""
        s = self.span.total_seconds()
        for limit, bucket in ((3600, 60), (6 * 3600, 300), (86400, 900), (3 * 86400, 1800),
                              (7 * 86400, 3600)):
            if s <= limit:
                return bucket
        return 6 * 3600

    @property
    def bucket_label(self) -> str:
        """The chart bucket in words: "15-minute", "1-hour"."""
        s = self.bucket_s
        return f"{s // 3600}-hour" if s % 3600 == 0 else f"{s // 60}-minute"

    def few_buckets_note(self, buckets: object) -> str | None:
        """A caption for a chart over time whose data fill fewer than two buckets (`buckets`:
        the bucket column): such a chart is a lone dot with no line, which reads as broken.
        None when there are enough."""
        n = len(set(buckets)) if buckets is not None else 0  # type: ignore[call-overload]
        if n >= 2 or n == 0:
            return None
        finer = ("" if self.range_key == "1h" else
                 " Choose a shorter time range (1h: 1-minute buckets) to see a trend.")
        return (f"All data in this range falls in one {self.bucket_label} bucket: the charts "
                f"over time show one point (or bar) each, no trend yet.{finer}")

    @property
    def drift_bucket_s(self) -> int:
        """Drift is scored on coarser buckets (12 per range): histograms need requests."""
        return max(60, int(self.span.total_seconds() // 12))

    @property
    def single_route(self) -> str | None:
        return self.routes[0] if len(self.routes) == 1 else None

    @property
    def routes_label(self) -> str:
        """The route filter for a caption (Markdown): the names as plain text, or "all"."""
        return ", ".join(md(r) for r in self.routes) or "all"


def _ceil_minute(t: datetime) -> datetime:
    base = t.replace(second=0, microsecond=0)
    return base if base == t else base + timedelta(minutes=1)


def parse_until(raw: str | None, now: datetime | None = None) -> datetime:
    """`until` from the URL (ISO, UTC if naive), else now rounded up to the minute."""
    if raw:
        try:
            t = datetime.fromisoformat(raw)
            return t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)
        except ValueError:
            st.warning(f"ignored until={code(raw)} in the URL: not an ISO time like 2026-11-22T12:00")
    return _ceil_minute(now or datetime.now(UTC))


def sidebar(known_routes: list[str]) -> Filters:
    """Render the shared filters in the sidebar and mirror them into the URL."""
    qp = st.query_params
    range_key = qp.get("range", DEFAULT_RANGE)
    if range_key not in RANGES:
        range_key = DEFAULT_RANGE
    wanted = [r for r in (qp.get("route") or "").split(",") if r]
    options = sorted(set(known_routes) | set(wanted))
    with st.sidebar:
        st.markdown("**Filters** (shared by all pages, kept in the URL)")
        range_key = st.selectbox("Time range", list(RANGES), index=list(RANGES).index(range_key),
                                 key="flt_range")
        routes = st.multiselect("Routes", options, default=wanted, key="flt_routes",
                                placeholder="all routes")
        until_raw = qp.get("until")
        until = parse_until(until_raw)
        if until_raw:
            st.caption(f"Range ends at {until:%Y-%m-%d %H:%M} UTC (from the URL)")
    qp["range"] = range_key
    if routes:
        qp["route"] = ",".join(routes)
    elif "route" in qp:
        del qp["route"]
    return Filters(until - RANGES[range_key], until, tuple(sorted(routes)), range_key)


def current() -> Filters:
    """The filters the entry point rendered on this run."""
    flt = st.session_state.get("filters")
    if flt is None:  # a page run on its own (tests): defaults
        until = _ceil_minute(datetime.now(UTC))
        flt = Filters(until - RANGES[DEFAULT_RANGE], until, (), DEFAULT_RANGE)
    return flt
