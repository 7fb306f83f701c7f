"""How realistic an explored order is: whether the planned reversal happened at all, and how far
the order that ran is from the recorded timing.

**Realised.** A reversal plans ``second`` before ``first`` (the parent ran them the other way, or
``first`` disabled ``second``). Approximate replay skips a planned event that is not enabled when
its turn comes (a click on an element not parsed yet, a response whose request was never made),
so the child may run ``first`` before ``second`` after all, or never run ``second``.
:func:`unrealised` says which, in words; the order is realised exactly when ``second`` ran and
``first`` did not run before it.

**Timing.** Every step of a trace carries the virtual time it ran at: a timer at its due time, a
response at the time its request went out (virtual time gives the network no latency), a parse
chunk when the parser reached it, a user action at the session's recorded pace. An explored
order that runs ``a`` before ``b`` although the recording ran ``b`` ``d`` ms before ``a`` needs
``a`` to come ``d`` ms earlier, or ``b`` ``d`` ms later, than recorded. :func:`timing_shift` is
the largest such ``d`` over every pair of the order: 0 for an order the recorded times allow,
0.2 ms for a click moved just before the parse chunk it raced with, seconds for a response that
must wait for a long timer. Small shifts are the likely races. A timer the recording created but
never ran (the app's own timeout, cleared when the response came first) was due at its creator's
time plus its delay, and has that time; any other event the recording never ran has none, and
is left out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from webr4.engine.describe import event_words
from webr4.timer_order import timer_delay
from webr4.trace import Category, Event, EventId, Trace

_VERBS = {Category.USER: "came", Category.NETWORK: "arrived", Category.PARSE: "arrived", Category.TIMER: "fired"}


def unrealised(child: Trace, first: EventId, second: EventId,
               known: Mapping[EventId, Event] | None = None) -> str | None:
    """Why ``child`` did not run ``second`` before ``first`` as planned, in words; ``None`` when
    it did (``second`` ran, and ``first`` did not run before it). Events are named by their
    labels: ``child``'s, or for an event ``child`` never saw (its creator ran too late, or not
    at all), those of ``known`` (the parent's and the recording's events)."""
    order = child.planned_sequence
    label = _labeller({**(known or {}), **child.events})
    skipped = " was not enabled when its turn came and" if second in child.skipped else ""
    if second not in order:
        return f"{label(second)}{skipped} never ran"
    if first in order and order.index(first) < order.index(second):
        return f"{label(second)}{skipped} ran after {label(first)}"
    return None


@dataclass(frozen=True)
class Shift:
    """``early`` ran before ``late`` although the recording ran it ``ms`` virtual milliseconds
    after ``late``: the largest such gap of an explored order (see :func:`timing_shift`)."""

    early: EventId
    late: EventId
    ms: float


def timing_shift(recorded: Trace, order: Sequence[EventId]) -> Shift | None:
    """The largest gap by which ``order`` runs an event before one the recording ran earlier:
    ``max(time(a) - time(b))`` over the events ``a`` before ``b`` in ``order`` that ``recorded``
    ran, with their times there; ``None`` when no pair runs against the recorded times (every
    gap is 0 or less). Of pairs with the same gap, the one whose later event comes first in
    ``order``, and for it the first event with the latest time before it."""
    times = recorded_times(recorded)
    best: Shift | None = None
    latest: tuple[float, EventId] | None = None  # the latest recorded time so far, and its event
    for event in order:
        time = times.get(event)
        if time is None:
            continue
        if latest is not None and latest[0] > time and (best is None or latest[0] - time > best.ms):
            best = Shift(latest[1], event, latest[0] - time)
        if latest is None or time > latest[0]:
            latest = (time, event)
    return best


def recorded_times(recorded: Trace) -> dict[EventId, float]:
    """When each event ran in ``recorded``, in virtual ms; a timer it created but never ran, when
    it was due (its creator's time plus its delay, through chains of such timers)."""
    times: dict[EventId, float] = {}
    for step in recorded.steps:
        times.setdefault(step.event, step.time)
    unrun = [e for e in recorded.events.values() if e.id not in times and timer_delay(e) is not None]
    while True:
        due = {e.id: times[e.creator] + (timer_delay(e) or 0.0) for e in unrun if e.creator in times}
        if not due:
            return times
        times.update(due)
        unrun = [e for e in unrun if e.id not in times]


def shift_in_words(shift: Shift | None, events: Mapping[EventId, Event]) -> str:
    """A shift as people say it: ``click on #add came 0.2 ms earlier, before parse chunk 1/2``,
    ``XHR GET /a.json load arrived 3 s later, after setTimeout 3000ms at app.js:4:1``, or
    ``fits the recorded timing`` without one.

    The event said to move is the one whose time is most open: an early user action (the user
    acts sooner: how early the step must come), else a late response (how long it must be late),
    else whichever of the two is not a timer (a timer moves only with the event that set it),
    else the early one."""
    if shift is None:
        return "fits the recorded timing"
    label = _labeller(events)
    early, late = (events[e].category if e in events else Category.OTHER for e in (shift.early, shift.late))
    amount = duration(shift.ms)
    if _late_moves(early, late):
        return f"{label(shift.late)} {_VERBS.get(late, 'ran')} {amount} later, after {label(shift.early)}"
    return f"{label(shift.early)} {_VERBS.get(early, 'ran')} {amount} earlier, before {label(shift.late)}"


def _late_moves(early: Category, late: Category) -> bool:
    """Whether the late event of a shift is the one said to move (see :func:`shift_in_words`)."""
    if early is Category.USER:
        return False
    return late is not Category.TIMER


def duration(ms: float) -> str:
    """Virtual milliseconds in words: ``0.2 ms``, ``301 ms``, ``1.5 s``, ``120 s``."""
    if ms >= 100_000:
        return f"{ms / 1000:.0f} s"
    if ms >= 1000:
        return f"{ms / 1000:.3g} s"
    if ms >= 1:
        return f"{ms:.3g} ms" if ms < 100 else f"{ms:.0f} ms"
    return f"{ms:.2g} ms"


def _labeller(events: Mapping[EventId, Event]) -> Callable[[EventId], str]:
    """An event in words (:func:`~webr4.engine.describe.event_words`); never its id, which
    means nothing to a person."""
    return lambda event_id: event_words(events[event_id]) if event_id in events else "an event no run described"
