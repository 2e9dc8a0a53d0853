"""Pydantic models of the OpenAI wire format the sidecar speaks (the subset it serves).

Owns request validation (ranges match OpenAI's documented ones; parameters that would change
outputs in ways the sidecar cannot honour — n > 1, echo, logprobs, penalties, logit_bias —
are rejected with a clear 400 instead of silently ignored) and the response shapes, plus the
`spec_guardian` extension field carrying the request's speculative stats.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

MAX_STOP = 4


class _Request(BaseModel):
    # Unknown fields are ignored (OpenAI SDKs add new ones over time; proxies pass them on).
    model_config = ConfigDict(extra="ignore")

    model: str = Field(min_length=1, max_length=256)
    temperature: float = Field(1.0, ge=0.0, le=2.0)
    top_p: float = Field(1.0, gt=0.0, le=1.0)
    top_k: int = Field(0, ge=-1, le=100_000, description="Extension (vLLM): 0 or -1 disables.")
    n: int = Field(1, ge=1, le=1, description="Only n=1 is served.")
    stream: bool = False
    stream_options: dict[str, Any] | None = None
    stop: str | list[str] | None = None
    seed: int | None = Field(None, ge=-(2**63), le=2**63 - 1)
    presence_penalty: float = Field(0.0, ge=0.0, le=0.0, description="Not supported (must be 0).")
    frequency_penalty: float = Field(0.0, ge=0.0, le=0.0, description="Not supported (must be 0).")
    logit_bias: dict[str, float] | None = Field(None, max_length=0, description="Not supported.")
    user: str | None = None

    @field_validator("stop")
    @classmethod
    def _stop(cls, v: str | list[str] | None) -> list[str] | None:
        if v is None:
            return None
        stops = [v] if isinstance(v, str) else v
        if len(stops) > MAX_STOP or any(not s for s in stops):
            raise ValueError(f"stop takes up to {MAX_STOP} non-empty strings")
        return stops

    @property
    def include_usage(self) -> bool:
        return bool((self.stream_options or {}).get("include_usage"))


TokenIds = Annotated[list[Annotated[int, Field(ge=0)]], Field(min_length=1)]
OnePrompt = Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1, max_length=1)]


class CompletionRequest(_Request):
    prompt: Annotated[str, Field(min_length=1)] | TokenIds | OnePrompt = Field(
        description="One prompt: a string or a list of token ids (batches are not served).")
    max_tokens: int | None = Field(16, ge=1)
    echo: bool = Field(False, description="Not supported (must be false).")
    logprobs: int | None = Field(None, ge=0, le=0, description="Not supported.")
    suffix: str | None = Field(None, max_length=0, description="Not supported.")

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
    type: Literal["text"]
    text: str


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="ignore")

    role: Literal["system", "developer", "user", "assistant", "tool"]
    content: str | list[TextPart] | None = None
    name: str | None = None

    def text(self) -> str:
        if self.content is None:
            return ""
        if isinstance(self.content, str):
            return self.content
        return "".join(p.text for p in self.content)


class ChatCompletionRequest(_Request):
    messages: list[ChatMessage] = Field(min_length=1)
    max_tokens: int | None = Field(None, ge=1)
    max_completion_tokens: int | None = Field(None, ge=1)
    logprobs: bool = Field(False, description="Not supported (must be false).")

    @model_validator(mode="after")
    def _no_logprobs(self) -> ChatCompletionRequest:
        if self.logprobs:
            raise ValueError("logprobs is not supported; send logprobs=false")
        return self

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
    logprobs: None = None


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
    logprobs: None = None


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

    def completion_text(self) -> str:
        choice = self.choices[0]
        if isinstance(choice.get("text"), str):
            return choice["text"]
        message = choice.get("message")
        if isinstance(message, dict) and isinstance(message.get("content"), str):
            return message["content"]
        raise ValueError("response.choices[0] needs a `text` or a `message.content` string")


class ShadowRequest(BaseModel):
    """`POST /v1/shadow`: a mirrored request plus the response the primary produced."""

    request: CompletionRequest | ChatCompletionRequest
    response: ShadowPrimary
    wait: bool = Field(False, description="Wait for the verdict instead of only queueing it.")


class ShadowAccepted(BaseModel):
    id: str
    status: Literal["queued", "dropped", "evaluated"]
    verdict: str | None = None
    first_divergence_position: int | None = None
    margin_at_divergence: float | None = None


class RouteState(BaseModel):
    route: str
    mode: Literal["target_only", "speculative", "off"]
    shadow_sample_rate: float
    models: list[str]


class RouteStates(BaseModel):
    policy_hash: str
    routes: list[RouteState]


class RouteChange(BaseModel):
    reason: str = Field("", max_length=2000)


class ErrorBody(BaseModel):
    message: str
    type: str
    param: str | None = None
    code: str | None = None


class ErrorResponse(BaseModel):
    error: ErrorBody
