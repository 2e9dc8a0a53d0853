"""docs/guides/llamacpp.md and policies/examples/llamacpp.yaml say the same thing: the
example policy is valid, its pools are the ports the guide starts (the speculative one with
`--spec`), and the guide's commands name real options."""

from __future__ import annotations

import re
from pathlib import Path

from guardian.backends.upstream.backend import UpstreamBackend
from guardian.devtools.llamacpp import SPEC_TYPES
from guardian.policy import load_policy_file

ROOT = Path(__file__).resolve().parents[4]
GUIDE = (ROOT / "docs" / "guides" / "llamacpp.md").read_text()
POLICY = load_policy_file(ROOT / "policies" / "examples" / "llamacpp.yaml")


def test_the_example_policy_serves_the_guides_pools() -> None:
    route = POLICY.route(POLICY.default_route)
    assert POLICY.default_route == "chat" and route.upstream is not None
    spec_port = route.upstream.speculative.url.split(":")[-1].split("/")[0]
    plain_port = route.upstream.target_only.url.split(":")[-1].split("/")[0]
    starts = re.findall(r"python -m guardian\.devtools\.llamacpp --model [^&`]*?--port (\d+)([^&`]*)&",
                        GUIDE, flags=re.S)
    by_port = {port: "--spec" in rest for port, rest in starts}
    assert by_port == {plain_port: False, spec_port: True}
    assert route.gate.require_report and route.triggers.divergence.max_divergences == 0
    assert all(m in SPEC_TYPES for m in re.findall(r"--spec (\S+)", GUIDE))


def test_the_upstream_pair_is_the_pools_model_names() -> None:
    backend = UpstreamBackend.from_policy(POLICY)
    assert backend.pair_hash.startswith("upstream-")
    assert backend.model_name == "smollm2-135m"
    assert "guardian pair show --upstream --policy policy.yaml" in GUIDE
