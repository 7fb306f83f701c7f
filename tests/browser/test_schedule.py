"""The default scheduling policy, without a browser: the order it runs enabled events in, and how
long the next user step waits for a quiet page or for its target."""

from __future__ import annotations

from webr4.browser.actions import UserAction
from webr4.browser.schedule import (FRAME_MS, GIVE_UP, PAST_HORIZON, QUIET_MS, QUIET_PATIENCE_MS, SETTLE_MS,
                                    STABLE_FRAMES, USER_PRIORITY, Candidate, Scheduler)
from webr4.trace import Category, Event

CLICK = UserAction(0, "click", "#b")
PRESS = UserAction(0, "keydown", "#b", "Enter")
TIMER = "t1"
FRAME = "f1"  # the next frame of an animation loop
FIRST_FRAME = "f0"  # a frame a timer requested
EVENTS = {TIMER: Event(TIMER, Category.TIMER, "setTimeout", "timer"),
          FIRST_FRAME: Event(FIRST_FRAME, Category.TIMER, "requestAnimationFrame", "frame", creator=TIMER),
          FRAME: Event(FRAME, Category.TIMER, "requestAnimationFrame", "frame", creator=FIRST_FRAME)}


def _scheduler(*actions: UserAction, horizon_ms: float = 60_000.0, step_wait_ms: float = 30_000.0) -> Scheduler:
    return Scheduler(actions, horizon_ms, step_wait_ms)


def _user(scheduler: Scheduler) -> Candidate:
    step = scheduler.next_step
    assert step is not None
    return Candidate(step.event_id, scheduler.user_due(step), USER_PRIORITY, 0)


def test_the_earliest_due_event_runs_first_then_by_priority_then_creation_order() -> None:
    scheduler = _scheduler()
    enabled = {"a": Candidate("a", 10.0, 0, 2), "b": Candidate("b", 10.0, 0, 1), "c": Candidate("c", 5.0, 1, 3)}
    assert scheduler.default_choice(enabled, 0.0, {}) == "c"
    del enabled["c"]
    assert scheduler.default_choice(enabled, 0.0, {}) == "b"


def test_nothing_enabled_and_no_step_left_ends_the_run_and_the_horizon_bounds_it() -> None:
    assert _scheduler().default_choice({}, 0.0, {}) is None
    late = {TIMER: Candidate(TIMER, 70_000.0, 0, 0)}
    assert _scheduler().default_choice(late, 0.0, EVENTS) == PAST_HORIZON


def test_a_user_step_waits_for_page_work_due_just_after_it_but_not_for_an_animation_loop() -> None:
    scheduler = _scheduler(CLICK)
    user = _user(scheduler)
    soon = {user.id: user, TIMER: Candidate(TIMER, user.due + QUIET_MS / 2, 0, 0)}
    assert scheduler.default_choice(soon, 0.0, EVENTS) == TIMER
    after_stable_check = user.due + (STABLE_FRAMES + 0.5) * FRAME_MS
    assert after_stable_check < user.due + QUIET_MS
    frame = {user.id: user, FRAME: Candidate(FRAME, after_stable_check, 0, 0)}
    assert scheduler.default_choice(frame, 0.0, EVENTS) == user.id
    later = {user.id: user, TIMER: Candidate(TIMER, user.due + 2 * QUIET_MS, 0, 0)}
    assert scheduler.default_choice(later, 0.0, EVENTS) == user.id


def test_a_user_step_waits_for_the_frame_that_code_other_than_a_frame_requested() -> None:
    # A component that finishes its set-up in an animation frame is painted, set up, before a
    # person can act on it.
    scheduler = _scheduler(CLICK)
    user = _user(scheduler)
    first = {user.id: user, FIRST_FRAME: Candidate(FIRST_FRAME, user.due + QUIET_MS / 2, 0, 0)}
    assert scheduler.default_choice(first, 0.0, EVENTS) == FIRST_FRAME


def test_a_click_acts_after_the_page_events_due_within_its_two_stable_frames() -> None:
    # Playwright's ``stable`` check reads the target's box in two animation frames before it acts;
    # whatever the page has due until then runs first, an animation loop's frames included.
    scheduler = _scheduler(CLICK)
    user = _user(scheduler)
    frames = [Candidate(f"f{n}", n * FRAME_MS, 0, n) for n in (1, 2, 3)]
    enabled = {user.id: user, **{frame.id: frame for frame in frames}}
    events = {frame.id: Event(frame.id, Category.TIMER, "requestAnimationFrame", "frame", creator=FRAME)
              for frame in frames}
    ran = []
    for now in (0.0, FRAME_MS, 2 * FRAME_MS):
        chosen = scheduler.default_choice(enabled, now, events | EVENTS)
        assert chosen is not None
        ran.append(chosen)
        del enabled[chosen]
    assert ran == ["f1", "f2", user.id]


