"""Fixtures: a migrated SQLite audit DB, route state store, tiny real pairs, event factories."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from guardian.audit import MemorySink, upgrade
from guardian.core.db import make_engine
from guardian.governance.routestate import ModeResolver, RouteStateStore
from tests.support.governance import (  # noqa: F401  (helpers, importable from here too)
    Clock,
    governed_policy,
    record_report,
    request_event,
    shadow_event,
    shuffled,
    write_keys,
)
from tests.support.tiny_models import build_tokenizer, make_model, perturb, save


@pytest.fixture(autouse=True)
def guardian_home(tmp_path, monkeypatch) -> Path:
    """Each test its own GUARDIAN_HOME: the last known route state file lives there."""
    from guardian.settings import get_settings

    home = tmp_path / "home"
    monkeypatch.setenv("GUARDIAN_HOME", str(home))
    get_settings.cache_clear()
    yield home
    get_settings.cache_clear()


@pytest.fixture
def db(fresh_db_url: str) -> Iterator[sa.Engine]:
    """A migrated database on each backend (`fresh_db_url`: SQLite and Postgres), as the
    database-writer reviews forge rows in."""
    upgrade(fresh_db_url)
    engine = make_engine(fresh_db_url)
    yield engine
    engine.dispose()


@pytest.fixture
def db_engine(tmp_path):
    url = f"sqlite:///{tmp_path / 'guardian.db'}"
    upgrade(url)
    engine = make_engine(url)
    yield engine
    engine.dispose()


@pytest.fixture
def store(db_engine) -> RouteStateStore:
    return RouteStateStore(db_engine)


@pytest.fixture
def sink() -> MemorySink:
    return MemorySink()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def resolver(store) -> ModeResolver:
    return ModeResolver(store, ttl_s=0.05)


@pytest.fixture(scope="session")
def pair_dirs(tmp_path_factory) -> Callable[[str], tuple[Path, Path]]:
    """kind -> (draft_dir, target_dir). kinds: good (close draft), bad (shuffled draft),
    other_tokenizer (draft saved with a tokenizer that has extra tokens)."""
    root = tmp_path_factory.mktemp("gov-pairs")
    tok = build_tokenizer()
    target = make_model("llama", len(tok), 3, seed=1, eos_id=tok.eos_token_id)
    target_dir = save(target, tok, root / "target")
    made: dict[str, tuple[Path, Path]] = {}

    def get(kind: str) -> tuple[Path, Path]:
        if kind not in made:
            if kind == "good":
                draft_dir = save(perturb(target, 0.01, seed=3), tok, root / "good-draft")
            elif kind == "bad":
                draft_dir = save(shuffled(target, seed=5), tok, root / "bad-draft")
            elif kind == "other_tokenizer":
                other = build_tokenizer(extra_tokens=("<|tool|>",))
                draft = make_model("llama", len(other), 1, seed=2, eos_id=other.eos_token_id)
                draft_dir = save(draft, other, root / "other-tok-draft")
            else:
                raise ValueError(kind)
            made[kind] = (draft_dir, target_dir)
        return made[kind]

    return get
