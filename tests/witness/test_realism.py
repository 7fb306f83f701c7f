"""Whether a plain schedule's levers are ones a network and a person produce (pure: no browser)."""

from __future__ import annotations

from webr4.witness.levers import ClockRun, Hold, Sign, StepTiming
from webr4.witness.plain import CLOCK, DOM_READY, KEY_DOWN, RESPONSE, STEP
from webr4.witness.realism import INPUT_WITHIN_ONE_TASK, TIMER_HELD_PAST_DUE, extreme_forcing
from webr4.witness.schedule import PlainSchedule, patience

PAGE = "http://127.0.0.1:8000/"
STEPS = ({"fill": "#new-todo", "value": "milk"}, {"press": "#new-todo", "key": "Enter"},
         {"fill": "#new-todo", "value": "dog"}, {"press": "#new-todo", "key": "Enter"})
PACE = (0.0, 1.0, 3.0, 4.0)  # webr4's steps, a millisecond apart


def _schedule(*runs: ClockRun, holds: tuple[Hold, ...] = ()) -> PlainSchedule:
    return PlainSchedule(PAGE, STEPS, "the order", holds=holds, clock=bool(runs), clock_runs=runs, step_times=PACE)


def _held_for_step(step: int, created: Sign | None, delay_ms: float, to_ms: float = 3.0) -> ClockRun:
    """A timer the clock keeps from firing until step ``step`` is done."""
    return ClockRun(to_ms, Sign(STEP, str(step)), created, delay_ms, forward=False)


def test_a_step_before_a_zero_delay_timer_the_step_before_it_set_needs_input_within_one_task() -> None:
    reason = extreme_forcing(_schedule(_held_for_step(3, Sign(STEP, "2"), 0.0)))  # Vue's nextTick, Lavaca's render
    assert reason is not None and reason.startswith(INPUT_WITHIN_ONE_TASK)


def test_a_timer_that_leaves_a_person_time_for_each_step_is_realistic() -> None:
    assert extreme_forcing(_schedule(_held_for_step(3, Sign(STEP, "1"), 500.0, to_ms=501.0))) is None
    # Two steps to fit in: 5 ms each.
    assert extreme_forcing(_schedule(_held_for_step(3, Sign(STEP, "1"), 8.0))) is not None


def test_a_zero_delay_timer_a_page_event_set_held_for_a_step_is_held_past_its_due_time() -> None:
    reason = extreme_forcing(_schedule(_held_for_step(0, Sign(DOM_READY), 0.0)))
    assert reason is not None and reason.startswith(TIMER_HELD_PAST_DUE)
    assert extreme_forcing(_schedule(_held_for_step(0, Sign(DOM_READY), 300.0))) is None


def test_a_timer_of_unknown_setting_is_judged_by_its_due_time_after_the_step_before() -> None:
    assert extreme_forcing(_schedule(_held_for_step(3, None, 0.0, to_ms=3.0))) is not None  # due as step 3 came
    assert extreme_forcing(_schedule(_held_for_step(3, None, 0.0, to_ms=400.0))) is None


def test_a_timer_held_for_a_response_or_until_a_key_is_down_in_time_is_realistic() -> None:
    for_response = ClockRun(1500.0, Sign(RESPONSE, PAGE + "status.json?"), Sign(RESPONSE, PAGE), 1500.0, forward=False)
    key_down = ClockRun(501.0, Sign(KEY_DOWN, "3"), Sign(STEP, "1"), 500.0)  # a throttle fires while Enter is down
    assert extreme_forcing(_schedule(for_response, key_down)) is None


def test_a_response_held_for_a_watchdog_is_realistic_only_within_what_a_network_takes() -> None:
    def held_until(delay_ms: float) -> PlainSchedule:
        watchdog = ClockRun(delay_ms, Sign(RESPONSE, PAGE), Sign(RESPONSE, PAGE), delay_ms)
        return _schedule(watchdog, holds=(Hold(PAGE + "status.json?", Sign(CLOCK, f"{delay_ms:g}")),))

    assert extreme_forcing(held_until(1500.0)) is None
    assert extreme_forcing(held_until(30_000.0)) == "needs a response after the app's 30 s timeout"


def test_held_responses_and_early_steps_are_realistic() -> None:
    schedule = PlainSchedule(PAGE, STEPS, "typing before the app's script",
                             holds=(Hold(PAGE + "app.js?", Sign(STEP, "0")),), timings=(StepTiming(0, None),))
    assert extreme_forcing(schedule) is None


def test_a_missing_sign_is_given_up_in_proportion_to_the_recorded_gap() -> None:
    assert patience(0.0) == 5.0  # two events of one page load: the floor
    assert patience(2500.0) == 7.5  # a response and its 2.5 s watchdog
    assert patience(30_000.0) == 10.0  # the ceiling


def test_a_timer_waiting_only_for_the_step_that_sets_it_going_is_not_held() -> None:
    # Sammy's render timer, set by the press, before the template's response: it fires when due.
    set_by_press = ClockRun(1.0, Sign(STEP, "1"), Sign(STEP, "1"), 0.0)
    assert extreme_forcing(_schedule(set_by_press, holds=(Hold(PAGE + "footer.template?", Sign(CLOCK, "1")),))) is None
