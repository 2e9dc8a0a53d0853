"""`python -m engine.recipes build NAME`: build (or find) a recipe's pair, print its dirs."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time

# Idle OpenMP threads sleep instead of spinning on a shared CPU (engine/demo_pair/__main__.py
# measured why); libgomp reads it when torch loads, so re-execute with it set.
if __name__ == "__main__" and "OMP_WAIT_POLICY" not in os.environ:
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    os.execv(sys.executable, [sys.executable, "-m", "engine.recipes", *sys.argv[1:]])

DEFAULT_HOME = "~/.cache/spec-guardian"


def main(argv: list[str] | None = None) -> int:
    from engine.recipes import RECIPES, recipe

    parser = argparse.ArgumentParser(prog="python -m engine.recipes", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="Build a recipe's pair (cached; --force rebuilds).")
    b.add_argument("name", choices=sorted(RECIPES))
    b.add_argument("--home", default=DEFAULT_HOME, help=f"Data directory (default: {DEFAULT_HOME})")
    b.add_argument("--force", action="store_true")
    b.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    t0 = time.perf_counter()
    paths = recipe(args.name).ensure_pair(args.home, progress=not args.no_progress,
                                         force=args.force)
    print(json.dumps({"draft": str(paths.draft_dir), "target": str(paths.target_dir),
                      "seconds": round(time.perf_counter() - t0, 1)}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
