"""`guardian.cli.quickstart`: when it applies, and the first-run gate over a tiny real pair — the
real gate runs, its report (pass or fail) is recorded in the audit store, the route's mode
follows that report, and a second start finds it instead of running again."""

from __future__ import annotations

from pathlib import Path

import pytest

from guardian.cli import quickstart
from guardian.settings import Settings

GATED = """
default_route: default
routes:
  default: {mode: target_only}
  code:
    mode: speculative
    models: [code]
    gate: {require_report: true, max_new_tokens: 8, min_speedup: 0.0, min_alpha: 0.0}
"""


def test_applies_only_to_the_embedded_open_loopback_quickstart(tmp_path: Path) -> None:
    base = {"home": tmp_path}
    assert quickstart.applies(Settings(**base))
    assert not quickstart.applies(Settings(**base, database_url="postgresql://x@127.0.0.1/db"))
    assert not quickstart.applies(Settings(**base, host="0.0.0.0"))
    keys = tmp_path / "keys.yaml"
    keys.write_text("keys: []\n")
    assert not quickstart.applies(Settings(**base, api_keys_file=keys))


def test_only_gated_speculative_routes_wait_for_the_gate(tmp_path: Path) -> None:
    from guardian.policy import load_policy

    (tmp_path / "p.yaml").write_text(GATED)
    assert quickstart.gated_routes(load_policy(tmp_path / "p.yaml")) == ["code"]
    assert quickstart.gated_routes(load_policy()) == ["code"]  # the packaged default policy
    out = quickstart.ensure_gate_report(Settings(home=tmp_path), load_policy(
        Path(__file__).resolve().parents[3] / "policies" / "examples" / "demo.yaml"))
    assert out.routes == [] and not out.ran  # ungated demo policy: nothing to do, no pair load


@pytest.mark.integration
@pytest.mark.timeout(600)
def test_first_run_gate_records_a_report_and_the_route_follows_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlalchemy as sa

    from guardian.audit.models import AuditGovernance
    from guardian.core.db import make_engine
    from guardian.governance.gatecheck import gate_refusal
    from guardian.policy import load_policy
    from tests.support.tiny_models import build_tokenizer, make_model, perturb, save

    tok = build_tokenizer()
    target = make_model("llama", len(tok), 2, seed=1, eos_id=tok.eos_token_id)
    draft_dir = save(perturb(target, 0.02, seed=3), tok, tmp_path / "draft")
    target_dir = save(target, tok, tmp_path / "target")
    (tmp_path / "p.yaml").write_text(GATED)
    policy = load_policy(tmp_path / "p.yaml")
    settings = Settings(home=tmp_path / "home", draft_dir=draft_dir, target_dir=target_dir,
                        torch_threads=1)
    started, seen = [], []
    import threading

    engines = {t for t in threading.enumerate() if t.name == "engine-batch"}
    out = quickstart.ensure_gate_report(settings, policy,
                                        on_start=lambda msg, n: started.append((msg, n)),
                                        on_prompt=seen.append)
    golden = Path(__file__).resolve().parents[3] / "policies" / "golden" / "python-code.jsonl"
    prompts = sum(1 for line in golden.read_text().splitlines() if line.strip())
    # progress per judged run: each prompt alone, then in the serving engine's shared batches
    assert out.ran and started and len(seen) >= started[0][1] > prompts
    assert sum(r.phase == "alone" for r in seen) == prompts
    assert "golden set python-code.jsonl" in started[0][0]
    db = make_engine(settings.resolved_database_url)
    t = AuditGovernance.__table__
    with db.connect() as conn:
        rows = conn.execute(sa.select(t.c.actor, t.c.pair_hash, t.c.policy_hash, t.c.details)
                            .where(t.c.kind == "gate_result")).all()
    assert len(rows) == 1 and rows[0].actor == quickstart.ACTOR
    assert (rows[0].pair_hash, rows[0].policy_hash) == (out.pair_hash, policy.content_hash)
    assert rows[0].details["passed"] is out.passed
    # Its records are covered by a signed head: `guardian audit verify` (with heads) passes.
    from guardian.audit.heads import read_heads
    from guardian.audit.signing import key_paths, load_trust
    from guardian.audit.verify import verify_db

    heads = read_heads(settings.resolved_heads_dir, load_trust(key_paths(settings)[1]))
    assert heads[0] or heads[1]
    rep = verify_db(db, heads=heads, grace_s=0)
    assert rep.ok, rep.summary() if hasattr(rep, "summary") else rep
    # The mode rule itself agrees with what the quickstart reported.
    assert (gate_refusal(db, out.pair_hash, policy.content_hash) is None) is out.passed
    assert (out.refusal is None) is out.passed
    from guardian.backends import local

    loads: list[object] = []
    real_load = local.LocalEngineBackend.from_settings
    local.LocalEngineBackend.from_settings = classmethod(  # type: ignore[method-assign]
        lambda cls, s: loads.append(s) or real_load.__func__(cls, s))
    try:
        again = quickstart.ensure_gate_report(settings, policy)
    finally:
        local.LocalEngineBackend.from_settings = real_load  # type: ignore[method-assign]
    # A found report is found by the pair's identity: the pair is not loaded a second time.
    assert loads == ([] if out.passed else [settings])
    # Neither call leaves the backend it opened running, the later start's (a report found,
    # no gate run) included: its engine thread would keep a second copy of the pair alive
    # beside the app's for the server's life.
    assert {t for t in threading.enumerate() if t.name == "engine-batch"} <= engines
    if out.passed:
        assert not again.ran and again.refusal is None  # found, not re-run
    else:
        assert again.ran  # a failing report is evidence of nothing: the next start tries again
    # What `guardian serve` prints on a later start.
    from guardian.cli.serve import _first_run_gate

    capsys.readouterr()
    _first_run_gate(settings, policy)
    err = " ".join(capsys.readouterr().err.split())
    if out.passed:
        assert "gate passed" in err and "recorded earlier" in err and "code serve speculatively" in err
        assert "First run" not in err
    else:
        assert "First run" in err and "route(s) code serve target_only" in err
    # After a rollback the start says the route serves target_only (it said "gate passed:
    # code serves speculatively" while the route state kept it off).
    from guardian.governance.routestate import RouteStateStore

    RouteStateStore(db).set_mode("code", "target_only", actor="api-key:oncall",
                                 reason="INC-7 divergences")
    _first_run_gate(settings, policy)
    err = " ".join(capsys.readouterr().err.split())
    assert "code serve speculatively" not in err
    assert "route code serves target_only" in err and "INC-7 divergences" in err
    assert "guardian route enable code" in err
    db.dispose()
