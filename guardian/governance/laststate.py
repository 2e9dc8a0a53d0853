"""The last known route state, kept on local disk so a restart during a database outage
fails safe.

The `ModeResolver` writes every route's database row (mode, pair, policy, who, when, why) to
one JSON file in the sidecar's home (`<home>/route-state.json`) whenever a refresh or a write
through its store changed it; the file is replaced atomically (write a temporary file in the
same directory, fsync, rename), so a crash mid-write leaves the previous copy. It is read
only when the database cannot be read at start: a route rolled back before the outage then
stays target_only. With neither the database nor this file the state is unknown, and the
resolver serves no route speculatively until the database answers.

The database stays the system of record: the first successful read replaces whatever the
file said.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from guardian.core.fileio import write_atomic

logger = logging.getLogger(__name__)

FILE_NAME = "route-state.json"
FORMAT = 1
T = TypeVar("T")


Rows = dict[str, dict[str, Any]]  # route -> its row as JSON values (`routestate.as_rows`)


def save(path: Path, rows: Rows, *, source: str) -> None:
    """Replace `path` atomically with `rows`; `source` names the database they came from."""
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"format": FORMAT, "saved_at": datetime.now(UTC).isoformat(), "source": source,
           "routes": rows}
    write_atomic(path, json.dumps(doc, indent=1, sort_keys=True))


def load(path: Path, parse: Callable[[Rows], T], *,
         source: str | None = None) -> tuple[T, str] | None:
    """(parse(rows), saved_at) from `path`; None when there is no usable file (logged), or,
    with `source`, when the file was saved from another database.

    `parse` turns the rows into route state; anything it or the file gets wrong (a missing
    field, a bad date) makes the whole file unusable: half a state is not a known state."""
    try:
        doc = json.loads(path.read_text())
        if doc.get("format") != FORMAT:
            raise ValueError(f"format {doc.get('format')!r}, expected {FORMAT}")
        if source is not None and doc.get("source") != source:
            return None
        states = parse(doc["routes"])
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        logger.error("last known route state %s is unusable (%s); treating the state as unknown",
                     path, exc)
        return None
    return states, str(doc.get("saved_at"))
