"""The fault-injection runner: real serving + shadow path, one fault at a time, and a clean run.

Each fault runs inside its context manager (tests/faults/faults.py) against a fresh set of
services (`guardian.app.build_services`: serving core, shadow evaluator, in-memory audit
sink) wrapped in the real FastAPI app, driven with Starlette's TestClient: every request is a
real `POST /v1/completions` on a route that serves speculatively and shadows every request
(`sample_rate: 1.0`), so the shadow evaluator re-runs it target-only and records a verdict.

Measured per correctness fault: the requests of its kind until the first correctness verdict
(`ALARMS`) and which check produced it (stopping at the first catch or at `limit`); per
speed-only fault: the correctness verdicts over `limit` requests (must be 0) and the served
acceptance; for the clean run: correctness verdicts (false alarms) over N mixed requests.
Optionally each fault's `guardian gate` result on the golden set, run under the fault.

`batching="continuous"` loads the backend as `guardian serve` does by default (one
continuously batched engine, engine/batching.py) with the depth cap pinned, and
`concurrency` > 1 sends requests in bursts of that many at once (threads released together),
so their rows share the engine's batch: the cross-row faults of
tests/faults/continuous_faults.py show only then. Each burst's shadow verdicts are awaited
before the next burst (the shadow runs target-only while serving is idle).
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tests.faults.continuous_faults import CB_BY_NAME, CB_FAULTS
from tests.faults.faults import BY_NAME, FAULTS, Fault
from tests.faults.traffic import EOS_MAX_TOKENS, RequestSpec, Traffic, eos_candidates, screen_eos, stream_for

# Verdicts that say "speculation changed the output". Anything else (match, distribution_ok,
# near_tie, inconclusive or speed-only verdicts) is not a correctness alarm.
ALARMS = frozenset({"divergence", "distribution_mismatch"})
KEY = "sg-faults-inference"
ROUTE = "default"


def alarm_verdicts() -> frozenset[str]:
    """ALARMS plus any correctness verdict the evaluator declares (guardian.core.enums)."""
    try:
        from guardian.core import enums

        declared = getattr(enums, "CORRECTNESS_VERDICTS", None)
    except ImportError:  # pragma: no cover
        declared = None
    return ALARMS | frozenset(declared or ())


@dataclass(slots=True)
class Observation:
    index: int
    kind: str
    features: list[str]
    verdict: str
    check: str | None
    alarm: bool
    alpha: float | None
    completion_tokens: int
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class FaultResult:
    name: str
    kind: str
    category: str
    area: str
    requests: int  # requests sent
    first_catch: int | None  # 1-based request index of the first correctness verdict
    caught_by: str | None
    alarms: int
    near_ties: int
    verdicts: dict[str, int]
    mean_alpha: float | None
    seconds: float
    gate: dict[str, Any] | None = None
    speed_anomalies: int = 0  # requests with a speed-only anomaly recorded (never an alarm)

    @property
    def ok(self) -> bool:
        if self.category == "speed":
            return self.alarms == 0
        return self.first_catch is not None


def assert_fault_outcome(result: FaultResult, obs: list[Observation], *,
                         within: int = 40) -> None:
    """The suite's rule in a test: a correctness fault is caught within `within` requests of
    its kind; a speed-only fault raises no alarm."""
    if result.category == "correctness":
        assert result.first_catch is not None and result.first_catch <= within, result
    else:
        assert result.alarms == 0, [o for o in obs if o.alarm]


def check_name(event: Any) -> str | None:
    """Which check produced a verdict, as the evaluator recorded it."""
    stats = event.stats or {}
    for key in ("failed_check", "check_failed", "reason", "check"):
        value = stats.get(key)
        if isinstance(value, str) and value:
            return value
    if stats.get("length_mismatch"):
        return "length_mismatch"
    return None


class Harness:
    """A real app (serving + shadow) over a loaded backend; one per fault, so no acceptance
    window or route state leaks from one fault into the next."""

    def __init__(self, backend: Any, *, shadow_max_tokens: int = 64,
                 idle_grace_s: float | None = None) -> None:
        from fastapi.testclient import TestClient

        from guardian.app import build_services, create_app
        from guardian.policy import GatePolicy, Policy, RoutePolicy, ShadowPolicy
        from guardian.security.auth import KeyStore
        from tests.support.fakes import ListSink

        self.backend = backend
        self.sink = ListSink()
        keys = KeyStore()
        keys.add(KEY, "faults", "inference")
        policy = Policy(routes={ROUTE: RoutePolicy(
            mode="speculative",
            shadow=ShadowPolicy(sample_rate=1.0, max_new_tokens=shadow_max_tokens),
            gate=GatePolicy(require_report=False))})
        self.services = build_services(backend, self.sink, policy=policy, keys=keys)
        self.client = TestClient(create_app(services=self.services))
        self.alarms = alarm_verdicts()
        if idle_grace_s is not None:  # bursts: no shadow run in the gap between two posts
            self.services.shadow.idle_grace_s = idle_grace_s

    def close(self) -> None:
        from guardian.app import close_services

        self.client.close()
        batcher = getattr(self.backend, "batcher", None)
        close_services(self.services)  # shuts the backend down (a batching one's engine thread)
        if batcher is not None:
            # The backend outlives this harness (the next fault's, the clean run's): give it a
            # fresh engine thread and batch, with the same depth cap (already calibrated).
            from engine.batching import BatchScheduler

            self.backend.batcher = BatchScheduler(self.backend.pair, max_batch=batcher.max_batch,
                                                  gamma=batcher.gamma)

    def send(self, spec: RequestSpec, index: int, timeout_s: float = 300.0) -> Observation:
        return self._observe(spec, index, self._post(spec, index), timeout_s)

    def send_many(self, specs: list[RequestSpec], first_index: int,
                  timeout_s: float = 300.0) -> list[Observation]:
        """Send `specs` at once (one thread each, released together, so a batching backend
        decodes them in one batch), then wait for each one's shadow verdict."""
        if len(specs) == 1:
            return [self.send(specs[0], first_index, timeout_s)]
        outs: list[Any] = [None] * len(specs)
        errors: list[BaseException] = []
        gate = threading.Barrier(len(specs))

        def post(k: int) -> None:
            try:
                gate.wait()
                outs[k] = self._post(specs[k], first_index + k)
            except BaseException as exc:  # re-raised below, on the caller's thread
                errors.append(exc)

        threads = [threading.Thread(target=post, args=(k,)) for k in range(len(specs))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
        return [self._observe(spec, first_index + k, outs[k], timeout_s)
                for k, spec in enumerate(specs)]

    def _post(self, spec: RequestSpec, index: int) -> dict[str, Any]:
        r = self.client.post("/v1/completions", json=spec.body(self.backend.model_name),
                             headers={"Authorization": f"Bearer {KEY}"})
        if r.status_code != 200:
            raise RuntimeError(f"request {index} failed: HTTP {r.status_code} {r.text[:300]}")
        return r.json()

    def _observe(self, spec: RequestSpec, index: int, out: dict[str, Any],
                 timeout_s: float) -> Observation:
        from guardian.audit.events import ShadowEvent

        rid = out["id"]
        deadline = time.monotonic() + timeout_s
        dropped = self.services.shadow.dropped
        while not (events := self.sink.of(ShadowEvent, rid)):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no shadow verdict for request {index} in {timeout_s:.0f} s")
            if self.services.shadow.dropped > dropped:
                dropped = self.services.shadow.dropped
                if not self.sink.of(ShadowEvent, rid):  # a drop may be another request's
                    deadline = min(deadline, time.monotonic() + 30.0)
            time.sleep(0.01)
        event = events[0]
        stats = out.get("spec_guardian", {}).get("stats", {})
        keep = ("compared_tokens", "length_mismatch", "max_tv", "acceptance_test",
                "acceptance_z", "failed_check", "logit_disagreement", "finish_reasons",
                "speed_anomalies", "seed_replay")
        return Observation(index, spec.kind, sorted(spec.features), event.verdict,
                           check_name(event), event.verdict in self.alarms, stats.get("alpha"),
                           int(out.get("usage", {}).get("completion_tokens", 0)),
                           {k: event.stats[k] for k in keep if k in (event.stats or {})})


# The continuous engine's depth cap in the suite: pinned (every batch size speculates at up to
# this depth), so whether a fault can show does not depend on a cap learnt from timings on a
# busy machine. `guardian serve` models the cap from measured step costs; at a load where it
# turns speculation off, a speculative-step fault is dormant (and harmless).
CONTINUOUS_GAMMA_CAP = 4
# Serving idle this long before a shadow run starts, in bursts (the default 50 ms could fall
# between two posts of one burst and get the shadow run preempted, then dropped).
BURST_IDLE_GRACE_S = 0.2


def backend_options(batching: str = "off", max_batch: int = 16,
                    gamma_by_batch: dict[int, int] | None = None) -> dict[str, Any]:
    """LocalEngineBackend.load options for `batching` ("off" or "continuous");
    `gamma_by_batch`: the depth cap per batch size (default: CONTINUOUS_GAMMA_CAP at every
    size; a cap that falls with load shows what load-dependent depths do to seeded rows)."""
    if batching == "off":
        return {}
    if batching != "continuous":
        raise ValueError(f"batching is 'off' or 'continuous', got {batching!r}")
    return {"batching": True, "max_batch": max_batch,
            "gamma_by_batch": gamma_by_batch or {1: CONTINUOUS_GAMMA_CAP}}


def parse_gamma_by_batch(text: str) -> dict[int, int]:
    """"1:4,3:0" -> {1: 4, 3: 0} (batch size from which a cap holds: cap)."""
    out: dict[int, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        size, _, cap = part.partition(":")
        out[int(size)] = int(cap)
    if 1 not in out:
        raise ValueError(f"--gamma-by-batch {text!r} needs a cap for batch size 1")
    return out


def faults_for(batching: str) -> list[Fault]:
    """The faults injected into the engine that serves with `batching`."""
    return list(CB_FAULTS) if batching == "continuous" else list(FAULTS)


def fault_named(name: str) -> Fault:
    return BY_NAME.get(name) or CB_BY_NAME[name]


def load_backend(home: str | None = None, batching: str = "off",
                 gamma_by_batch: dict[int, int] | None = None) -> Any:
    """The demo pair under `home`; `home` "DRAFT_DIR,TARGET_DIR" loads that pair instead.
    `batching` "continuous": the continuously batched engine `guardian serve` runs by default."""
    from engine.demo_pair import ensure_demo_pair
    from guardian.backends.local import LocalEngineBackend

    options = backend_options(batching, gamma_by_batch=gamma_by_batch)
    if home and "," in home:
        draft, target = home.split(",", 1)
    else:
        paths = ensure_demo_pair(home or os.environ.get("GUARDIAN_HOME", "~/.cache/spec-guardian"))
        draft, target = str(paths.draft_dir), str(paths.target_dir)
    backend = LocalEngineBackend.load(draft, target, device="cpu", **options)
    # The one-request path's KV caches (engine.static), as GUARDIAN_DECODE picks them for
    # `guardian serve` (--decode sets it); unset: transformers' DynamicCache.
    decode = os.environ.get("GUARDIAN_DECODE", "dynamic")
    if decode == "auto":
        from engine.loading import choose_decode

        choose_decode(backend.pair)
    else:
        backend.pair.decode = decode
    return backend


# The continuous suite's spread of max_tokens (see Traffic.max_tokens_spread).
CONTINUOUS_MAX_TOKENS_SPREAD = 7


def build_traffic(backend: Any, *, n_eos: int = 12) -> Traffic:
    """Traffic over this pair: EOS prompts screened on the (fault-free) target. Over a
    batching backend, plain requests' max_tokens vary (Traffic.max_tokens_spread)."""
    from guardian.backends import BackendRequest

    eos_id = backend.pair.tokenizer.eos_token_id

    def ends_with_eos(prompt: str) -> bool:
        res = backend.generate(BackendRequest(prompt_ids=backend.encode(prompt),
                                              max_new_tokens=EOS_MAX_TOKENS,
                                              speculative=False))
        return bool(res.token_ids) and res.token_ids[-1] == eos_id

    traffic = Traffic.build(screen_eos(eos_candidates(), ends_with_eos, want=n_eos))
    if getattr(backend, "batcher", None) is not None:
        traffic.max_tokens_spread = CONTINUOUS_MAX_TOKENS_SPREAD
    return traffic


def _bursts(stream: Any, n: int, size: int) -> Any:
    """(index of the first, specs) for the first `n` specs of `stream`, `size` at a time."""
    sent = 0
    while sent < n:
        chunk = [next(stream) for _ in range(min(size, n - sent))]
        yield sent + 1, chunk
        sent += len(chunk)


def run_fault(backend: Any, traffic: Traffic, fault: Fault, *, limit: int = 40, seed: int = 0,
              stop_at_catch: bool = True, concurrency: int = 1, log: Any = print,
              ) -> tuple[FaultResult, list[Observation]]:
    """`concurrency` > 1: bursts of that many concurrent requests (a catch is counted at the
    first alarming request of the first alarming burst; the rest of that burst is sent too)."""
    harness = Harness(backend, idle_grace_s=BURST_IDLE_GRACE_S if concurrency > 1 else None)
    obs: list[Observation] = []
    started = time.perf_counter()
    try:
        with fault.inject():
            stream = stream_for(traffic, fault.kind, fault.needs, seed)
            for first, specs in _bursts(stream, limit, max(1, concurrency)):
                got = harness.send_many(specs, first)
                obs += got
                if any(o.alarm for o in got) and stop_at_catch and fault.category == "correctness":
                    break
    finally:
        harness.close()
    first = next((o for o in obs if o.alarm), None)
    alphas = [o.alpha for o in obs if o.alpha is not None]
    result = FaultResult(
        fault.name, fault.kind, fault.category, fault.area, len(obs),
        first.index if first else None,
        (first.verdict + (f" ({first.check})" if first.check else "")) if first else None,
        sum(o.alarm for o in obs), sum(o.verdict == "near_tie" for o in obs),
        dict(Counter(o.verdict for o in obs)),
        sum(alphas) / len(alphas) if alphas else None, time.perf_counter() - started,
        speed_anomalies=sum(bool(o.details.get("speed_anomalies")) for o in obs))
    outcome = f"caught at request {result.first_catch}" if result.first_catch else "no alarm"
    log(f"  {fault.name}: {outcome} ({result.caught_by or '-'}); verdicts {result.verdicts}; "
        f"{result.seconds:.0f} s")
    return result, obs


def run_clean(backend: Any, traffic: Traffic, n: int, *, seed: int = 1, budget_s: float | None = None,
              concurrency: int = 1, log: Any = print) -> tuple[dict[str, Any], list[Observation]]:
    """`n` clean mixed requests (fewer when `budget_s` runs out first: the summary says how
    many were sent and that the budget stopped it), in bursts of `concurrency`."""
    harness = Harness(backend, idle_grace_s=BURST_IDLE_GRACE_S if concurrency > 1 else None)
    obs: list[Observation] = []
    started = time.perf_counter()
    try:
        for first, specs in _bursts(traffic.mixed(seed), n, max(1, concurrency)):
            if budget_s is not None and time.perf_counter() - started > budget_s:
                break
            before = len(obs)
            obs += harness.send_many(specs, first)
            if len(obs) // 50 > before // 50:
                log(f"  clean: {len(obs)}/{n} requests, {sum(o.alarm for o in obs)} false "
                    f"alarms ({time.perf_counter() - started:.0f} s)")
    finally:
        harness.close()
    features = Counter(f for o in obs for f in o.features)
    summary = {"requests": len(obs), "false_alarms": sum(o.alarm for o in obs),
               "alarm_requests": [asdict(o) for o in obs if o.alarm],
               "verdicts": dict(Counter(o.verdict for o in obs)),
               "greedy": sum(o.kind == "greedy" for o in obs),
               "sampled": sum(o.kind == "sampled" for o in obs),
               "with_feature": dict(features), "seconds": time.perf_counter() - started,
               "asked": n, "stopped_by_budget": len(obs) < n,
               # sampled requests the shadow also replayed with their seed (seed_replay)
               "seed_replays": sum("seed_replay" in o.details for o in obs),
               "seed_replay_tokens": sum(o.details.get("seed_replay", {}).get("compared_tokens", 0)
                                         for o in obs)}
    return summary, obs


def run_gate_under(backend: Any, fault: Fault | None, golden: Path) -> dict[str, Any]:
    """`guardian gate`'s checks on the golden set, with `fault` injected (None: clean)."""
    from guardian.governance.gates import run_gate
    from guardian.governance.golden import load_golden
    from guardian.policy import GatePolicy

    prompts = load_golden(golden)
    with fault.inject() if fault else contextlib.nullcontext():
        report = run_gate(backend, prompts, GatePolicy(), policy_hash="faults", route=ROUTE,
                          golden_file=golden)
    return {"passed": report.passed,
            "failed_checks": [c.name for c in report.checks if c.outcome == "fail"],
            "failing_prompts": [f"{p.id}: {p.verdict}" for p in report.failing_prompts]}


def run_gates(*, faults: list[Fault], golden: Path, home: str | None = None, out: Path | None = None,
              batching: str = "off", log: Any = print) -> dict[str, Any]:
    """The gate on the golden set, clean and under each fault (no traffic), written as it goes."""
    backend = load_backend(home, batching)
    results: dict[str, Any] = {}
    for fault in [None, *faults]:
        name = fault.name if fault else "(clean)"
        results[name] = run_gate_under(backend, fault, golden)
        log(f"  gate {name}: {'PASS' if results[name]['passed'] else 'FAIL'} "
            f"{results[name]['failed_checks']} {results[name]['failing_prompts']}")
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            (out / "gates.json").write_text(json.dumps(results, indent=2))
    return results


def machine() -> str:
    import torch

    cpus = os.cpu_count()
    return (f"{platform.machine()} CPU x{cpus} ({platform.processor() or platform.system()}), "
            f"torch {torch.__version__} {torch.get_num_threads()} thread(s), "
            f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '-')}, python "
            f"{platform.python_version()}")


