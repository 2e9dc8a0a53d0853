"""Fuzz every operation of the OpenAPI schema (schemathesis): no input may produce a 500.

Bounded (a few dozen examples per operation, fake engine, tiny context) so it runs in
seconds. Each operation is driven with hypothesis directly from schemathesis' strategies
(schemathesis' pytest plugin does not load under pytest 9).
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from guardian.app import build_services, close_services, create_app
from tests.support.api import auth, keystore, policy
from tests.support.fakes import FakeBackend, ListSink


@pytest.fixture(scope="module")
def api_schema():
    backend = FakeBackend(max_context=64)
    services = build_services(backend, ListSink(), policy=policy(sample_rate=0.5),
                              keys=keystore())
    app = create_app(services=services)
    yield schemathesis.openapi.from_asgi("/openapi.json", app)
    close_services(services)


def _operations(schema) -> list:
    return [result.ok() for result in schema.get_all_operations()]


def test_schema_covers_the_api(api_schema) -> None:
    labels = {op.label for op in _operations(api_schema)}
    assert {"POST /v1/completions", "POST /v1/chat/completions", "POST /v1/shadow",
            "GET /v1/models"} <= labels


def _known_model(args: tuple) -> object:
    """Half the cases name the served model, a small max_tokens and a real route, so the
    fuzzer also reaches the engine path instead of stopping at 404/400."""
    case, known = args
    if not known:
        return case
    bodies = [case.body] if isinstance(case.body, dict) else []
    if bodies and isinstance(case.body.get("request"), dict):
        bodies.append(case.body["request"])
    for body in bodies:
        if "model" in body:
            body["model"] = "fake-target"
        if isinstance(body.get("max_tokens"), int | float) and body["max_tokens"] > 0:
            body["max_tokens"] = min(int(body["max_tokens"]), 4)
        # Keep generated text inside the fake pair's 64-token context, or nearly every
        # "known" chat case stops at the context-length 400 and never reaches the engine.
        if isinstance(body.get("prompt"), str):
            body["prompt"] = body["prompt"][:16] or "x"
        if isinstance(body.get("messages"), list):
            body["messages"] = body["messages"][:2]
            for message in body["messages"]:
                if isinstance(message, dict) and isinstance(message.get("content"), str):
                    message["content"] = message["content"][:16]
    if case.path_parameters and "route" in case.path_parameters:
        case.path_parameters["route"] = "default"
    return case


def _fuzzer(operation, mode: GenerationMode, statuses: dict[str, set[int]]):
    @given(case=st.tuples(operation.as_strategy(mode), st.booleans()).map(_known_model))
    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck),
              database=None, derandomize=True)
    def fuzz(case) -> None:
        response = case.call_and_validate(headers=auth("admin"), checks=[not_a_server_error])
        statuses.setdefault(operation.label, set()).add(response.status_code)

    return fuzz


def test_no_input_causes_a_server_error(api_schema) -> None:
    statuses: dict[str, set[int]] = {}
    for operation in _operations(api_schema):
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            try:
                _fuzzer(operation, mode, statuses)()
            except Unsatisfiable:
                # nothing to make invalid (e.g. GET /healthz takes no input)
                assert mode is GenerationMode.NEGATIVE, operation.label
    # the fuzzer really reached the handlers: both accepted and rejected generation requests
    for label in ("POST /v1/completions", "POST /v1/chat/completions"):
        seen = statuses[label]
        assert any(s < 300 for s in seen) and any(400 <= s < 500 for s in seen), (label, seen)
