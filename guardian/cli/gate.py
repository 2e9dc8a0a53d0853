"""`guardian gate`: run a golden prompt set through a pair and decide whether it may be promoted.

A CI/CD step: exit 0 when the gate passes, 1 when it fails, 2 on bad input (unreadable golden
file, invalid policy, unknown route, incompatible pair). Writes `gate-<pair>-<policy>.json`
and `.md` under `--report-dir`, registers the pair and records the result in the audit DB
(unless `--no-audit`), which is what `guardian route promote` checks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from guardian.cli.db import URL_HELP
from guardian.cli.route import (
    DEV_HELP,
    KEY_HELP,
    KEYS_FILE_HELP,
    POLICY_HELP,
    Actor,
    authenticate,
    fail,
    load_policy,
    open_db,
    open_writer,
)

app = typer.Typer(help="Promotion gate: golden prompts, target-only vs speculative.",
                  invoke_without_command=True, no_args_is_help=True)


def _pair_dirs(pair: str) -> tuple[Path, Path]:
    if pair == "demo":
        from guardian.backends.local import demo_pair_dirs
        from guardian.settings import get_settings

        # Under the settings' home (env or .env), as `guardian serve` resolves it.
        return demo_pair_dirs(get_settings())
    draft, sep, target = pair.partition(",")
    if not sep or not draft or not target:
        raise fail(f"--pair {pair!r}: give DRAFT_DIR,TARGET_DIR (two local model directories) "
                   "or `demo`", 2)
    return Path(draft), Path(target)


@app.callback()
def gate(pair: str | None = typer.Option(None, "--pair", help="DRAFT_DIR,TARGET_DIR or `demo`."),
         upstream: bool = typer.Option(False, "--upstream", help="Gate the route's upstream "
                                       "pools (routes.<route>.upstream: speculative vs "
                                       "target_only) instead of a local pair."),
         golden: Path = typer.Option(..., "--golden", help="Golden prompts, JSON lines."),
         policy_file: Path | None = typer.Option(None, "--policy", help=POLICY_HELP),
         route: str | None = typer.Option(None, "--route", help="Route whose gate settings apply "
                                          "(default: the policy's default route)."),
         report_dir: Path = typer.Option(Path("gate-reports"), "--report-dir",
                                         help="Where the JSON and Markdown reports go."),
         url: str | None = typer.Option(None, "--url", help=URL_HELP),
         no_audit: bool = typer.Option(False, "--no-audit", help="Do not register the pair or "
                                       "record the result in the audit DB (dry run)."),
         device: str | None = typer.Option(None, "--device", help="torch device (default: auto)."),
         threads: int | None = typer.Option(None, "--threads", envvar="GUARDIAN_TORCH_THREADS",
                                            min=1,
                                            help="torch CPU threads (default: the settings' "
                                            "torch_threads, else chosen by timing, as "
                                            "`guardian serve`)."),
         key: str | None = typer.Option(None, "--key", envvar="GUARDIAN_API_KEY", help=KEY_HELP),
         keys_file: Path | None = typer.Option(None, "--keys-file", help=KEYS_FILE_HELP),
         dev: bool = typer.Option(False, "--dev", envvar="GUARDIAN_DEV_MODE", help=DEV_HELP),
         ) -> None:
    """Run the golden set target-only and speculatively; exit 0 pass, 1 fail, 2 bad input.

    A recorded gate report is the evidence that lets a route speculate, so recording it is a
    release act: it needs a release (or admin) API key, checked before anything runs
    (--no-audit needs none). Timings are taken with `guardian serve`'s runtime settings:
    passive OpenMP waits and the settings' torch threads (GUARDIAN_TORCH_THREADS; unset: torch's
    count or one thread, whichever decodes faster, as the sidecar chooses)."""
    import os

    # As `guardian serve` does, before torch loads: OpenMP's default spin-waiting collapses on a
    # small shared CPU (issue 16: a gate without it took 1 m 53 s and timed speculation 2x slower).
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from rich.console import Console

    from guardian.backends import Unsupported
    from guardian.backends.local import LocalEngineBackend
    from guardian.cli.gatebar import advance, gate_bar
    from guardian.governance.gatebatch import planned_runs
    from guardian.governance.gates import check_backend, run_gate
    from guardian.governance.golden import GoldenError, load_golden

    console = Console()
    who = None if no_audit else authenticate(key, keys_file, dev, roles=("release",))
    try:  # regular files only, capped (load_golden reads through fileio.read_small)
        prompts = load_golden(golden)
    except GoldenError as exc:
        raise fail(str(exc), 2) from None
    policy = load_policy(policy_file)
    route = route or policy.default_route
    if route not in policy.routes:
        raise fail(f"unknown route {route!r}; the policy has: {', '.join(sorted(policy.routes))}", 2)
    if upstream == (pair is not None):
        raise fail("give --pair DRAFT_DIR,TARGET_DIR (or demo) for a local pair, or --upstream "
                   "for the route's upstream pools", 2)
    if upstream:
        _gate_pools(console, policy, route, prompts, golden, report_dir, url, who)
    gate_policy = policy.route(route).gate
    proposer = policy.route(route).proposer
    assert pair is not None
    draft_dir, target_dir = _pair_dirs(pair)
    from guardian.settings import get_settings

    settings = get_settings()
    threads = threads or settings.torch_threads  # serve's setting (env or .env)
    from engine.threads import settle
    from guardian.backends.local import serving_options

    try:
        # The engine checks compatibility before reading any weights (an incompatible pair
        # fails in milliseconds naming what differs) and computes the identity.
        # Plain kernels at load: `settle` below chooses them, under the thread count it sets.
        backend = LocalEngineBackend.load(draft_dir, target_dir, device=device, kernels="plain")
    except (FileNotFoundError, OSError, ValueError) as exc:  # IncompatiblePairError is a ValueError
        raise fail(f"cannot load the pair: {exc}", 2) from None
    except (RuntimeError, AssertionError) as exc:  # torch: an unknown or absent --device
        where = f" on --device {device!r}" if device else ""
        raise fail(f"cannot load the pair{where}: {exc}", 2) from None
    # The rule `guardian serve` follows (engine.threads): unset, torch's count or one thread,
    # whichever decodes faster here, then the cache mode and linear kernels of the settings
    # timed under that count, so the speedup is timed as serving will run.
    settle(backend.pair, threads, settings.decode, settings.kernels)
    # Then the engine `guardian serve` runs on this pair (batching, depth policy: the
    # settings'), started (its step costs measured) with the threads settled, as
    # `LocalEngineBackend.from_settings` does: the gate judges the engine that serves.
    as_served = getattr(backend, "as_served", None)
    if as_served is not None:
        backend = as_served(serving_options(settings))
    try:
        check_backend(backend, prompts, proposer)
    except Unsupported as exc:
        raise fail(str(exc), 2) from None
    identity = backend.identity
    import torch

    console.print(f"pair {identity.pair_hash[:12]} ({identity.draft_name} -> {identity.target_name}), "
                  f"policy {policy.content_hash[:12]}, route {route}, {len(prompts)} prompts; "
                  f"torch threads {torch.get_num_threads()}, OMP_WAIT_POLICY "
                  f"{os.environ.get('OMP_WAIT_POLICY')}")
    with gate_bar(console) as progress:
        task = progress.add_task("", total=planned_runs(backend, prompts, gate_policy))
        try:
            report = run_gate(backend, prompts, gate_policy, policy_hash=policy.content_hash,
                              route=route, golden_file=golden,
                              on_prompt=lambda r: advance(progress, task, r),
                              proposer=proposer)
        finally:
            backend.shutdown()  # a batching engine's thread
    _finish(console, report, report_dir, url, identity, who)


def _finish(console: object, report: object, report_dir: Path, url: str | None,
            identity: object, who: Actor | None) -> None:
    """Write the report, record it (unless --no-audit), print it, exit 0 pass / 1 fail."""
    from rich.table import Table

    json_path, md_path = report.write(report_dir)  # type: ignore[attr-defined]
    if who is not None:
        _record(url, identity, report, who)
    report_: Any = report
    table = Table(title=f"gate {'PASS' if report_.passed else 'FAIL'}")
    for col in ("check", "outcome", "value", "threshold", "detail"):
        table.add_column(col)
    for c in report_.checks:
        style = {"pass": "green", "fail": "red"}.get(c.outcome, "dim")
        table.add_row(c.name, f"[{style}]{c.outcome}[/{style}]",
                      "" if c.value is None else f"{c.value:.4g}",
                      "" if c.threshold is None else f"{c.threshold:.4g}", c.detail)
    out: Any = console
    out.print(table)
    e = getattr(report_, "engine", None) or {}
    if e:
        out.print(f"engine judged: {e.get('engine')} (max batch {e.get('max_batch')}); phases: "
                  + ", ".join(f"{k} rows<={v['batch_rows_max']} depths {v['depths']}"
                              for k, v in (e.get("phases") or {}).items()))
    for p in report_.failing_prompts:
        out.print(f"[red]✗ {escape(p.id)}[/red]: {escape(p.explanation)}")
    out.print(f"reports: {json_path}  {md_path}")
    raise typer.Exit(0 if report_.passed else 1)


def _gate_pools(console: Any, policy: Any, route: str, prompts: list[Any], golden: Path,
                report_dir: Path, url: str | None, who: Actor | None) -> None:
    """`--upstream`: the route's pools, speculative vs target-only (guardian.governance.
    poolgate); the report binds to the sidecar's upstream pair hash and this policy."""
    from guardian.backends import Unsupported
    from guardian.backends.upstream.backend import UpstreamBackend
    from guardian.backends.upstream.errors import UpstreamError
    from guardian.governance.poolgate import run_pool_gate

    if policy.route(route).upstream is None:
        raise fail(f"route {route!r} has no upstream pools (routes.{route}.upstream in the "
                   "policy); --upstream gates a route's pools", 2)
    try:
        backend = UpstreamBackend.from_policy(policy)
    except ValueError as exc:
        raise fail(str(exc), 2) from None
    pools = policy.route(route).upstream
    console.print(f"upstream pair {backend.pair_hash[:20]} (speculative {pools.speculative.model}"
                  f"@{pools.speculative.url}, target-only {pools.target_only.model}@"
                  f"{pools.target_only.url}), policy {policy.content_hash[:12]}, route {route}, "
                  f"{len(prompts)} prompts")
    try:
        report = run_pool_gate(backend, policy, route, prompts, golden_file=golden,
                               on_prompt=lambda r: console.print(f"  {r.id}: {r.verdict}"))
    except Unsupported as exc:
        raise fail(str(exc), 2) from None
    except UpstreamError as exc:
        raise fail(f"a pool failed during the gate: {exc}", 2) from None
    finally:
        backend.close()
    _finish(console, report, report_dir, url, backend.identity, who)


def _record(url: str | None, identity: object, report: object, who: Actor) -> None:
    from guardian.governance.promotion import record_gate_result
    from guardian.governance.registry import PairRegistry

    db, resolved = open_db(url)
    writer = open_writer(resolved)
    try:
        registry = PairRegistry(db, writer)
        registry.register(identity, actor=who.actor)  # type: ignore[arg-type]
        record_gate_result(writer, registry, report, actor=who.actor)  # type: ignore[arg-type]
    finally:
        writer.close()
