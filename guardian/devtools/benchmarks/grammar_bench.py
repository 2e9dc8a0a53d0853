"""`guardian bench grammar`: what a structured-output mask costs per token, beside what the
token costs the model, measured side by side in one run.

For each schema (`SCHEMAS`, plus `json_object`) a valid answer is tokenized with the model's
tokenizer and replayed through the engine's own mask path (engine.grammar.GrammarConstraint
.apply on one position's logits: the library's bitmask, its unpacking and the masked fill),
one position at a time as the target-only loop asks for it, and as a verify block of
`--gamma` + 1 positions as the speculative verifier asks for it. Beside it, in the same run,
one target forward of one token at batch 1 (the model's decode step). The ratio - mask per
position over the forward - is the share of a decode step the grammar adds.

Candidates: llguidance (the one the engine uses) and, when installed, xgrammar's own
matcher on the same text (`pip install xgrammar`: its wheel pulls triton), for the choice
recorded in engine/grammar.py.

Default model: SmolLM2-135M-Instruct from its GGUF (`bash .ci/install-llamacpp` fetches it),
the real model of `guardian pair build --recipe smollm2`.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

import typer

SCHEMAS: dict[str, tuple[dict[str, Any], Any]] = {
    "flat object": (
        {"type": "object", "additionalProperties": False, "required": ["name", "age"],
         "properties": {"name": {"type": "string"}, "age": {"type": "integer"},
                        "tags": {"type": "array", "items": {"type": "string"}}}},
        {"name": "Ada Lovelace", "age": 36, "tags": ["math", "poetry", "engines"]}),
    "nested, enums": (
        {"type": "object", "required": ["order"], "properties": {"order": {
            "type": "object", "required": ["id", "status", "lines"], "properties": {
                "id": {"type": "string", "pattern": "^[A-Z]{2}-[0-9]{4}$"},
                "status": {"enum": ["open", "paid", "shipped"]},
                "lines": {"type": "array", "items": {
                    "type": "object", "required": ["sku", "qty"],
                    "properties": {"sku": {"type": "string"},
                                   "qty": {"type": "integer", "minimum": 1}}}}}}}},
        {"order": {"id": "AB-1234", "status": "paid",
                   "lines": [{"sku": "kettle", "qty": 2}, {"sku": "mug", "qty": 6}]}}),
    "json_object": (
        {"type": "object"},
        {"city": "Lyon", "population": 522250, "rivers": ["Rhône", "Saône"], "capital": False}),
}


def _default_gguf() -> Path:
    return Path.home() / ".cache" / "spec-guardian" / "gguf" / "SmolLM2-135M-Instruct.Q4_1.gguf"


def _median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def _p99_us(samples: list[float]) -> float:
    return sorted(samples)[min(len(samples) - 1, int(0.99 * len(samples)))] * 1e6


def measure(tokenizer: Any, model: Any, eos: list[int], *, gamma: int = 4,
            repeats: int = 20, progress: Any = None) -> dict[str, Any]:
    """The report: per schema, mask µs per position (alone and in a verify block) for each
    installed library, the model's one-token forward, and their ratio."""
    import torch

    from engine.grammar import GrammarConstraint, GrammarSpec

    vocab = int(model.config.vocab_size)
    forward = []
    ids = torch.tensor([tokenizer.encode("The answer, as JSON:")])
    with torch.inference_mode():
        out = model(ids, use_cache=True)
        for _ in range(max(10, repeats)):
            t0 = time.perf_counter()
            model(torch.tensor([[int(out.logits[0, -1].argmax())]]),
                  past_key_values=out.past_key_values, use_cache=True)
            forward.append(time.perf_counter() - t0)
    forward_us = _median_us(forward)
    rows = []
    for name, (schema, answer) in SCHEMAS.items():
        text = json.dumps(answer, ensure_ascii=False)
        tokens = tokenizer.encode(text, add_special_tokens=False)
        spec = (GrammarSpec.json_object() if name == "json_object"
                else GrammarSpec.json_schema(schema))
        t0 = time.perf_counter()
        constraint = GrammarConstraint(spec, tokenizer, vocab, eos)
        compile_ms = (time.perf_counter() - t0) * 1e3
        logits = torch.zeros(1, 1, vocab)
        alone, block = [], []
        for _ in range(repeats):
            for i in range(len(tokens)):
                t0 = time.perf_counter()
                masked = constraint.apply(logits, [tokens[:i]], None)
                alone.append(time.perf_counter() - t0)
                if masked[0, 0, tokens[i]] != 0:
                    raise RuntimeError(f"{name}: the grammar refused its own valid answer at "
                                       f"token {i} ({tokenizer.decode(tokens[i:i + 1])!r})")
            wide = torch.zeros(1, gamma + 1, vocab)
            for i in range(0, len(tokens) - gamma):
                t0 = time.perf_counter()
                constraint.apply(wide, [tokens[:i]], [tokens[i:i + gamma]])
                block.append((time.perf_counter() - t0) / (gamma + 1))
            if progress is not None:
                progress()
        row = {"schema": name, "tokens": len(tokens), "compile_ms": round(compile_ms, 2),
               "llguidance_us": round(_median_us(alone), 1),
               "llguidance_p99_us": round(_p99_us(alone), 1),
               "llguidance_block_us": round(_median_us(block), 1),
               "share_of_forward": round(_median_us(alone) / forward_us, 4)}
        row["llguidance_call_us"] = _llguidance_call(constraint, tokens, repeats)
        row.update(_xgrammar(tokenizer, vocab, eos, schema if name != "json_object" else None,
                             tokens, repeats))
        rows.append(row)
    return {"vocab": vocab, "forward_us": round(forward_us, 1), "gamma": gamma, "rows": rows}


