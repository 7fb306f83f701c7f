"""The synthetic workload of the planning-cost benchmark is what the benchmark says it is."""

from __future__ import annotations

import pytest

from benchmarks.planning_cost import SyntheticExecutor
from webr4.engine.r4 import explore
from webr4.engine.races import find_races


def test_each_callback_makes_exactly_one_uncovered_race() -> None:
    executor = SyntheticExecutor(events=400, races=20)
    seed = executor.execute([])
    assert len(seed.steps) == 400 and not seed.enabled_at_end
    analysis = find_races(seed)
    assert len(analysis.races) == len(analysis.uncovered_pairs()) == 20
    assert {seed.steps[race.first].event[0] for race in analysis.races} == {"a"}


def test_plans_replay_and_k1_explores_one_child_per_race() -> None:
    executor = SyntheticExecutor(events=400, races=20)
    seed = executor.execute([])
    assert executor.execute(seed.sequence).sequence == seed.sequence
    result = explore(executor, seed, bound=1)
    assert len(result.explored) == 1 + 20
    for child in result.explored[1:]:
        reversal = child.planned.reversal
        assert reversal is not None
        assert child.sequence.index(reversal.second) < child.sequence.index(reversal.first)


def test_a_workload_too_dense_for_its_races_is_refused() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        SyntheticExecutor(events=100, races=50)
