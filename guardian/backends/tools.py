"""OpenAI tool calling on a backend that decodes itself (the local engine): the tools in the
prompt, the grammar a forced call decodes under, and the call parsed back out of the text.

Format: Hermes-style blocks, which SmolLM2, Qwen and Hermes models are trained on and which
vLLM's `hermes` parser reads::

    <tool_call>
    {"name": "get_weather", "arguments": {"city": "Paris"}}
    </tool_call>

- **Prompt.** A chat template that renders `tools` itself is given them; one that does not
  (SmolLM2's) gets them as a system message in the same format, and earlier turns' calls and
  results rewritten as the blocks and `<tool_response>` turns it would have rendered.
- **Grammar** (`tool_structure` -> `Sampling.grammar`; `tool_lark` compiles it): with
  `tool_choice` "required" or a named function the answer *is* one call (or several, with
  `parallel_tool_calls`): a Lark grammar whose arguments are the tool's JSON schema, so the
  mask (engine.grammar) holds on draft and target alike and greedy output stays identical
  to target-only. With "auto" the model chooses; the text is parsed afterwards.
- **Compile** (`grammar_spec`): `Sampling.grammar` - a response_format's JSON or a forced
  call's structure - as the engine's grammar (engine.grammar, imported lazily: no torch here).
- **Parse** (`parse_tool_calls`; `with_tool_calls` on a whole result): every well-formed
  block naming a known tool becomes a `tool_calls` entry (arguments as a JSON string, as
  OpenAI sends them); the rest of the text is the message's content. A block that is not
  valid JSON, names no known tool, or has non-object arguments stays in the content: it is
  never turned into a call silently.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
from typing import Any

from guardian.backends.base import BackendRequest, BackendResult

OPEN, CLOSE = "<tool_call>", "</tool_call>"
_BLOCK = re.compile(re.escape(OPEN) + r"\s*(.*?)\s*" + re.escape(CLOSE), re.DOTALL)


def functions(tools: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """The `function` objects of `tools` (type "function"; others are not callable here)."""
    return [t["function"] for t in tools or [] if isinstance(t, dict)
            and t.get("type", "function") == "function" and isinstance(t.get("function"), dict)]


def forced(tool_choice: Any) -> str | bool:
    """A named function's name, True for "required", False when the model chooses or must
    not call ("auto", "none", absent)."""
    if tool_choice == "required":
        return True
    if isinstance(tool_choice, dict):
        return str((tool_choice.get("function") or {}).get("name") or "") or False
    return False


def tool_structure(tools: list[dict[str, Any]] | None, tool_choice: Any,
                   parallel: bool | None) -> str | None:
    """`Sampling.grammar` for a forced call (canonical JSON), None when nothing is forced.
    ValueError: a named function that is not among the tools."""
    choice = forced(tool_choice)
    if not choice or not tools:
        return None
    fns = functions(tools)
    if isinstance(choice, str):
        fns = [f for f in fns if f.get("name") == choice]
        if not fns:
            raise ValueError(f"tool_choice names {choice!r}, which is not among the tools")
    return json.dumps({"type": "tool_calls", "parallel": parallel is not False,
                       "functions": [{"name": f.get("name"),
                                      "parameters": f.get("parameters") or {"type": "object"}}
                                     for f in fns]}, sort_keys=True, separators=(",", ":"))


def tool_lark(structure: dict[str, Any]) -> str:
    """The Lark grammar (llguidance's `%json` for the arguments) of `tool_structure`'s JSON."""
    alternatives = [{"type": "object", "additionalProperties": False,
                     "required": ["name", "arguments"],
                     "properties": {"name": {"const": f["name"]}, "arguments": f["parameters"]}}
                    for f in structure["functions"]]
    schema = alternatives[0] if len(alternatives) == 1 else {"anyOf": alternatives}
    # compact, as engine.grammar's JSON: no free whitespace for a model to fill its budget with
    schema = {**schema, "x-guidance": {"whitespace_flexible": False, "item_separator": ", ",
                                       "key_separator": ": "}}
    repeat = ' ("\\n" call)*' if structure.get("parallel") else ""
    return (f"start: call{repeat}\n"
            f'call: "{OPEN}\\n" %json {json.dumps(schema)} "\\n{CLOSE}"\n')


def system_message(tools: list[dict[str, Any]]) -> str:
    """The tools as a system message, for a chat template that does not render them."""
    listed = "\n".join(json.dumps({"type": "function", "function": f}, ensure_ascii=False)
                       for f in functions(tools))
    return ("You may call one or more functions to assist with the user query. The functions "
            f"are listed within <tools></tools>:\n<tools>\n{listed}\n</tools>\n\nFor each call, "
            f"answer with a JSON object naming the function and its arguments within {OPEN}"
            f'{CLOSE} tags:\n{OPEN}\n{{"name": <function-name>, "arguments": <args-object>}}'
            f"\n{CLOSE}")


def plain_messages(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None,
                   ) -> list[dict[str, Any]]:
    """`messages` for a template without tool support: the tools in the system message, an
    assistant turn's calls as blocks, a tool result as a `<tool_response>` user turn."""
    out: list[dict[str, Any]] = []
    for m in messages:
        content = m.get("content") or ""
        if m.get("role") == "assistant" and m.get("tool_calls"):
            blocks = [f"{OPEN}\n{_call_text(c)}\n{CLOSE}" for c in m["tool_calls"]]
            out.append({"role": "assistant", "content": "\n".join(filter(None, [content,
                                                                                *blocks]))})
        elif m.get("role") == "tool":
            out.append({"role": "user",
                        "content": f"<tool_response>\n{content}\n</tool_response>"})
        else:
            out.append({"role": m.get("role", "user"), "content": content})
    if tools:
        sys = system_message(tools)
        if out and out[0]["role"] == "system":
            out[0] = {"role": "system", "content": f"{out[0]['content']}\n\n{sys}"}
        else:
            out.insert(0, {"role": "system", "content": sys})
    return out


def _call_text(call: dict[str, Any]) -> str:
    fn = call.get("function") or {}
    args = fn.get("arguments") or "{}"
    try:
        parsed = json.loads(args) if isinstance(args, str) else args
    except ValueError:
        parsed = args
    return json.dumps({"name": fn.get("name"), "arguments": parsed}, ensure_ascii=False)


def parse_tool_calls(text: str, tools: list[dict[str, Any]] | None, *, seed: str = "",
                     ) -> tuple[str, list[dict[str, Any]]]:
    """(content without the parsed blocks, OpenAI tool_calls). Call ids are derived from
    `seed` (the request id) and the call's index, so a re-run names its calls alike."""
    names = {f.get("name") for f in functions(tools)}
    calls: list[dict[str, Any]] = []
    kept: list[str] = []
    at = 0
    for match in _BLOCK.finditer(text):
        try:
            call = json.loads(match.group(1))
        except ValueError:
            continue
        if (not isinstance(call, dict) or call.get("name") not in names
                or not isinstance(call.get("arguments", {}), dict)):
            continue
        kept.append(text[at:match.start()])
        at = match.end()
        digest = hashlib.sha256(f"{seed}:{len(calls)}".encode()).hexdigest()[:24]
        calls.append({"id": f"call_{digest}", "type": "function", "function": {
            "name": call["name"],
            "arguments": json.dumps(call.get("arguments", {}), ensure_ascii=False)}})
    kept.append(text[at:])
    return "".join(kept).strip() if calls else text, calls


@functools.lru_cache(maxsize=64)
def grammar_spec(structure: str) -> Any:
    """`Sampling.grammar` (canonical JSON, guardian.api.surface.structure_of) compiled to an
    engine.grammar.GrammarSpec; cached, as a route's clients send the same schema."""
    from engine.grammar import GrammarSpec

    spec = json.loads(structure)
    if spec.get("type") == "json_object":
        return GrammarSpec.json_object()
    if spec.get("type") == "json_schema":
        return GrammarSpec.json_schema(spec.get("schema") or {})
    if spec.get("type") == "tool_calls":
        return GrammarSpec.lark(tool_lark(spec))
    raise ValueError(f"unknown output structure {spec.get('type')!r}")


def with_tool_calls(result: BackendResult, request: BackendRequest) -> BackendResult:
    """`result` with the tool calls its text holds in
    `stats["tool_calls"]` and the message content beside them in `stats["tool_content"]`,
    when the request offered tools; the text stays what the tokens say."""
    tools = request.passthrough.get("tools")
    if not tools or request.passthrough.get("tool_choice") == "none":
        return result
    content, calls = parse_tool_calls(result.text, tools,
                                      seed=f"{request.prompt_ids}:{request.seed}")
    if not calls:
        return result
    return dataclasses.replace(result, stats={**result.stats, "tool_calls": calls,
                                              "tool_content": content})
