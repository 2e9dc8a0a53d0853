"""Cost arithmetic (SLIs M4, M5) on hand-computed figures: a slice served partly
speculatively, its target-only baseline from paired shadow timings."""

from __future__ import annotations

import pytest

from guardian.governance.cost import Paired, Usage, figures, token_cost


def test_figures_against_the_target_only_baseline() -> None:
    # 10 speculative requests, 400 tokens in 120 target forwards and 8 s; 5 target-only
    # requests, 100 tokens in 100 forwards and 5 s. Shadow pairs: target-only 0.05 s/token,
    # speculative 0.02 s/token.
    spec = Usage(requests=10, output_tokens=400, target_forwards=120, seconds=8.0)
    target = Usage(requests=5, output_tokens=100, target_forwards=100, seconds=5.0)
    paired = Paired(pairs=6, target_s=3.0, target_tokens=60, spec_s=1.2, spec_tokens=60)
    f = figures(spec, target, paired, pool_hour=3.6)  # 0.001 per pool-second
    assert f.requests == 15 and f.spec_requests == 10
    assert f.forwards_per_request == pytest.approx(220 / 15)  # M4 as served
    assert f.baseline_forwards_per_request == pytest.approx(500 / 15)  # one per output token
    assert f.forwards_saved == pytest.approx(1 - 220 / 500)
    assert f.seconds_per_token == pytest.approx(13.0 / 500)
    assert f.cost_per_token == pytest.approx(13.0 / 500 * 0.001)  # M5
    assert f.baseline_cost_per_token == pytest.approx(0.05 * 0.001)
    assert f.speedup == pytest.approx(2.5)
    assert f.spend == pytest.approx(0.013)
    assert f.saving == pytest.approx(1 - 13.0 / (500 * 0.05))


def test_no_price_no_money_and_no_shadow_no_baseline() -> None:
    f = figures(Usage(2, 10, 4, 1.0), Usage(), Paired(), pool_hour=None)
    assert f.cost_per_token is None and f.spend is None and f.saving is None
    assert f.baseline_seconds_per_token is None and f.speedup is None
    assert f.seconds_per_token == pytest.approx(0.1) and f.forwards_per_request == 2
    empty = figures(Usage(), Usage(), Paired(), pool_hour=1.0)
    assert empty.forwards_per_request is None and empty.cost_per_token is None
    assert empty.forwards_saved is None
    assert token_cost(None, 1.0) is None and token_cost(2.0, None) is None


def test_policy_cost_section_is_optional_and_validated(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from guardian.policy import PolicyError, load_policy

    base = "routes:\n  default: {}\n"
    (tmp_path / "none.yaml").write_text(base)
    (tmp_path / "priced.yaml").write_text("cost: {pool_hour: 2.5, currency: EUR}\n" + base)
    (tmp_path / "bad.yaml").write_text("cost: {pool_hour: -1}\n" + base)
    plain, priced = load_policy(tmp_path / "none.yaml"), load_policy(tmp_path / "priced.yaml")
    assert plain.cost is None and priced.cost is not None and priced.cost.pool_hour == 2.5
    assert plain.content_hash != priced.content_hash
    # This release's new sections, unset or spelled out at their defaults, leave the hash as
    # it was before they existed (gate reports stay bound to an unchanged policy).
    (tmp_path / "explicit.yaml").write_text(
        "routes:\n  default: {audit: {durability: async}, max_queue: 32,"
        " canary: {steps: [1, 5, 25, 50, 100]}}\n")
    assert load_policy(tmp_path / "explicit.yaml").content_hash == plain.content_hash
    with pytest.raises(PolicyError, match=r"cost\.pool_hour"):
        load_policy(tmp_path / "bad.yaml")


def test_forwards_a_pool_did_not_report_are_left_out_not_counted_as_zero() -> None:
    # 10 speculative answers from a pool without counters (forwards unknown), 10 target-only
    # answers of 8 tokens: M4 is over the 10 known ones (8 each: nothing saved), where the
    # unknown ones once counted as 0 forwards made it "-50 %" (-89 % on a real deployment).
    spec = Usage(10, 80.0, 0.0, 5.0, forward_requests=0, forward_tokens=0.0)
    plain = Usage(10, 80.0, 80.0, 5.0, forward_requests=10, forward_tokens=80.0)
    f = figures(spec, plain, Paired(), None)
    assert f.forwards_per_request == 8.0 and f.baseline_forwards_per_request == 8.0
    assert f.forwards_saved == 0.0
    only = figures(spec, Usage(), Paired(), None)  # nothing known: not reported
    assert only.forwards_per_request is None and only.forwards_saved is None
    # rows without the split (older callers) keep the old arithmetic
    assert figures(Usage(2, 10.0, 6.0, 1.0), Usage(), Paired(), None).forwards_per_request == 3.0
