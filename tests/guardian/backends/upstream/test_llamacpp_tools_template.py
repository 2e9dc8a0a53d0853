"""guardian.devtools.llamacpp_tools: the GGUF's chat template read from its header alone, and
the tools branch put in front of a ChatML template without tools (the real server's
tool_calls: tests/e2e/test_llamacpp_pools.py)."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import jinja2
import pytest

from guardian.devtools.llamacpp_tools import KEY, gguf_chat_template, tools_template
from tests.support.llamacpp import ensure_gguf

SMOL = ("{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}"
        "{{ '<|im_start|>system\nYou are SmolLM<|im_end|>\n' }}{% endif %}"
        "{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}"
        "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}")


def _string(text: str) -> bytes:
    raw = text.encode()
    return struct.pack("<Q", len(raw)) + raw


def _gguf(path: Path, template: str | None) -> Path:
    """A GGUF v3 header: a u32, a string array (the vocabulary's shape) and the template."""
    kvs = [_string("general.alignment") + struct.pack("<II", 4, 32),
           _string("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, 3)
           + b"".join(_string(t) for t in ("a", "<|im_start|>", "tools"))]
    if template is not None:
        kvs.append(_string(KEY) + struct.pack("<I", 8) + _string(template))
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs)) + b"".join(kvs))
    return path


def _render(template: str, **kw: object) -> str:
    env = jinja2.Environment()
    env.filters["tojson"] = json.dumps  # llama.cpp's: plain JSON (jinja2's escapes < > &)
    return env.from_string(template).render(add_generation_prompt=True, **kw)


def test_the_template_is_read_from_the_header(tmp_path) -> None:
    assert gguf_chat_template(_gguf(tmp_path / "m.gguf", SMOL)) == SMOL
    assert gguf_chat_template(_gguf(tmp_path / "none.gguf", None)) is None
    (tmp_path / "short.gguf").write_bytes(_gguf(tmp_path / "x", SMOL).read_bytes()[:40])
    assert gguf_chat_template(tmp_path / "short.gguf") is None  # truncated: none, no error
    (tmp_path / "not.gguf").write_bytes(b"PK\x03\x04" + bytes(40))
    assert gguf_chat_template(tmp_path / "not.gguf") is None


def test_tools_branch_only_where_a_chatml_template_has_no_tools(tmp_path) -> None:
    wrapped = tools_template(_gguf(tmp_path / "m.gguf", SMOL))
    assert wrapped is not None and wrapped.endswith(SMOL + "{% endif %}")
    assert tools_template(_gguf(tmp_path / "t.gguf", SMOL.replace("message in messages",
                                                                  "message in tools"))) is None
    assert tools_template(_gguf(tmp_path / "l.gguf", "[INST] {{ messages }} [/INST]")) is None
    chat = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"},
            {"role": "user", "content": "x"}]
    assert _render(wrapped, messages=chat) == _render(SMOL, messages=chat)  # no tools: as before
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]
    call = {"id": "c1", "type": "function",
            "function": {"name": "get_weather", "arguments": '{"city": "London"}'}}
    prompt = _render(wrapped, tools=tools, messages=[
        {"role": "user", "content": "Weather in London?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "content": "rain"}, {"role": "user", "content": "Paris?"}])
    assert '"name": "get_weather"' in prompt.split("</tools>")[0]
    assert ('<|im_start|>assistant\n```json\n{"name": "get_weather", "arguments": '
            '{"city": "London"}}\n```<|im_end|>') in prompt
    assert prompt.endswith("<|im_start|>user\nParis?<|im_end|>\n<|im_start|>assistant\n")


def test_smollm2_gguf_gets_the_tools_branch() -> None:
    gguf = ensure_gguf(fetch=False)
    if gguf is None:
        pytest.skip("the SmolLM2 GGUF is not in the cache (.ci/install-llamacpp)")
    own = gguf_chat_template(gguf)
    assert own is not None and "<|im_start|>" in own
    wrapped = tools_template(gguf)
    assert wrapped is not None and wrapped.endswith(own + "{% endif %}")
