"""`guardian demo`: true traffic through the real sidecar, so every dashboard page has data.

Spawns the sidecar (uvicorn, the same way as `guardian.devtools.loadtest`) on a free loopback port with
`policies/examples/demo.yaml` and the demo pair, and drives a bounded, deterministic plan:

- route `code`      greedy (temperature 0) held-out Python code prompts;
- route `creative`  sampled (temperature 0.8, seeded) prompts, code and prose;
- route `drifting`  held-out code first, then English prose: acceptance per draft position drops,
                    the triggers fail on those real measurements and the rollback controller
                    sends the route to target_only (a rollback GovernanceEvent with evidence).

Everything is written to the configured audit database (GUARDIAN_DATABASE_URL, default SQLite
under GUARDIAN_HOME), which is what `guardian dashboard` reads. The summary comes from that
database, not from the client's view.
"""

from __future__ import annotations

import logging
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from guardian.core.fileio import private_dir
from guardian.core.resources import data_path
from guardian.devtools.loadtest import _drain_shadow, _free_port, spawn_sidecar

logger = logging.getLogger(__name__)

DEMO_POLICY = data_path("policies", "examples", "demo.yaml")
ROUTES = ("code", "creative", "drifting")
SAMPLED_TEMPERATURE = 0.8
# Code requests on `drifting` before its traffic turns to non-code text: enough to fill the drift
# reference (200 tokens, demo.yaml) and a little more, few enough that code-vs-code token drift
# stays well under the threshold (measured: JS <= 0.12 bits here, >= 0.25 after ~6 non-code).
DRIFT_CODE_REQUESTS = 12
# Requests that `drifting` needs to roll back: the code phase, then ~8 non-code requests.
MIN_DRIFT_REQUESTS = DRIFT_CODE_REQUESTS + 10

# Not code: the demo pair was trained on Python source only, so its draft guesses these badly.
PROSE_PROMPTS = [
    "The morning fog rolled slowly over the harbour, and the fishermen waited on the pier",
    "She had always believed that the old library held more secrets than books, so one evening",
    "In the spring of that year the village council met to decide what to do about the bridge",
    "My grandmother kept a garden full of roses, tomatoes and stubborn weeds that she loved",
    "The train was late again, and the passengers on the platform began to talk to each other",
    "After the storm passed, the children ran down to the beach to see what the sea had left",
    "He wrote letters to his brother every week, describing the mountains and the long winters",
    "The museum opened a new exhibition about ancient maps, and people queued around the block",
    "It was the kind of summer afternoon when nobody wanted to work and the streets were empty",
    "The recipe called for fresh bread, ripe cheese and a bottle of wine from the southern hills",
    "Our neighbours adopted a small dog that barks at every bicycle passing by the front window",
    "When the concert ended, the audience stood and applauded for nearly ten minutes without",
    "Travellers crossing the desert learned to read the stars long before there were compasses",
    "The teacher asked the class to describe their favourite place, and one quiet boy said",
    "Autumn leaves covered the path through the park, red and gold under the pale sunlight",
    "Nobody in the family could remember who had planted the enormous oak tree by the river",
]
# Non-English, non-code text: further still from what the pair was trained on.
OTHER_PROMPTS = [
    "Der Hund lief schnell über die Straße, und die Kinder riefen ihm hinterher, weil",
    "Im Winter fahren wir oft in die Berge, denn dort liegt der Schnee viel länger als",
    "Le petit chat dort sur le canapé pendant que la pluie tombe doucement sur les toits",
    "Nous avons visité le musée hier après-midi et nous avons vu des tableaux magnifiques",
    "今天天气很好，我们去公园散步吧。然后我们可以去吃午饭，",
    "東京の夏はとても暑いので、私たちは毎年山へ行きます。そこでは",
]


