"""R4's exploration on models: the paper's example, Theorem 1, bounds, reversals, resumption."""

from __future__ import annotations

import copy
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from models import figure1, models

from webr4.engine.r4 import R4Explorer, explore
from webr4.engine.testing.model import Cancel, Create, Model, ModelEvent, ModelExecutor, When, Write
from webr4.engine.plans import MAX_SEQUENCES, TIME_LIMIT, ExploredSequence, Reversal
from webr4.engine.races import find_races
from webr4.trace import Access, AccessKind, Category, Event, Step, Trace

PROPERTY = settings(max_examples=120, deadline=None)


def seeded(model: Model, plan: list[str] | None = None) -> tuple[ModelExecutor, Trace]:
    executor = ModelExecutor(model)
    return executor, executor.execute(plan or [])


# -- the running example (Figures 1 and 2) ------------------------------------------------------


def test_figure2_exploration_with_bound_2() -> None:
    executor, seed = seeded(figure1(), ["e0", "e1", "e2", "e3", "e4", "e5"])
    result = explore(executor, seed, bound=2)
    tree = [(r.sequence, r.planned.parent, r.planned.depth) for r in result.explored]
    q1 = ("e0", "e1", "e2", "e3", "e4", "e5")
    q2 = ("e0", "e1", "e2", "e4", "e3", "e5")  # <e3, e4> reversed at s3
    q3 = ("e0", "e1", "e3", "e2", "e5")  # <e2, e3> reversed at s2; the retry timer e4 is skipped
    q5 = ("e0", "e3", "e1", "e2", "e5")  # from Q3: <e1, e3> reversed at s1
    q4 = ("e1", "e0", "e2", "e3", "e5", "t1")  # <e0, e1> reversed at s0; e1 now sets timer t1
    q6 = ("e1", "e2", "e0", "e3", "e5", "t1", "e4")  # from Q4: <e0, e2>
    q7 = ("e1", "e0", "e3", "e2", "e5", "t1")  # from Q4: <e2, e3>
    assert tree[:5] == [(q1, None, 0), (q2, 0, 1), (q3, 0, 1), (q5, 2, 2), (q4, 0, 1)]
    children_of_q4 = {sequence for sequence, parent, _ in tree if parent == 4}
    assert {q6, q7} <= children_of_q4
    # Q4's other two children reverse the retry timer t1 against e2 and e3, conflicts that the
    # paper's drawing leaves out; everything else matches Figure 2b.
    extra = children_of_q4 - {q6, q7}
    assert {r.planned.reversal.second for r in result.explored if r.sequence in extra and r.planned.reversal} == {"t1"}
    assert len(tree) == 9
    assert all(depth <= 2 for _, _, depth in tree)
    assert [r.planned.reversal for r in result.explored[1:3]] == [
        Reversal("e3", "e4", "queue"),
        Reversal("e2", "e3", "queue"),
    ]


def test_figure2_unbounded_reaches_every_final_state() -> None:
    model = figure1()
    executor, seed = seeded(model, ["e0", "e1", "e2", "e3", "e4", "e5"])
    result = explore(executor, seed)
    assert {model.final_state(r.sequence) for r in result.explored} == set(model.all_final_states())


# -- Theorem 1 and the structure of the exploration tree on random models -----------------------


@PROPERTY
@given(models(max_events=5))
def test_unbounded_exploration_reaches_every_final_state(model: Model) -> None:
    executor, seed = seeded(model)
    result = explore(executor, seed)
    brute = model.all_final_states()
    assert {model.final_state(r.sequence) for r in result.explored} == set(brute)
    assert len(result.explored) <= sum(brute.values())


@PROPERTY
@given(models(max_events=5, conditional=False))
def test_sleep_sets_keep_every_final_state_and_never_explore_more(model: Model) -> None:
    executor, seed = seeded(model)
    plain = explore(executor, seed)
    pruned = explore(executor, seed, sleep_sets=True)
    assert {model.final_state(r.sequence) for r in pruned.explored} == set(model.all_final_states())
    assert len(pruned.explored) <= len(plain.explored)


def index_or_end(sequence: tuple[str, ...], event: str) -> int:
    return sequence.index(event) if event in sequence else len(sequence)


def assert_one_reversal(child: ExploredSequence, parent: ExploredSequence) -> None:
    planned, reversal = child.planned, child.planned.reversal
    assert reversal is not None
    p = planned.prefix_length
    assert child.sequence[:p] == parent.sequence[:p]
    assert index_or_end(parent.sequence, reversal.first) < index_or_end(parent.sequence, reversal.second)
    assert index_or_end(child.sequence, reversal.second) < index_or_end(child.sequence, reversal.first)


