"""`guardian bench engine` and `guardian bench layout` on a tiny local pair: the report's
figures are consistent with each other, and bad options are refused without a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardian.cli import app


def _pair_args(dirs: tuple[Path, Path]) -> list[str]:
    return ["--draft", str(dirs[0]), "--target", str(dirs[1])]


def test_bench_engine_report_is_consistent(dirs, tmp_path) -> None:
    out = tmp_path / "engine.json"
    res = CliRunner().invoke(app, ["bench", "engine", *_pair_args(dirs), "--prompts", "2",
                                   "--max-new-tokens", "16", "--json", str(out)],
                             terminal_width=200)
    assert res.exit_code == 0, res.output
    r = json.loads(out.read_text())
    assert r["config"]["weight_layout"] == "column"
    assert r["exact_match_rate"] == 1.0  # greedy speculative == target-only, always
    tps = r["tokens_per_s"]
    if r["config"]["kernels"] == "packed":  # "auto" measured packing faster on this machine
        assert r["speedup_vs_assisted_same_kernels"] == pytest.approx(
            tps["speculative"] / tps["hf_assisted_packed_kernels"], rel=1e-2)
    else:
        assert r["config"]["kernels"] == "plain"
        assert r["speedup_vs_assisted_same_kernels"] is None
    assert r["speedup_vs_target_only"] == pytest.approx(
        tps["speculative"] / tps["target_only"], rel=1e-2)
    # Both inputs are rounded to 3 decimals (±5e-4 each), the efficiency too: allow exactly
    # what that rounding can move the quotient (a fixed 2e-3 failed when predicted < 1).
    speedup, predicted = r["speedup_vs_target_only"], r["predicted_speedup"]
    rounding = 5e-4 / predicted + speedup * 5e-4 / (predicted * (predicted - 5e-4)) + 5e-4
    assert r["efficiency"] == pytest.approx(speedup / predicted, abs=rounding + 1e-9)
    dec = r["decode_tokens_per_s"]
    assert dec["target_only"] > 0 and dec["speculative"] > 0
    assert r["decode_speedup_vs_target_only"] == pytest.approx(
        dec["speculative"] / dec["target_only"], rel=1e-2)
    # Leaving the prefill out can only make each method's decode rate higher than end to end.
    assert dec["target_only"] >= tps["target_only"] * 0.99
    assert 0.0 < r["acceptance_rate"] <= r["alpha"] <= 1.0
    assert 1.0 <= r["mean_acceptance_length"] <= 5.0
    counters = r["counters"]
    assert r["alpha"] == pytest.approx(counters["accepted"] / counters["judged_tokens"],
                                       abs=1e-4)
    assert r["config"]["proposer"] == "draft_model" and r["config"]["workload"] == "heldout"


def test_bench_engine_ngram_on_the_code_edit_workload(dirs, tmp_path) -> None:
    """Prompt lookup reports the same figures; its greedy output is still target-only's."""
    out = tmp_path / "ngram.json"
    res = CliRunner().invoke(app, ["bench", "engine", *_pair_args(dirs), "--prompts", "2",
                                   "--max-new-tokens", "16", "--proposer", "ngram",
                                   "--workload", "code-edit", "--json", str(out)],
                             terminal_width=200)
    assert res.exit_code == 0, res.output
    r = json.loads(out.read_text())
    assert (r["config"]["proposer"], r["config"]["workload"]) == ("ngram", "code-edit")
    assert r["exact_match_rate"] == 1.0
    assert r["assisted_exact_match_rate"] == 1.0  # transformers' prompt lookup, also greedy
    assert 0.0 <= r["acceptance_rate"] <= r["alpha"] <= 1.0
    assert r["mean_acceptance_length"] >= 1.0
    # A lookup costs a fraction of a forward, even beside this tiny (sub-millisecond) target.
    assert r["cost_ratio_c"] < 0.5
    assert r["counters"]["steps"] > 0