def prose_prompts(n: int, *, seed: int = 0) -> list[str]:
    """`n` non-code prompts: a few English sentences run together (~150 tokens), with every
    third prompt in another language."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if i % 3 == 2:
            out.append(OTHER_PROMPTS[(i // 3) % len(OTHER_PROMPTS)])
            continue
        sentences = rng.sample(PROSE_PROMPTS, 5)
        out.append(". ".join(sentences) + ",")
    return out


@dataclass(frozen=True, slots=True)
class PlannedRequest:
    route: str
    prompt: str
    temperature: float
    seed: int | None
    kind: str  # code | prose


@dataclass
class DemoSummary:
    url: str
    database_url: str
    sent: int = 0
    errors: int = 0
    wall_s: float = 0.0
    error_samples: list[str] = field(default_factory=list)
    requests_per_route: dict[str, dict[str, int]] = field(default_factory=dict)  # route -> path -> n
    sampling: dict[str, int] = field(default_factory=dict)  # greedy | sampled -> n
    verdicts: dict[str, dict[str, int]] = field(default_factory=dict)  # route -> verdict -> n
    rollbacks: list[dict[str, Any]] = field(default_factory=list)
    route_modes: dict[str, str] = field(default_factory=dict)


def plan(n: int, code_prompts: list[str], drift_code_prompts: list[str], *,
         seed: int = 0) -> list[PlannedRequest]:
    """`n` requests, round-robin over the three routes. `drifting` sends `DRIFT_CODE_REQUESTS`
    long held-out code prompts (its drift reference fills from these), then non-code text."""
    rng = random.Random(seed)
    per_route = {r: 0 for r in ROUTES}
    prose = prose_prompts(max(1, n // 3), seed=seed)
    out: list[PlannedRequest] = []
    for i in range(n):
        route = ROUTES[i % 3]
        k = per_route[route]
        per_route[route] += 1
        if route == "code":
            out.append(PlannedRequest(route, code_prompts[k % len(code_prompts)], 0.0, None, "code"))
        elif route == "creative":
            if k % 2:
                prompt, kind = PROSE_PROMPTS[rng.randrange(len(PROSE_PROMPTS))], "prose"
            else:
                prompt, kind = code_prompts[-1 - (k % len(code_prompts))], "code"
            out.append(PlannedRequest(route, prompt, SAMPLED_TEMPERATURE, seed * 100003 + i, kind))
        elif k < DRIFT_CODE_REQUESTS:
            out.append(PlannedRequest(route, drift_code_prompts[k % len(drift_code_prompts)], 0.0,
                                      None, "code"))
        else:
            out.append(PlannedRequest(route, prose[(k - DRIFT_CODE_REQUESTS) % len(prose)], 0.0,
                                      None, "prose"))
    return out


def _pair_env(home: Path | None) -> dict[str, str]:
    """Model dirs for the sidecar: configured ones, else the demo pair (built on first use)."""
    if os.environ.get("GUARDIAN_DRAFT_DIR") and os.environ.get("GUARDIAN_TARGET_DIR"):
        return {}
    from engine.demo_pair import demo_pair_dir
    from engine.demo_pair.build import is_built
    from guardian.backends.local import ensure_private_demo_pair
    from guardian.settings import get_settings

    # The pair lives under the settings' home (GUARDIAN_HOME, env or .env) unless --home
    # already holds one.
    pair_home = home if home is not None and is_built(demo_pair_dir(home)) else get_settings().home
    paths = ensure_private_demo_pair(pair_home)
    return {"GUARDIAN_DRAFT_DIR": str(paths.draft_dir), "GUARDIAN_TARGET_DIR": str(paths.target_dir)}


def check_secrets(home: Path | None) -> None:
    """Resolve the sidecar's audit secrets as it will (same home, loopback): creates the
    quickstart's secrets file on first use, raises `SecretsError` with what to set otherwise —
    here, readably, rather than as a child process that exits before it is ready."""
    from guardian.audit.config import AuditSettings
    from guardian.settings import Settings

    overrides: dict[str, Any] = {"host": "127.0.0.1"}  # spawn_sidecar binds loopback
    if home is not None:
        overrides["home"] = home
    AuditSettings.for_server(Settings(**overrides), announce=False)


def database_url(home: Path | None) -> str:
    url = os.environ.get("GUARDIAN_DATABASE_URL")
    if url:
        return url
    from guardian.settings import get_settings

    base = home if home is not None else get_settings().home
    return f"sqlite:///{Path(base) / 'guardian.db'}"


def _fresh_routes(client: httpx.Client) -> None:
    """A demo route left target_only by an earlier demo's rollback serves speculatively again
    (an audited, forced re-enable: an admin override of the gate, which the demo's loopback
    open mode may give), so this run can show its own rollback."""
    r = client.get("/admin/routes")
    if r.status_code != 200:
        logger.warning("cannot read route states (%s); continuing", r.status_code)
        return
    for state in r.json()["routes"]:
        if state["route"] in ROUTES and state["mode"] != "speculative":
            rr = client.post(f"/admin/routes/{state['route']}/reenable", params={"force": "true"},
                             json={"reason": "guardian demo: fresh run of the demo traffic",
                                   "override": True})
            logger.info("re-enabled route %s for the demo: %s", state["route"], rr.status_code)


def _wait_for_shadow(client: httpx.Client, timeout_s: float = 5.0) -> None:
    """Shadow work runs only when serving is quiet and its queue is bounded: give a sampled
    request's shadow run its turn, so the demo records verdicts instead of shadow drops."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        r = client.get("/readyz")
        if r.status_code != 200 or r.json().get("shadow_queue_depth", 0) == 0:
            return
        time.sleep(0.05)


