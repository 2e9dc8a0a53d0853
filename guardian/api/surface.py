"""The request surface beyond the core sampling fields: which optional OpenAI (and vLLM)
parameters a request carries, their input limits, and whether the route's backend honours
them (`Capabilities.controls`).

Two groups, both validated by guardian.api.schemas (types, ranges, sizes):
- sampling controls (`SAMPLING_CONTROLS`: presence / frequency / repetition penalties,
  min_p, logit_bias) travel in `Sampling` to any backend (the local engine applies them on
  the draft and verify paths alike; an upstream pool is sent them);
- pass-through fields (`PASSTHROUGH`: tools, tool_choice, response_format, guided_*,
  best_of, min_tokens, ...; and the chat messages' tool_calls / tool_call_id / name) are
  forwarded unchanged to an upstream pool (`BackendRequest.passthrough`).

A field set to a value other than its "off" value (`OFF`) on a backend that does not list
it is a 400 naming the field and the backend: silently dropping it would change the answer.
`n` is served by the API as n generations (guardian.api.choices), on every backend.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from guardian.backends.base import MESSAGE_FIELDS, PASSTHROUGH, SAMPLING_CONTROLS
from guardian.backends.tools import tool_structure
from guardian.core.errors import ServingError

# Values that mean "off": accepted on every backend (and still forwarded to a pool).
OFF: dict[str, tuple[Any, ...]] = {
    "presence_penalty": (0, 0.0), "frequency_penalty": (0, 0.0),
    "repetition_penalty": (1, 1.0), "min_p": (0, 0.0), "logit_bias": ({},),
    "tools": ([],), "tool_choice": ("none",), "parallel_tool_calls": (False, True),
    "functions": ([],), "function_call": ("none",), "response_format": ({"type": "text"},),
    "best_of": (1,), "min_tokens": (0,),
}
# Input limits: what a pool and the audit record are sent is bounded here.
MAX_N = 8  # choices per request (each is a generation: a route slot, a row in the audit)
MAX_TOOLS = 128  # OpenAI's own limit on `tools`
MAX_LOGIT_BIAS = 300  # entries
MAX_STRUCTURE_BYTES = 64 * 1024  # one pass-through field as JSON (a schema, a grammar, tools)
MAX_NESTING = 32  # object / array depth inside one pass-through field


def _is_off(name: str, value: Any) -> bool:
    return value is None or any(type(value) is type(o) and value == o
                                for o in OFF.get(name, ()))


def depth(value: Any) -> int:
    """Object / array nesting of a JSON value (iterative: no recursion limit to hit)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict | list):
            deepest = max(deepest, d)
            if d > MAX_NESTING:  # deep enough to refuse: stop walking
                return d
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


def check_structure(name: str, value: Any) -> Any:
    """A pass-through value within `MAX_NESTING` and `MAX_STRUCTURE_BYTES` (ValueError)."""
    if value is None:
        return value
    if depth(value) > MAX_NESTING:
        raise ValueError(f"{name} nests deeper than {MAX_NESTING} levels; flatten it")
    size = len(json.dumps(value, ensure_ascii=False))
    if size > MAX_STRUCTURE_BYTES:
        raise ValueError(f"{name} is {size} bytes as JSON; at most {MAX_STRUCTURE_BYTES}")
    return value


@dataclass(frozen=True, slots=True)
class Controls:
    """What a request asks beyond the core fields: the sampling controls (engine values),
    the pass-through fields as sent, and the fields that are on (not their off value)."""

    sampling: dict[str, Any] = field(default_factory=dict)  # Sampling's extra fields
    passthrough: dict[str, Any] = field(default_factory=dict)  # forwarded unchanged
    on: tuple[str, ...] = ()  # field names (`messages.<i>.<f>` for messages) that are on

    def unsupported(self, honoured: frozenset[str]) -> str | None:
        """The first field that is on but not honoured (messages.<i>.<f> matched by f)."""
        for name in self.on:
            key = f"messages.{name.rsplit('.', 1)[1]}" if name.startswith("messages.") else name
            if key not in honoured:
                return name
        return None


def structure_of(response_format: Any) -> str | None:
    """`response_format` json_object / json_schema as `Sampling.grammar`'s canonical JSON
    ({"type": "json_object"} or {"type": "json_schema", "schema": ...}); None for text."""
    if not isinstance(response_format, dict):
        return None
    kind = response_format.get("type")
    if kind == "json_object":
        return json.dumps({"type": "json_object"})
    if kind == "json_schema":
        schema = (response_format.get("json_schema") or {}).get("schema") or {}
        return json.dumps({"type": "json_schema", "schema": schema}, sort_keys=True,
                          separators=(",", ":"))
    return None


def controls_of(body: Any) -> Controls:
    """The controls of a validated request body (guardian.api.schemas._Request)."""
    sampling: dict[str, Any] = {}
    passthrough: dict[str, Any] = {}
    on: list[str] = []
    for name in SAMPLING_CONTROLS + PASSTHROUGH:
        value = getattr(body, name, None)
        if value is None or name not in body.model_fields_set:
            continue
        passthrough[name] = value
        if not _is_off(name, value):
            on.append(name)
            if name in SAMPLING_CONTROLS:
                sampling[name] = value
    messages = getattr(body, "messages", None)
    if messages is not None and any(getattr(m, f) is not None
                                    for m in messages for f in MESSAGE_FIELDS):
        passthrough["messages"] = [m.wire() for m in messages]
        on += [f"messages.{i}.{f}" for i, m in enumerate(messages) for f in MESSAGE_FIELDS
               if getattr(m, f) is not None]
    structure = structure_of(passthrough.get("response_format"))
    try:  # a forced tool call decodes under the call's grammar (guardian.backends.tools)
        calls = tool_structure(passthrough.get("tools"), passthrough.get("tool_choice"),
                               passthrough.get("parallel_tool_calls"))
    except ValueError as exc:
        raise ServingError(400, str(exc), param="tool_choice", code="invalid_value") from None
    if calls is not None or structure is not None:
        sampling["grammar"] = calls or structure
    if "logit_bias" in sampling:
        sampling["logit_bias"] = tuple(sorted((int(k), float(v))
                                              for k, v in sampling["logit_bias"].items()))
    return Controls(sampling, passthrough, tuple(on))


def require_honoured(controls: Controls, honoured: frozenset[str], backend: str) -> None:
    """A 400 naming the first field that is on and that the backend does not honour."""
    name = controls.unsupported(honoured)
    if name is None:
        return
    where = ("the local engine" if backend == "local" else f"the {backend!r} backend")
    leaf = name.rsplit(".", 1)[-1]
    at = f" (at {name})" if leaf != name else ""
    raise ServingError(400, f"'{leaf}' is not supported by {where} yet{at}; a route served by "
                       "an upstream pool forwards it. Remove it or send its off value",
                       param=name, code="unsupported_parameter")
