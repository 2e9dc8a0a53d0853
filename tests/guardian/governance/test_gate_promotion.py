"""`guardian gate` on real tiny pairs and promotion bound to the exact pair and policy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

import engine.verify
from engine import IncompatiblePairError
from guardian.backends.local import LocalEngineBackend
from guardian.cli import gate as gate_cli
from guardian.cli import route as route_cli
from guardian.governance.golden import GoldenError, load_golden
from guardian.governance.registry import PairRegistry
from guardian.governance.routestate import RouteStateStore
from guardian.policy import load_policy_file
from guardian.settings import get_settings
from tests.support.governance import write_keys

POLICY = """version: 1
default_route: default
routes:
  default:
    mode: target_only
    gate:
      min_alpha: 0.3
      min_speedup: 0.0   # tiny CPU models: speculation is not faster, and that is not the point here
      max_new_tokens: 12
      near_tie_tolerance: 0.01
"""
GOLDEN = "\n".join(json.dumps(x) for x in [
    {"id": "add", "prompt": "def add(a, b):"},
    {"id": "loop", "prompt": "for i in", "max_tokens": 10},
    {"id": "fox", "prompt": "the quick"},
    {"id": "sampled", "prompt": "class Point:\n", "temperature": 0.9, "seed": 3},
]) + "\n"


def identify(draft: Path, target: Path):
    """The pair's identity as the engine computes it (what the gate binds its report to)."""
    return LocalEngineBackend.load(draft, target, device="cpu").identity


@pytest.fixture
def env(tmp_path, monkeypatch) -> dict:
    monkeypatch.setenv("GUARDIAN_HOME", str(tmp_path / "home"))
    get_settings.cache_clear()
    (tmp_path / "policy.yaml").write_text(POLICY)
    (tmp_path / "golden.jsonl").write_text(GOLDEN)
    keys_file = tmp_path / "keys.yaml"
    yield {"url": f"sqlite:///{tmp_path / 'audit.db'}", "policy": tmp_path / "policy.yaml",
           "golden": tmp_path / "golden.jsonl", "reports": tmp_path / "reports", "tmp": tmp_path,
           "keys": write_keys(keys_file), "keys_file": keys_file}
    get_settings.cache_clear()


def run_gate(env: dict, dirs: tuple[Path, Path], policy: Path | None = None):
    return CliRunner().invoke(gate_cli.app, [
        "--pair", f"{dirs[0]},{dirs[1]}", "--golden", str(env["golden"]),
        "--policy", str(policy or env["policy"]), "--report-dir", str(env["reports"]),
        "--url", env["url"]])


def promote(env: dict, pair: str, role: str = "release", policy: Path | None = None,
            report: Path | None = None):
    # The role comes from the API key (issue 13: no --role flag any more).
    args = ["promote", "default", "--pair", pair, "--key", env["keys"][role],
            "--keys-file", str(env["keys_file"]), "--url", env["url"],
            "--policy", str(policy or env["policy"]), "--reason", "gate passed"]
    if report:
        args += ["--report", str(report)]
    return CliRunner().invoke(route_cli.app, args)


def test_gate_passes_a_good_pair_writes_reports_and_allows_promotion(env, pair_dirs) -> None:
    result = run_gate(env, pair_dirs("good"))
    assert result.exit_code == 0, result.output
    [json_path] = env["reports"].glob("*.json")
    report = json.loads(json_path.read_text())
    policy = load_policy_file(env["policy"])
    identity = identify(*pair_dirs("good"))
    assert report["passed"] and report["pair_hash"] == identity.pair_hash
    assert report["policy_hash"] == policy.content_hash
    assert {p["verdict"] for p in report["prompts"]} <= {"match", "distribution_ok"}
    md = (env["reports"] / json_path.name.replace(".json", ".md")).read_text()
    assert md.startswith("# Gate report: PASS")
    # Only the release role may promote; the report in the audit DB is found by pair hash.
    refused = promote(env, identity.pair_hash[:12], role="oncall")
    assert refused.exit_code == 1 and "release role" in refused.output
    ok = promote(env, identity.pair_hash[:12])
    assert ok.exit_code == 0, ok.output
    from guardian.core.db import make_engine

    db = make_engine(env["url"])
    state = RouteStateStore(db).get("default")
    assert state.mode == "speculative" and state.pair_hash == identity.pair_hash
    assert state.updated_by == "api-key:release-cli"  # who: the key's name, not an OS user
    assert PairRegistry(db).get(identity.pair_hash)["state"] == "promoted"