def drive(url: str, requests: list[PlannedRequest], *, max_tokens: int, time_limit_s: float,
          on_done: Callable[[PlannedRequest, dict[str, Any] | None], None] | None = None,
          ) -> tuple[list[dict[str, Any]], list[str], float]:
    """Send the plan in order (one at a time: shadow work runs in the gaps)."""
    results, errors = [], []
    started = time.perf_counter()
    with httpx.Client(base_url=url, timeout=120) as client:
        _fresh_routes(client)
        model = client.get("/v1/models").json()["data"][0]["id"]
        for req in requests:
            if time.perf_counter() - started > time_limit_s:
                break
            body: dict[str, Any] = {"model": model, "prompt": req.prompt, "max_tokens": max_tokens,
                                    "temperature": req.temperature}
            if req.seed is not None:
                body["seed"] = req.seed
            try:
                r = client.post("/v1/completions", json=body,
                                headers={"X-Guardian-Route": req.route})
                if r.status_code == 200:
                    ext = r.json()["spec_guardian"]
                    results.append({"route": req.route, "kind": req.kind, **ext})
                    if ext.get("shadow_sampled"):
                        _wait_for_shadow(client)
                    if on_done:
                        on_done(req, ext)
                    continue
                errors.append(f"{r.status_code}: {r.text[:200]}")
            except httpx.HTTPError as exc:
                errors.append(repr(exc))
            if on_done:
                on_done(req, None)
        _drain_shadow(client, timeout_s=120)
    return results, errors, time.perf_counter() - started


