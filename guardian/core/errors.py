"""The sidecar's one error type for a request it refuses: `ServingError`, an OpenAI-style 4xx/5xx.

It lives in `core` because every layer raises it (the API's validation, the serving path, an
upstream pool's fault in guardian.backends.upstream.errors) and the API turns it into the
client's error answer (guardian.api.errors).
"""

from __future__ import annotations


class ServingError(Exception):
    """Bad input found while preparing a request: becomes an OpenAI-style 4xx error."""

    def __init__(self, status: int, message: str, *, param: str | None = None,
                 code: str | None = None, type_: str = "invalid_request_error",
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.param, self.code, self.type = status, message, param, code, type_
        self.headers = headers
        # Set once the request had an id (guardian.api.generation.serve): the error answer's
        # x-request-id is then the id its audit record, if any, is under.
        self.request_id: str | None = None
