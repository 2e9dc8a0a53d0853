"""Serving backends: the contract (`guardian.backends.base`) and a registry of kinds.

`FACTORIES` maps a backend kind (`GUARDIAN_BACKEND`, default "local") to the dotted path of a
factory `(Settings) -> ServingBackend`. A new kind (an upstream pool: vLLM, SGLang, TGI, any
OpenAI-compatible server) is one module implementing `ServingBackend` plus one entry here.
Factories are imported on use, so choosing a remote kind never loads torch.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from guardian.backends.base import (
    BackendRequest,
    BackendResult,
    Capabilities,
    Distributions,
    OnText,
    Sampling,
    ServingBackend,
    Timings,
    TokenLogprob,
    TokenScores,
    TraceToken,
    Unsupported,
)

if TYPE_CHECKING:
    from guardian.settings import Settings

FACTORIES: dict[str, str] = {
    "local": "guardian.backends.local:LocalEngineBackend.from_settings",
    "upstream": "guardian.backends.upstream.backend:UpstreamBackend.from_settings",
}

__all__ = ["FACTORIES", "BackendRequest", "BackendResult", "Capabilities", "Distributions",
           "OnText", "Sampling", "ServingBackend", "Timings", "TokenLogprob", "TokenScores", "TraceToken",
           "Unsupported", "open_backend"]


def open_backend(settings: Settings, kind: str | None = None) -> ServingBackend:
    """Build the backend of `kind` (default: `settings.backend`) from settings."""
    kind = kind or settings.backend
    target = FACTORIES.get(kind)
    if target is None:
        raise ValueError(f"unknown backend {kind!r} (GUARDIAN_BACKEND); known: "
                         f"{', '.join(sorted(FACTORIES))}")
    module, _, attr = target.partition(":")
    factory = importlib.import_module(module)
    for part in attr.split("."):
        factory = getattr(factory, part)
    return factory(settings)  # type: ignore[operator,no-any-return]
