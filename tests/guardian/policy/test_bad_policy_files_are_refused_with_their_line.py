"""An adversarial sweep of policy and settings loading: what an operator's slip or a hostile
policy file would do. Each input is refused with a PolicyError (or a settings error) naming the
file, the line and what is wrong; none is loaded with a meaning the file does not show, none
reaches the code that reads it only to crash a background thread there."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

import guardian.governance.triggers  # noqa: F401  (registers the trigger check, as the CLI does)
from guardian.audit import MemorySink
from guardian.cli import policy as policy_cli
from guardian.policy import PolicyError, PolicyReloader
from guardian.policy.loading import load_policy_file
from guardian.settings import Settings

HEAD = "version: 1\ndefault_route: default\nroutes:\n  default:\n    mode: target_only\n"
POOLS = ("    upstream:\n      speculative: {{url: '{spec}', model: m{extra}}}\n"
         "      target_only: {{url: 'http://vllm-base:8000/v1', model: m}}\n")


def _write(tmp_path: Path, text: str, name: str = "p.yaml") -> Path:
    f = tmp_path / name
    f.write_text(text, encoding="utf-8", errors="surrogatepass")
    return f


def _refused(tmp_path: Path, text: str) -> str:
    f = _write(tmp_path, text)
    with pytest.raises(PolicyError) as err:
        load_policy_file(f)
    message = str(err.value)
    assert str(f) in message
    return message


# --- YAML that means something other than what it shows ----------------------------------------

@pytest.mark.parametrize(("text", "line", "key"), [
    # the later value silently won: a reviewer reading line 6 saw a bound of 5
    (HEAD + "    max_queue: 5\n    max_queue: 500\n", 7, "max_queue"),
    # a second `default:` replaced the whole first route (mode speculative, not target_only)
    (HEAD + "  default:\n    mode: speculative\n", 6, "default"),
    (HEAD + "    gate: {require_report: true, require_report: false}\n", 6, "require_report"),
])
def test_a_duplicate_key_is_refused_with_both_lines(tmp_path: Path, text: str, line: int,
                                                     key: str) -> None:
    message = _refused(tmp_path, text)
    assert f"p.yaml:{line}: duplicate key '{key}'" in message and "also on line" in message


def test_merge_keys_still_share_settings_and_may_be_overridden(tmp_path: Path) -> None:
    f = _write(tmp_path, "version: 1\ndefault_route: default\nroutes:\n"
               "  default: &base\n    mode: target_only\n    shadow: {sample_rate: 0.5}\n"
               "  code:\n    <<: *base\n    mode: speculative\n")
    policy = load_policy_file(f)
    assert policy.route("code").mode == "speculative"
    assert policy.route("code").shadow.sample_rate == 0.5


@pytest.mark.parametrize(("text", "line", "char"), [
    ('version: 1\ndefault_route: "a\\x1b[31mb"\nroutes:\n  "a\\x1b[31mb": {}\n', 2, "U+001B"),
    ('version: 1\ndefault_route: "a\\nb"\nroutes:\n  "a\\nb": {}\n', 2, "U+000A"),
    (HEAD + '    models: ["code\\u202e"]\n', 6, "U+202E"),
    (HEAD + '    models: ["a\\0b"]\n', 6, "U+0000"),
    (HEAD + '    models: ["\\ud800"]\n', 6, "U+D800"),  # not encodable: the audit write failed
    ('version: 1\ncost: {pool_hour: 1, currency: "\\e[2J"}\nroutes: {default: {}}\n', 2, "U+001B"),
    # a raw bidi override (Trojan Source), even in a comment, reorders what a reviewer sees
    (HEAD + "    mode: speculative # \u202e ylno_tegrat\n", 6, "U+202E"),
])
def test_control_bidi_and_surrogate_characters_are_refused(tmp_path: Path, text: str, line: int,
                                                           char: str) -> None:
    message = _refused(tmp_path, text)
    assert f"p.yaml:{line}:" in message and char in message


@pytest.mark.parametrize("name", ["../../etc", "a/b", "", "-x", "a b", "x" * 65])
def test_route_names_are_plain_tokens(tmp_path: Path, name: str) -> None:
    message = _refused(tmp_path, f"version: 1\ndefault_route: default\nroutes:\n  default: {{}}\n"
                                 f"  '{name}': {{}}\n")
    assert "p.yaml:5:" in message and "route name" in message


def test_long_ordinary_route_and_model_names_still_load(tmp_path: Path) -> None:
    name = "team-a.route_1" + "x" * 50
    policy = load_policy_file(_write(tmp_path, f"version: 1\ndefault_route: {name}\nroutes:\n"
                                               f"  {name}: {{models: [org/Model-7B.v1]}}\n"))
    assert policy.route_for_model("org/Model-7B.v1") == name


@pytest.mark.parametrize(("value", "line"), [
    ("[2020-13-45]", 6),  # an implicit date that is no date: ValueError escaped the loader
    ("!!int abc", 6),
    ("9" * 5000, 6),  # Python's int-from-string digit limit
])
def test_values_yaml_cannot_construct_are_policy_errors_with_a_line(tmp_path: Path, value: str,
                                                                    line: int) -> None:
    message = _refused(tmp_path, HEAD + f"    models: {value}\n")
    assert f"p.yaml:{line}:" in message and "cannot read the value" in message


# --- sizes: bounded time, memory and message ---------------------------------------------------

def test_many_invalid_routes_give_a_bounded_message(tmp_path: Path) -> None:
    """45,000 invalid routes (0.9 MB) took 186 s to explain (a linear search per error) and
    made a 4.4 MB error, kept as `last_error` and audited on every reload attempt."""
    text = "version: 1\nroutes:\n  default: {}\n" + "".join(f"  r{i}: {{mode: b}}\n"
                                                         for i in range(3000))
    message = _refused(tmp_path, text)
    assert message.count("\n") <= 50 and "more problems" in message


def test_too_many_routes_are_refused(tmp_path: Path) -> None:
    text = "version: 1\nroutes:\n  default: {}\n" + "".join(f"  r{i}: {{}}\n" for i in range(1000))
    assert "routes" in _refused(tmp_path, text)


# --- numbers that the code reading them cannot take --------------------------------------------

@pytest.mark.parametrize(("section", "field"), [
    # the rollback controller's thread died on Event.wait(1e300): no rollback ever again
    ("    triggers: {evaluation_interval_s: 1e300}\n", "evaluation_interval_s"),
    ("    triggers: {window_s: 1e300}\n", "window_s"),  # timedelta overflow in load_window
    ("    triggers: {cooldown_s: 1e300}\n", "cooldown_s"),
    ("    triggers: {window_max: 100000000000000000000}\n", "window_max"),  # deque maxlen
    ("    triggers: {divergence: {failure_limit: 1000000000000}}\n", "failure_limit"),
    ("    acceptance_window: 100000000000000000000\n", "acceptance_window"),
    # goodput's optimal_gamma loops over every depth up to gamma.max on every step
    ("    gamma: {strategy: goodput, initial: 4, max: 1000000000}\n", "gamma.max"),
    ("    gate: {gamma: 1000000000}\n", "gate.gamma"),
    ("    shadow: {max_new_tokens: 1000000000000}\n", "max_new_tokens"),
    ("    canary: {step_duration_s: 1e300}\n", "step_duration_s"),
    (POOLS.format(spec="http://vllm-spec:8000/v1", extra=", total_timeout_s: 1e300"),
     "total_timeout_s"),
])
def test_out_of_range_numbers_are_refused(tmp_path: Path, section: str, field: str) -> None:
    message = _refused(tmp_path, HEAD + section)
    assert f"routes.default.{field}" in message or field in message.split("routes.default.")[1]


def test_slo_objectives_must_be_ordered(tmp_path: Path) -> None:
    message = _refused(tmp_path, "version: 1\nslo: {latency_p50_s: 10, latency_p95_s: 1, "
                                 "latency_p99_s: 0.1}\nroutes: {default: {}}\n")
    assert "p.yaml:2: slo:" in message and "latency_p50_s <= latency_p95_s" in message


def test_a_model_in_two_routes_is_refused(tmp_path: Path) -> None:
    """route_for_model returns the first route listing it: the second listing is dead."""
    message = _refused(tmp_path, "version: 1\ndefault_route: a\nroutes:\n  a: {models: [m]}\n"
                                 "  b: {models: [m]}\n")
    assert "'m' is listed by routes 'a' and 'b'" in message


def test_a_trigger_that_can_never_fire_is_named(tmp_path: Path,
                                                caplog: pytest.LogCaptureFixture) -> None:
    f = _write(tmp_path, HEAD + "    triggers:\n      window_max: 30\n")
    with caplog.at_level(logging.WARNING, logger="guardian.policy.loading"):
        load_policy_file(f)
    assert f"{f}:6: routes.default.triggers: near_tie.min_samples = 40 > window_max = 30" in caplog.text
    assert "drift.min_requests = 50" in caplog.text and "latency" not in caplog.text


# --- URLs and secrets --------------------------------------------------------------------------

@pytest.mark.parametrize(("spec", "why"), [
    ("http://user:s3cret@vllm-spec:8000/v1", "credentials"),  # stored, shown, audited
    ("http://", "with a host"),
    ("http:///v1", "with a host"),
    ("ftp://vllm-spec/v1", "with a host"),
    ("http://vllm-spec:99999/v1", "port"),
    ("http://vllm-spec:8000/v1?x=1", "without ?query"),
    ("http://vllm spec/v1", "without spaces"),
])
def test_upstream_urls_are_http_with_a_host_and_no_credentials(tmp_path: Path, spec: str,
                                                               why: str) -> None:
    message = _refused(tmp_path, HEAD + POOLS.format(spec=spec, extra=""))
    assert "routes.default.upstream.speculative.url" in message and why in message
    assert "s3cret" not in message


@pytest.mark.parametrize("env", ["sk-live-0123456789abcdef", "", "VLLM KEY", "1KEY"])
def test_api_key_env_is_a_variable_name_not_a_key(tmp_path: Path, env: str) -> None:
    message = _refused(tmp_path, HEAD + POOLS.format(spec="http://vllm-spec:8000/v1",
                                                     extra=f", api_key_env: '{env}'"))
    assert "api_key_env" in message and "NAME of the environment variable" in message


def test_webhook_with_credentials_is_refused_a_query_token_is_not(tmp_path: Path) -> None:
    message = _refused(tmp_path, HEAD + "    triggers: {webhook_url: 'https://u:pw@hooks.ex/x'}\n")
    assert "webhook_url" in message and "credentials" in message
    ok = load_policy_file(_write(tmp_path, HEAD + "    triggers: {webhook_url: "
                                              "'https://hooks.ex/x?token=abc'}\n", "ok.yaml"))
    assert ok.route("default").triggers.webhook_url == "https://hooks.ex/x?token=abc"


def test_valid_upstream_pools_still_load(tmp_path: Path) -> None:
    policy = load_policy_file(_write(tmp_path, HEAD + POOLS.format(
        spec="https://[::1]:8443/v1/", extra=", api_key_env: VLLM_API_KEY")))
    assert policy.route("default").upstream is not None


# --- hot reload, the CLI ------------------------------------------------------------------------

def test_a_reload_that_the_loader_cannot_construct_is_refused_visibly(tmp_path: Path) -> None:
    """A date that is no date raised ValueError out of `reload()`: the admin API answered 500,
    the watcher thread only logged a traceback, `last_error` stayed None and no refusal was
    audited."""
    f = _write(tmp_path, HEAD)
    sink = MemorySink()
    reloader = PolicyReloader(f, lambda p: None, sink=sink)
    kept = reloader.policy.content_hash
    f.write_text(HEAD + "    models: [2020-13-45]\n")
    changed, why = reloader.reload(actor="test")
    assert not changed and "p.yaml:6" in why and reloader.last_error == why
    assert reloader.policy.content_hash == kept
    refusal = next(e for e in sink.governance if e.kind == "policy_decision")
    assert refusal.details["action"] == "reload_refused"


def test_a_reload_with_a_duplicate_key_keeps_the_policy_in_force(tmp_path: Path) -> None:
    f = _write(tmp_path, HEAD)
    applied: list[object] = []
    reloader = PolicyReloader(f, applied.append)
    f.write_text(HEAD + "    mode: speculative\n")
    changed, why = reloader.reload()
    assert not changed and not applied and "duplicate key 'mode'" in why
    assert reloader.policy.route("default").mode == "target_only"


def test_validate_command_names_file_and_line_without_a_traceback(tmp_path: Path) -> None:
    f = _write(tmp_path, HEAD + "    max_queue: 5\n    max_queue: 500\n")
    out = CliRunner().invoke(policy_cli.app, ["validate", str(f)])
    assert out.exit_code == 2 and f"{f}:7: duplicate key" in out.output
    assert "Traceback" not in out.output


# --- settings (GUARDIAN_* environment) ----------------------------------------------------------

@pytest.mark.parametrize(("var", "value"), [
    # the signed-heads thread died on Event.wait(inf): tamper evidence silently stopped
    ("GUARDIAN_AUDIT_HEADS_INTERVAL_S", "inf"),
    ("GUARDIAN_AUDIT_HEADS_INTERVAL_S", "1e300"),
    ("GUARDIAN_TIMEOUT_HEADER", "inf"),
    ("GUARDIAN_TIMEOUT_BODY", "1e300"),
    ("GUARDIAN_TORCH_THREADS", "99999999999999999999"),
    ("GUARDIAN_GAMMA_BY_BATCH", '{"1": -5}'),
    ("GUARDIAN_GAMMA_BY_BATCH", '{"0": 4}'),
    ("GUARDIAN_GAMMA_BY_BATCH", '{"1": 1000000}'),
    ("GUARDIAN_AUDIT_HEADS_WEBHOOK", "file:///etc/passwd"),  # urllib opens file:// too
    ("GUARDIAN_AUDIT_HEADS_WEBHOOK", "https://"),
])
def test_settings_refuse_values_their_readers_cannot_take(monkeypatch: pytest.MonkeyPatch,
                                                         var: str, value: str) -> None:
    from guardian.cli import describe_error

    monkeypatch.setenv(var, value)
    with pytest.raises(ValidationError) as err:
        Settings(_env_file=None)  # type: ignore[call-arg]
    status, message = describe_error(err.value)
    assert status == 2 and message.startswith(f"invalid settings: {var}:")


def test_ordinary_settings_still_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUARDIAN_GAMMA_BY_BATCH", '{"1": 4, "16": 0}')
    monkeypatch.setenv("GUARDIAN_AUDIT_HEADS_WEBHOOK", "https://witness.example/heads")
    monkeypatch.setenv("GUARDIAN_TIMEOUT_HEADER", "15")
    s = Settings(_env_file=None)  # type: ignore[call-arg]
    assert s.gamma_by_batch == {1: 4, 16: 0} and s.timeout_header == 15.0