def _llguidance_call(constraint: Any, tokens: list[int], repeats: int) -> float:
    """llguidance's own mask call over the same tokens (fill the bitmask, consume the token),
    without the engine's torch work: the like-for-like figure beside xgrammar's."""
    import llguidance
    import llguidance.torch as lgt

    bitmask = lgt.allocate_token_bitmask(1, constraint.vocab)
    times = []
    for _ in range(repeats):
        matcher = llguidance.LLMatcher(constraint._tok, constraint.spec.grammar, log_level=0)
        for t in tokens:
            t0 = time.perf_counter()
            lgt.fill_next_token_bitmask(matcher, bitmask, 0)
            times.append(time.perf_counter() - t0)
            matcher.consume_token(t)
    return round(_median_us(times), 1)


def _xgrammar(tokenizer: Any, vocab: int, eos: list[int], schema: dict[str, Any] | None,
              tokens: list[int], repeats: int) -> dict[str, Any]:
    """xgrammar's matcher over the same tokens (fill the mask, accept the token), if
    installed; {} otherwise."""
    try:
        import xgrammar as xgr
    except ImportError:
        return {}
    info = xgr.TokenizerInfo.from_huggingface(tokenizer, vocab_size=vocab, stop_token_ids=eos)
    compiler = xgr.GrammarCompiler(info)
    compiled = (compiler.compile_builtin_json_grammar() if schema is None
                else compiler.compile_json_schema(json.dumps(schema), any_whitespace=False))
    bitmask = xgr.allocate_token_bitmask(1, vocab)
    times = []
    for _ in range(repeats):
        matcher = xgr.GrammarMatcher(compiled)
        for t in tokens:
            t0 = time.perf_counter()
            matcher.fill_next_token_bitmask(bitmask)
            times.append(time.perf_counter() - t0)
            matcher.accept_token(t)
    return {"xgrammar_us": round(_median_us(times), 1)}


def render(report: dict[str, Any]) -> str:
    lines = [f"vocabulary {report['vocab']:,}; one-token target forward at batch 1: "
             f"{report['forward_us'] / 1e3:.2f} ms; verify block {report['gamma'] + 1} positions",
             "", "| schema | tokens | compile ms | mask µs / position (p99) | in a verify block "
             "| share of a forward | llguidance call µs | xgrammar call µs |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in report["rows"]:
        lines.append(f"| {r['schema']} | {r['tokens']} | {r['compile_ms']} | "
                     f"{r['llguidance_us']} ({r['llguidance_p99_us']}) | "
                     f"{r['llguidance_block_us']} | {100 * r['share_of_forward']:.2f} % | "
                     f"{r['llguidance_call_us']} | {r.get('xgrammar_us', 'not installed')} |")
    return "\n".join(lines)


def cli(
    model_dir: Path | None = typer.Option(
        None, "--model", help="A local HF model directory (default: SmolLM2-135M-Instruct's "
        "GGUF, fetched by `bash .ci/install-llamacpp`)."),
    gguf_file: str | None = typer.Option(None, help="The GGUF file inside --model, if any."),
    gamma: int = typer.Option(4, min=1, max=16, help="Verify block is gamma + 1 positions."),
    repeats: int = typer.Option(20, min=1, help="Replays of each answer."),
    json_path: Path | None = typer.Option(None, "--json", help="Also write the report as JSON."),
) -> None:
    """Measure the structured-output mask per token against one decode step of the model."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if model_dir is None:
        path = _default_gguf()
        if not path.is_file():
            typer.secho(f"no model: {path} is missing; run `bash .ci/install-llamacpp` or pass "
                        "--model DIR", fg="red", err=True)
            raise typer.Exit(2)
        model_dir, gguf_file = path.parent, path.name
    if not model_dir.is_dir():
        typer.secho(f"--model {model_dir} is not a directory", fg="red", err=True)
        raise typer.Exit(2)
    kwargs = {"gguf_file": gguf_file} if gguf_file else {}
    tokenizer = AutoTokenizer.from_pretrained(model_dir, **kwargs)
    model = AutoModelForCausalLM.from_pretrained(model_dir, **kwargs).eval()
    eos = [int(tokenizer.eos_token_id)]
    with Progress(TextColumn("grammar masks"), BarColumn(), TextColumn("{task.completed}/"
                  "{task.total}"), TimeRemainingColumn()) as bar:
        task = bar.add_task("masks", total=len(SCHEMAS) * repeats)
        report = measure(tokenizer, model, eos, gamma=gamma, repeats=repeats,
                         progress=lambda: bar.advance(task))
    typer.echo(render(report))
    if json_path is not None:
        json_path.write_text(json.dumps(report, indent=2) + "\n")