@dataclass(slots=True)
class SuiteResult:
    faults: list[FaultResult]
    clean: dict[str, Any] | None
    limit: int
    command: str
    machine: str
    pair: dict[str, Any]
    evaluator: str
    gate_clean: dict[str, Any] | None = None
    seconds: float = 0.0
    batching: str = "off"  # the engine the faults were injected into (see load_backend)
    concurrency: int = 1  # requests per burst
    # the continuous engine's depth cap per batch size (None: CONTINUOUS_GAMMA_CAP at all)
    gamma_by_batch: dict[str, int] | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, default=str)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SuiteResult:
        d = dict(d)
        d["faults"] = [FaultResult(**f) for f in d.get("faults", [])]
        return cls(**d)


def merge_results(dirs: list[Path]) -> SuiteResult:
    """One suite from runs split across processes (faults / clean / gate-only), for the table."""
    merged: SuiteResult | None = None
    gates: dict[str, Any] = {}
    for d in dirs:
        for name in ("faults.json", "faults.partial.json"):
            if (d / name).is_file():
                part = SuiteResult.from_dict(json.loads((d / name).read_text()))
                if merged is None:
                    merged = part
                else:
                    known = {f.name for f in merged.faults}
                    merged.faults += [f for f in part.faults if f.name not in known]
                    merged.clean = merged.clean or part.clean
                    merged.command += " ; " + part.command
                break
        if (d / "gates.json").is_file():
            gates.update(json.loads((d / "gates.json").read_text()))
    if merged is None:
        raise FileNotFoundError(f"no faults.json under {', '.join(map(str, dirs))}")
    for f in merged.faults:
        f.gate = f.gate or gates.get(f.name)
    merged.gate_clean = merged.gate_clean or gates.get("(clean)")
    return merged