def test_bench_engine_refuses_bad_options(dirs) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["bench", "engine", "--weight-layout", "diag"])  # no demo build first
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "--weight-layout" in res.output
    res = runner.invoke(app, ["bench", "engine", "--draft", str(dirs[0])])
    assert res.exit_code == 2 and "give both --draft and --target" in res.output
    for option, value in (("--proposer", "eagle"), ("--workload", "poetry")):
        res = runner.invoke(app, ["bench", "engine", option, value])  # no demo build first
        assert res.exit_code == 2 and "Traceback" not in res.output
        assert option in res.output and value in res.output
    res = runner.invoke(app, ["bench", "engine", *_pair_args(dirs), "--workload", "code-edit",
                              "--prompts", "100000"])
    assert res.exit_code == 2 and "Traceback" not in res.output and "--prompts" in res.output


def test_bench_layout_reports_both_layouts(dirs, tmp_path) -> None:
    out = tmp_path / "layout.json"
    res = CliRunner().invoke(app, ["bench", "layout", *_pair_args(dirs), "--rounds", "2",
                                   "--repeats", "3", "--json", str(out)], terminal_width=200)
    assert res.exit_code == 0, res.output
    r = json.loads(out.read_text())
    ms = r["forward_ms"]
    assert set(ms) == {"row_1tok", "row_5tok", "column_1tok", "column_5tok", "packed_1tok",
                       "packed_5tok"}
    assert r["verify_cost_row"] == pytest.approx(ms["row_5tok"] / ms["row_1tok"], rel=1e-2)
    assert r["verify_cost_packed"] == pytest.approx(ms["packed_5tok"] / ms["packed_1tok"],
                                                    rel=1e-2)
    assert r["packed_over_column_5tok"] == pytest.approx(ms["packed_5tok"] / ms["column_5tok"],
                                                         rel=1e-2)
    assert r["column_over_row_5tok"] == pytest.approx(ms["column_5tok"] / ms["row_5tok"],
                                                      rel=1e-2)


def test_bench_serving_keeps_finished_levels_when_cut_off(tmp_path, monkeypatch) -> None:
    """A serving bench killed mid-run (a leased machine's time running out) leaves the JSON of
    the levels it finished, marked incomplete; a whole run marks it complete."""
    from guardian.devtools.benchmarks import serving_bench as sb

    def cell(mode: str, route: str, tok_s: float, by_round: list[float]) -> sb.Cell:
        return sb.Cell(mode, route, 1, requests=4, ok=4, tokens_per_s=tok_s,
                       texts={"p": f"{route}-answer"}, tokens_per_s_by_round=by_round)

    first = [cell("off", "target", 10.0, [10.0]), cell("continuous", "target", 40.0, [50, 30]),
             cell("off", "spec", 12.0, [12.0]), cell("continuous", "spec", 44.0, [45, 33])]

    def cut_off(*args, on_level, **kwargs):
        on_level(first)
        raise KeyboardInterrupt  # the second level never finishes

    out = tmp_path / "serving.json"
    monkeypatch.setattr(sb, "run", cut_off)
    res = CliRunner().invoke(app, ["bench", "serving", "--concurrency", "1,4", "--json",
                                   str(out)], terminal_width=200)
    assert res.exit_code != 0
    r = json.loads(out.read_text())
    assert r["complete"] is False and len(r["cells"]) == 4
    assert "texts" not in r["cells"][0]
    assert r["ratios"][0]["target: batched / one-at-a-time tokens/s"] == 4.0
    assert r["differs"] == [0, 2]
    # Round by round where there were rounds: the spread a route difference stands out from
    assert r["ratios"][0]["continuous: speculative / target-only per round"] == [0.9, 1.1]
    assert "off: speculative / target-only per round" not in r["ratios"][0]
    assert r["cells"][1]["tokens_per_s_by_round"] == [50, 30]
    assert not list(tmp_path.glob("*.part"))

    def whole(*args, on_level, **kwargs):
        on_level(first)
        return {"cells": first, "speculation": {"cap": [4]}}

    monkeypatch.setattr(sb, "run", whole)
    res = CliRunner().invoke(app, ["bench", "serving", "--concurrency", "1", "--json",
                                   str(out)], terminal_width=200)
    assert res.exit_code == 0, res.output
    r = json.loads(out.read_text())
    assert r["complete"] is True and r["speculation"] == {"cap": [4]}


