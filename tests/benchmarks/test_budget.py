"""The budget benchmark's figures, from made-up sweeps (no Chromium)."""

from __future__ import annotations

from benchmarks.budget import Ordered, Site, table


def test_shares_count_harmful_verdicts_found_within_each_part_of_the_exhaustive_time() -> None:
    plan = Ordered("plan", seconds=8.0, sequences=5, harmful_at=[6.0, 8.0], harmful_sequence=[3, 4])
    harm = Ordered("harm", seconds=7.5, sequences=5, harmful_at=[1.5, 3.9], harmful_sequence=[1, 2])
    site = Site("shop", reversals=4, harmful=2, sweeps=[plan, harm])
    assert site.exhaustive_s == 8.0
    assert plan.shares(2, site.exhaustive_s) == [0.0, 0.0, 1.0]
    assert harm.shares(2, site.exhaustive_s) == [0.5, 1.0, 1.0]
    assert (plan.first(), harm.first()) == ((3, 6.0), (1, 1.5))
    text = table([site])
    assert "| shop | 4 | 2 | 8.00 | harm | 1 | 1.5 | 50% | 100% | 100% |" in text
    assert "| **all sites** | | 2 | | plan | | | 0% | 0% | 100% |" in text
    assert table([]) == "(not measured)"
