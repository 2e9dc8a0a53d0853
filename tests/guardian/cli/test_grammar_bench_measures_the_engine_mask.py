"""`guardian bench grammar` measures the engine's own mask path beside a forward: on a tiny
model every answer replays through its grammar (a refused token would raise), and the report
carries the figures docs/benchmarks/grammar.md tabulates."""

from __future__ import annotations

from guardian.devtools.benchmarks.grammar_bench import SCHEMAS, measure, render
from tests.support.tiny_models import build_tokenizer, make_model


def test_every_answer_replays_through_its_grammar_and_the_report_is_complete() -> None:
    tok = build_tokenizer()
    model = make_model("llama", len(tok), 1, seed=1, eos_id=tok.eos_token_id)
    report = measure(tok, model, [tok.eos_token_id], gamma=2, repeats=1)
    assert [r["schema"] for r in report["rows"]] == list(SCHEMAS)
    for row in report["rows"]:
        assert row["tokens"] > 0 and row["llguidance_us"] > 0 and row["llguidance_call_us"] > 0
        assert row["share_of_forward"] > 0
    assert report["forward_us"] > 0
    table = render(report)
    assert table.count("\n| ") == 2 + len(SCHEMAS)  # header, rule, one row per schema
