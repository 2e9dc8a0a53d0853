"""`guardian pair show / generate` on a tiny local pair: identity, origins, clear errors."""

from __future__ import annotations

from typer.testing import CliRunner

from guardian.cli import app
from tests.support.tiny_models import build_tokenizer, make_model, save


def test_show_prints_the_pair_identity(dirs) -> None:
    from engine import load_pair

    draft, target = dirs
    res = CliRunner().invoke(app, ["pair", "show", "--draft", str(draft), "--target", str(target)],
                             terminal_width=200)
    assert res.exit_code == 0, res.output
    assert f"pair_hash: {load_pair(draft, target).identity.pair_hash}" in res.output


def test_generate_prints_text_and_stats(dirs) -> None:
    draft, target = dirs
    res = CliRunner().invoke(app, ["pair", "generate", "def add(a, b):", "--draft", str(draft),
                                   "--target", str(target), "--max-new-tokens", "12"],
                             terminal_width=200)
    assert res.exit_code == 0, res.output
    assert "def add(a, b):" in res.output
    assert "mean acceptance length=" in res.output and "finish=" in res.output


def test_incompatible_pair_is_refused_with_the_reason(dirs, tmp_path) -> None:
    target = dirs[1]
    other = build_tokenizer(extra_tokens=("<|extra|>",))
    model = make_model("llama", len(other), layers=1, seed=2, eos_id=other.eos_token_id)
    bad = save(model, other, tmp_path / "bad-draft")
    res = CliRunner().invoke(app, ["pair", "show", "--draft", str(bad), "--target", str(target)])
    assert res.exit_code == 2
    assert "error:" in res.output and "Traceback" not in res.output


def test_one_dir_without_the_other_is_a_usage_error(dirs) -> None:
    res = CliRunner().invoke(app, ["pair", "generate", "x", "--draft", str(dirs[0])])
    assert res.exit_code == 2