@PROPERTY
@given(models(max_events=5), st.integers(0, 3))
def test_bounded_exploration_respects_k_and_reverses_one_conflict_per_child(model: Model, bound: int) -> None:
    executor, seed = seeded(model)
    result = explore(executor, seed, bound=bound)
    explored = result.explored
    assert explored[0].planned.parent is None and explored[0].planned.depth == 0
    for child in explored[1:]:
        assert child.planned.parent is not None
        parent = explored[child.planned.parent]
        assert child.planned.parent < child.planned.index
        assert child.planned.depth == parent.planned.depth + 1 <= bound
        assert_one_reversal(child, parent)
    assert len({r.sequence for r in explored}) == len(explored)


def test_counts_against_brute_force_are_reported() -> None:
    model = figure1()
    executor, seed = seeded(model, ["e0", "e1", "e2", "e3", "e4", "e5"])
    explored = len(explore(executor, seed).explored)
    schedules = sum(model.all_final_states().values())
    print(f"figure 1: {explored} sequences explored, {schedules} schedules by brute force")
    assert explored < schedules


# -- the disable case and per-location conflicts ------------------------------------------------


def test_a_disabled_event_is_explored_before_its_disabler() -> None:
    # a sets a timer t, b clears it: only running t before b (Algorithm 2, lines 5-7) shows x = 1
    # after a ran first.
    model = Model(
        [
            ModelEvent("a", (Create("t"),), root=True),
            ModelEvent("b", (Cancel("t"),), root=True),
            ModelEvent("t", (Write("x", 1),)),
        ]
    )
    executor, seed = seeded(model)
    assert seed.sequence == ["a", "b"]
    result = explore(executor, seed)
    by_sequence = {r.sequence: r for r in result.explored}
    assert ("a", "t", "b") in by_sequence
    assert by_sequence[("a", "t", "b")].planned.reversal == Reversal("b", "t", "event:t", disable=True)
    assert {model.final_state(s) for s in by_sequence} == set(model.all_final_states())


def test_a_multi_access_event_conflicts_on_every_location() -> None:
    # Trimananda et al.'s Fig. 5 adapted: e3 asserts y == 1 when it sees x == 1. The failure needs
    # e2 · e3 before e1, found only because e3 races with e1 on y as well as with e2 on x.
    model = Model(
        [
            ModelEvent("e1", (Write("y", 1),), root=True),
            ModelEvent("e2", (Write("x", 1),), root=True),
            ModelEvent("e3", (When("x", 1, then=(When("y", 0, then=(Write("failed", 1),)),)),), root=True),
        ]
    )
    executor, seed = seeded(model)
    assert seed.sequence == ["e1", "e2", "e3"]
    uncovered = {(r.first, r.second, r.location) for r in find_races(seed).uncovered}
    assert {(1, 2, "x"), (0, 2, "y")} <= uncovered
    result = explore(executor, seed)
    failing = [r.sequence for r in result.explored if dict(model.final_state(r.sequence)[0]).get("failed")]
    assert failing == [("e2", "e3", "e1")]


# -- budgets ---------------------------------------------------------------------


def test_budgets_stop_the_loop() -> None:
    executor, seed = seeded(figure1(), ["e0", "e1", "e2", "e3", "e4", "e5"])
    assert [len(explore(executor, seed, max_sequences=n).explored) for n in (1, 4)] == [1, 4]
    assert explore(executor, seed, max_sequences=4).stop_reason == MAX_SEQUENCES
    ticks = iter(range(100))
    timed = explore(executor, seed, max_seconds=3, clock=lambda: next(ticks))
    assert timed.stop_reason == TIME_LIMIT
    assert len(timed.explored) == 3  # the seed, then one plan per tick until 3 ticks have passed


@PROPERTY
@given(models())
def test_pending_never_undercounts_what_bound_1_still_explores(model: Model) -> None:
    executor, seed = seeded(model)
    explorer = R4Explorer(seed, bound=1)
    while True:
        promised = explorer.pending
        planned = explorer.next_plan()
        if planned is None:
            break
        remaining = 1
        shadow = copy.deepcopy(explorer)
        shadow.observe(planned, executor.execute(planned.plan))
        while (later := shadow.next_plan()) is not None:
            shadow.observe(later, executor.execute(later.plan))
            remaining += 1
        assert remaining <= promised
        explorer.observe(planned, executor.execute(planned.plan))
    assert explorer.pending == 0


# -- a timer due later reversed against one due earlier ----------------------------------------