def test_a_click_after_a_wait_takes_its_two_frames_from_when_it_is_due() -> None:
    waited = UserAction(0, "click", "#b", delay=500.0)
    scheduler = _scheduler(waited)
    user = _user(scheduler)
    frame = Candidate("f1", 500 + FRAME_MS, 0, 1)
    enabled = {user.id: user, frame.id: frame}
    events = {frame.id: Event(frame.id, Category.TIMER, "requestAnimationFrame", "frame", creator=FRAME)} | EVENTS
    assert scheduler.default_choice(enabled, 0.0, events) == frame.id


def test_a_click_after_another_step_is_due_two_frames_after_it_at_least() -> None:
    scheduler = _scheduler(CLICK, UserAction(1, "click", "#c", delay=1.0), UserAction(2, "keydown", "#c", "a", 1.0))
    scheduler.next_user, scheduler.last_user_time = 1, 100.0
    assert scheduler.user_due(scheduler.actions[1]) >= 100.0 + STABLE_FRAMES * FRAME_MS
    scheduler.next_user, scheduler.last_user_time = 2, 200.0
    assert scheduler.user_due(scheduler.actions[2]) == 201.0


def test_a_key_press_acts_without_frames_of_its_own() -> None:
    scheduler = _scheduler(PRESS)
    user = _user(scheduler)
    frame = {user.id: user, FRAME: Candidate(FRAME, FRAME_MS, 0, 0)}
    assert scheduler.default_choice(frame, 0.0, EVENTS) == user.id


def test_a_user_step_stops_waiting_for_a_page_that_never_goes_quiet() -> None:
    scheduler = _scheduler(CLICK)
    user = _user(scheduler)
    now = user.due + QUIET_PATIENCE_MS + 10
    busy = {user.id: user, TIMER: Candidate(TIMER, now + QUIET_MS * 0.9, 0, 0)}  # past the click's stable frames
    assert scheduler.default_choice(busy, now, EVENTS) == user.id


def test_a_step_whose_target_never_becomes_actionable_is_given_up_after_the_step_wait() -> None:
    scheduler = _scheduler(CLICK, step_wait_ms=1_000.0)
    assert scheduler.default_choice({}, 0.0, EVENTS) == GIVE_UP
    due = scheduler.user_due(CLICK)
    assert scheduler.default_choice({TIMER: Candidate(TIMER, due + 500, 0, 0)}, 0.0, EVENTS) == TIMER
    assert scheduler.default_choice({TIMER: Candidate(TIMER, due + 1_500, 0, 0)}, 0.0, EVENTS) == GIVE_UP


def test_the_plan_chooses_when_it_offers_a_pending_event_and_the_policy_otherwise() -> None:
    scheduler = _scheduler()
    scheduler.follow(["head", "b", "a"], "head")
    enabled = {"a": Candidate("a", 1.0, 0, 0), "b": Candidate("b", 2.0, 0, 1)}
    assert scheduler.choose(enabled, 0.0, {}) == ("b", True)
    assert scheduler.choose({"c": Candidate("c", 1.0, 0, 2)}, 0.0, {}) == ("c", False)


def test_a_planned_step_whose_target_is_not_ready_lets_the_clock_run_but_holds_what_the_network_delivers() -> None:
    scheduler = _scheduler(CLICK)
    scheduler.follow(["head", CLICK.event_id, "response", TIMER], "head")  # the plan names the timer last
    events = {**EVENTS, "response": Event("response", Category.NETWORK, "fetch", "response")}
    response = Candidate("response", 1.0, 0, 0)
    shows_target = Candidate(TIMER, 600.0, 0, 1)  # it shows the button the click waits for
    assert scheduler.choose({"response": response, TIMER: shows_target}, 0.0, events) == (TIMER, False)
    assert scheduler.choose({"response": response, CLICK.event_id: _user(scheduler)}, 600.0, events) == (
        CLICK.event_id, True)


def test_a_planned_step_lets_the_clock_run_only_as_far_as_a_test_waits() -> None:
    scheduler = _scheduler(CLICK)
    scheduler.follow(["head", CLICK.event_id, "response"], "head")
    events = {**EVENTS, "response": Event("response", Category.NETWORK, "fetch", "response")}
    response = Candidate("response", 1.0, 0, 0)
    much_later = Candidate(TIMER, scheduler.user_due(CLICK) + SETTLE_MS + 1, 0, 1)
    assert scheduler.choose({"response": response, TIMER: much_later}, 0.0, events) == ("response", True)
