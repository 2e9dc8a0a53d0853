"""The deployment docs' YAML (docs/guides/upstream.md, "In front of vLLM") parses and says what the text says:
the policy blocks are valid policies, the Kubernetes manifests are well-formed and wired."""

from __future__ import annotations

import re

import yaml

from guardian.policy import Policy
from tests.support.docs import DOCS

DOC_PAGE = DOCS / "guides" / "upstream.md"


def _blocks() -> list[list[dict]]:
    text = DOC_PAGE.read_text()
    return [[d for d in yaml.safe_load_all(b) if d is not None]
            for b in re.findall(r"```yaml\n(.*?)```", text, flags=re.S)]


def _manifests() -> list[dict]:
    return [d for block in _blocks() for d in block if "apiVersion" in d]


def test_every_yaml_block_parses() -> None:
    blocks = _blocks()
    assert len(blocks) >= 2 and all(blocks)


def test_the_policy_examples_are_valid_policies() -> None:
    policies = [block[0] for block in _blocks() if "routes" in block[0]]
    policies += [yaml.safe_load(d["data"]["policy.yaml"]) for d in _manifests()
                 if d["kind"] == "ConfigMap"]
    assert len(policies) == 2
    for raw in policies:
        route = Policy.model_validate(raw).route("default")
        assert route.upstream is not None and route.upstream.failover


def test_the_kubernetes_manifests_are_wired() -> None:
    docs = _manifests()
    by = {(d["kind"], d["metadata"]["name"]): d for d in docs}
    for d in docs:
        assert d["apiVersion"] and d["kind"] and d["metadata"]["name"]
        if d["kind"] == "Deployment":
            labels = d["spec"]["template"]["metadata"]["labels"]
            assert d["spec"]["selector"]["matchLabels"] == labels
            assert ("Service", d["metadata"]["name"]) in by  # each Deployment is reachable
    args = {name: " ".join(by[("Deployment", name)]["spec"]["template"]["spec"]["containers"][0]
                           ["args"]) for name in ("vllm-spec", "vllm-plain")}
    assert "--speculative-config" in args["vllm-spec"]
    assert "--speculative-config" not in args["vllm-plain"]
    side = by[("Deployment", "spec-guardian")]
    assert side["spec"]["replicas"] > 1
    env = {e["name"]: e for e in side["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert env["GUARDIAN_BACKEND"]["value"] == "upstream"
    assert "secretKeyRef" in env["GUARDIAN_DATABASE_URL"]["valueFrom"]  # shared Postgres
    # the policy's pool URLs name the vLLM Services, and its key variable is set
    policy = yaml.safe_load(by[("ConfigMap", "spec-guardian-policy")]["data"]["policy.yaml"])
    pools = policy["routes"]["default"]["upstream"]
    for role, service in (("speculative", "vllm-spec"), ("target_only", "vllm-plain")):
        assert pools[role]["url"].startswith(f"http://{service}:8000/")
        assert pools[role]["api_key_env"] in env
