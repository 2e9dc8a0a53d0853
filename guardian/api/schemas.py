"""Pydantic models of the OpenAI wire format the sidecar speaks (the subset it serves).

Owns request validation (ranges match OpenAI's documented ones; parameters that would change
outputs in ways the sidecar cannot honour — n > 1, echo, penalties, logit_bias,
tools, response_format, best_of, ... (`UNSUPPORTED`) — are rejected with a 400 naming them
instead of silently ignored) and the response shapes, plus the `spec_guardian` extension field
carrying the request's speculative stats.

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
    "tools": ([],), "tool_choice": ("none",), "parallel_tool_calls": (False, True),
    "functions": ([],), "function_call": ("none",), "response_format": ({"type": "text"},),
    "best_of": (1,), "audio": (), "modalities": (["text"],),
    "prediction": (), "min_p": (0, 0.0), "repetition_penalty": (1, 1.0),
    "min_tokens": (0,), "use_beam_search": (False,), "guided_json": (), "guided_regex": (),
    "guided_choice": (), "guided_grammar": (), "guided_decoding_backend": (),
    "prompt_logprobs": (0,), "logits_processors": ([],),
}
_NOT_SUPPORTED = "Not supported: any value other than null/off is rejected with a 400."


class _Unsupported(BaseModel):
    """Declared so the 400 names the parameter (and the OpenAPI schema says so)."""

    tools: Any = Field(None, description=_NOT_SUPPORTED)
    tool_choice: Any = Field(None, description=_NOT_SUPPORTED)
    parallel_tool_calls: Any = Field(None, description=_NOT_SUPPORTED)
    functions: Any = Field(None, description=_NOT_SUPPORTED)
    function_call: Any = Field(None, description=_NOT_SUPPORTED)
    response_format: Any = Field(None, description=_NOT_SUPPORTED)
    best_of: Any = Field(None, description=_NOT_SUPPORTED)
    audio: Any = Field(None, description=_NOT_SUPPORTED)
    modalities: Any = Field(None, description=_NOT_SUPPORTED)
    prediction: Any = Field(None, description=_NOT_SUPPORTED)
    min_p: Any = Field(None, description=_NOT_SUPPORTED)
    repetition_penalty: Any = Field(None, description=_NOT_SUPPORTED)
    min_tokens: Any = Field(None, description=_NOT_SUPPORTED)
    use_beam_search: Any = Field(None, description=_NOT_SUPPORTED)
    guided_json: Any = Field(None, description=_NOT_SUPPORTED)
    guided_regex: Any = Field(None, description=_NOT_SUPPORTED)
    guided_choice: Any = Field(None, description=_NOT_SUPPORTED)
    guided_grammar: Any = Field(None, description=_NOT_SUPPORTED)
    guided_decoding_backend: Any = Field(None, description=_NOT_SUPPORTED)
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


class _Request(_Unsupported):
    # Strict JSON types; unknown fields are ignored (see the module docstring).
    model_config = ConfigDict(extra="ignore", strict=True)

    model: Text = Field(min_length=1, max_length=256)
    temperature: float = Field(1.0, ge=0.0, le=2.0)
    top_p: float = Field(1.0, gt=0.0, le=1.0)
    top_k: int = Field(0, ge=-1, le=100_000, description="Extension (vLLM): 0 or -1 disables.")
    n: int = Field(1, ge=1, le=1, description="Only n=1 is served.")
    stream: bool = False
    stream_options: dict[str, Any] | None = None
    stop: Text | list[Text] | None = None
    seed: int | None = Field(None, ge=-(2**63), le=2**63 - 1)
    presence_penalty: float = Field(0.0, ge=0.0, le=0.0, description="Not supported (must be 0).")
    frequency_penalty: float = Field(0.0, ge=0.0, le=0.0, description="Not supported (must be 0).")
    logit_bias: dict[str, float] | None = Field(None, max_length=0, description="Not supported.")
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
    echo: bool = Field(False, description="Not supported (must be false).")
    logprobs: int | None = Field(None, ge=0, le=MAX_LOGPROBS, description=(
        "Log-probabilities of the emitted tokens plus this many alternatives per token."))
    suffix: str | None = Field(None, max_length=0, description="Not supported.")

    @property
    def logprobs_wanted(self) -> int | None:
        """Alternatives per token to answer with; None: no logprobs asked."""
        return self.logprobs

    @field_validator("echo")
    @classmethod
    def _echo(cls, v: bool) -> bool:
        if v:
            raise ValueError("echo is not supported; send echo=false")
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
    # Refused, not dropped: neither the pair's chat template nor the upstream request nor the
    # audit record carries a participant's name, and a template that uses it answers
    # differently (a field that changes the output is a 400, never silently ignored).
    name: Any = Field(None, description=_NOT_SUPPORTED)
    tool_calls: Any = Field(None, description=_NOT_SUPPORTED)
    tool_call_id: Any = Field(None, description=_NOT_SUPPORTED)

    @field_validator("tool_calls", "tool_call_id")
    @classmethod
    def _no_tools(cls, v: Any, info: ValidationInfo) -> None:
        if v is None or v == []:
            return None
        raise ValueError(f"'{info.field_name}' is not supported by this sidecar (no tool "
                         "calling); remove it")

    @field_validator("name")
    @classmethod
    def _no_name(cls, v: Any) -> None:
        if v is None:
            return None
        raise ValueError("'name' is not supported by this sidecar (the chat template and the "
                         "audit record carry no participant names); remove it")

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
    content: str


class ChatChoice(BaseModel):
    index: int = 0
    message: AssistantMessage
    finish_reason: Literal["stop", "length"] | None
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
