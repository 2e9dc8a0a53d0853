"""After a rollback caused by a fault that shows only in a shared batch, the route cannot be
re-enabled on shadow evidence while the fault is still there; once it is gone, clean
evidence judged under batching lets it back (end to end: real app, continuous batching
backend on a tiny pair, SQLite audit DB through the real writer, the real controller).

Also: the old way (re-runs alone, `shadow.batch_rows: 1`) sees a healthy engine."""

from __future__ import annotations

import threading
import time

import pytest
import torch

from guardian.audit.events import ShadowEvent
from guardian.governance.errors import GovernanceRefused
from guardian.policy import (
    AcceptanceTrigger,
    DivergenceTrigger,
    DriftTrigger,
    GatePolicy,
    LatencyTrigger,
    Policy,
    RoutePolicy,
    ShadowPolicy,
    TriggerPolicy,
)
from tests.faults.continuous_faults import CB_BY_NAME
from tests.support.governance import record_report

KEY = "sg-reenable-inference"
PROMPTS = ["def add(a, b):\n    return", "the quick brown fox", "for i in range(10):\n    ",
           "import os\nimport sys\n", "class Point:\n    def __init__(self", "x = [1, 2, 3]\nprint("]
FAULT = CB_BY_NAME["cb_rows_commit_batch_max_count"]  # shows only beside another row


@pytest.fixture(scope="module")
def tiny_pair(tmp_path_factory):
    from engine import load_pair
    from tests.support.tiny_models import build_tokenizer, make_model, perturb, save

    torch.set_num_threads(1)
    root = tmp_path_factory.mktemp("reenable")
    tok = build_tokenizer()
    target = make_model("llama", len(tok), 3, seed=1, eos_id=tok.eos_token_id)
    draft = perturb(target, 0.05, seed=3)
    return load_pair(save(draft, tok, root / "d"), save(target, tok, root / "t"), device="cpu")


def policy(batch_rows: int) -> Policy:
    triggers = TriggerPolicy(acceptance=AcceptanceTrigger(enabled=False),
                             latency=LatencyTrigger(enabled=False),
                             drift=DriftTrigger(enabled=False),
                             divergence=DivergenceTrigger(failure_limit=1),
                             cooldown_s=0.0, min_batched_evidence=6)
    return Policy(routes={"default": RoutePolicy(
        mode="speculative", triggers=triggers, gate=GatePolicy(require_report=False),
        shadow=ShadowPolicy(sample_rate=1.0, max_new_tokens=32, batch_rows=batch_rows))})


