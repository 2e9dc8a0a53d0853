"""Run llama.cpp's own HTTP server (llama-server) on a GGUF, in this process, through the
`xllamacpp` wheel (prebuilt, no compiler): an upstream pool for the sidecar's
GUARDIAN_BACKEND=upstream, for tests, the llama.cpp guide and local trials.

    python -m guardian.devtools.llamacpp --model SmolLM2-135M-Instruct.Q4_1.gguf --port 8081
    python -m guardian.devtools.llamacpp --model ... --port 8082 --spec ngram-mod

`--spec` turns on llama.cpp's own speculative decoding over the same model (no second
model): `ngram-mod` (the default self-speculation that drafts on this wheel's build),
`ngram-simple`, `ngram-map-k`, `ngram-cache`; or `draft` with `--draft-model`. Answers then
carry `timings.draft_n` / `draft_n_accepted`, and `/metrics` (always on here) the
`llamacpp:spec_decode_*` counters. Only loopback by default (`--host`).

Chat templates are run as Jinja (llama.cpp's --jinja; `--no-jinja` for its legacy built-in
templates): without it llama.cpp refuses any request with `tools` (HTTP 500 "tools param
requires --jinja flag"), and with it parses the answer's tool calls into OpenAI
`tool_calls`. A ChatML model whose own template has no tools (SmolLM2's) gets a tools
branch in front of it (guardian.devtools.llamacpp_tools; `--no-tools-template` to keep the
GGUF's alone, which drops `tools` from the prompt).

The server is llama.cpp's (its OpenAI routes, its sampling, its speculation); this module
only fills `xllamacpp.CommonParams` and keeps the process alive until SIGTERM / SIGINT.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from typing import Any

logger = logging.getLogger(__name__)

SPEC_TYPES = {"ngram-mod": "NGRAM_MOD", "ngram-simple": "NGRAM_SIMPLE",
              "ngram-map-k": "NGRAM_MAP_K", "ngram-cache": "NGRAM_CACHE", "draft": "DRAFT_SIMPLE"}


def params(model: str, port: int, *, host: str = "127.0.0.1", spec: str | None = None,
           draft_model: str | None = None, threads: int = 1, ctx: int = 4096,
           parallel: int = 2, draft_max: int = 16, jinja: bool = True,
           tools_template: bool = True) -> Any:
    """The `xllamacpp.CommonParams` of one server (ImportError without the wheel).

    `jinja`: llama.cpp's --jinja, explicit (this wheel's default is on, llama-server's was
    off for long): tools and tool_calls need it. `tools_template`: where the GGUF's own
    template is ChatML without tools, serve it with the tools branch of
    guardian.devtools.llamacpp_tools (requests without tools render as before)."""
    import xllamacpp

    from guardian.devtools.llamacpp_tools import tools_template as with_tools

    p = xllamacpp.CommonParams()
    p.model.path = model
    p.use_jinja = jinja
    if jinja and tools_template and (template := with_tools(model)) is not None:
        p.chat_template = template
    p.port = port
    p.hostnames = [host]
    p.endpoint_metrics = True  # /metrics: the llamacpp:spec_decode_* counters
    p.n_ctx = ctx  # shared by the slots: ctx / parallel tokens each
    p.n_parallel = parallel  # serving and the sidecar's shadow at once
    p.cpuparams.n_threads = threads
    p.cpuparams_batch.n_threads = threads
    if spec is not None:
        if spec not in SPEC_TYPES:
            raise ValueError(f"--spec {spec!r}: one of {', '.join(SPEC_TYPES)}")
        if spec == "draft":
            if not draft_model:
                raise ValueError("--spec draft needs --draft-model PATH (a smaller GGUF)")
            p.speculative.draft.mparams.path = draft_model
        p.speculative.types = [getattr(xllamacpp.common_speculative_type,
                                       f"COMMON_SPECULATIVE_TYPE_{SPEC_TYPES[spec]}")]
        p.speculative.draft.n_max = draft_max
        p.speculative.ngram_mod.n_max = draft_max
    return p


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m guardian.devtools.llamacpp",
                                 description="llama.cpp's server on a GGUF (xllamacpp)")
    ap.add_argument("--model", required=True, help="the GGUF file")
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--spec", choices=sorted(SPEC_TYPES), default=None,
                    help="llama.cpp's speculative decoding (default: none, target-only)")
    ap.add_argument("--draft-model", default=None, help="the draft GGUF for --spec draft")
    ap.add_argument("--draft-max", type=int, default=16, help="most draft tokens a step")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--ctx", type=int, default=4096)
    ap.add_argument("--parallel", type=int, default=2)
    ap.add_argument("--no-jinja", dest="jinja", action="store_false",
                    help="llama.cpp's legacy templates (no tools, no tool_calls)")
    ap.add_argument("--no-tools-template", dest="tools_template", action="store_false",
                    help="the GGUF's own chat template alone, even where it has no tools")
    args = ap.parse_args(argv)
    try:
        p = params(args.model, args.port, host=args.host, spec=args.spec,
                   draft_model=args.draft_model, threads=args.threads, ctx=args.ctx,
                   parallel=args.parallel, draft_max=args.draft_max, jinja=args.jinja,
                   tools_template=args.tools_template)
        import xllamacpp
    except ImportError:
        sys.exit("xllamacpp is not installed: pip install xllamacpp (a prebuilt wheel of "
                 "llama.cpp's server)")
    except ValueError as exc:
        sys.exit(str(exc))
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    server = xllamacpp.Server(p)  # starts listening; the model is loaded when this returns
    print(f"llama.cpp server on {server.listening_address} (spec: {args.spec or 'none'})",
          flush=True)
    stop.wait()
    del server


if __name__ == "__main__":
    main()
