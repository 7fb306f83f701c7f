"""Anytime R4: bound 1's branches in any order explore what plain R4 explores; later bounds add
what the plain explorer of that bound explores, without running a plan twice; likely harm."""

from __future__ import annotations

import copy
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import figure1, models

from webr4.engine.anytime import AnytimeExplorer
from webr4.engine.r4 import R4Explorer
from webr4.engine.harm_order import HEAP, SCHEDULING, VISIBLE, Harm, likely_harm
from webr4.engine.plans import ExploredSequence, PlannedSequence, Reversal, run
from webr4.engine.testing.model import Cancel, Model, ModelEvent, ModelExecutor, Read, Write
from webr4.trace import Trace

PROPERTY = settings(max_examples=60, deadline=None)


def seeded(model: Model) -> tuple[ModelExecutor, Trace]:
    executor = ModelExecutor(model)
    return executor, executor.execute([])


def plain(executor: ModelExecutor, seed: Trace, bound: int) -> list[ExploredSequence]:
    explorer = R4Explorer(seed, bound=bound)
    run(explorer, executor)
    return explorer.explored


def what(explored: list[ExploredSequence]) -> Counter[tuple[object, ...]]:
    """The sequences explored, as a multiset: plan, what ran, the reversal and its depth."""
    return Counter((e.planned.plan, e.sequence, e.planned.reversal, e.planned.depth) for e in explored)


def explore_branches(branches: list[R4Explorer], executor: ModelExecutor) -> list[ExploredSequence]:
    explored: list[ExploredSequence] = []
    for branch in branches:
        run(branch, executor)
        explored += branch.explored[1:]
    return explored


@PROPERTY
@given(models(), st.randoms(use_true_random=False))
def test_bound_1_branches_in_any_order_explore_what_plain_r4_explores(model: Model, rng: object) -> None:
    executor, seed = seeded(model)
    root = R4Explorer(seed, bound=1)
    branches = root.branches()
    rng.shuffle(branches)  # type: ignore[attr-defined]
    assert what(explore_branches(branches, executor)) == what(plain(executor, seed, 1)[1:])


@PROPERTY
@given(models())
def test_plan_order_is_plain_r4_and_harm_order_reorders_it(model: Model) -> None:
    executor, seed = seeded(model)
    expected = plain(executor, seed, 1)
    in_plan_order = AnytimeExplorer(seed, cap=1, order="plan")
    run(in_plan_order, executor)
    assert [(e.planned, e.sequence) for e in in_plan_order.explored] == [(e.planned, e.sequence) for e in expected]
    by_harm = AnytimeExplorer(seed, cap=1)
    run(by_harm, executor)
    assert what(by_harm.explored) == what(expected)
    assert all(e.planned.parent == 0 for e in by_harm.explored[1:])
    assert by_harm.progress().completed == 1 and by_harm.progress().working is None


@PROPERTY
@given(models(), st.integers(2, 3))
def test_each_bound_adds_what_the_plain_explorer_of_that_bound_explores_running_no_plan_twice(
        model: Model, cap: int) -> None:
    executor, seed = seeded(model)
    anytime = AnytimeExplorer(seed, cap=cap)
    run(anytime, executor)
    handed_out = [e.planned.plan for e in anytime.explored[1:]]
    explored = {e.planned.plan for e in anytime.explored}
    expected = set().union(*({e.planned.plan for e in plain(executor, seed, k)} for k in range(1, cap + 1)))
    assert explored == expected
    bound_1 = len(plain(executor, seed, 1)) - 1  # handed out first
    assert not set(handed_out[bound_1:]) & set(handed_out[:bound_1])  # and not run again
    for e in anytime.explored[1:]:  # every parent is an earlier sequence
        assert e.planned.derived_from < e.planned.index


@PROPERTY
@given(models())
def test_without_a_cap_it_stops_once_the_next_bound_would_add_nothing(model: Model) -> None:
    executor, seed = seeded(model)
    anytime = AnytimeExplorer(seed)
    run(anytime, executor)
    completed = anytime.progress().completed
    explored = {e.planned.plan for e in anytime.explored}
    assert {e.planned.plan for e in plain(executor, seed, completed + 1)} <= explored


def test_a_resumed_sweep_gets_the_same_plans_in_the_same_order() -> None:
    executor, seed = seeded(figure1())
    first = AnytimeExplorer(seed, cap=2)
    run(first, executor)
    again = AnytimeExplorer(seed, cap=2)
    for record in first.explored[1:]:
        planned = again.next_plan()
        assert planned == record.planned
        again.observe(planned, executor.execute(planned.plan))
    assert again.next_plan() is None


