"""Runs that need not terminate: the full-cycle proviso, the firing limit, exploration on cycles."""

from __future__ import annotations

import copy
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import counter, cyclic_models, figure1, interval, ping_pong, poller

from webr4.engine.testing.cycles import FIRING_LIMIT, FULL_CYCLE, EndOfRun, Stop
from webr4.engine.r4 import explore
from webr4.engine.testing.model import (
    Cancel,
    Create,
    Fingerprint,
    Model,
    ModelEvent,
    ModelExecutor,
)
from webr4.trace import Trace

# -- the rule on its own ------------------------------------------------------------------------


def test_new_states_never_stop_a_run() -> None:
    rule = EndOfRun("s0", {"a"}, firing_limit=5)
    assert [rule.after("a", f"s{k}", {"a"}) for k in range(1, 5)] == [None] * 4


def test_a_repeated_state_stops_only_once_every_event_enabled_in_the_cycle_fired() -> None:
    rule = EndOfRun("s", {"a", "b"}, firing_limit=5)
    assert rule.after("a", "s", {"a", "b"}) is None  # b was enabled in the cycle and did not fire
    assert rule.after("a", "s", {"a", "b"}) is None
    assert rule.after("b", "s", {"a", "b"}) == Stop(FULL_CYCLE, 3, cycle_start=1)


def test_the_cycle_counts_what_is_enabled_in_every_state_along_it() -> None:
    rule = EndOfRun("s", {"a"}, firing_limit=5)
    assert rule.after("a", "t", {"a", "c"}) is None
    assert rule.after("a", "s", {"a"}) is None  # c was enabled at t, inside the cycle
    assert rule.after("a", "t", {"a", "c"}) is None
    assert rule.after("c", "u", {"a"}) is None
    assert rule.after("a", "t", {"a", "c"}) == Stop(FULL_CYCLE, 5, cycle_start=3)


def test_an_event_over_the_firing_limit_stops_the_run() -> None:
    rule = EndOfRun(0, {"tick"}, firing_limit=2)
    assert rule.after("tick", 1, {"tick"}) is None
    assert rule.after("tick", 2, {"tick"}) is None
    assert rule.after("tick", 3, {"tick"}) == Stop(FIRING_LIMIT, 3, event="tick")


def test_the_firing_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        EndOfRun("s", set(), firing_limit=0)


# -- cyclic models ------------------------------------------------------------------------------


def test_an_interval_timer_stops_once_the_load_has_had_its_turn() -> None:
    trace = ModelExecutor(interval()).execute([])
    assert trace.sequence == ["tick", "load", "tick"]
    assert trace.truncated == FULL_CYCLE
    assert trace.enabled_at_end == {"tick"}


def test_ping_pong_timers_stop_after_a_full_round() -> None:
    trace = ModelExecutor(ping_pong()).execute([])
    assert trace.sequence == ["ping", "pong", "click", "ping", "pong"]
    assert trace.truncated == FULL_CYCLE


def test_a_poller_ends_on_its_own_once_the_flag_is_set() -> None:
    trace = ModelExecutor(poller()).execute([])
    assert trace.sequence == ["poll", "click", "poll"]
    assert trace.truncated is None and not trace.enabled_at_end


def test_a_counter_never_repeats_a_state_and_hits_the_firing_limit() -> None:
    trace = ModelExecutor(counter(), firing_limit=4).execute([])
    assert trace.sequence == ["count"] * 5
    assert trace.truncated == FIRING_LIMIT


def test_the_rule_stops_a_plan_that_runs_past_a_full_cycle() -> None:
    trace = ModelExecutor(interval()).execute(["load", "tick", "tick", "tick"])
    assert trace.sequence == ["load", "tick", "tick"]
    assert trace.truncated == FULL_CYCLE and not trace.skipped


def test_acyclic_models_are_never_cut() -> None:
    trace = ModelExecutor(figure1(), firing_limit=1).execute([])
    assert trace.truncated is None and not trace.enabled_at_end


def test_brute_force_refuses_a_cyclic_model() -> None:
    with pytest.raises(ValueError, match="end-of-run rule"):
        next(interval().schedules())


# -- the proviso against traces of random cyclic models -----------------------------------------

LIMIT = 1


def full_cycle_at(fingerprints: list[Fingerprint], trace: Trace, m: int) -> bool:
    """The oracle: some earlier state equals state ``m``, and every event enabled in a state of
    the cycle between them fired within it."""
    for i in range(m):
        if fingerprints[i] == fingerprints[m]:
            enabled = set().union(*(trace.enabled_before(k) for k in range(i, m + 1)))
            if enabled <= set(trace.sequence[i:m]):
                return True
    return False


