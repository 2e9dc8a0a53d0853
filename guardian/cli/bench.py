"""`guardian bench ...`: side-by-side benchmarks whose output is a ratio measured in one run.

Each benchmark lives in `guardian.devtools.benchmarks.<name>` and exposes `cli` (a Typer command
function); this module only registers them, so the heavy imports stay inside the commands.
"""

from __future__ import annotations

import typer

from guardian.devtools.benchmarks import (
    audit_bench,
    dashboard_bench,
    decode_bench,
    engine_bench,
    layout_bench,
    proxy_bench,
)

app = typer.Typer(help="Benchmarks (ratios measured side by side in one process).",
                  no_args_is_help=True)
app.command("engine", help=engine_bench.cli.__doc__)(engine_bench.cli)
app.command("decode", help=decode_bench.cli.__doc__)(decode_bench.cli)
app.command("layout", help=layout_bench.cli.__doc__)(layout_bench.cli)
app.command("audit", help=audit_bench.cli.__doc__)(audit_bench.cli)
app.command("dashboard", help=dashboard_bench.cli.__doc__)(dashboard_bench.cli)
app.command("proxy", help=proxy_bench.cli.__doc__)(proxy_bench.cli)

from guardian.devtools.benchmarks import tolerance_bench  # noqa: E402

app.command("tolerance", help=tolerance_bench.cli.__doc__)(tolerance_bench.cli)

from guardian.devtools.benchmarks import clean_bench  # noqa: E402

app.command("clean", help=clean_bench.cli.__doc__)(clean_bench.cli)

from guardian.devtools.benchmarks import serving_bench  # noqa: E402

app.command("serving", help=serving_bench.cli.__doc__)(serving_bench.cli)

from guardian.devtools.benchmarks import step_profile  # noqa: E402

app.command("step-profile", help=step_profile.cli.__doc__)(step_profile.cli)

from guardian.devtools.benchmarks import telemetry_bench  # noqa: E402

app.command("telemetry", help=telemetry_bench.cli.__doc__)(telemetry_bench.cli)

from guardian.devtools.benchmarks import fairness_bench  # noqa: E402

app.command("fairness", help=fairness_bench.cli.__doc__)(fairness_bench.cli)

from guardian.devtools.benchmarks import grammar_bench  # noqa: E402

app.command("grammar", help=grammar_bench.cli.__doc__)(grammar_bench.cli)