def _throttle_and_route(throttle_creator: str) -> Trace:
    """A 500 ms throttle timer against the 4 ms timer that ends a click's chain of timers (the
    click's 1 ms hop sets it); both write the stored todos. ``throttle_creator`` sets the throttle."""
    events = {
        "keyup": Event("keyup", Category.USER, "keyup", "keyup on #new"),
        "click": Event("click", Category.USER, "click", "click on #filter"),
        "throttle": Event("throttle", Category.TIMER, "setTimeout", "setTimeout 500ms", throttle_creator,
                          {"delay": 500}),
        "hop": Event("hop", Category.TIMER, "setTimeout", "setTimeout 1ms", "click", {"delay": 1}),
        "route": Event("route", Category.TIMER, "setTimeout", "setTimeout 4ms", "hop", {"delay": 4}),
    }
    save = (Access(AccessKind.WRITE, "todos", site="store.js:1:1"),)
    by_keyup = throttle_creator == "keyup"
    steps = [
        Step("keyup", frozenset({"keyup"}), time=10),
        Step("click", frozenset({"click", "throttle"} if by_keyup else {"click"}), (0,), time=11),
        Step("hop", frozenset({"hop", "throttle"}), (1,), time=12),
        Step("route", frozenset({"route", "throttle"}), (2,), save, time=16),
        Step("throttle", frozenset({"throttle"}), (0,) if by_keyup else (1,), save, time=511),
    ]
    return Trace(steps=steps, events=events)


def test_a_later_timer_runs_first_when_the_step_that_starts_the_earlier_ones_chain_waits_for_it() -> None:
    planned = R4Explorer(_throttle_and_route("keyup"), bound=1).next_plan()
    assert planned is not None and planned.reversal == Reversal("route", "throttle", "todos")
    # A clock fires the 4 ms timer before the throttle unless the click that starts its chain
    # comes after the throttle: the plan holds the click back, as a browser's user would.
    assert planned.plan == ("keyup", "throttle", "click", "hop", "route")
    assert planned.prefix_length == 1


def test_a_later_timer_is_planned_first_in_place_when_both_descend_from_one_step() -> None:
    planned = R4Explorer(_throttle_and_route("click"), bound=1).next_plan()
    assert planned is not None and planned.reversal == Reversal("route", "throttle", "todos")
    # No later click helps: the executor fires the 4 ms timer first, and the order is unrealised.
    assert planned.plan == ("keyup", "click", "hop", "throttle", "route")


@PROPERTY
@given(models(max_events=5), st.integers(1, 3))
def test_a_trace_whose_accesses_r4_does_not_read_can_come_without_them(model: Model, bound: int) -> None:
    executor, seed = seeded(model)
    full = explore(executor, seed, bound=bound)
    explorer = R4Explorer(seed, bound)
    while (planned := explorer.next_plan()) is not None:
        trace = executor.execute(planned.plan)
        if not explorer.reads_accesses(planned):
            trace = replace(trace, steps=[replace(step, accesses=()) for step in trace.steps])
        explorer.observe(planned, trace)
    assert [r.planned for r in explorer.explored] == [r.planned for r in full.explored]
    assert all(explorer.reads_accesses(r.planned) == (r.planned.depth < bound) for r in explorer.explored)


# -- a response held past the test's next read ------------------------------------------------


def _typing_before_a_read(between: str | None = None) -> Trace:
    """A rates response, then two keys typed and a read of the result: the response and each key
    write the result, the read reads it. ``between`` is the type of a user step between the
    second key and the read (``expect`` waits for what it asserts)."""
    user = ["key1", "key2", *(["between"] if between else []), "read"]
    events = {"rates": Event("rates", Category.NETWORK, "load", "XHR GET /rates.json load")}
    events.update({name: Event(name, Category.USER, (between or "") if name == "between" else
                               "read" if name == "read" else "keydown", name) for name in user})
    result = (Access(AccessKind.WRITE, "result"),)
    accesses = {"rates": result, "key1": result, "key2": result, "between": (),
                "read": (Access(AccessKind.READ, "result"),)}
    order = ["rates", *user]
    steps = [Step(event, frozenset(order[n:]), (n - 1,) if n > 1 else (), accesses[event], time=n)
             for n, event in enumerate(order)]
    return Trace(steps=steps, events=events)


def _plans(seed: Trace) -> list[tuple[str, ...]]:
    explorer = R4Explorer(seed, bound=1)
    plans = []
    while (planned := explorer.next_plan()) is not None:
        plans.append(planned.plan)
        explorer.observe(planned, Trace(steps=[Step(e, frozenset(planned.plan[n:]), accesses=seed.steps[
            seed.sequence.index(e)].accesses, time=n) for n, e in enumerate(planned.plan)], events=seed.events))
    return plans


def test_a_response_racing_a_test_step_is_also_held_past_the_tests_next_read() -> None:
    plans = _plans(_typing_before_a_read())
    assert ("key1", "rates", "key2", "read") in plans  # the reversal itself
    assert ("key1", "key2", "read", "rates") in plans  # and the slow network's order


def test_a_response_is_not_held_past_an_expect_step_which_waits_for_what_it_asserts() -> None:
    plans = _plans(_typing_before_a_read(between="expect"))
    assert ("key1", "rates", "key2", "between", "read") in plans
    assert not any(plan[-1] == "rates" for plan in plans)
