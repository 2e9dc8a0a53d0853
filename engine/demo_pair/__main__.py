"""`python -m engine.demo_pair build|eval`: build the demo pair, or measure it.

eval prints the pair's mean acceptance length (MAL) and per-position acceptance at
gamma greedy on held-out prompts, the target's held-out loss, and the CPU speed shape
(c and the target's 5-vs-1 new-token cost ratio).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time

# Idle OpenMP threads should sleep, not spin: on a shared, busy CPU, spinning threads wait
# on descheduled peers (measured here, 2 threads under load: 4.5 CPU-s per training step
# spinning vs 1.1 CPU-s passive). libgomp reads this once, when torch loads it, and
# `import engine` loads torch before this module runs, so re-execute with it set.
if __name__ == "__main__" and "OMP_WAIT_POLICY" not in os.environ:
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    os.execv(sys.executable, [sys.executable, "-m", "engine.demo_pair", *sys.argv[1:]])

logger = logging.getLogger("engine.demo_pair")

DEFAULT_HOME = "~/.cache/spec-guardian"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.demo_pair", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="Build (or rebuild with --force) the demo pair.")
    # This entry point is a caller like any other: it chooses the home (the sidecar's
    # `guardian pair build-demo` passes its settings' GUARDIAN_HOME instead).
    b.add_argument("--home", default=DEFAULT_HOME, help=f"Data directory (default: {DEFAULT_HOME})")
    b.add_argument("--force", action="store_true", help="Rebuild even if a built pair exists.")
    b.add_argument("--no-progress", action="store_true")
    e = sub.add_parser("eval", help="Measure acceptance and speed shape of the demo pair.")
    e.add_argument("--home", default=DEFAULT_HOME)
    e.add_argument("--n", type=int, default=32, help="Held-out prompts (default 32).")
    e.add_argument("--gamma", type=int, default=4)
    e.add_argument("--max-new-tokens", type=int, default=64)
    e.add_argument("--seed", type=int, default=0, help="Prompt selection seed.")
    e.add_argument("--samples", type=int, default=2, help="Sample completions to print.")
    e.add_argument("--no-speed", action="store_true", help="Skip the CPU timing.")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    from engine.demo_pair.build import ensure_demo_pair
    if args.command == "build":
        t0 = time.perf_counter()
        paths = ensure_demo_pair(args.home, progress=not args.no_progress, force=args.force)
        print(json.dumps({"draft": str(paths.draft_dir), "target": str(paths.target_dir),
                          "seconds": round(time.perf_counter() - t0, 1),
                          **{k: paths.manifest[k] for k in ("params", "target", "draft")}},
                         indent=2))
        return 0
    return _eval(args)


def _eval(args: argparse.Namespace) -> int:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from engine.demo_pair import evaluate
    from engine.demo_pair.build import ensure_demo_pair
    from engine.demo_pair.corpus import heldout_prompts

    torch.set_num_threads(2)
    paths = ensure_demo_pair(args.home)
    tok = AutoTokenizer.from_pretrained(paths.target_dir)
    target = AutoModelForCausalLM.from_pretrained(paths.target_dir).eval()
    draft = AutoModelForCausalLM.from_pretrained(paths.draft_dir).eval()
    prompts = heldout_prompts(args.n, seed=args.seed,
                              count_tokens=lambda s: len(tok(s).input_ids))
    samples = evaluate.greedy_continuations(target, tok, prompts, args.max_new_tokens)
    report = evaluate.acceptance(draft, samples, gamma=args.gamma)
    manifest = paths.manifest
    print(f"pair: {paths.root}  (target {manifest['params']['target']:,} params, "
          f"draft {manifest['params']['draft']:,})")
    print(f"target held-out loss {manifest['target']['heldout_loss']:.3f}  "
          f"draft held-out loss {manifest['draft']['heldout_loss']:.3f}")
    print(f"gamma={args.gamma} greedy on {len(prompts)} held-out prompts, "
          f"{report.emitted} tokens, {report.steps} steps")
    print(f"mean acceptance length {report.mean_acceptance_length:.3f}  "
          f"acceptance rate {report.acceptance_rate:.3f}  alpha {report.alpha:.3f}")
    print("acceptance per position " +
          " ".join(f"{a:.3f}" for a in report.acceptance_per_position))
    if not args.no_speed:
        for label, cpu_clock in (("wall clock, 2 threads", False),
                                 ("thread CPU time, 1 thread", True)):
            shape = evaluate.speed_shape(draft, target, cpu_clock=cpu_clock)
            print(f"[{label}] c = draft 1-token / target 1-token forward = "
                  f"{shape.draft_1_s * 1e3:.2f} / {shape.target_1_s * 1e3:.2f} ms = {shape.c:.3f}; "
                  f"target 5-token / 1-token = {shape.target_5_s * 1e3:.2f} / "
                  f"{shape.target_1_s * 1e3:.2f} ms = {shape.target_5_vs_1:.3f}")
    for prompt, (_, cont) in list(zip(prompts, samples, strict=True))[: args.samples]:
        print("-" * 60)
        print(prompt + "\033[1m" + tok.decode(cont) + "\033[0m" if sys.stdout.isatty()
              else prompt + "⟪" + tok.decode(cont) + "⟫")
    return 0


if __name__ == "__main__":
    sys.exit(main())
