"""`guardian pair ...`: build the demo pair, inspect a pair, generate with it.

Commands import the engine inside their bodies so `guardian --help` stays instant.
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
) -> None:
    """Build the offline demo draft/target pair (trained on the stdlib's source; ~6 min on 2 CPUs)."""
    import os

    # Before torch starts OpenMP: sleeping (not spinning) idle threads keep a build on a
    # busy, shared CPU from running ~4x slower (see engine/demo_pair/__main__.py).
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from rich.console import Console

    from engine.demo_pair import ensure_demo_pair
    from guardian.settings import get_settings

    console = Console()
    try:
        # Settings, not only the env var: GUARDIAN_HOME may come from the .env file.
        paths = ensure_demo_pair(home or get_settings().home, progress=True, force=force)
    except OSError as exc:
        console.print(f"[red]Could not build the demo pair:[/red] {exc}. "
                      "Check that --home (or GUARDIAN_HOME) is a writable directory with ~50 MB free.")
        raise typer.Exit(code=1) from None
    manifest = paths.manifest
    console.print(f"draft:  {paths.draft_dir}  ({manifest['params']['draft']:,} params)")
    console.print(f"target: {paths.target_dir}  ({manifest['params']['target']:,} params, "
                  f"held-out loss {manifest['target']['heldout_loss']:.2f})")


def _load(draft: Path | None, target: Path | None):  # -> engine.Pair
    """Load the given pair (both dirs) or the demo pair; bad input exits 2 with the reason."""
    import os

    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from engine import IncompatiblePairError, load_pair
    from engine.demo_pair import ensure_demo_pair

    if (draft is None) != (target is None):
        raise typer.BadParameter("give both --draft and --target, or neither (the demo pair)")
    if draft is None or target is None:
        paths = ensure_demo_pair()
        draft, target = paths.draft_dir, paths.target_dir
    try:
        return load_pair(draft, target)
    except (IncompatiblePairError, FileNotFoundError, NotADirectoryError, ValueError) as exc:
        typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
        raise typer.Exit(code=2) from None


DRAFT_OPT = typer.Option(None, "--draft", help="Local HF draft model dir (default: demo pair).")
TARGET_OPT = typer.Option(None, "--target", help="Local HF target model dir (default: demo pair).")


@app.command()
def show(draft: Path | None = DRAFT_OPT, target: Path | None = TARGET_OPT) -> None:
    """Check a pair's compatibility and print its identity (the hash gates and promotions bind to)."""
    pair = _load(draft, target)
    ident = pair.identity
    # Plain `field: value` lines, never wrapped or truncated: people copy these hashes.
    typer.echo("compatible: same vocabulary, special tokens and chat template")
    for name in ("pair_hash", "draft_name", "draft_hash", "target_name", "target_hash",
                 "tokenizer_hash", "chat_template_hash"):
        typer.echo(f"{name}: {getattr(ident, name)}")
    typer.echo(f"device: {pair.device}  dtype: {pair.dtype}  context: {pair.max_context}")


@app.command()
def generate(
    prompt: str = typer.Argument(..., help="Prompt text."),
    draft: Path | None = DRAFT_OPT,
    target: Path | None = TARGET_OPT,
    speculative: bool = typer.Option(True, "--speculative/--target-only", help="Decoding path."),
    max_new_tokens: int = typer.Option(64, min=1, help="Tokens to generate."),
    temperature: float = typer.Option(0.0, min=0.0, help="0 = greedy."),
    gamma: int = typer.Option(4, min=1, max=16, help="Speculation depth γ."),
    seed: int | None = typer.Option(None, help="Sampling seed."),
) -> None:
    """Generate with a pair and print the text, each token's origin and the request's stats."""
    from rich.console import Console
    from rich.text import Text

    from engine import generate as engine_generate

    pair = _load(draft, target)
    try:
        res = engine_generate(pair, prompt, speculative=speculative, max_new_tokens=max_new_tokens,
                              temperature=temperature, gamma=gamma, seed=seed)
    except ValueError as exc:  # e.g. a prompt longer than the context window
        typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
        raise typer.Exit(code=2) from None
    colours = {"accepted": "green", "resampled": "yellow", "bonus": "cyan", "target": "white"}
    text = Text(prompt, style="dim")
    for tok in res.trace:
        text.append(pair.tokenizer.decode([tok.token_id]), style=colours[tok.origin])
    console = Console()
    console.print(text)
    st = res.stats
    console.print(f"[dim]finish={res.finish_reason} tokens={len(res.token_ids)} steps={st.steps} "
                  f"α={st.acceptance_rate:.3f} mean acceptance length={st.mean_acceptance_length:.2f} "
                  f"time={st.total_time_s * 1000:.0f} ms  (green accepted, yellow resampled, "
                  f"cyan bonus, white target)[/dim]")
