"""The rival strategies: delay-bounded sampling and the WAVE-like baseline."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from hypothesis import given, settings
from models import figure1, models

from webr4.engine.r4 import R4Explorer
from webr4.engine.hb import HappensBefore
from webr4.engine.testing.model import Model, ModelEvent, ModelExecutor, Write
from webr4.engine.plans import EXHAUSTED, MAX_SEQUENCES, Strategy, run
from webr4.engine.strategies import DelayBoundedSampler, WaveSampler, alternatives
from webr4.trace import AccessKind, Trace, event_location


def three_independent_events() -> tuple[ModelExecutor, Trace]:
    model = Model([ModelEvent(e, (Write(e, 1),), root=True) for e in "abc"])
    executor = ModelExecutor(model)
    return executor, executor.execute([])


def final_runs(sampler: DelayBoundedSampler) -> Counter[tuple[str, ...]]:
    return Counter(sampler.explored[i].sequence for i in sampler.finished)


def test_one_delay_hits_each_one_delay_execution_with_probability_at_least_one_over_l() -> None:
    # L = 3. One delay at s0 gives b·a·c, at s1 gives a·c·b, at s2 (a single choice) changes nothing.
    executor, seed = three_independent_events()
    samples = 3000
    sampler = DelayBoundedSampler(seed, max_delays=1, samples=samples, rng_seed=7)
    run(sampler, executor)
    counts = final_runs(sampler)
    assert set(counts) == {("a", "b", "c"), ("b", "a", "c"), ("a", "c", "b")}
    slack = 3 * ((1 / 3) * (2 / 3) / samples) ** 0.5
    assert all(count / samples >= 1 / 3 - slack for count in counts.values())


def test_two_delays_hit_each_two_delay_execution_with_probability_at_least_one_over_l_squared() -> None:
    executor, seed = three_independent_events()
    samples = 3000
    sampler = DelayBoundedSampler(seed, max_delays=2, samples=samples, rng_seed=11)
    run(sampler, executor)
    counts = final_runs(sampler)
    # c·a·b: two delays at s0; b·c·a: one at s0, one at s1. c·b·a needs three delays.
    slack = 3 * ((1 / 9) * (8 / 9) / samples) ** 0.5
    for execution in [("c", "a", "b"), ("b", "c", "a")]:
        assert counts[execution] / samples >= 1 / 9 - slack
    assert ("c", "b", "a") not in counts
    assert len(sampler.finished) == samples


def test_consecutive_delays_reach_every_enabled_event() -> None:
    executor, seed = seeded_figure1()
    for index, step in enumerate(seed.steps):
        choices = alternatives(seed, index)
        assert choices[0] == step.event
        assert sorted(choices) == sorted(step.enabled)


def seeded_figure1() -> tuple[ModelExecutor, Trace]:
    executor = ModelExecutor(figure1())
    return executor, executor.execute(["e0", "e1", "e2", "e3", "e4", "e5"])


@settings(max_examples=60, deadline=None)
@given(models(max_events=5))
def test_delays_never_drop_a_pending_event(model: Model) -> None:
    executor = ModelExecutor(model)
    sampler = DelayBoundedSampler(executor.execute([]), max_delays=3, samples=10, rng_seed=1)
    run(sampler, executor)
    for record in sampler.explored[1:]:
        trace, _ = model.execute(record.planned.plan)
        assert trace.sequence == list(record.sequence)
        assert not trace.enabled_at_end
        assert not trace.skipped
        ran = set(trace.sequence)
        for position, step in enumerate(trace.steps):
            for event in step.enabled - ran:
                disablers = [
                    later
                    for later in trace.steps[position:]
                    if any(a.kind is AccessKind.WRITE and a.location == event_location(event) for a in later.accesses)
                ]
                assert disablers, f"{event} was pending and neither ran nor was cancelled"
        assert record.planned.parent is not None
        parent = sampler.explored[record.planned.parent]
        assert record.sequence[: record.planned.prefix_length] == parent.sequence[: record.planned.prefix_length]


def test_wave_copies_respect_happens_before_and_count_as_the_recording_length() -> None:
    executor, seed = seeded_figure1()
    hb = HappensBefore(seed.steps)
    sampler = WaveSampler(seed, swaps=3, rng_seed=5)
    result = run(sampler, executor)
    assert result.stop_reason == EXHAUSTED
    assert len(result.explored) == 1 + len(seed.steps)
    position = {event: n for n, event in enumerate(seed.sequence)}
    for record in result.explored[1:]:
        plan = [position[e] for e in record.planned.plan]
        assert sorted(plan) == list(range(len(seed.steps)))
        assert all(not hb.happens_before(b, a) for i, a in enumerate(plan) for b in plan[i + 1 :])
    assert any(record.planned.depth >= 2 for record in result.explored)


def test_strategies_compare_on_equal_budgets() -> None:
    budget = 6
    outcomes = {}
    makers: dict[str, Callable[[Trace], Strategy]] = {
        "r4": lambda seed: R4Explorer(seed, bound=2),
        "delay": lambda seed: DelayBoundedSampler(seed, max_delays=2, samples=100, rng_seed=3),
        "wave": lambda seed: WaveSampler(seed, copies=100, rng_seed=3),
    }
    for name, make in makers.items():
        executor, seed = seeded_figure1()
        result = run(make(seed), executor, max_sequences=budget)
        assert result.stop_reason == MAX_SEQUENCES
        assert len(result.explored) == budget == len(executor.final_states)  # seed run included
        outcomes[name] = len(set(executor.final_states))
    print(f"distinct final states in {budget} runs: {outcomes}")
    assert outcomes["r4"] >= outcomes["wave"]
