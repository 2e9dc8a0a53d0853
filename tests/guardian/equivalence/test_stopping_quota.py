"""Stopping cases (stop string, EOS inside an accepted block, max_tokens) and the shadow's
per-route quota that samples for them beyond sample_rate."""

from __future__ import annotations

from types import SimpleNamespace as NS

from guardian.equivalence.quota import StoppingQuota
from guardian.equivalence.stopcases import shortfall, stopping_case
from guardian.policy import RoutePolicy, ShadowPolicy

EOS = 0


def tok(origin: str) -> NS:
    return NS(origin=origin)


def test_cases_follow_how_the_completion_ended() -> None:
    acc = [tok("accepted")] * 3
    assert stopping_case([5, 6, EOS], "stop", acc, eos_token_ids={EOS}, stop=None,
                         max_tokens=9) == "eos_in_block"
    assert stopping_case([5, 6, EOS], "stop", [*acc[:2], tok("bonus")], eos_token_ids={EOS},
                         stop=None, max_tokens=9) == "eos"
    assert stopping_case([5, 6], "stop", acc[:2], eos_token_ids={EOS}, stop=["\n"],
                         max_tokens=9) == "stop_string"
    assert stopping_case([5] * 9, "length", acc, eos_token_ids={EOS}, stop=None,
                         max_tokens=9) == "max_tokens"
    assert stopping_case([5] * 4, "length", acc, eos_token_ids={EOS}, stop=None,
                         max_tokens=9) is None  # cut short by the shadow's cap, not max_tokens
    assert shortfall({"greedy": {"stop_string": 1, "eos_in_block": 1, "max_tokens": 1},
                      "sampled": {"stop_string": 1, "eos_in_block": 0, "max_tokens": 2}},
                     1) == ["sampled/eos_in_block"]


def _served(ids, finish, *, greedy=True, stop=None, path="speculative", max_tokens=9):
    req = NS(route="r", greedy=greedy, stop=stop, max_tokens=max_tokens)
    res = NS(token_ids=ids, finish_reason=finish, trace=[tok("accepted")] * len(ids))
    return NS(request=req, result=res, served_path=path)


def test_the_quota_wants_a_case_until_it_is_met_on_a_shadowed_route() -> None:
    q = StoppingQuota({EOS})
    route = RoutePolicy(mode="speculative", shadow=ShadowPolicy(sample_rate=0.1, stopping_quota=2))
    stopped = _served([5, 6], "stop", stop=["\n"])
    assert q.wants(stopped, route)
    q.judged("r", True, "stop_string")
    assert q.wants(stopped, route)
    q.judged("r", True, "stop_string")
    assert not q.wants(stopped, route)  # quota met for greedy stop strings
    assert q.wants(_served([5, 6], "stop", stop=["\n"], greedy=False), route)  # not sampled's
    assert not q.wants(_served([5, 6], "length", max_tokens=20), route)  # no case at all
    # a target-only request ending with EOS stands in for the EOS-in-a-block cell
    assert q.wants(_served([5, EOS], "stop", path="target_only"), route)
    unshadowed = RoutePolicy(mode="speculative", shadow=ShadowPolicy(sample_rate=0.0))
    assert not q.wants(_served([5, 6], "stop", stop=["\n"], greedy=False), unshadowed)
    rows = {(r[2]["kind"], r[2]["case"]): r[3] for r in q.gauge_rows()}
    assert rows[("greedy", "stop_string")] == 2.0 and rows[("sampled", "stop_string")] == 0.0
