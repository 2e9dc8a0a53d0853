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
from tests.guardian.api.conftest import auth, keystore, policy
from tests.guardian.api.fakes import FakeBackend, ListSink


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
    """Half the generated bodies name the served model, so fuzzing reaches the engine path."""
    case, known = args
    if known and isinstance(case.body, dict) and "model" in case.body:
        case.body["model"] = "fake-target"
    if known and isinstance(case.body, dict) and isinstance(case.body.get("request"), dict):
        case.body["request"]["model"] = "fake-target"
    return case


def _fuzzer(operation, mode: GenerationMode, statuses: dict[str, set[int]]):
    @given(case=st.tuples(operation.as_strategy(mode), st.booleans()).map(_known_model))
    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck),
              database=None)
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
    completions = statuses["POST /v1/completions"]
    assert any(s < 300 for s in completions) and any(400 <= s < 500 for s in completions)
