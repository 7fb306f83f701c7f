"""How much partial-order reduction pruned, counted by the explorer and reported by stats, and
what each strategy tells of itself (``stats()``)."""

from __future__ import annotations


import pytest

from webr4.engine.r4 import R4Explorer
from webr4.engine.testing.model import Model, ModelEvent, ModelExecutor, Write
from webr4.engine.anytime import AnytimeExplorer
from webr4.engine.stats import Pruning, StrategyStats, por_pruning
from webr4.engine.strategies import DelayBoundedSampler, WaveSampler


def drain(explorer: R4Explorer, executor: ModelExecutor) -> None:
    while (planned := explorer.next_plan()) is not None:
        explorer.observe(planned, executor.execute(planned.plan))


def test_pruning_by_hand_on_two_racing_writes_and_an_independent_one() -> None:
    # a and b write x, c writes y. The seed a·b·c has states {a,b,c}, {b,c}, {c} with one event
    # explored from each; the race on x adds b·a·c: b is explored from the first state too,
    # then {a,c} and {c} with one event each. The final states enable nothing and do not count.
    model = Model(
        [
            ModelEvent("a", (Write("x", 1),), root=True),
            ModelEvent("b", (Write("x", 2),), root=True),
            ModelEvent("c", (Write("y", 1),), root=True),
        ]
    )
    executor = ModelExecutor(model)
    explorer = R4Explorer(executor.execute([]))
    assert por_pruning(explorer) == Pruning(enabled=3 + 2 + 1, explored=3)
    drain(explorer, executor)
    assert [r.sequence for r in explorer.explored] == [("a", "b", "c"), ("b", "a", "c")]
    pruning = por_pruning(explorer)
    assert pruning == Pruning(enabled=3 + 2 + 1 + 2 + 1, explored=2 + 1 + 1 + 1 + 1)
    assert pruning.ratio == pytest.approx(1 / 3)


def test_nothing_enabled_prunes_nothing() -> None:
    assert Pruning(0, 0).ratio == 0.0


def test_each_strategy_tells_what_it_counts() -> None:
    model = Model([ModelEvent("a", (Write("x", 1),), root=True), ModelEvent("b", (Write("x", 2),), root=True)])
    executor = ModelExecutor(model)
    seed = executor.execute([])
    explorer = R4Explorer(seed)
    drain(explorer, executor)
    assert explorer.stats() == StrategyStats(pruning=por_pruning(explorer))
    anytime = AnytimeExplorer(seed, 1)
    assert anytime.stats().pruning == por_pruning(anytime) and anytime.stats().bounds == anytime.progress()
    for sampler in (DelayBoundedSampler(seed, max_delays=1, samples=2), WaveSampler(seed, copies=2)):
        assert sampler.stats() == StrategyStats()
