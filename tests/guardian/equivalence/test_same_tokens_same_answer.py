"""`structure_verdict`: a greedy match on tokens is still a divergence when the answers the
client gets differ - tool calls (name, parsed arguments), JSON values, or text."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from guardian.equivalence.verdicts import VerdictResult, structure_verdict, tool_calls_of


@dataclass
class R:
    text: str
    stats: dict[str, Any] = field(default_factory=dict)


def _call(name: str, **args: Any) -> dict:
    return {"id": "x", "type": "function",
            "function": {"name": name, "arguments": json.dumps(args)}}


def test_equal_answers_keep_the_match() -> None:
    a = R('{"a": 1}', {"tool_calls": [_call("f", a=1)]})
    b = R('{"a": 1}', {"tool_calls": [_call("f", a=1)]})
    assert structure_verdict(VerdictResult("match"), a, b).verdict == "match"


def test_tool_calls_are_compared_by_structure_not_spelling() -> None:
    spaced = {"id": "y", "type": "function", "function": {"name": "f", "arguments": '{ "a" : 1 }'}}
    assert tool_calls_of(R("", {"tool_calls": [spaced]})) == tool_calls_of(
        R("", {"tool_calls": [_call("f", a=1)]}))
    out = structure_verdict(VerdictResult("match"), R("t", {"tool_calls": [_call("f", a=1)]}),
                            R("t", {"tool_calls": [_call("f", a=2)]}))
    assert (out.verdict, out.details["failed_check"]) == ("divergence", "tool_calls")


def test_json_and_text_differences_are_named() -> None:
    out = structure_verdict(VerdictResult("match"), R('{"a": 1}'), R('{"a": 2}'))
    assert out.details["failed_check"] == "json_structure"
    out = structure_verdict(VerdictResult("match"), R("hello"), R("helo"))
    assert out.details["failed_check"] == "text"
    assert out.details["answers_differ"]["first_differing_char"] == 3


def test_other_verdicts_pass_through_unchanged() -> None:
    for verdict in ("near_tie", "divergence"):
        assert structure_verdict(VerdictResult(verdict), R("a"), R("b")).verdict == verdict


def test_a_shadow_cut_at_its_cap_is_checked_as_a_prefix() -> None:
    ok = structure_verdict(VerdictResult("match"), R("abcdef"), R("abc\ufffd"), truncated=True)
    assert ok.verdict == "match" and "tool_calls" in ok.details["unchecked"]
    bad = structure_verdict(VerdictResult("match"), R("abdef"), R("abc"), truncated=True)
    assert (bad.verdict, bad.details["failed_check"]) == ("divergence", "text")