def test_bench_step_profile_times_every_cell(dirs, tmp_path) -> None:
    """Every (rows, depth) cell is timed, the forward with and without the mask, and the
    profile's tables are written; speculative steps emit more than one token per row."""
    out = tmp_path / "profile.json"
    res = CliRunner().invoke(app, ["bench", "step-profile", *_pair_args(dirs), "--sizes", "1,3",
                                   "--depths", "0,2", "--steps", "3", "--out",
                                   str(tmp_path / "tables"), "--json", str(out)],
                             terminal_width=200)
    assert res.exit_code == 0, res.output
    r = json.loads(out.read_text())
    assert [row["rows"] for row in r["rows"]] == [1, 3]
    for row in r["rows"]:
        assert row["forward_dense_ms"] > 0 and row["forward_masked_ms"] > 0
        assert row["forward_masked_eager_ms"] > 0  # llama switches to eager attention
        assert set(row["step_ms"]) == {"0", "2"} and all(v > 0 for v in row["step_ms"].values())
        assert set(row["closed_loop_ms"]) == {"0", "2"}
        assert all(v > 0 for v in row["closed_loop_ms"].values())
        # depth 0 emits one token per row; depth 2 at least that (greedy, close pair: more)
        assert row["tokens_per_step"]["0"] == pytest.approx(row["rows"], abs=0.5)
        assert row["tokens_per_step"]["2"] >= row["tokens_per_step"]["0"]
    assert [(p["rows"], p["depth"], p["steps"]) for p in r["profiles"]] == [
        (1, 0, 3), (1, 2, 3), (3, 0, 3), (3, 2, 3)]
    assert all(p["aten_calls_per_step"] > 0 and p["ms_per_step_profiled"] > 0
               for p in r["profiles"])
    assert "aten::" in (tmp_path / "tables" / "profile-3rows-depth0.txt").read_text()
    # the Python profile at the first size above one row names the engine's step
    [py] = r["python"]
    assert (py["rows"], py["depth"], py["steps"]) == (3, 0, 3) and py["top_own"]
    assert "step" in (tmp_path / "tables" / "python-3rows-depth0.txt").read_text()
    assert r["complete"] is True


def test_bench_step_profile_keeps_each_phase(dirs, tmp_path, monkeypatch) -> None:
    """The JSON is rewritten after every phase: a run cut off in the closed loop (a lease's
    time limit) keeps the rows table and the profiles it measured."""
    out = tmp_path / "profile.json"

    def cut_off(*_a, **_k):
        raise KeyboardInterrupt  # the closed loop, last, never ends

    monkeypatch.setattr("engine.stepcost.measure", cut_off)
    res = CliRunner().invoke(app, ["bench", "step-profile", *_pair_args(dirs), "--sizes", "2",
                                   "--depths", "0", "--steps", "2", "--json", str(out)])
    assert res.exit_code != 0
    r = json.loads(out.read_text())
    assert r["complete"] is False and [row["rows"] for row in r["rows"]] == [2]
    assert [p["rows"] for p in r["profiles"]] == [2] and r["python"][0]["rows"] == 2
    res = CliRunner().invoke(app, ["bench", "step-profile", *_pair_args(dirs), "--sizes", "2",
                                   "--depths", "0", "--steps", "2", "--no-closed-loop",
                                   "--json", str(out)])
    assert res.exit_code == 0, res.output
    assert json.loads(out.read_text())["complete"] is True


@pytest.mark.parametrize("opt", [["--sizes", "0,2"], ["--depths", "-1"], ["--sizes", "a"],
                                 ["--profile-rows", "0"]])
def test_bench_step_profile_refuses_bad_lists(dirs, opt) -> None:
    res = CliRunner().invoke(app, ["bench", "step-profile", *_pair_args(dirs), *opt])
    assert res.exit_code == 2 and "Traceback" not in res.output