def test_promotion_with_a_stale_report_is_refused(env, pair_dirs, tmp_path) -> None:
    assert run_gate(env, pair_dirs("good")).exit_code == 0
    [json_path] = env["reports"].glob("*.json")
    identity = identify(*pair_dirs("good"))
    # 1. the policy changed after the gate ran (a stricter acceptance gate): report is stale
    changed = tmp_path / "policy2.yaml"
    changed.write_text(POLICY.replace("min_alpha: 0.3", "min_acceptance_rate: 0.4"))
    out = promote(env, identity.pair_hash[:12], policy=changed)
    assert out.exit_code == 1 and "stale gate report" in out.output and "policy" in out.output
    # 2. the draft's weights changed: a new pair hash, and the old report does not carry over
    new_draft = tmp_path / "retrained-draft"
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(pair_dirs("good")[0])
    with torch.no_grad():
        next(model.parameters()).add_(0.01)
    model.save_pretrained(new_draft)
    AutoTokenizer.from_pretrained(pair_dirs("good")[0]).save_pretrained(new_draft)
    new_identity = identify(new_draft, pair_dirs("good")[1])
    assert new_identity.pair_hash != identity.pair_hash
    from guardian.core.db import make_engine

    PairRegistry(make_engine(env["url"])).register(new_identity, actor="test")
    out = promote(env, new_identity.pair_hash[:12], report=json_path)
    assert out.exit_code == 1 and "stale gate report" in out.output
    assert "draft weights" in out.output, out.output
    out = promote(env, new_identity.pair_hash[:12])  # nothing in the DB for the new hash either
    assert out.exit_code == 1 and "no gate report" in out.output
    state = RouteStateStore(make_engine(env["url"])).get("default")
    assert state is None  # nothing was promoted


def test_a_pair_whose_tokenizer_differs_is_refused_with_the_reason(env, pair_dirs) -> None:
    with pytest.raises(IncompatiblePairError, match=r"only in the draft vocabulary.*<\|tool\|>"):
        identify(*pair_dirs("other_tokenizer"))
    result = run_gate(env, pair_dirs("other_tokenizer"))
    assert result.exit_code == 2
    assert "not a compatible pair" in result.output and "<|tool|>" in result.output
    assert not env["reports"].exists()


def test_gate_fails_when_the_engine_diverges_and_explains_each_prompt(env, pair_dirs, monkeypatch) -> None:
    real = engine.verify.greedy_accept

    def off_by_one(draft_tokens, target_argmax):
        n, nxt = real(draft_tokens, target_argmax)
        return torch.clamp(n + 1, max=draft_tokens.shape[1]), nxt

    monkeypatch.setattr(engine.verify, "greedy_accept", off_by_one)
    # The fault is in the verifier both engines share (engine/verify.py): the gate fails on
    # the engine that serves by default (continuous batching) as on the one-at-a-time one.
    result = run_gate(env, pair_dirs("good"))
    assert result.exit_code == 1, result.output
    report = json.loads(next(env["reports"].glob("*.json")).read_text())
    failing = [p for p in report["prompts"] if not p["passed"]]
    assert failing and all(p["verdict"] == "divergence" for p in failing)
    assert "target-only emitted" in failing[0]["explanation"]
    md = next(env["reports"].glob("*.md")).read_text()
    assert "## Failing prompts" in md and failing[0]["id"] in md
    check = next(c for c in report["checks"] if c["name"] == "greedy_equivalence")
    assert check["outcome"] == "fail"
    # A failing report never allows promotion.
    out = promote(env, report["pair_hash"][:12])
    assert out.exit_code == 1 and "failed" in out.output


def test_gate_bad_input_exits_2_naming_the_line(env, pair_dirs) -> None:
    env["golden"].write_text('{"id": "a", "prompt": "x"}\n{"id": "b", "promt": "y"}\n')
    result = run_gate(env, pair_dirs("good"))
    assert result.exit_code == 2 and "golden.jsonl:2" in result.output and "promt" in result.output
    with pytest.raises(GoldenError, match="not valid JSON"):
        env["golden"].write_text("{oops\n")
        load_golden(env["golden"])
    bad_policy = env["tmp"] / "bad.yaml"
    bad_policy.write_text(POLICY.replace("min_speedup: 0.0", "min_speedup: fast"))
    env["golden"].write_text(GOLDEN)
    result = run_gate(env, pair_dirs("good"), policy=bad_policy)
    assert result.exit_code == 2 and "bad.yaml:8" in result.output and "min_speedup" in result.output


def test_gate_times_the_kernels_under_the_thread_count_it_settled(env, pair_dirs,
                                                                   monkeypatch) -> None:
    """As `guardian serve` does (LocalEngineBackend.from_settings): "auto" kernels are timed
    once, with the threads that will decode, not at load under torch's current count."""
    from engine import packed

    seen: list[int] = []

    def timed(model, **_):  # type: ignore[no-untyped-def]
        seen.append(torch.get_num_threads())
        return packed.KernelChoice("plain", {"plain": 1.0, "packed": 2.0}, 4)

    monkeypatch.setattr(packed, "choose_kernels", timed)
    monkeypatch.setenv("GUARDIAN_TORCH_THREADS", "1")
    monkeypatch.setenv("GUARDIAN_KERNELS", "auto")
    get_settings.cache_clear()
    before = torch.get_num_threads()
    torch.set_num_threads(2)  # what the load would have timed under
    try:
        result = run_gate(env, pair_dirs("good"))
    finally:
        torch.set_num_threads(before)
    assert result.exit_code == 0, result.output
    assert seen == [1]
