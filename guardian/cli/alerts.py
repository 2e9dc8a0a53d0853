"""`guardian alerts rules|test-send`: alerts out of the sidecar.

`rules` writes the Prometheus recording and alerting rules for a policy (SLO burn rates,
trigger states, audit health: `guardian.alerts.rules`) to stdout or `--out`; check them with
`promtool check rules FILE`. `test-send` posts a test alert to an Alertmanager (v2 API), to
check the sidecar's `GUARDIAN_ALERTMANAGER_URL` before an incident needs it.
"""

from __future__ import annotations

from pathlib import Path

import typer

from guardian.cli.route import POLICY_HELP, fail, load_policy

app = typer.Typer(help="Alerts: Prometheus rules from the policy; Alertmanager test alert.",
                  no_args_is_help=True)


@app.command()
def rules(policy_file: Path | None = typer.Option(None, "--policy", help=POLICY_HELP),
          out: Path | None = typer.Option(None, "--out", "-o", help="Write to this file "
                                          "(default: stdout).")) -> None:
    """Prometheus rules (SLO burn rates, triggers, audit health) for the policy."""
    from guardian.alerts.rules import render

    policy = load_policy(policy_file)
    try:
        text = render(policy)
    except ValueError as exc:
        raise fail(f"cannot write rules: {exc}", 2) from None
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        out.write_text(text)
    except OSError as exc:
        raise fail(f"cannot write {out}: {exc}", 2) from None
    typer.secho(f"wrote {out} (check it: promtool check rules {out})", fg="green", err=True)


@app.command("test-send")
def test_send(url: str = typer.Option(..., "--url", envvar="GUARDIAN_ALERTMANAGER_URL",
                                      help="Alertmanager base URL (default: "
                                           "GUARDIAN_ALERTMANAGER_URL)."),
              route: str = typer.Option("default", "--route", help="Route label of the alert."),
              timeout_s: float = typer.Option(5.0, "--timeout", help="Seconds to wait "
                                              "(0.1 to 300).")) -> None:
    """Post one `GuardianTestAlert` to Alertmanager's v2 API."""
    from guardian.alerts.alertmanager import post_alerts, redact_url

    if not 0.1 <= timeout_s <= 300:  # also refuses nan
        raise typer.BadParameter("seconds from 0.1 to 300", param_hint="--timeout")

    alert = {"labels": {"alertname": "GuardianTestAlert", "route": route, "severity": "info",
                        "service": "spec-guardian"},
             "annotations": {"summary": "test alert from guardian alerts test-send"}}
    try:
        status = post_alerts(url.split(",")[0].strip(), [alert], timeout_s)
    except ValueError as exc:  # not an http(s) URL
        raise fail(f"--url: {exc}", 2) from None
    except Exception as exc:  # any transport or HTTP error: one line
        raise fail(f"alertmanager {redact_url(url)} refused or unreachable: {exc}") from None
    typer.secho(f"alertmanager {redact_url(url)} accepted the test alert ({status})",
                fg="green")
