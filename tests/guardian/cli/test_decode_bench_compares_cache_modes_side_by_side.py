"""`guardian bench decode` on a tiny local pair: every method decodes the same tokens in
float32 on a CPU (the static cache is bit-identical to the dynamic one there), the ratios are
the quotients of the tokens/s it reports, and bad options are refused without a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

from guardian.cli import app
from guardian.devtools.benchmarks.decode_bench import weight_bytes


def _run(dirs: tuple[Path, Path], *extra: str):
    return CliRunner().invoke(app, ["bench", "decode", "--draft", str(dirs[0]), "--target",
                                    str(dirs[1]), "--prompts", "2", "--max-new-tokens", "12",
                                    *extra], terminal_width=200)


def test_every_method_decodes_the_same_tokens_and_the_ratios_are_quotients(dirs, tmp_path):
    out = tmp_path / "decode.json"
    res = _run(dirs, "--json", str(out))
    assert res.exit_code == 0, res.output
    r = json.loads(out.read_text())
    assert r["config"]["static_mode"] == "static"  # no graphs on a CPU
    assert set(r["exact_match_vs_target_dynamic"].values()) == {1.0}
    tps = r["tokens_per_s"]
    assert all(v > 0 for v in tps.values())
    assert r["target_static_vs_hf_static"] == pytest.approx(
        tps["target_static"] / tps["hf_static"], rel=2e-2)
    assert r["speculative_static_vs_target_static"] == pytest.approx(
        tps["speculative_static"] / tps["target_static"], rel=2e-2)
    assert "bandwidth" not in r  # reported on CUDA only


def test_a_subset_of_methods_runs_and_target_dynamic_is_always_kept(dirs, tmp_path):
    out = tmp_path / "decode.json"
    res = _run(dirs, "--methods", "target_static", "--proposer", "ngram", "--step-rows", "1,3",
               "--json", str(out))
    assert res.exit_code == 0, res.output
    r = json.loads(out.read_text())
    assert r["config"]["methods"] == ["target_dynamic", "target_static"]
    assert r["target_static_vs_hf_static"] is None
    steps = {(s["rows"], s["tokens"]): s for s in r["step_ms"]}
    assert set(steps) == {(1, 1), (1, 5), (3, 1), (3, 5)}  # 1 and γ+1 tokens
    for s in steps.values():
        assert set(s["ms"]) == {"dynamic", "static"} and min(s["ms"].values()) > 0
        assert s["static_vs_dynamic"] == pytest.approx(s["ms"]["static"] / s["ms"]["dynamic"],
                                                       rel=1e-2)


@pytest.mark.parametrize("args, hint", [(("--methods", "target_fast"), "--methods"),
                                        (("--proposer", "medusa"), "--proposer"),
                                        (("--workload", "poems"), "--workload"),
                                        (("--step-rows", "1,x"), "--step-rows"),
                                        (("--step-rows", "0"), "--step-rows")])
def test_bad_options_are_refused_in_one_line(dirs, args, hint):
    res = _run(dirs, *args)
    assert res.exit_code == 2
    assert hint in res.output and "Traceback" not in res.output


@pytest.mark.parametrize("tied", [True, False])
def test_the_bytes_a_forward_reads_leave_out_an_untied_embedding(tied):
    from tests.support.tiny_models import make_model

    model = make_model("llama", 64, layers=1, seed=0, eos_id=0)
    if not tied:
        model.config.tie_word_embeddings = False
        model.lm_head.weight = torch.nn.Parameter(model.lm_head.weight.detach().clone())
    else:
        model.lm_head.weight = model.model.embed_tokens.weight
    unique = {t.data_ptr(): t for t in [*model.parameters(), *model.buffers()]
              if t.is_floating_point()}
    total = sum(t.numel() * t.element_size() for t in unique.values())
    embedding = model.model.embed_tokens.weight
    expected = total if tied else total - embedding.numel() * embedding.element_size()
    assert weight_bytes(model) == expected