def test_progress_names_the_completed_bound_and_how_far_the_next_got() -> None:
    executor, seed = seeded(figure1())
    anytime = AnytimeExplorer(seed, cap=2)
    assert anytime.progress().completed == 0 and anytime.progress().working == 1
    while anytime.progress().working == 1:
        planned = anytime.next_plan()
        assert planned is not None
        anytime.observe(planned, executor.execute(planned.plan))
    progress = anytime.progress()
    assert (progress.completed, progress.working, progress.explored) == (1, 2, 1)  # bound 2's first ran
    assert anytime.explored[-1].planned.depth == 2
    assert anytime.next_plan() is not None and anytime.outstanding is not None
    shadow = copy.deepcopy(anytime)  # speculation advances a copy; the original is untouched
    outstanding = shadow.outstanding
    assert outstanding is not None
    shadow.observe(outstanding, executor.execute(outstanding.plan))
    assert len(anytime.explored) == len(shadow.explored) - 1


def test_bad_caps_and_orders_are_refused() -> None:
    _executor, seed = seeded(figure1())
    with pytest.raises(ValueError):
        AnytimeExplorer(seed, cap=0)
    with pytest.raises(ValueError):
        AnytimeExplorer(seed, order="random")
    with pytest.raises(ValueError):
        R4Explorer(seed, bound=2).branches()


# -- likely harm --------------------------------------------------------------------------------


def pair_model(cell: str, user: bool = False) -> Model:
    """``a`` writes ``cell`` and ``b`` reads it: one race."""
    return Model([ModelEvent("a", (Write(cell, 1),), root=True),
                  ModelEvent("b", (Read(cell),), root=not user, user=user)])


def harm_of(model: Model) -> Harm:
    _executor, seed = seeded(model)
    anytime = AnytimeExplorer(seed, cap=1, order="plan")
    planned = anytime.next_plan()
    assert planned is not None and planned.reversal is not None
    return likely_harm(seed, planned.reversal, planned.plan)


def test_what_the_user_sees_comes_before_the_heap_and_a_user_event_before_internal_ones() -> None:
    dom, heap = harm_of(pair_model("dom:#total.textContent")), harm_of(pair_model("global:total"))
    storage, user = harm_of(pair_model("storage:local.cart")), harm_of(pair_model("global:total", user=True))
    assert (dom.reach, storage.reach, heap.reach) == (VISIBLE, VISIBLE, HEAP)
    assert dom < heap and storage < heap
    assert (user.internal, heap.internal) == (0, 1) and user < heap
    assert heap.delay_ms > 0  # the read moves before the write: against the recorded times


def test_a_reversal_that_fits_the_recorded_timing_comes_first() -> None:
    _executor, seed = seeded(pair_model("global:total"))
    fits = likely_harm(seed, Reversal("a", "b", "global:total"), ("a", "b"))
    late = likely_harm(seed, Reversal("a", "b", "global:total"), ("b", "a"))
    assert fits.delay_ms == 0 < late.delay_ms and fits < late
    _executor, cancelled = seeded(Model([ModelEvent("a", (Cancel("b"),), root=True), ModelEvent("b", root=True)]))
    scheduling = likely_harm(cancelled, Reversal("a", "b", "event:b", disable=True), ("b", "a"))
    assert scheduling.reach == SCHEDULING


def test_harm_order_puts_a_visible_branch_before_a_heap_one() -> None:
    model = Model([ModelEvent("d1", (Write("dom:#out.textContent", 1),), root=True),
                   ModelEvent("d2", (Read("dom:#out.textContent"),), root=True),
                   ModelEvent("h1", (Write("global:n", 1),), root=True),
                   ModelEvent("h2", (Read("global:n"),), root=True)])  # R4 reverses the last race first
    _executor, seed = seeded(model)
    plan_first = AnytimeExplorer(seed, cap=1, order="plan").next_plan()
    harm_first = AnytimeExplorer(seed, cap=1).next_plan()
    assert isinstance(plan_first, PlannedSequence) and isinstance(harm_first, PlannedSequence)
    assert harm_first.reversal is not None and harm_first.reversal.location.startswith("dom:")
    assert plan_first.reversal is not None and plan_first.reversal.location.startswith("global:")
