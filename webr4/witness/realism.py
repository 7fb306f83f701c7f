"""Whether a plain schedule forces its order with what a network and a person produce.

:mod:`webr4.engine.realism` measures how far an explored order is from the recorded timing in
webr4's virtual time, where the session's steps run a millisecond apart. The witness forced the
order with levers (:mod:`webr4.witness.levers`), and those levers say how it was done:
:func:`extreme_forcing` reads them, and only them, and says which one goes beyond

* **a network**: a response comes late, but within :data:`MAX_RESPONSE_DELAY_MS`. A response
  held until a step, a document event or another response is one a slow network delivers
  then; one held until a timer fires is as late as that timer's delay after the event that set
  it (its time on the page's clock when that event shows nothing), and a timer that far out is
  the app's own timeout, which a network that answers at all answers within;
* **a person**: steps come at least :data:`MIN_STEP_GAP_MS` apart, early (as soon as the
  target is there) or late (after any sign: a person waits as long as it takes);
* **timers**: each fires when due. The paused clock holds a timer back until the event the
  order needs before it, which is holding it past its due time when that event is a person's
  step that cannot come in time. A timer a step sets is due ``delay_ms`` after it: the steps up
  to the one it waits for need :data:`MIN_STEP_GAP_MS` each of that, else the forcing **needs
  input within one task**. A timer a page event sets (a response, ``DOMContentLoaded``) leaves
  the person ``delay_ms`` after that event, and one whose setting shows no sign the time from
  the step before to its due time on webr4's clock: less than :data:`MIN_STEP_GAP_MS`, and the
  forcing **needs a timer held past its due time**. A timer held for a page event (a response
  it races with) waits for a network that may be as fast as it likes, and is never extreme.

Only the reversed order's schedule is judged: the parent's order is the one the recording saw.
"""

from __future__ import annotations

from webr4.engine.realism import duration
from webr4.witness.levers import ClockRun, Hold, Sign
from webr4.witness.plain import CLOCK, KEY_DOWN, STEP
from webr4.witness.schedule import PlainSchedule

MIN_STEP_GAP_MS = 5.0
"""The least time between two of a person's inputs: two steps closer than this are one task's."""
MAX_RESPONSE_DELAY_MS = 10_000.0
"""The latest a network delivers a response a page waits for (a slow mobile network's page load)."""

INPUT_WITHIN_ONE_TASK = "needs input within one task"
TIMER_HELD_PAST_DUE = "needs a timer held past its due time"
LATE_RESPONSE = "needs a response after the app's {delay} timeout"
"""The three ways a forcing is extreme, as :func:`extreme_forcing` begins its words."""

_PERSON = (STEP, KEY_DOWN)


def extreme_forcing(schedule: PlainSchedule) -> str | None:
    """Why ``schedule`` forces its order with a lever no network or person produces, in words
    beginning with one of :data:`INPUT_WITHIN_ONE_TASK`, :data:`TIMER_HELD_PAST_DUE` and
    :data:`LATE_RESPONSE` (the first lever found); ``None`` when every lever it pulls is
    realistic (see the module docstring)."""
    for run in schedule.clock_runs:
        reason = _held_timer(run, schedule.step_times)
        if reason is not None:
            return reason
    for hold in schedule.holds:
        reason = _late_response(hold, schedule.clock_runs)
        if reason is not None:
            return reason
    return None


def _held_timer(run: ClockRun, step_times: tuple[float, ...]) -> str | None:
    """Why the clock ``run`` holds its timer past its due time for a person's step, if it does (a
    run that waits only for the act that sets its timer going holds nothing back)."""
    created = run.created
    if run.after.kind not in _PERSON or run.after == created:
        return None
    step = int(run.after.target)
    if created is not None and created.kind in _PERSON:
        inputs = max(1, step - int(created.target))
        if run.delay_ms >= MIN_STEP_GAP_MS * inputs:
            return None
        return (f"{INPUT_WITHIN_ONE_TASK} ({_act(run.after)} within {duration(run.delay_ms)} of {_act(created)}, "
                f"whose timer it must come before; a person's inputs come {MIN_STEP_GAP_MS:g} ms apart or more)")
    if created is not None:
        room, after = run.delay_ms, f"when {created.words()}"
    else:
        before = step_times[step - 1] if 0 < step <= len(step_times) and step_times[step - 1] >= 0 else 0.0
        room, after = run.to_ms - before, "after the step before it" if step > 0 else "after the page started"
    if room >= MIN_STEP_GAP_MS:
        return None
    return (f"{TIMER_HELD_PAST_DUE} (a timer due {duration(max(room, 0.0))} {after} fires only after "
            f"step {step + 1})")


def _act(sign: Sign) -> str:
    """A person's act in words: ``step 2``, ``step 2's key down``."""
    return f"step {int(sign.target) + 1}" + ("'s key down" if sign.kind == KEY_DOWN else "")


def _late_response(hold: Hold, runs: tuple[ClockRun, ...]) -> str | None:
    """Why ``hold`` delivers its response later than a network does, if it does: it waits for a
    timer further out than :data:`MAX_RESPONSE_DELAY_MS`."""
    if hold.until.kind != CLOCK:
        return None
    run = next((r for r in runs if _clock_sign(r) == hold.until), None)
    late = run.delay_ms if run is not None and run.created is not None else float(hold.until.target)
    if late <= MAX_RESPONSE_DELAY_MS:
        return None
    return LATE_RESPONSE.format(delay=duration(late))


def _clock_sign(run: ClockRun) -> Sign:
    """The sign a clock run's timer shows when it fires (as :func:`webr4.witness.schedule._sign` names it)."""
    return Sign(CLOCK, f"{run.to_ms:g}")
