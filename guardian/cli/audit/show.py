"""`guardian audit show REQUEST_ID`: one request's record and its per-token table."""

from __future__ import annotations

import json

import typer
from rich.markup import escape

from guardian.cli.audit.common import _db, _require_text
from guardian.cli.db import URL_HELP

ORIGIN_STYLE = {"accepted": "green", "resampled": "yellow", "bonus": "cyan", "target": "blue",
                "upstream": "magenta"}


def _num(x: float | None, digits: int = 4) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def show(request_id: str = typer.Argument(..., help="Request id (as returned in the API response)."),
         url: str | None = typer.Option(None, "--url", help=URL_HELP),
         as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")) -> None:
    """Show one request: pair, policy, timings, shadow verdict and the per-token table."""
    from rich.console import Console
    from rich.table import Table

    from engine.metrics import SpecCounters
    from guardian.audit.queries import get_request

    _require_text({"REQUEST_ID": request_id, "--url": url})
    rec = get_request(_db(url), request_id)
    if rec is None:
        typer.secho(f"no request with id {request_id!r} in the audit store "
                    "(check the id, or --url if it was served against another database)",
                    fg="red", err=True)
        raise typer.Exit(1)
    if as_json:
        typer.echo(json.dumps({"request": rec.request, "tokens": rec.tokens,
                               "shadow": rec.shadows, "shadow_tokens": rec.shadow_tokens},
                              default=str, indent=2))
        return
    r = rec.request
    console = Console()
    # Stored text is printed literally: rich would read "[/bold]" in a prompt as markup (and
    # raise on it), so every value from the database goes through `esc`.
    console.print(f"[bold]request[/bold] {esc(r['request_id'])}  "
                  f"{r['created_at']:%Y-%m-%d %H:%M:%S} UTC  route [bold]{esc(r['route'])}[/bold]"
                  f"  mode {esc(r['mode'])}  served by {esc(r['served_path'])}")
    console.print(f"pair {esc(r['pair_hash'])}  policy {esc(r['policy_hash'])}  redaction "
                  f"{esc(r['redaction'])}  finish {esc(r['finish_reason'])}  tokens "
                  f"{r['prompt_tokens']}+{r['completion_tokens']}")
    # Ratios from the stored counters (engine.metrics), like every other view of them.
    spec = SpecCounters.from_stats(r.get("stats"))
    unreported = set((r.get("stats") or {}).get("unreported") or ())

    def ratio(value: float, needs: str, fmt: str) -> str:
        return "not reported" if needs in unreported else format(value, fmt)

    # A speculative upstream pool that sent no counters for this request (llama.cpp's
    # timings carry draft_n only when it drafted) says so, rather than printing nothing.
    pooled_spec = (r.get("stats") or {}).get("upstream_pool") == "speculative" and unreported
    if spec.proposed or pooled_spec:
        rate = (ratio(spec.acceptance_rate, "proposed_tokens", ".3f") if spec.proposed
                or "proposed_tokens" in unreported else "— (nothing drafted)")
        rates = (f"  acceptance rate {rate}  α {ratio(spec.alpha, 'judged_tokens', '.3f')}"
                 f"  mean acceptance length {ratio(spec.mean_acceptance_length, 'steps', '.2f')}")
    else:
        rates = ""
    if (r.get("stats") or {}).get("latency_unreported"):
        per_token = "not reported (a whole upstream answer)"
    else:
        per_token = f"{r['time_per_output_token_s'] * 1e3:.2f} ms"
    console.print(f"queue {r['queue_time_s'] * 1e3:.1f} ms  compute {r['compute_time_s'] * 1e3:.1f} ms"
                  f"  TTFT {r['time_to_first_token_s'] * 1e3:.1f} ms  per token "
                  f"{per_token}{rates}")
    if r["prompt_text"] is not None:
        console.print(f"[dim]prompt:[/dim] {esc(repr(r['prompt_text']))}")
        console.print(f"[dim]completion:[/dim] {esc(repr(r['completion_text']))}")
    for s in rec.shadows:
        colour = {"match": "green", "near_tie": "yellow", "distribution_ok": "green"}.get(
            s["verdict"], "red")
        console.print(f"shadow ({esc(s['shadow_path'])}): [{colour}]{esc(s['verdict'])}[/{colour}]"
                      + (f" first divergence at position {s['first_divergence_position']}, "
                         f"target margin {_num(s['margin_at_divergence'])} (tolerance "
                         f"{s['tolerance']})" if s["first_divergence_position"] is not None else ""))
    table = Table(title=f"{len(rec.tokens)} emitted tokens (served path)")
    for col in ("pos", "token", "from", "origin", "q draft", "p target", "margin", "step", "γ"):
        table.add_column(col, justify="left" if col in ("token", "from", "origin") else "right",
                         no_wrap=col in ("from", "origin"))
    for t in rec.tokens:
        token = (str(t["token_id"]) if t["token_id"] is not None
                 else (t["token_hash"][:12] + "…") if t["token_hash"] else "—")
        style = ORIGIN_STYLE.get(t["origin"])
        who = {"accepted": "draft", "upstream": "pool"}.get(t["origin"], "target")
        table.add_row(str(t["position"]), token, styled(who, style), styled(t["origin"], style),
                      _num(t["draft_prob"]), _num(t["target_prob"]), _num(t["target_margin"]),
                      str(t["step"]), str(t["gamma"]))
    console.print(table)
    pooled = sum(t["origin"] == "upstream" for t in rec.tokens)
    if pooled:  # an upstream pool tells no origin per token, only its counters (above)
        console.print(f"{pooled} of {len(rec.tokens)} tokens came from an upstream pool "
                      "(which tokens were drafted it does not say per token)")
        return
    drafted = sum(t["origin"] == "accepted" for t in rec.tokens)
    console.print(f"{drafted} of {len(rec.tokens)} tokens came from the draft model (accepted), "
                  f"{len(rec.tokens) - drafted} from the target")


def styled(value: object, style: str | None) -> str:
    """`value` as literal text in `style` (none: plain; "[]...[/]" is a markup error)."""
    return f"[{style}]{esc(value)}[/{style}]" if style else esc(value)


def esc(value: object) -> str:
    """A stored value as literal text inside rich markup."""
    return escape(str(value))