@pytest.mark.parametrize("command", ["tolerance", "clean"])
def test_bench_tolerance_and_clean_refuse_a_bad_dtype(command) -> None:
    """Checked before any pair is found or loaded (no demo build first): a usage error
    naming the option and the accepted names, not a traceback."""
    res = CliRunner().invoke(app, ["bench", command, "--dtype", "int8"], terminal_width=200)
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    assert "--dtype" in res.output and "int8" in res.output and "bfloat16" in res.output


@pytest.mark.parametrize("args", [["bench", "tolerance"], ["bench", "clean"],
                                  ["bench", "step-profile"], ["pair", "build-demo"]])
@pytest.mark.parametrize("device", ["gpu", "cuda"])
def test_a_bad_or_absent_device_is_a_usage_error(args, device) -> None:
    """`--device gpu` (not a device) and `--device cuda` on a machine without one: refused
    before any model loads, not a torch traceback after the weights did (found in review)."""
    import torch

    if device == "cuda" and torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    res = CliRunner().invoke(app, [*args, "--device", device], terminal_width=200)
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    assert "--device" in res.output


@pytest.mark.parametrize(("option", "value"), [
    ("--distribution-tolerance", "0"), ("--distribution-tolerance", "1.5"),
    ("--drafter-tolerance", "0"), ("--drafter-tolerance", "-1"), ("--drafter-tolerance", "x")])
def test_bench_clean_refuses_bad_tolerances(option, value) -> None:
    res = CliRunner().invoke(app, ["bench", "clean", option, value], terminal_width=200)
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    assert option in res.output


def test_bench_tolerance_in_bf16_reports_the_sampled_checks_tolerances(dirs, tmp_path) -> None:
    out = tmp_path / "tolerance.json"
    res = CliRunner().invoke(app, ["bench", "tolerance", *_pair_args(dirs), "--dtype", "bf16",
                                   "--device", "cpu", "--prompts", "2", "--max-new-tokens", "8",
                                   "--gamma", "2", "--json", str(out)], terminal_width=200)
    assert res.exit_code == 0, res.output
    r = json.loads(out.read_text())
    assert r["key"] == "bfloat16/cpu"
    # the keys .ci/gpu and earlier readers use are all still there
    for key in ("recommended_tolerance", "max_logit_diff", "max_logprob_diff",
                "max_batched_logit_diff"):
        assert key in r
    assert 0.02 <= r["recommended_distribution_tolerance"] <= 1.0
    assert 1e-3 <= r["recommended_drafter_tolerance"] <= 1.0
    assert r["max_tv"] >= 0.0 and r["max_batched_tv"] >= 0.0 and r["max_draft_q_diff"] >= 0.0


def test_bench_clean_passes_the_tolerances_and_dtype_through(dirs, monkeypatch) -> None:
    from guardian.devtools.benchmarks import clean_bench

    seen: dict = {}

    def fake_run_clean(backend, prompts, n, **kw):
        seen.update(kw["policy_overrides"], dtype=backend.dtype)
        return clean_bench.CleanReport(requests=n)

    monkeypatch.setattr(clean_bench, "run_clean", fake_run_clean)
    res = CliRunner().invoke(app, ["bench", "clean", *_pair_args(dirs), "--dtype", "bfloat16",
                                   "--device", "cpu", "--requests", "2",
                                   "--near-tie-tolerance", "2",
                                   "--distribution-tolerance", "0.4",
                                   "--drafter-tolerance", "0.6"], terminal_width=200)
    assert res.exit_code == 0, res.output
    assert seen == {"near_tie_tolerance": 2.0, "distribution_tolerance": 0.4,
                    "drafter_tolerance": 0.6, "dtype": "bfloat16"}
    res = CliRunner().invoke(app, ["bench", "clean", *_pair_args(dirs), "--device", "cpu",
                                   "--requests", "1"], terminal_width=200)
    assert res.exit_code == 0, res.output
    assert (seen["distribution_tolerance"], seen["drafter_tolerance"], seen["dtype"]) == (
        0.02, 1e-3, "float32")  # today's defaults
