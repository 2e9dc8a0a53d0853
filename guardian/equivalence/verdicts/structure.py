"""Structured answers compared by structure: `tool_calls_of` (a result's tool calls as
(name, parsed arguments)) and `structure_verdict`, what a greedy verdict adds when both
paths' tokens match - their tool calls, their JSON and their text must match too.

Same tokens do not make the same answer: the text is assembled from each step's tokens
(several per speculative step), and tool calls are parsed from the text. An assembler that
drops a piece of a multi-token step, or a parser fed the speculative path's deltas, changes
what the client gets while every token check passes (tool-call output corrupted under
speculation: vllm-project/vllm#56077, #40875). Results are BackendResult-like: `.text` and
`.stats["tool_calls"]` (OpenAI `tool_calls`, as guardian.backends.tools puts them).
"""

from __future__ import annotations

import json
from typing import Any

from guardian.equivalence.verdicts.result import VerdictResult, first_difference


def tool_calls_of(result: Any) -> list[tuple[Any, Any]]:
    """A result's tool calls as (name, arguments as JSON where they parse): structural."""
    out = []
    for call in (result.stats or {}).get("tool_calls") or []:
        fn = call.get("function") or {}
        try:
            args: Any = json.loads(fn.get("arguments") or "")
        except (ValueError, RecursionError):
            args = fn.get("arguments")
        out.append((fn.get("name"), args))
    return out


def _json(text: str) -> tuple[bool, Any]:
    try:
        return True, json.loads(text)
    except (ValueError, RecursionError):
        return False, None


def _first_difference(a: str, b: str) -> dict[str, Any]:
    first = first_difference(a, b)
    return {"first_differing_char": first, "served": a[first:first + 40],
            "shadow": b[first:first + 40]}


def structure_verdict(result: VerdictResult, served: Any, shadow: Any, *,
                      truncated: bool = False) -> VerdictResult:
    """`result` (a greedy verdict on the two paths' tokens) unless it is a `match` whose
    answers differ: then a `divergence` naming the first of `tool_calls` (name or parsed
    arguments), `json_structure` (both texts JSON, different values) or `text`.
    `truncated`: the shadow cap cut the shadow's completion short (same tokens up to it):
    then only its text is checked, as a prefix of the served text (less a trailing U+FFFD,
    a character the cut split), and the rest is listed as unchecked."""
    if result.verdict != "match":
        return result
    if truncated:
        if served.text.startswith(shadow.text.rstrip("\ufffd")):
            result.details["unchecked"] = [*result.details.get("unchecked", []),
                                           "tool_calls", "json_structure"]
            return result
        return VerdictResult("divergence", None, None, {
            **result.details, "failed_check": "text",
            "answers_differ": _first_difference(served.text, shadow.text)})
    a, b = tool_calls_of(served), tool_calls_of(shadow)
    if a != b:
        check, differ = "tool_calls", {"served": a[:8], "shadow": b[:8]}
    elif served.text != shadow.text:
        (ja, va), (jb, vb) = _json(served.text), _json(shadow.text)
        check = "json_structure" if ja and jb and va != vb else "text"
        differ = _first_difference(served.text, shadow.text)
    else:
        if a:
            result.details["tool_calls_compared"] = len(a)
        return result
    return VerdictResult("divergence", None, None,
                         {**result.details, "failed_check": check, "answers_differ": differ})
