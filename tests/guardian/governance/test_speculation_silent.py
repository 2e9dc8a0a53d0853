"""Speculation that silently stops is a named speed anomaly: a speculative route whose served
requests propose nothing over `triggers.silent_window` raises `speculation_silent` with its
reason (gauge, speed-anomaly count, `GuardianSpeculationSilent` alert), within one window."""

from __future__ import annotations

import shutil
import subprocess
import threading
from pathlib import Path

import pytest
import yaml

from guardian.governance.silent import SilentSpeculationWatch
from guardian.policy import Policy, RoutePolicy, TriggerPolicy
from tests.faults.judging_faults import JUDGING_BY_NAME
from tests.support.governance import request_event

PROMTOOL = shutil.which("promtool")


def _policy(window: int = 5) -> Policy:
    return Policy(routes={"default": RoutePolicy(mode="speculative",
                                                 triggers=TriggerPolicy(silent_window=window))})


def _silent(capped: bool = True):
    e = request_event(drafted=0, accepted=0)
    e.stats = {"proposed_tokens": 0, "accepted": 0, "steps": 8,
               "capped_steps": 8 if capped else 0}
    return e


def test_a_full_window_of_no_proposals_raises_it_with_the_depth_cap_as_reason() -> None:
    watch = SilentSpeculationWatch(_policy)
    for _ in range(4):
        watch.observe(_silent())
    assert watch.status() == {}  # the window is not full yet
    watch.observe(_silent())
    assert watch.status()["default"] == {"anomaly": "speculation_silent",
                                         "kind": "proposes_nothing", "reason": "depth_cap",
                                         "window": 5}
    [row] = watch.gauge_rows()
    assert row[0] == "guardian_speculation_silent" and row[3] == 1.0
    assert row[2] == {"route": "default", "kind": "proposes_nothing", "reason": "depth_cap"}
    watch.observe(request_event(drafted=40, accepted=30))  # speculates again
    assert watch.status() == {} and watch.gauge_rows()[0][3] == 0.0


def test_accepting_nothing_load_shedding_and_other_modes() -> None:
    watch = SilentSpeculationWatch(_policy)
    for _ in range(5):
        watch.observe(request_event(drafted=40, accepted=0))
    assert watch.status()["default"]["kind"] == "accepts_nothing"
    shed = SilentSpeculationWatch(_policy)
    for _ in range(5):
        e = _silent(capped=False)
        e.fallback_reason = "load_shed"
        shed.observe(e)
    assert shed.status()["default"]["reason"] == "load_shed"
    off = SilentSpeculationWatch(_policy)
    for _ in range(5):
        e = _silent()
        e.mode = "target_only"
        off.observe(e)
    assert off.status() == {}  # a target-only route proposing nothing is as it should be
    mixed = SilentSpeculationWatch(_policy)
    for i in range(10):
        mixed.observe(request_event(drafted=40 if i == 7 else 0, accepted=10 if i == 7 else 0))
    assert mixed.status() == {}  # one speculating request in every window: not silent