class Sidecar:
    def __init__(self, pair, tmp_path, batch_rows: int) -> None:
        from fastapi.testclient import TestClient

        from guardian.app import build_services, create_app
        from guardian.audit import upgrade
        from guardian.audit.writer import AuditWriter
        from guardian.backends.local import LocalEngineBackend
        from guardian.governance.runtime import attach
        from guardian.security.auth import KeyStore

        url = f"sqlite:///{tmp_path / 'audit.db'}"
        upgrade(url)
        self.backend = LocalEngineBackend(pair, batching=True, max_batch=8,
                                          gamma_by_batch={1: 4})
        self.writer = AuditWriter(url, spool_dir=tmp_path / "spool")
        keys = KeyStore()
        keys.add(KEY, "t", "inference")
        self.policy = policy(batch_rows)
        self.services = build_services(self.backend, self.writer, policy=self.policy, keys=keys)
        self.services.shadow.idle_grace_s = 0.2  # no shadow run between a burst's posts
        self.gov = attach(self.services, url=url, watch_policy=False, start_controller=False)
        record_report(self.gov.db, self.backend.pair_hash, self.policy.content_hash,
                      tmp_path / "spool-gate")
        self.client = TestClient(create_app(services=self.services))
        self.sent = 0

    def burst(self, n: int = 4, max_tokens: int = 24) -> list[dict]:
        outs: list[dict] = [{}] * n
        barrier = threading.Barrier(n)

        def post(k: int) -> None:
            barrier.wait()
            r = self.client.post("/v1/completions", headers={"Authorization": f"Bearer {KEY}"},
                                 json={"model": self.backend.model_name,
                                       "prompt": PROMPTS[(self.sent + k) % len(PROMPTS)],
                                       "max_tokens": max_tokens + 3 * k, "temperature": 0})
            assert r.status_code == 200, r.text
            outs[k] = r.json()

        threads = [threading.Thread(target=post, args=(k,)) for k in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.sent += n
        self.wait_for_verdicts([o["id"] for o in outs])
        self.gov.controller.evaluate("default")
        return outs

    def verdicts(self) -> list[ShadowEvent]:
        return [e for e in self.writer_events if isinstance(e, ShadowEvent)]

    @property
    def writer_events(self) -> list:
        return self._seen

    def wait_for_verdicts(self, ids: list[str], timeout_s: float = 120.0) -> None:
        deadline = time.monotonic() + timeout_s
        dropped = self.services.shadow.dropped
        while time.monotonic() < deadline:
            done = {e.request_id for e in self._seen if isinstance(e, ShadowEvent)}
            if set(ids) <= done:
                return
            if self.services.shadow.dropped > dropped and self.services.shadow.depth == 0:
                deadline = min(deadline, time.monotonic() + 5.0)  # one was dropped: move on
            time.sleep(0.05)

    def reenable(self) -> None:
        self.writer.flush()
        self.gov.controller.reenable("default", actor="oncall-1", role="oncall",
                                     reason="fixed?", force=True)

    def mode(self) -> str:
        return self.gov.controller.decide_mode("default").mode

    def close(self) -> None:
        from guardian.app import close_services

        self.client.close()
        close_services(self.services)
        self.gov.close()


@pytest.fixture
def sidecar_factory(tiny_pair, tmp_path, monkeypatch):
    from tests.faults.runner import env_for_suite

    made: list[Sidecar] = []
    with env_for_suite():
        def make(batch_rows: int) -> Sidecar:
            s = Sidecar(tiny_pair, tmp_path / f"s{len(made)}", batch_rows)
            # Every audit event the shadow and serving submit, in memory too.
            s._seen = []
            inner = s.services.shadow.sink.submit

            def submit(event, inner=inner, s=s):
                s._seen.append(event)
                return inner(event)

            s.services.shadow.sink.submit = submit  # type: ignore[method-assign]
            made.append(s)
            return s

        yield make
        for s in made:
            s.close()


def roll_back(s: Sidecar) -> None:
    for _ in range(8):
        s.burst()
        if s.mode() == "target_only":
            return
    raise AssertionError("the batch-only fault never rolled the route back")


def since_rollback(s: Sidecar, before: int) -> list[ShadowEvent]:
    return [e for e in s.verdicts()[before:]]


@pytest.mark.slow
@pytest.mark.e2e
def test_a_batch_only_fault_keeps_the_route_off_until_it_is_gone(sidecar_factory) -> None:
    s = sidecar_factory(batch_rows=4)
    with FAULT.inject():
        roll_back(s)
        before = len(s.verdicts())
        for _ in range(3):  # served target-only now; the shadow re-runs speculatively
            s.burst()
        after = since_rollback(s, before)
        assert after and all(e.shadow_path == "speculative" for e in after)
        assert any(e.stats["batch"]["shared_spec_steps"] > 0 for e in after), \
            [e.stats["batch"] for e in after]
        assert any(e.verdict == "divergence" for e in after), [e.verdict for e in after]
        with pytest.raises(GovernanceRefused, match="the fault is still there"):
            s.reenable()
        assert s.mode() == "target_only"
        analysis = s.gov.controller.analysis("default")
        assert analysis["verdict"] == "fail"
    # The fault is gone: once clean verdicts judged in shared batches follow the last
    # failure, the route may come back.
    for _ in range(6):
        s.burst()
        try:
            s.reenable()
            break
        except GovernanceRefused:
            continue
    assert s.mode() == "speculative"


@pytest.mark.slow
@pytest.mark.e2e
def test_re_runs_judged_alone_see_a_healthy_engine_and_cannot_re_enable(sidecar_factory):
    s = sidecar_factory(batch_rows=1)  # the old behaviour: every re-run alone
    with FAULT.inject():
        roll_back(s)
        before = len(s.verdicts())
        for _ in range(3):
            s.burst()
        after = since_rollback(s, before)
        # Alone, the batch-only fault is invisible: every verdict since the rollback is clean.
        assert after and all(e.verdict == "match" for e in after), [e.verdict for e in after]
        assert all(e.stats["batch"]["shared_spec_steps"] == 0 for e in after)
        # ... and that clean evidence is not enough: none of it was judged in a batch.
        with pytest.raises(GovernanceRefused, match="judged in a shared batch"):
            s.reenable()
