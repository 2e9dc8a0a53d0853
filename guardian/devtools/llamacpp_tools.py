"""Tool calls for a ChatML GGUF whose own chat template has none (SmolLM2-135M-Instruct's):
`tools_template()` wraps the GGUF's template so that a request with `tools` is rendered
with them, and llama.cpp's chat parser (its differential "autoparser", on with --jinja)
finds a tool-call format in it and answers OpenAI `tool_calls` / finish_reason
"tool_calls", the arguments held by its grammar to the tool's parameters schema.

Without it llama.cpp drops `tools` from such a model's prompt (its /props caps say
supports_tools: false) and answers plain text, even for tool_choice "required".

The format is a fenced block: a ```json line, the call's object {"name": ..., "arguments":
{...}}, a ``` line; the fence is the call's marker. Measured on SmolLM2-135M (llama.cpp of xllamacpp
2026.10.11549, temperature 0) against the alternatives:
  - Hermes' `<tool_call>` tags: llama.cpp's "required" grammar lets the answer open with
    free text up to the first marker, and the 135M model never writes `<tool_call>` (64
    tokens of prose, no call, with or without an example call in the history);
  - a bare JSON object (Llama 3.x's): calls come, but in "auto" any prose with a `{` that
    is not a call fails llama.cpp's parser (HTTP 500 "does not match the expected
    peg-native format");
  - the fence: after one example call in the history the model calls at once, in "auto"
    as in "required"; a fence in "auto" starts the call's grammar (lazy), so the answer
    always parses. Without an example it mostly answers prose (no call; no error).
A request without `tools` is rendered by the GGUF's own template, byte for byte.
"""

from __future__ import annotations

import struct
from pathlib import Path

# GGUF metadata value types (gguf.GGUFValueType): their fixed sizes, 8 = string, 9 = array
_FIXED = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
_STRING, _ARRAY = 8, 9
KEY = "tokenizer.chat_template"

TOOLS = (
    "{%- if tools -%}"
    "{{- '<|im_start|>system\\n' }}"
    "{%- if messages[0].role == 'system' %}{{- messages[0].content + '\\n\\n' }}{%- endif %}"
    "{{- 'You can call these functions:\\n<tools>' }}"
    "{%- for tool in tools %}{{- '\\n' + (tool | tojson) }}{%- endfor %}"
    "{{- '\\n</tools>\\n\\nTo call a function, answer with a JSON object with the function "
    "name and arguments:\\n```json\\n{\"name\": <function-name>, \"arguments\": "
    "<args-json-object>}\\n```<|im_end|>\\n' }}"
    "{%- for message in messages %}"
    "{%- if message.role == 'system' and loop.first %}"
    "{%- elif message.role == 'assistant' and message.tool_calls %}"
    "{{- '<|im_start|>assistant\\n' }}"
    "{%- for call in message.tool_calls %}"
    "{%- if call.function is defined %}{%- set call = call.function %}{%- endif %}"
    "{%- if not loop.first %}{{- '\\n' }}{%- endif %}"
    "{{- '```json\\n{\"name\": \"' + call.name + '\", \"arguments\": ' }}"
    "{%- if call.arguments is string %}{{- call.arguments }}"
    "{%- else %}{{- call.arguments | tojson }}{%- endif %}"
    "{{- '}\\n```' }}"
    "{%- endfor %}"
    "{{- '<|im_end|>\\n' }}"
    "{%- elif message.role == 'tool' %}"
    "{{- '<|im_start|>user\\n<tool_response>\\n' + message.content + "
    "'\\n</tool_response><|im_end|>\\n' }}"
    "{%- else %}"
    "{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}"
    "{%- endif %}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
    "{% else %}")


def gguf_chat_template(path: str | Path) -> str | None:
    """The GGUF's `tokenizer.chat_template` (None: it has none, or this is no GGUF v2+),
    read from its metadata header alone. Not `gguf.GGUFReader`: it parses every field and
    tensor record first (the 49,152-token vocabulary included) - 4.3 s against this walk's
    0.09 s on SmolLM2's file on a 2-core machine, paid at every server start."""
    with Path(path).open("rb") as f:
        def take(n: int) -> bytes:
            data = f.read(n)
            if len(data) != n:
                raise EOFError
            return data

        def u32() -> int:
            return int(struct.unpack("<I", take(4))[0])

        def u64() -> int:
            return int(struct.unpack("<Q", take(8))[0])

        def skip(kind: int) -> None:
            if kind in _FIXED:
                f.seek(_FIXED[kind], 1)
            elif kind == _STRING:
                f.seek(u64(), 1)
            elif kind == _ARRAY:
                inner, count = u32(), u64()
                if inner in _FIXED:
                    f.seek(_FIXED[inner] * count, 1)
                else:
                    for _ in range(count):
                        skip(inner)
            else:
                raise ValueError(f"GGUF value type {kind}")

        try:
            if take(4) != b"GGUF" or u32() < 2:
                return None
            u64()  # tensors
            for _ in range(u64()):
                key = take(u64()).decode("utf-8", "replace")
                kind = u32()
                if key == KEY and kind == _STRING:
                    return take(u64()).decode("utf-8")
                skip(kind)
        except (EOFError, ValueError, struct.error):
            return None
    return None


def tools_template(model: str | Path) -> str | None:
    """The GGUF's chat template with a tools branch in front, where it is a ChatML template
    that never mentions `tools`; None otherwise (llama.cpp's own handling stands)."""
    own = gguf_chat_template(model)
    if not own or "<|im_start|>" not in own or "tools" in own:
        return None
    return f"{TOOLS}{own}{{% endif %}}"