def over_limit(trace: Trace, m: int) -> bool:
    return any(count > LIMIT for count in Counter(trace.sequence[:m]).values())


@settings(max_examples=150, deadline=None)
@given(cyclic_models(), st.data())
def test_a_run_stops_at_the_first_full_cycle_or_firing_limit_and_nowhere_else(model: Model,
                                                                              data: st.DataObject) -> None:
    plan = data.draw(st.lists(st.sampled_from(sorted(model.events)), max_size=6))
    trace = ModelExecutor(model, firing_limit=LIMIT).execute(plan)
    n = len(trace.steps)
    assert n <= (LIMIT + 1) * len(model.events)
    fingerprints = [model.fingerprint_after(trace.sequence[:m]) for m in range(n + 1)]
    assert all(trace.enabled_before(m) == fingerprints[m][1] for m in range(n + 1))
    for m in range(1, n):
        assert not full_cycle_at(fingerprints, trace, m) and not over_limit(trace, m)
    if trace.truncated == FULL_CYCLE:
        assert full_cycle_at(fingerprints, trace, n)
    elif trace.truncated == FIRING_LIMIT:
        assert over_limit(trace, n) and not full_cycle_at(fingerprints, trace, n)
    else:
        assert trace.truncated is None and not trace.enabled_at_end


# -- exploration against brute force under the same rule ----------------------------------------


def leaves(model: Model, firing_limit: int) -> dict[Fingerprint, set[str | None]]:
    """The end state of every schedule, each run cut where the end-of-run rule allows, with the
    reasons runs ended there (``None`` for nothing left pending)."""
    ends: dict[Fingerprint, set[str | None]] = {}

    def walk(run, rule: EndOfRun) -> None:
        if not run.pending:
            ends.setdefault(model.fingerprint(run), set()).add(None)
            return
        for event in sorted(run.pending):
            child, child_rule = run.copy(), copy.deepcopy(rule)
            model.step(child, event)
            stop = child_rule.after(event, model.fingerprint(child), model.enabled(child))
            if stop and child.pending:
                ends.setdefault(model.fingerprint(child), set()).add(stop.reason)
            else:
                walk(child, child_rule)

    start = model.start()
    walk(start, EndOfRun(model.fingerprint(start), model.enabled(start), firing_limit))
    return ends


def explored_ends(model: Model, firing_limit: int) -> set[Fingerprint]:
    executor = ModelExecutor(model, firing_limit)
    result = explore(executor, executor.execute([]))
    return {model.fingerprint_after(r.sequence) for r in result.explored}


@pytest.mark.parametrize("model", [interval(), ping_pong(), poller(), counter()], ids=lambda m: next(iter(m.events)))
def test_exploring_a_cyclic_model_reaches_every_end_state(model: Model) -> None:
    assert explored_ends(model, 2) == set(leaves(model, 2))


@settings(max_examples=200, deadline=None)
@given(cyclic_models())
def test_exploring_random_cyclic_models_matches_brute_force_unless_the_firing_limit_cuts(model: Model) -> None:
    # Where runs end at full cycles only, exploration reaches every end state brute force does.
    # A firing-limit cut depends on the interleaving, not just on the conflicts: brute force can
    # cut a run of e0 · e0 (with a pending e1) that exploration only meets as e0 · e1 · e0, so
    # there exploration is only checked to stay within the brute-force end states.
    brute = leaves(model, 2)
    reached = explored_ends(model, 2)
    if any(FIRING_LIMIT in reasons for reasons in brute.values()):
        assert reached <= set(brute)
    else:
        assert reached == set(brute)


def test_the_firing_limit_can_hide_an_end_state_from_exploration() -> None:
    # e0 runs twice (it re-creates itself before it has run) and cancels the click e2, which
    # would create e1. Exploring e2 first runs e2 · e0 · e0 and is cut at e0's second firing
    # with e1 pending; e2 · e1 · e0 · e0 ends on its own, but no conflict ever puts e1 first.
    model = Model(
        [
            ModelEvent("e0", (Create("e0"), Cancel("e2")), root=True),
            ModelEvent("e1", ()),
            ModelEvent("e2", (Create("e1"),), user=True),
        ]
    )
    missed = model.fingerprint_after(["e2", "e1", "e0", "e0"])
    assert None in leaves(model, 1)[missed]
    assert missed not in explored_ends(model, 1)
