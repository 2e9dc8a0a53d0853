"""`python -m tests.faults [--full]`: run the fault-injection suite and print/write its table.

Default (quick): every fault, at most 12 requests each, 40 clean requests, no gate.
--full: every fault up to 40 requests of its kind, 1,000 clean requests, and the gate on the
golden set under each fault; writes <out>/faults.json and <out>/faults.md (the tables in
docs/guides/compliance.md). Takes about an hour on 2 busy CPU cores.
--batching continuous: inject the continuous batching engine's faults
(tests/faults/continuous_faults.py) into a continuously batched backend, the engine `guardian
serve` runs by default, sending requests in concurrent bursts (--concurrency, default 4) so rows
share the batch.
"""

from __future__ import annotations

import os
import sys

# As `guardian serve` does: idle OpenMP threads sleep, before torch loads.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def main(argv: list[str] | None = None) -> int:
    import argparse
    from pathlib import Path

    parser = argparse.ArgumentParser(prog="python -m tests.faults", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="40 requests per fault, 1,000 clean "
                        "requests, the gate under every fault.")
    parser.add_argument("--faults", default="", help="Comma-separated fault names (default: all).")
    parser.add_argument("--limit", type=int, default=None, help="Requests per fault.")
    parser.add_argument("--clean", type=int, default=None, help="Clean requests.")
    parser.add_argument("--clean-budget-s", type=float, default=None,
                        help="Stop the clean run after this many seconds (the table says so).")
    parser.add_argument("--gate", action="store_true", help="Run the gate under each fault.")
    parser.add_argument("--no-gate", action="store_true", help="Skip the gate (even with --full).")
    parser.add_argument("--gate-only", action="store_true", help="Only the gate, clean and under "
                        "each fault (no traffic); writes <out>/gates.json.")
    parser.add_argument("--golden", type=Path, default=Path("policies/golden/python-code.jsonl"))
    parser.add_argument("--home", default=None, help="Data directory holding the demo pair, "
                        "or DRAFT_DIR,TARGET_DIR for another pair.")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1).")
    parser.add_argument("--decode", choices=("dynamic", "static", "graphs", "auto"), default=None,
                        help="The one-request path's KV caches (GUARDIAN_DECODE; default "
                        "dynamic): the suite judges the engine in that mode.")
    parser.add_argument("--batching", choices=("off", "continuous"), default="off",
                        help="The engine under test: request-level (off, the default here) or "
                        "continuous batching (`guardian serve`'s default).")
    parser.add_argument("--concurrency", type=int, default=None, help="Requests sent at once "
                        "per burst (default 4 with --batching continuous, else 1).")
    parser.add_argument("--gamma-by-batch", default="", metavar="SIZE:CAP,...",
                        help="With --batching continuous: the depth cap per batch size, e.g. "
                        "1:4,3:0 (default: one cap at every size).")
    parser.add_argument("--out", type=Path, default=Path("artifacts/faults"))
    parser.add_argument("--render", type=Path, nargs="+", default=None, metavar="DIR",
                        help="Only print the table merged from earlier runs' result folders.")
    args = parser.parse_args(argv)
    if args.decode:
        os.environ["GUARDIAN_DECODE"] = args.decode
    if args.render:
        from tests.faults.runner import markdown_table, merge_results

        print(markdown_table(merge_results(args.render)))
        return 0

    import torch

    from tests.faults.runner import (
        env_for_suite,
        fault_named,
        faults_for,
        markdown_table,
        parse_gamma_by_batch,
        run_suite,
    )

    torch.set_num_threads(args.threads)
    names = [n for n in args.faults.split(",") if n]
    known = [f.name for b in ("off", "continuous") for f in faults_for(b)]
    unknown = [n for n in names if n not in known]
    if unknown:
        print(f"unknown fault(s) {unknown}; known: {', '.join(known)}", file=sys.stderr)
        return 2
    faults = [fault_named(n) for n in names] if names else faults_for(args.batching)
    wrong = [f.name for f in faults if f.engine != ("continuous" if args.batching == "continuous"
                                                    else "request")]
    if wrong:
        print(f"fault(s) {wrong} patch the other engine than --batching {args.batching} "
              "serves with", file=sys.stderr)
        return 2
    concurrency = args.concurrency or (4 if args.batching == "continuous" else 1)
    limit = args.limit or (40 if args.full else 12)
    clean = args.clean if args.clean is not None else (1000 if args.full else 40)
    if args.gate_only:
        from tests.faults.runner import run_gates

        with env_for_suite():
            gates = run_gates(faults=faults, golden=args.golden, home=args.home, out=args.out,
                              batching=args.batching)
        return 0 if gates["(clean)"]["passed"] else 1
    command = "python -m tests.faults " + " ".join(argv if argv is not None else sys.argv[1:])
    with env_for_suite():
        suite = run_suite(faults=faults, clean_requests=clean, limit=limit,
                          gate_golden=(args.golden if (args.full or args.gate) and not args.no_gate
                                       else None),
                          clean_budget_s=args.clean_budget_s, out=args.out, home=args.home,
                          command=command, batching=args.batching, concurrency=concurrency,
                          gamma_by_batch=parse_gamma_by_batch(args.gamma_by_batch)
                          if args.gamma_by_batch else None)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "faults.json").write_text(suite.to_json())
    table = markdown_table(suite)
    (args.out / "faults.md").write_text(table)
    print(table)
    missed = [r.name for r in suite.faults if not r.ok]
    false_alarms = suite.clean["false_alarms"] if suite.clean else 0
    print(f"{len(suite.faults) - len(missed)}/{len(suite.faults)} faults as expected; "
          f"{false_alarms} clean false alarms; {suite.seconds:.0f} s; results in {args.out}/")
    return 0 if not missed and not false_alarms else 1


if __name__ == "__main__":
    sys.exit(main())