def test_the_alert_rule_passes_promtool_and_fires_on_the_gauge(tmp_path: Path) -> None:
    if PROMTOOL is None:
        pytest.skip("promtool not installed (Debian package `prometheus`; .ci/run installs it)")
    from guardian.alerts.rules import render

    (tmp_path / "rules.yaml").write_text(render(Policy()))
    out = subprocess.run([PROMTOOL, "check", "rules", str(tmp_path / "rules.yaml")],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    labels = {"route": "default", "kind": "proposes_nothing", "reason": "depth_cap"}
    series = ('guardian_speculation_silent{route="default",kind="proposes_nothing",'
              'reason="depth_cap"}')
    tests = {"rule_files": ["rules.yaml"], "evaluation_interval": "1m", "tests": [{
        "interval": "1m",
        "input_series": [{"series": series, "values": "0x3 1x5"}],
        "alert_rule_test": [
            {"eval_time": "2m", "alertname": "GuardianSpeculationSilent", "exp_alerts": []},
            {"eval_time": "5m", "alertname": "GuardianSpeculationSilent", "exp_alerts": [{
                "exp_labels": {"severity": "warning", **labels},
                "exp_annotations": None}]}]}]}
    spec = tests["tests"][0]["alert_rule_test"][1]["exp_alerts"][0]
    from guardian.alerts.rules import rules

    rule = next(r for g in rules(Policy())["groups"] for r in g["rules"]
                if r.get("alert") == "GuardianSpeculationSilent")
    ann = {}
    for k, v in rule["annotations"].items():
        for name, value in labels.items():
            v = v.replace("{{ $labels." + name + " }}", value)
        ann[k] = v
    spec["exp_annotations"] = ann
    (tmp_path / "t.yaml").write_text(yaml.safe_dump(tests))
    out = subprocess.run([PROMTOOL, "test", "rules", str(tmp_path / "t.yaml")],
                         capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr


# --- the fault through the real app: the depth cap stuck at 0 (tiny pair) -------------------
@pytest.fixture(scope="module")
def tiny_pair(tmp_path_factory):
    import torch

    from engine import load_pair
    from tests.support.tiny_models import build_tokenizer, make_model, perturb, save

    torch.set_num_threads(1)
    root = tmp_path_factory.mktemp("silent")
    tok = build_tokenizer()
    target = make_model("llama", len(tok), 3, seed=1, eos_id=tok.eos_token_id)
    return load_pair(save(perturb(target, 0.05, seed=3), tok, root / "d"),
                     save(target, tok, root / "t"), device="cpu")


def _sidecar(pair):
    from fastapi.testclient import TestClient

    from guardian.app import build_services, create_app
    from guardian.audit import MemorySink
    from guardian.backends.local import LocalEngineBackend
    from guardian.governance.observing import ObservingSink
    from guardian.governance.rollback import RollbackController
    from guardian.governance.routestate import RouteStateStore
    from guardian.observability.telemetry import Telemetry
    from guardian.policy import GatePolicy, ShadowPolicy

    policy = Policy(routes={"default": RoutePolicy(
        mode="speculative", gate=GatePolicy(require_report=False),
        shadow=ShadowPolicy(sample_rate=0.0), triggers=TriggerPolicy(silent_window=8))})
    backend = LocalEngineBackend(pair, batching=True, max_batch=8, gamma_by_batch={1: 4})
    sink, telemetry = MemorySink(), Telemetry()
    import sqlalchemy as sa

    from guardian.audit import upgrade

    return backend, policy, sink, telemetry, TestClient, build_services, create_app, \
        ObservingSink, RollbackController, RouteStateStore, sa, upgrade


@pytest.mark.slow
@pytest.mark.parametrize("inject", [False, True], ids=["clean", "cap_stuck_at_0"])
def test_the_depth_cap_stuck_at_0_raises_it_and_its_gauge_within_one_window(
        tiny_pair, tmp_path, inject) -> None:
    import contextlib

    (backend, policy, sink, telemetry, TestClient, build_services, create_app, ObservingSink,
     RollbackController, RouteStateStore, _sa, upgrade) = _sidecar(tiny_pair)
    from guardian.core.db import make_engine
    from tests.faults.runner import env_for_suite

    url = f"sqlite:///{tmp_path / 'a.db'}"
    upgrade(url)
    db = make_engine(url)
    controller = RollbackController(RouteStateStore(db), sink, lambda: policy,
                                    pair_hash=backend.pair_hash, telemetry=telemetry)
    fault = JUDGING_BY_NAME["cb_depth_cap_stuck_at_zero"]
    with env_for_suite(), (fault.inject() if inject else contextlib.nullcontext()):
        services = build_services(backend, ObservingSink(sink, controller), policy=policy,
                                  telemetry=telemetry)
        client = TestClient(create_app(services=services))
        try:
            for _ in range(2):  # 2 bursts of 4: one window of 8 served requests
                threads = [threading.Thread(target=lambda k=k: client.post(
                    "/v1/completions", json={"model": backend.model_name,
                                             "prompt": f"def f{k}(x):", "max_tokens": 12,
                                             "temperature": 0})) for k in range(4)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
            metrics = client.get("/metrics").text
        finally:
            client.close()
            from guardian.app import close_services

            close_services(services)
            db.dispose()
    line = [m for m in metrics.splitlines() if m.startswith("guardian_speculation_silent{")]
    assert line, metrics[:2000]
    if inject:
        assert controller.silent.status()["default"]["reason"] == "depth_cap"
        assert any('kind="proposes_nothing"' in m and m.endswith(" 1.0") for m in line), line
        assert "speculation_silent" in metrics  # the speed-anomaly counter too
    else:
        assert controller.silent.status() == {}
        assert all(m.endswith(" 0.0") for m in line), line
