"""Pydantic models of the OpenAI wire format the sidecar speaks (the subset it serves).

Owns request validation (ranges match OpenAI's documented ones) and the response shapes,
plus the `spec_guardian` extension field carrying the request's speculative stats.

The wider surface — penalties, min_p, logit_bias, tools / tool_choice, response_format,
guided_*, best_of, min_tokens, n up to `MAX_N` — is validated here (types, ranges, sizes,
nesting: guardian.api.surface) and honoured where the route's backend says it can
(`Capabilities.controls`; an upstream pool gets every one forwarded unchanged); elsewhere
it is a 400 naming the field. Parameters no backend here serves (audio, prediction, beam
search, prompt_logprobs, logits_processors: `UNSUPPORTED`) are a 400 naming them, never
silently ignored.

logprobs (completions `logprobs: k`, chat `logprobs` + `top_logprobs: k`, k <= 20) are
answered in the OpenAI/vLLM shapes (`guardian.api.logprobs`): the log-probability of each
emitted token under the distribution it was drawn from, and the k most likely alternatives.

Input rules: JSON types are strict (`"max_tokens": "4"` is a 400, not 4); every text field
must be valid Unicode (a lone UTF-16 surrogate, which JSON's `"\\ud800"` escape can smuggle
in, is a 400 naming the field). Unknown fields that do not change outputs are ignored
(OpenAI SDKs add new ones over time; proxies pass them on).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
)

from guardian.api.surface import (
    MAX_LOGIT_BIAS,
    MAX_N,
    MAX_STRUCTURE_BYTES,
    MAX_TOOLS,
    check_structure,
)
from guardian.core.enums import Mode
from guardian.core.limits import MAX_NEW_TOKENS
from guardian.core.text import valid_unicode
from guardian.policy.base import BIDI_CONTROLS

MAX_STOP = 4
MAX_LOGPROBS = 20  # alternatives per token (vLLM's default max_logprobs)

Text = Annotated[str, AfterValidator(valid_unicode)]

# Parameters the sidecar does not implement, with the values that mean "off" (accepted).
# Anything else is a 400 naming the parameter: silently ignoring it would change the answer.
UNSUPPORTED: dict[str, tuple[Any, ...]] = {
    "audio": (), "modalities": (["text"],), "prediction": (), "use_beam_search": (False,),
    "prompt_logprobs": (0,), "logits_processors": ([],),
}
_NOT_SUPPORTED = "Not supported: any value other than null/off is rejected with a 400."
_SOME_BACKENDS = ("Forwarded unchanged to an upstream pool; honoured by the local engine where "
                  "it says so (else a 400 naming it).")


class _Unsupported(BaseModel):
    """Declared so the 400 names the parameter (and the OpenAPI schema says so)."""

    audio: Any = Field(None, description=_NOT_SUPPORTED)
    modalities: Any = Field(None, description=_NOT_SUPPORTED)
    prediction: Any = Field(None, description=_NOT_SUPPORTED)
    use_beam_search: Any = Field(None, description=_NOT_SUPPORTED)
    prompt_logprobs: Any = Field(None, description=_NOT_SUPPORTED)
    logits_processors: Any = Field(None, description=_NOT_SUPPORTED)

    @field_validator(*UNSUPPORTED)
    @classmethod
    def _unsupported(cls, v: Any, info: ValidationInfo) -> None:
        name = info.field_name or "?"
        off = UNSUPPORTED.get(name, ())
        if v is None or any(type(v) is type(o) and v == o for o in off):
            return None
        raise ValueError(f"'{name}' is not supported by this sidecar (it would change the "
                         "answer and is not implemented); remove it"
                         + (f" or send {off[0]!r}" if off else ""))


JSONObject = dict[str, Any]


class _Surface(_Unsupported):
    """The wider request surface (guardian.api.surface): validated here, honoured per
    backend (`Capabilities.controls`)."""

    presence_penalty: float = Field(0.0, ge=-2.0, le=2.0, description=_SOME_BACKENDS)
    frequency_penalty: float = Field(0.0, ge=-2.0, le=2.0, description=_SOME_BACKENDS)
    repetition_penalty: float | None = Field(None, gt=0.0, le=10.0, description=(
        "Extension (vLLM): > 1 discourages tokens already in the prompt or the output. "
        + _SOME_BACKENDS))
    min_p: float | None = Field(None, ge=0.0, le=1.0, description=(
        "Extension (vLLM): drop tokens below min_p x the top token's probability. "
        + _SOME_BACKENDS))
    logit_bias: dict[str, float] | None = Field(None, max_length=MAX_LOGIT_BIAS, description=(
        "Token id (as a string) -> bias in [-100, 100] added to its logit. " + _SOME_BACKENDS))
    tools: list[JSONObject] | None = Field(None, max_length=MAX_TOOLS, description=_SOME_BACKENDS)
    tool_choice: str | JSONObject | None = Field(None, description=_SOME_BACKENDS)
    parallel_tool_calls: bool | None = Field(None, description=_SOME_BACKENDS)
    functions: list[JSONObject] | None = Field(None, max_length=MAX_TOOLS,
                                               description=_SOME_BACKENDS)
    function_call: str | JSONObject | None = Field(None, description=_SOME_BACKENDS)
    response_format: JSONObject | None = Field(None, description=(
        "{type: text | json_object | json_schema}. " + _SOME_BACKENDS))
    best_of: int | None = Field(None, ge=1, le=MAX_N, description=_SOME_BACKENDS)
    min_tokens: int | None = Field(None, ge=0, le=MAX_NEW_TOKENS, description=_SOME_BACKENDS)
    guided_json: str | JSONObject | None = Field(None, description=_SOME_BACKENDS)
    guided_regex: str | None = Field(None, max_length=4096, description=_SOME_BACKENDS)
    guided_choice: list[Text] | None = Field(None, max_length=256, description=_SOME_BACKENDS)
    guided_grammar: str | None = Field(None, max_length=MAX_STRUCTURE_BYTES,
                                       description=_SOME_BACKENDS)
    guided_decoding_backend: str | None = Field(None, max_length=64,
                                                description=_SOME_BACKENDS)

    @field_validator("logit_bias")
    @classmethod
    def _logit_bias(cls, v: dict[str, float] | None) -> dict[str, float] | None:
        for key, bias in (v or {}).items():
            if not (key.isascii() and key.isdigit() and int(key) <= MAX_TOKEN_ID):
                raise ValueError(f"logit_bias keys are token ids as decimal strings, got "
                                 f"{key[:20]!r}")
            if not -100.0 <= bias <= 100.0:
                raise ValueError(f"logit_bias values are in [-100, 100], got {bias!r} for "
                                 f"token {key}")
        return v

    @field_validator("tools", "tool_choice", "functions", "function_call", "response_format",
                     "guided_json")
    @classmethod
    def _structure(cls, v: Any, info: ValidationInfo) -> Any:
        return check_structure(info.field_name or "?", v)

    @field_validator("response_format")
    @classmethod
    def _response_format(cls, v: JSONObject | None) -> JSONObject | None:
        if v is None:
            return v
        kind = v.get("type")
        if kind not in ("text", "json_object", "json_schema"):
            raise ValueError("response_format.type is one of text, json_object, json_schema")
        if kind == "json_schema":
            spec = v.get("json_schema")
            if not isinstance(spec, dict) or not isinstance(spec.get("name", ""), str):
                raise ValueError("response_format json_schema needs json_schema: {name, "
                                 "schema}")
            if not isinstance(spec.get("schema", {}), dict):
                raise ValueError("response_format.json_schema.schema is a JSON object")
        return v


class _Request(_Surface):
    # Strict JSON types; unknown fields are ignored (see the module docstring).
    model_config = ConfigDict(extra="ignore", strict=True)

    model: Text = Field(min_length=1, max_length=256)
    temperature: float = Field(1.0, ge=0.0, le=2.0)
    top_p: float = Field(1.0, gt=0.0, le=1.0)
    top_k: int = Field(0, ge=-1, le=100_000, description="Extension (vLLM): 0 or -1 disables.")
    n: int = Field(1, ge=1, le=MAX_N, description=(
        "Choices: each one a generation of its own (seeded requests: seed + index)."))
    stream: bool = False
    stream_options: dict[str, Any] | None = None
    stop: Text | list[Text] | None = None
    seed: int | None = Field(None, ge=-(2**63), le=2**63 - 1)
    user: Text | None = None

    @field_validator("stop")
    @classmethod
    def _stop(cls, v: str | list[str] | None) -> list[str] | None:
        if v is None:
            return None
        stops = [v] if isinstance(v, str) else v
        if len(stops) > MAX_STOP or any(not s for s in stops):
            raise ValueError(f"stop takes up to {MAX_STOP} non-empty strings")
        if any(len(s) > MAX_STOP_CHARS for s in stops):  # each is kept in every audit record
            raise ValueError(f"a stop string is at most {MAX_STOP_CHARS} characters")
        return stops

    @property
    def include_usage(self) -> bool:
        return bool((self.stream_options or {}).get("include_usage"))


# Bounds no real model reaches, far below what breaks a 64-bit audit column or an upstream
# (the local engine also checks its vocabulary and context; an upstream pool is sent these).
MAX_TOKEN_ID = 2**31 - 1
MAX_STOP_CHARS = 1024
# What an OpenAI-compatible server may answer as a choice's finish_reason (vLLM adds "abort").
FINISH_REASONS = frozenset({"stop", "length", "content_filter", "tool_calls", "function_call",
                            "abort"})
TokenIds = Annotated[list[Annotated[int, Field(ge=0, le=MAX_TOKEN_ID)]], Field(min_length=1)]
OnePrompt = Annotated[list[Annotated[Text, Field(min_length=1)]], Field(min_length=1, max_length=1)]


class CompletionRequest(_Request):
    prompt: Annotated[Text, Field(min_length=1)] | TokenIds | OnePrompt = Field(
        description="One prompt: a string or a list of token ids (batches are not served).")
    max_tokens: int | None = Field(16, ge=1, le=MAX_NEW_TOKENS)
    logprobs: int | None = Field(None, ge=0, le=MAX_LOGPROBS, description=(
        "Log-probabilities of the emitted tokens plus this many alternatives per token."))
    echo: bool = Field(False, description=(
        "The prompt before the completion's text (a text prompt, or ids on a backend with a "
        "local tokenizer; not with logprobs)."))
    suffix: str | None = Field(None, max_length=0, description="Not supported.")

    @property
    def logprobs_wanted(self) -> int | None:
        """Alternatives per token to answer with; None: no logprobs asked."""
        return self.logprobs

    @field_validator("echo")
    @classmethod
    def _echo(cls, v: bool, info: ValidationInfo) -> bool:
        if v and info.data.get("logprobs") is not None:
            raise ValueError("echo with logprobs is not served (the prompt tokens' logprobs "
                             "are not computed); send one of them")
        return v

    @field_validator("prompt")
    @classmethod
    def _one_prompt(cls, v: str | list[int] | list[str]) -> str | list[int]:
        if isinstance(v, list) and v and isinstance(v[0], str):
            if len(v) != 1:
                raise ValueError("batched prompts are not served; send one prompt per request")
            return v[0]
        if isinstance(v, list) and not v:
            raise ValueError("prompt must not be empty")
        if isinstance(v, list) and any(t < 0 for t in v):  # type: ignore[operator]
            raise ValueError("token ids must be >= 0")
        return v  # type: ignore[return-value]


class TextPart(BaseModel):
    model_config = ConfigDict(strict=True)

    type: Literal["text"]
    text: Text


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)

    role: Literal["system", "developer", "user", "assistant", "tool"]
    content: Text | list[TextPart] | None = None
    # Forwarded to an upstream pool (guardian.api.surface.MESSAGE_FIELDS); the local engine
    # refuses them (a 400 naming the field): neither its chat template rendering nor the
    # audit record carries a participant's name or a tool call yet, and a template that
    # uses them answers differently (a field that changes the output is never dropped).
    name: Text | None = Field(None, max_length=256, description=_SOME_BACKENDS)
    tool_calls: list[dict[str, Any]] | None = Field(None, max_length=MAX_TOOLS,
                                                    description=_SOME_BACKENDS)
    tool_call_id: Text | None = Field(None, max_length=256, description=_SOME_BACKENDS)

    @field_validator("tool_calls")
    @classmethod
    def _tool_calls(cls, v: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
        if v == []:
            return None
        return check_structure("tool_calls", v)

    def wire(self) -> dict[str, Any]:
        """The message as forwarded to an upstream pool (developer -> system, as the
        template path does; unset fields left out)."""
        out: dict[str, Any] = {"role": "system" if self.role == "developer" else self.role,
                               "content": (self.content if not isinstance(self.content, list)
                                           else self.text())}
        for name in ("name", "tool_calls", "tool_call_id"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        return out

    def text(self) -> str:
        if self.content is None:
            return ""
        if isinstance(self.content, str):
            return self.content
        return "".join(p.text for p in self.content)


class ChatCompletionRequest(_Request):
    messages: list[ChatMessage] = Field(min_length=1)
    max_tokens: int | None = Field(None, ge=1, le=MAX_NEW_TOKENS)
    max_completion_tokens: int | None = Field(None, ge=1, le=MAX_NEW_TOKENS)
    logprobs: bool = Field(False, description="Answer each token's log-probability.")
    top_logprobs: int | None = Field(None, ge=0, le=MAX_LOGPROBS, description=(
        "Alternatives per token (needs logprobs=true)."))

    @field_validator("top_logprobs")
    @classmethod
    def _top_needs_logprobs(cls, v: int | None, info: ValidationInfo) -> int | None:
        if v and not info.data.get("logprobs"):
            raise ValueError("top_logprobs needs logprobs=true; send both or neither")
        return v

    @property
    def logprobs_wanted(self) -> int | None:
        """Alternatives per token to answer with; None: no logprobs asked."""
        return (self.top_logprobs or 0) if self.logprobs else None

    @property
    def requested_max_tokens(self) -> int | None:
        return self.max_completion_tokens or self.max_tokens


class Usage(BaseModel):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class CompletionChoice(BaseModel):
    index: int = 0
    text: str
    finish_reason: Literal["stop", "length"] | None
    logprobs: dict[str, Any] | None = None


class Completion(BaseModel):
    id: str
    object: Literal["text_completion"] = "text_completion"
    created: int
    model: str
    choices: list[CompletionChoice]
    usage: Usage | None = None
    system_fingerprint: str | None = None
    spec_guardian: dict[str, Any] | None = Field(
        None, description="Extension: route, mode, served path, fallback, speculative stats.")


class AssistantMessage(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str | None
    tool_calls: list[dict[str, Any]] | None = None  # an upstream pool's, as it answered


class ChatChoice(BaseModel):
    index: int = 0
    message: AssistantMessage
    finish_reason: Literal["stop", "length", "tool_calls"] | None
    logprobs: dict[str, Any] | None = None


class ChatCompletion(BaseModel):
    id: str
    object: Literal["chat.completion"] = "chat.completion"
    created: int
    model: str
    choices: list[ChatChoice]
    usage: Usage | None = None
    system_fingerprint: str | None = None
    spec_guardian: dict[str, Any] | None = None


class Model(BaseModel):
    id: str
    object: Literal["model"] = "model"
    created: int
    owned_by: str = "spec-guardian"


class ModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[Model]


class ShadowPrimary(BaseModel):
    """The primary response produced elsewhere (either OpenAI response shape)."""

    model_config = ConfigDict(extra="ignore")

    choices: list[dict[str, Any]] = Field(min_length=1)

    @field_validator("choices")
    @classmethod
    def _finish_reason(cls, v: list[dict[str, Any]]) -> list[dict[str, Any]]:
        # The stopping check reads it: an unknown value ("STOP", an object) skipped that
        # check and was stored verbatim in the audit record.
        reason = v[0].get("finish_reason")
        if reason is not None and not (isinstance(reason, str) and reason in FINISH_REASONS):
            raise ValueError(f"response.choices[0].finish_reason is one of "
                             f"{', '.join(sorted(FINISH_REASONS))} or null")
        return v

    def completion_text(self) -> str:
        choice = self.choices[0]
        text: Any = choice.get("text")
        if not isinstance(text, str):
            message = choice.get("message")
            text = message.get("content") if isinstance(message, dict) else None
        if not isinstance(text, str):
            raise ValueError("response.choices[0] needs a `text` or a `message.content` string")
        try:
            return valid_unicode(text)
        except ValueError as exc:
            raise ValueError(f"response.choices[0] text {exc}") from None


class ShadowRequest(BaseModel):
    """`POST /v1/shadow`: a mirrored request plus the response the primary produced."""

    model_config = ConfigDict(strict=True)

    request: CompletionRequest | ChatCompletionRequest
    response: ShadowPrimary
    wait: bool = Field(False, description="Wait for the verdict instead of only queueing it.")


class ShadowAccepted(BaseModel):
    id: str
    # "failed": the evaluator hit an error on this job (logged with its id); no verdict.
    status: Literal["queued", "dropped", "evaluated", "failed"]
    verdict: str | None = None
    first_divergence_position: int | None = None
    margin_at_divergence: float | None = None


class RouteState(BaseModel):
    route: str
    mode: Mode
    shadow_sample_rate: float
    models: list[str]


class RouteStates(BaseModel):
    policy_hash: str
    routes: list[RouteState]


# Terminal control characters (ANSI escapes, carriage returns, C1 controls; tab and new line
# stay allowed) and the bidirectional controls (U+202E ...) that make text display in another
# order than it reads, as the policy file refuses them. A governance reason is shown by
# `guardian route status`, `guardian audit show` and the dashboard: an escape in it could
# repaint an operator's terminal, a bidi control reorder what it says.
_CONTROL = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}]")


def no_control_chars(value: str) -> str:
    if _CONTROL.search(value):
        raise ValueError("contains a control or bidi character (e.g. an ANSI escape or "
                         "U+202E); send plain text")
    return value


class RouteChange(BaseModel):
    reason: Annotated[str, AfterValidator(no_control_chars)] = Field("", max_length=2000)


class ErrorBody(BaseModel):
    message: str
    type: str
    param: str | None = None
    code: str | None = None


class ErrorResponse(BaseModel):
    error: ErrorBody