def run_suite(*, faults: list[Fault] | None = None, clean_requests: int = 1000, limit: int = 40,
              gate_golden: Path | None = None, home: str | None = None, command: str = "",
              clean_budget_s: float | None = None, out: Path | None = None,
              batching: str = "off", concurrency: int = 1, log: Any = print,
              gamma_by_batch: dict[int, int] | None = None) -> SuiteResult:
    started = time.perf_counter()
    backend = load_backend(home, batching, gamma_by_batch)
    log(f"pair {backend.pair_hash[:12]} on {machine()}; batching {batching}, "
        f"{concurrency} request(s) per burst")
    traffic = build_traffic(backend)
    log(f"{len(traffic.eos)} EOS prompts (target-only greedy ends with EOS), "
        f"{len(traffic.plain)} plain prompts")
    results: list[FaultResult] = []

    def partial(clean: dict[str, Any] | None = None) -> SuiteResult:
        suite = SuiteResult(results, clean, limit, command, machine(),
                            {"pair_hash": backend.pair_hash, "draft": backend.identity.draft_name,
                             "target": backend.identity.target_name},
                            _evaluator_version(), None, time.perf_counter() - started,
                            batching, concurrency,
                            None if gamma_by_batch is None
                            else {str(k): v for k, v in gamma_by_batch.items()})
        if out is not None:  # written as it goes: a run cut short still leaves its results
            out.mkdir(parents=True, exist_ok=True)
            (out / "faults.partial.json").write_text(suite.to_json())
        return suite

    for fault in faults if faults is not None else faults_for(batching):
        result, _ = run_fault(backend, traffic, fault, limit=limit, concurrency=concurrency,
                              log=log)
        if gate_golden is not None:
            result.gate = run_gate_under(backend, fault, gate_golden)
            log(f"    gate: {'PASS' if result.gate['passed'] else 'FAIL'} {result.gate['failed_checks']}")
        results.append(result)
        partial()
    gate_clean = run_gate_under(backend, None, gate_golden) if gate_golden is not None else None
    clean = None
    if clean_requests:
        log(f"clean run: {clean_requests} requests")
        clean, _ = run_clean(backend, traffic, clean_requests, budget_s=clean_budget_s,
                             concurrency=concurrency, log=log)
        log(f"  clean: {clean['false_alarms']} false alarms in {clean['requests']} requests")
    suite = partial(clean)
    suite.gate_clean = gate_clean
    backend.shutdown()
    return suite