def read_back(db_url: str, request_ids: list[str], since: datetime, *,
              wait_s: float = 30.0) -> dict[str, Any]:
    """What the audit database holds for this run (waits for the batched writer)."""
    import sqlalchemy as sa

    from guardian.audit.models import AuditGovernance, AuditRequest, AuditShadow
    from guardian.core.db import make_engine

    db = make_engine(db_url)
    try:
        deadline = time.monotonic() + wait_s
        ids = set(request_ids)
        while True:
            with db.connect() as conn:
                rows = conn.execute(sa.select(AuditRequest.request_id, AuditRequest.route,
                                              AuditRequest.served_path, AuditRequest.params)
                                    .where(AuditRequest.created_at >= since)).all()
            rows = [r for r in rows if r.request_id in ids]
            if len(rows) >= len(ids) or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        time.sleep(1.0)  # shadow rows land after the served ones
        with db.connect() as conn:
            shadows = conn.execute(sa.select(AuditShadow.request_id, AuditShadow.route,
                                             AuditShadow.verdict)
                                   .where(AuditShadow.created_at >= since)).all()
            gov = conn.execute(sa.select(AuditGovernance.route, AuditGovernance.actor,
                                         AuditGovernance.created_at, AuditGovernance.details)
                               .where(AuditGovernance.created_at >= since,
                                      AuditGovernance.kind == "rollback")
                               .order_by(AuditGovernance.created_at)).all()
            rollbacks = [{"route": g.route, "actor": g.actor, "at": g.created_at,
                          "fired": (g.details or {}).get("fired", []),
                          "reason": (g.details or {}).get("reason", ""),
                          "evidence": (g.details or {}).get("evidence", {})} for g in gov]
    finally:
        db.dispose()
    return {"requests": rows, "shadows": [s for s in shadows if s.request_id in ids],
            "rollbacks": rollbacks}


def run_demo(*, requests: int = 120, max_tokens: int = 32, time_limit_s: float = 600.0,
             home: Path | None = None, seed: int = 0, keep_running: bool = False,
             on_start: Callable[[int], None] | None = None,
             on_done: Callable[[PlannedRequest, dict[str, Any] | None], None] | None = None,
             on_summary: Callable[[DemoSummary], None] | None = None,
             ready_timeout_s: float = 900.0) -> DemoSummary:
    """Spawn the sidecar, drive the plan, read the audit DB back; `on_summary` runs while the
    sidecar is still up (with `keep_running`, it then serves until interrupted)."""
    from engine.demo_pair import heldout_prompts

    check_secrets(home)  # before a first-run pair build: fail in seconds, not minutes
    env = {"GUARDIAN_POLICY_FILE": str(DEMO_POLICY),
           "GUARDIAN_TORCH_THREADS": os.environ.get("GUARDIAN_TORCH_THREADS", "1"),
           **_pair_env(home)}
    if home is not None:
        private_dir(home)
        env["GUARDIAN_HOME"] = str(home)
    db_url = database_url(home)
    code_prompts = heldout_prompts(max(8, min(32, requests)), seed=seed, prompt_tokens=(24, 64))
    drift_code = heldout_prompts(DRIFT_CODE_REQUESTS, seed=seed + 1, prompt_tokens=(250, 450))
    todo = plan(requests, code_prompts, drift_code, seed=seed)
    if on_start:
        on_start(len(todo))
    since = datetime.now(UTC).replace(microsecond=0)
    with spawn_sidecar(_free_port(), env, ready_timeout_s=ready_timeout_s) as url:
        results, errors, wall = drive(url, todo, max_tokens=max_tokens,
                                      time_limit_s=time_limit_s, on_done=on_done)
        summary = DemoSummary(url=url, database_url=db_url, sent=len(results) + len(errors),
                              errors=len(errors), wall_s=wall, error_samples=errors[:5])
        back = read_back(db_url, [r["request_id"] for r in results], since)
        for row in back["requests"]:
            paths = summary.requests_per_route.setdefault(row.route, {})
            paths[row.served_path] = paths.get(row.served_path, 0) + 1
            kind = "sampled" if float((row.params or {}).get("temperature", 0.0)) > 0 else "greedy"
            summary.sampling[kind] = summary.sampling.get(kind, 0) + 1
        for s in back["shadows"]:
            v = summary.verdicts.setdefault(s.route, {})
            v[s.verdict] = v.get(s.verdict, 0) + 1
        summary.rollbacks = back["rollbacks"]
        r = httpx.get(f"{url}/admin/routes", timeout=10)
        if r.status_code == 200:
            summary.route_modes = {s["route"]: s["mode"] for s in r.json()["routes"]}
        if on_summary:
            on_summary(summary)
        if keep_running:
            try:
                while True:
                    time.sleep(1.0)
            except KeyboardInterrupt:
                pass
    return summary
