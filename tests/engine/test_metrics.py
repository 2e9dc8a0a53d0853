

def test_counters_derive_both_ratios_from_stored_counters() -> None:
    from engine.metrics import SpecCounters

    # Two steps at gamma=4: all four accepted, then rejected at the 2nd position.
    c = SpecCounters(proposed=8, judged=4 + 2, accepted=4 + 1, steps=2)
    assert c.acceptance_rate == 5 / 8  # vLLM: accepted / proposed
    assert c.alpha == 5 / 6  # Leviathan: accepted / judged
    assert c.mean_acceptance_length == 1 + 5 / 2
    assert (c + c).as_dict()["alpha"] == c.alpha
    assert SpecCounters.total([c, c]) == c + c
    assert SpecCounters().acceptance_rate == SpecCounters().alpha == 0.0


def test_counters_read_legacy_stats_as_judged_positions() -> None:
    from engine.metrics import SpecCounters

    legacy = SpecCounters.from_stats({"draft_tokens": 10, "accepted": 7, "steps": 3})
    assert (legacy.judged, legacy.proposed, legacy.accepted, legacy.steps) == (10, 10, 7, 3)
    new = SpecCounters.from_stats({"proposed_tokens": 12, "judged_tokens": 10, "accepted": 7,
                                   "steps": 3})
    assert (new.proposed, new.judged) == (12, 10)


def test_counters_module_loads_without_torch() -> None:
    import subprocess
    import sys

    code = "import engine.metrics, sys; assert 'torch' not in sys.modules, 'torch loaded'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_as_dict_round_trips_through_from_stats() -> None:
    from engine.metrics import SpecCounters

    c = SpecCounters(proposed=12, judged=9, accepted=7, steps=3)
    assert SpecCounters.from_stats(c.as_dict()) == c
