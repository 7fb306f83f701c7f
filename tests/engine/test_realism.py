"""Whether a planned reversal happened, and how far an order is from the recorded timing."""

from __future__ import annotations

import itertools
from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webr4.engine.realism import Shift, duration, shift_in_words, timing_shift, unrealised
from webr4.trace import Category, Event, Step, Trace

CHUNK = Event("p2", Category.PARSE, "parse", "parse chunk 2/2")
CLICK = Event("u0", Category.USER, "click", "click on #add")
XHR = Event("n1", Category.NETWORK, "xhr", "XHR GET /a.json load")
LONG = Event("t1", Category.TIMER, "setTimeout", "setTimeout 3000ms at app.js:4:1")
SHORT = Event("t2", Category.TIMER, "setTimeout", "setTimeout 10ms at app.js:5:1")
EVENTS = {e.id: e for e in (CHUNK, CLICK, XHR, LONG, SHORT)}


def trace(*timed: tuple[Event, float], skipped: tuple[Event, ...] = ()) -> Trace:
    steps = [Step(e.id, frozenset({e.id}), time=t) for e, t in timed]
    return Trace(steps, dict(EVENTS), skipped=[e.id for e in skipped])


def test_an_order_that_ran_is_realised() -> None:
    assert unrealised(trace((CLICK, 0.2), (CHUNK, 0.2)), CHUNK.id, CLICK.id) is None


def test_a_planned_event_that_was_skipped_and_ran_later_is_named() -> None:
    child = trace((CHUNK, 0), (CLICK, 0.2), skipped=(CLICK,))
    assert unrealised(child, CHUNK.id, CLICK.id) == \
        "click on #add was not enabled when its turn came and ran after parse chunk 2/2"


def test_a_planned_event_that_never_ran_is_named() -> None:
    assert unrealised(trace((CHUNK, 0), skipped=(CLICK,)), CHUNK.id, CLICK.id) == \
        "click on #add was not enabled when its turn came and never ran"
    assert unrealised(trace((CHUNK, 0)), CHUNK.id, CLICK.id) == "click on #add never ran"


def test_a_disabling_event_that_no_longer_runs_leaves_the_order_realised() -> None:
    assert unrealised(trace((LONG, 3000)), XHR.id, LONG.id) is None


def test_a_click_moved_before_a_chunk_came_earlier() -> None:
    recorded = trace((CHUNK, 0), (CLICK, 0.2))
    shift = timing_shift(recorded, [CLICK.id, CHUNK.id])
    assert shift is not None and (shift.early, shift.late) == (CLICK.id, CHUNK.id) and shift.ms == pytest.approx(0.2)
    assert shift_in_words(shift, EVENTS) == "click on #add came 0.2 ms earlier, before parse chunk 2/2"


def test_a_response_after_a_long_timer_arrived_later() -> None:
    recorded = trace((CHUNK, 0), (XHR, 5), (SHORT, 10), (LONG, 3005))
    shift = timing_shift(recorded, [CHUNK.id, SHORT.id, LONG.id, XHR.id])
    assert shift == Shift(LONG.id, XHR.id, 3000)
    assert shift_in_words(shift, EVENTS) == \
        "XHR GET /a.json load arrived 3 s later, after setTimeout 3000ms at app.js:4:1"


def test_an_order_the_recorded_times_allow_fits() -> None:
    recorded = trace((XHR, 5), (CHUNK, 5), (LONG, 3005))
    assert timing_shift(recorded, [CHUNK.id, XHR.id, LONG.id]) is None
    assert shift_in_words(None, EVENTS) == "fits the recorded timing"


def test_events_the_recording_never_ran_have_no_time() -> None:
    assert timing_shift(trace((CHUNK, 0)), [CLICK.id, CHUNK.id]) is None


@pytest.mark.parametrize(("ms", "words"), [(0.2, "0.2 ms"), (0.25, "0.25 ms"), (12.5, "12.5 ms"), (301.4, "301 ms"),
                                           (1500, "1.5 s"), (3000, "3 s"), (120_000, "120 s")])
def test_durations(ms: float, words: str) -> None:
    assert duration(ms) == words


@given(st.lists(st.integers(0, 50), min_size=0, max_size=9), st.randoms(use_true_random=False))
def test_the_shift_is_the_largest_gap_against_the_recorded_times(times: list[int], random: Random) -> None:
    events = {f"e{i}": Event(f"e{i}", Category.OTHER, "x", f"e{i}") for i in range(len(times))}
    recorded = Trace([Step(f"e{i}", frozenset(), time=float(t)) for i, t in enumerate(times)], events)
    order = list(events)
    random.shuffle(order)
    time = {f"e{i}": t for i, t in enumerate(times)}
    gaps = [time[a] - time[b] for a, b in itertools.combinations(order, 2)]
    shift = timing_shift(recorded, order)
    largest = max(gaps, default=0)
    if largest <= 0:
        assert shift is None
    else:
        assert shift is not None and shift.ms == largest
        assert order.index(shift.early) < order.index(shift.late)
        assert time[shift.early] - time[shift.late] == largest


def test_a_planned_event_the_child_never_saw_is_named_by_its_label_elsewhere() -> None:
    child = Trace([Step(CHUNK.id, frozenset({CHUNK.id}))], {CHUNK.id: CHUNK})
    assert unrealised(child, CHUNK.id, XHR.id, EVENTS) == "XHR GET /a.json load never ran"
    assert XHR.id not in (unrealised(child, CHUNK.id, XHR.id) or "")


def test_a_response_after_the_apps_own_timeout_must_be_that_late_though_the_recording_cleared_it() -> None:
    # the page sends a request and sets a 5 s timeout; the response came first and cleared it
    timeout = Event("t5", Category.TIMER, "setTimeout", "setTimeout 5000ms at app.js:9:3", creator=CHUNK.id,
                    params={"delay": 5000})
    recorded = Trace([Step(CHUNK.id, frozenset(), time=2.0), Step(XHR.id, frozenset(), time=2.0)],
                     {**EVENTS, timeout.id: timeout})
    shift = timing_shift(recorded, [CHUNK.id, timeout.id, XHR.id])
    assert shift == Shift(timeout.id, XHR.id, 5000)
    assert shift_in_words(shift, recorded.events) == \
        "XHR GET /a.json load arrived 5 s later, after setTimeout 5000ms at app.js:9:3"


def test_a_user_step_before_a_response_is_the_step_that_came_earlier() -> None:
    recorded = trace((XHR, 0), (CLICK, 40))
    shift = timing_shift(recorded, [CLICK.id, XHR.id])
    assert shift_in_words(shift, EVENTS) == "click on #add came 40 ms earlier, before XHR GET /a.json load"