def _evaluator_version() -> str:
    """The git commit the evaluator code came from (for the table)."""
    import subprocess

    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True, cwd=Path(__file__).parent).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _cap_text(table: dict[str, int] | None) -> str:
    if not table:
        return f"depth cap pinned at {CONTINUOUS_GAMMA_CAP}"
    bands = ", ".join(f"{cap} from {size} rows" for size, cap in sorted(
        table.items(), key=lambda kv: int(kv[0])))
    return f"depth cap by batch size: {bands}"


def markdown_table(suite: SuiteResult) -> str:
    lines = [] if suite.batching == "off" else [
        f"Engine: `{suite.batching}` batching ({_cap_text(suite.gamma_by_batch)}), "
        f"requests in bursts of {suite.concurrency}.", ""]
    lines += ["| fault | area | kind | caught by | requests to first catch | near_tie verdicts "
             "| gate |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in suite.faults:
        if r.category == "speed":
            caught = (f"no correctness verdict (OK); alpha {r.mean_alpha:.2f}; speed anomaly on "
                      f"{r.speed_anomalies}/{r.requests}"
                      if r.alarms == 0 and r.mean_alpha is not None else
                      "no correctness verdict (OK)" if r.alarms == 0 else
                      f"**{r.alarms} correctness verdict(s): false alarm** ({r.caught_by})")
            first = f"- ({r.requests} sent)"
        else:
            caught = r.caught_by or f"**not caught** in {r.requests}"
            first = str(r.first_catch) if r.first_catch else f"> {r.requests}"
        gate = "" if r.gate is None else ("pass" if r.gate["passed"] else
                                          "FAIL: " + ", ".join(r.gate["failed_checks"]))
        lines.append(f"| {r.name} | {r.area} | {r.kind} | {caught} | {first} | {r.near_ties} "
                     f"| {gate} |")
    if suite.clean:
        c = suite.clean
        cut = (f" (asked {c['asked']}; stopped by the time budget)" if c.get("stopped_by_budget")
               else "")
        lines += ["", f"Clean run: **{c['false_alarms']} false alarms in {c['requests']} requests**{cut} "
                  f"({c['greedy']} greedy, {c['sampled']} sampled; with stop strings "
                  f"{c['with_feature'].get('stop', 0)}, EOS prompts {c['with_feature'].get('eos', 0)}, "
                  f"top-p {c['with_feature'].get('top_p', 0)}, top-k {c['with_feature'].get('top_k', 0)}, "
                  f"penalties {c['with_feature'].get('penalties', 0)}, "
                  f"response_format {c['with_feature'].get('grammar', 0)}); "
                  f"verdicts {c['verdicts']}."
                  + (f" Seeded requests replayed on their path: {c['seed_replays']} "
                     f"({c['seed_replay_tokens']} tokens compared)." if c.get("seed_replays")
                     else "")]
    if suite.gate_clean is not None:
        lines.append(f"Gate on the clean pair: {'pass' if suite.gate_clean['passed'] else 'FAIL'} "
                     f"{suite.gate_clean['failed_checks'] or ''}")
    return "\n".join(lines) + "\n"


@contextlib.contextmanager
def env_for_suite() -> Iterator[None]:
    """Dev mode and the test client's host, as the test suite runs the app."""
    saved = {k: os.environ.get(k) for k in ("GUARDIAN_DEV_MODE", "GUARDIAN_TRUSTED_HOSTS")}
    os.environ.setdefault("GUARDIAN_DEV_MODE", "1")
    os.environ.setdefault("GUARDIAN_TRUSTED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
