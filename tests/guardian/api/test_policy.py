"""Route policy: the packaged default loads, bad files say where they are wrong, the hash
tracks content (not formatting)."""

from __future__ import annotations

from pathlib import Path

import pytest

from guardian.policy import DEFAULT_POLICY_FILE, PolicyError, load_policy


def test_default_policy_loads() -> None:
    policy = load_policy()
    route = policy.route(policy.default_route)
    assert route.mode == "target_only" and 0 < route.shadow.sample_rate <= 1
    assert len(policy.content_hash) == 64


def test_hash_ignores_comments_but_tracks_values(tmp_path: Path) -> None:
    text = DEFAULT_POLICY_FILE.read_text()
    (tmp_path / "a.yaml").write_text("# a comment\n" + text)
    (tmp_path / "b.yaml").write_text(text.replace("sample_rate: 0.25", "sample_rate: 0.5"))
    base = load_policy(DEFAULT_POLICY_FILE).content_hash
    assert load_policy(tmp_path / "a.yaml").content_hash == base
    assert load_policy(tmp_path / "b.yaml").content_hash != base


@pytest.mark.parametrize(("body", "message"), [
    ("routes:\n  default:\n    mode: turbo\n", "routes.default.mode"),
    ("routes:\n  default:\n    shadow: {sample_rate: 2}\n", "routes.default.shadow.sample_rate"),
    ("routes:\n  default:\n    gamma: {min: 4, initial: 2}\n", "gamma needs min <= initial"),
    ("default_route: x\nroutes:\n  default: {}\n", "default_route 'x'"),
    ("routes:\n  default:\n    modee: speculative\n", "modee"),
    ("routes: [\n", "not valid YAML"),
])
def test_bad_policy_files_say_what_and_where(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(body)
    with pytest.raises(PolicyError, match=message.replace("[", r"\[")):
        load_policy(path)


def test_mode_change_is_a_new_policy_with_a_new_hash() -> None:
    policy = load_policy()
    changed = policy.with_mode("default", "speculative")
    assert changed.route("default").mode == "speculative"
    assert policy.route("default").mode == "target_only"
    assert changed.content_hash != policy.content_hash
