"""The scheduling of a controlled run, with no browser: which enabled event runs next. The plan
chooses when it offers a pending event (:class:`~webr4.browser.replay.PlanFollower`); otherwise
the default policy does, and says how long the next user step waits.

An enabled event is a :class:`Candidate`, ordered by (virtual due time, priority, creation
order). The user's steps come in their recorded order, each due its delay after the previous
one ran. A user step is enabled while its target is actionable; the policy also waits like a
person for the page to settle: it begins a step (a key comes up after it goes down without
waiting) only once the page is quiet — none of its events due within :data:`QUIET_MS` of the
step, but the next frames of animation loops — and lets the page's due events run until then.
A step whose action checks that its target is stable (a click, a hover) then acts only after the
next two rendering updates, as Playwright's check reads the target's box in two animation frames:
what the page has due until then, the frames of its animation loops included, runs first; such a
step is due no sooner than two frames after the step before it.
Both waits are bounded, in virtual time after the step was due: a step whose target is
actionable goes ahead after :data:`QUIET_PATIENCE_MS` on a page that never goes quiet; one whose
target is not is given up (:data:`GIVE_UP`) after the step wait, or at once when nothing is left
to run.
``defaultChoice`` in the page runtime makes the same choice during a stretch (no user step).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence

from webr4.browser.replay import PlanFollower, exact_part
from webr4.timer_order import timer_delay
from webr4.trace import Category, Event, EventId
from webr4.useractions import USER_EVENTS

if TYPE_CHECKING:
    from webr4.browser.actions import UserAction

USER_PRIORITY = 2
"""The priority of a user step: after page work due at the same time."""
QUIET_MS = 50.0
"""A user step waits while any page event is due within this many virtual milliseconds of it (a
module loader's chain of short timers, a response just arrived, the frame that paints what a
component set up), but the next frame of an animation loop."""
QUIET_PATIENCE_MS = 1_000.0
"""How long, in virtual time, a step whose target is actionable waits for a page that keeps
being busy (a fast polling timer) before it goes ahead anyway."""
FRAME_MS = 1000 / 60
"""The interval of rendering updates on the virtual clock (``FRAME`` in ``instrument_js/runtime/timers.js``)."""
STABLE_FRAMES = 2
"""The rendering updates a step that checks ``stable`` waits for once it begins: Playwright reads its
target's box in one animation frame and again in the next, and acts only then."""
_FRAME = "requestAnimationFrame"
_NETWORK_BOUND = frozenset({Category.NETWORK, Category.PARSE})
SETTLE_MS = 2_000.0
"""How long, in virtual time after it was due, a planned user step whose target is not
actionable lets the page's clock run (a timer that shows the target, an entrance animation)
while what the network delivers stays held: a longer wait stands for an order a slow network
makes only beyond a test's patience."""
GIVE_UP = "give up"
"""The default choice when the next user step has waited as long as it may."""
PAST_HORIZON = "past horizon"
"""The default choice when the first enabled event is due after the horizon: the run ends there."""


@dataclass(frozen=True)
class Candidate:
    """An enabled event as the policy orders it."""

    id: EventId
    due: float
    prio: int
    seq: int

    @property
    def order(self) -> tuple[float, int, int]:
        return (self.due, self.prio, self.seq)


class Scheduler:
    """The cursor over the plan (:attr:`follower`) and over the user's steps, and the choice of
    the next event among the enabled ones."""

    def __init__(self, actions: Sequence[UserAction], horizon_ms: float, step_wait_ms: float) -> None:
        self.actions = list(actions)
        self.horizon_ms = horizon_ms
        self.step_wait_ms = step_wait_ms
        self.follower = PlanFollower(())  # the plan's, once the run has its first event (:meth:`follow`)
        self.next_user = 0  # the index of the next user step
        self.last_user_time = 0.0  # the virtual time the last user step ran at
        self._began: tuple[int, float] | None = None  # (index, virtual time) of the step whose action has begun

    def follow(self, plan: Sequence[EventId], head: EventId) -> None:
        """Follow ``plan`` from the run's first event, ``head``, which has run."""
        self.follower = PlanFollower(plan)
        self.follower.start_at(head)

    def choose(self, enabled: Mapping[EventId, Candidate], now: float,
               events: Mapping[EventId, Event]) -> tuple[EventId | None, bool]:
        """The next event and whether the plan chose it: the plan's when it offers one, else
        :meth:`default_choice` (with its ``None``, :data:`PAST_HORIZON` and :data:`GIVE_UP`).
        The plan is not offered the timers :func:`timers_not_due` holds back, and when its next
        event is one of them, the timer due first runs before it."""
        waiting = timers_not_due(enabled, events)
        clock_first = first_timer(enabled, events)
        if clock_first is not None and self._next_waits_for_clock(waiting):
            return clock_first.id, False
        settling = self._settling_before_step(enabled, events)
        if settling is not None:
            return settling, False
        choice = self.follower.choose({event: candidate.order for event, candidate in enabled.items()
                                       if event not in waiting})
        if choice is not None:
            return choice.event, choice.planned is not None
        return self.default_choice(enabled, now, events), False

    def _settling_before_step(self, enabled: Mapping[EventId, Candidate],
                              events: Mapping[EventId, Event]) -> EventId | None:
        """When the plan's next event is the next user step and its target is not actionable
        yet, the page event that a browser's clock runs first, if it is due within
        :data:`SETTLE_MS` of the step: it runs now, outside the plan (whose state stays as it
        was), as the page goes on while Playwright waits for the target (a timer shows it, an
        entrance animation ends), whereas what the network delivers (responses, scripts, parse
        chunks) stays held back as a slow network holds it. Else None: the step is passed over
        and waits, as any planned event not pending at its turn."""
        step = self.next_step
        if step is None or step.event_id in enabled or self.follower.upcoming() != step.event_id:
            return None
        clocked = [c for c in enabled.values() if c.id in events and events[c.id].category not in _NETWORK_BOUND]
        first = min(clocked, key=lambda c: c.order) if clocked else None
        if first is None or first.due > self.user_due(step) + SETTLE_MS:
            return None
        return first.id

    def _next_waits_for_clock(self, waiting: set[EventId]) -> bool:
        """Whether the plan's next event is a timer that waits for one due earlier: that one then
        runs first, outside the plan, whose state stays as it was (the plan does not go on past
        the waiting timer, as a browser's clock would not)."""
        upcoming = self.follower.upcoming()
        return upcoming is not None and any(exact_part(event) == exact_part(upcoming) for event in waiting)

    @property
    def next_step(self) -> UserAction | None:
        """The next user step, ``None`` once every one has run or been given up."""
        return self.actions[self.next_user] if self.next_user < len(self.actions) else None

    def user_due(self, action: UserAction) -> float:
        """When ``action`` is due: its delay after the previous user step ran, and for an action
        that checks ``stable`` and follows a step, the two frames of that check after it (a click
        never follows the step before it by less, in Chromium either)."""
        start = self._earliest_start(action)
        return _acts_at(start) if self._checked_from_start(action) else start

    def _checked_from_start(self, action: UserAction) -> bool:
        """Whether ``action``'s ``stable`` check begins at its earliest start: when the action
        checks it and a step came before (the first step's begins once the page is quiet)."""
        return _checks_stable(action) and self.next_user > 0

    def _earliest_start(self, action: UserAction) -> float:
        """When ``action`` may begin at the earliest: its delay after the previous user step ran."""
        return self.last_user_time + action.delay

    def _began_at(self, action: UserAction) -> float | None:
        """The virtual time ``action``'s own wait began (Playwright's ``stable`` check), if it has."""
        if self._began is None or self._began[0] != action.index:
            return None
        return self._began[1]

    def default_choice(self, enabled: Mapping[EventId, Candidate], now: float,
                       events: Mapping[EventId, Event]) -> EventId | None:
        """The least (due, prio, seq), first in creation order on ties, except that the next user
        step waits for a quiet page; ``None`` when nothing is enabled, :data:`PAST_HORIZON` past
        the horizon, :data:`GIVE_UP` when the next user step's wait is over. ``now`` is the
        run's virtual time, ``events`` what is known of each event."""
        step = self.next_step
        page = [c for c in enabled.values() if step is None or c.id != step.event_id]
        first = min(page, key=lambda c: c.order) if page else None
        if step is not None:
            due = self.user_due(step)
            user = enabled.get(step.event_id)
            if user is None:
                self._began = None  # Playwright's checks start again once the target is actionable
                if first is None or first.due > due + self.step_wait_ms:
                    return GIVE_UP
            elif first is None or (first.order > user.order and not self._waits(step, user, first, page, now, events)):
                first = self._acting(step, user, first, now)
        if first is None:
            return None
        if first.due > self.horizon_ms:
            return PAST_HORIZON
        return first.id

    def _waits(self, step: UserAction, user: Candidate, first: Candidate, page: list[Candidate], now: float,
               events: Mapping[EventId, Event]) -> bool:
        """Whether ``step``, whose target is actionable, still waits for a page that is not quiet
        (``first`` is its earliest event): never once its action has begun, nor past the patience."""
        if self._began_at(step) is not None or not step.starts_step:
            return False
        patience = self.user_due(step) + min(QUIET_PATIENCE_MS, self.step_wait_ms)
        return first.due <= patience and _busy(page, user, now, events)

    def _acting(self, step: UserAction, user: Candidate, first: Candidate | None, now: float) -> Candidate:
        """The event that runs now that ``step`` goes ahead: the step itself, unless its action
        checks ``stable`` and the page's earliest event, ``first``, is due before that check ends.
        Unless it has begun, the check begins at the step's earliest start when the step follows
        another and is due now (so that it ends then), else now that the page went quiet, or at
        that start if later. A step that waited for a quiet page does not move the clock on past
        its due time: it runs at the time of the last event before it, as every replay of the
        order runs it."""
        if not _checks_stable(step):
            return user
        began = self._began_at(step)
        if began is None:
            start = self._earliest_start(step)
            began = start if self._checked_from_start(step) and now <= user.due else max(now, start)
            self._began = (step.index, began)
        return first if first is not None and first.due <= _acts_at(began) else user


def _checks_stable(action: UserAction) -> bool:
    """Whether Playwright waits for ``action``'s target to be stable before acting."""
    return "stable" in USER_EVENTS[action.kind].actionability


def _acts_at(began: float) -> float:
    """When a step whose ``stable`` check began at ``began`` acts: at the :data:`STABLE_FRAMES`-th
    rendering update strictly after it, as ``nextFrameDue`` in the page runtime counts them."""
    return (math.ceil((began + 0.001) / FRAME_MS) + STABLE_FRAMES - 1) * FRAME_MS


def timers_not_due(enabled: Mapping[EventId, Candidate], events: Mapping[EventId, Event]) -> set[EventId]:
    """The enabled ``setTimeout`` and ``setInterval`` firings that another one, due earlier (or as
    early and created first), must precede: a browser's clock fires them by due time whatever a
    plan says, so a plan that runs a timer before one due earlier waits for it. (A reversal that
    needs the later timer first delays what starts the other's chain instead:
    :func:`webr4.timer_order.start_to_delay`.) ``timersNotDue`` in
    ``instrument_js/runtime/autorun.js`` is the same rule in the page."""
    first = first_timer(enabled, events)
    return {c.id for c in enabled.values() if c is not first and timer_delay(events.get(c.id)) is not None}


def first_timer(enabled: Mapping[EventId, Candidate], events: Mapping[EventId, Event]) -> Candidate | None:
    """The enabled ``setTimeout`` or ``setInterval`` firing a browser's clock fires first: the
    least by due time, then creation order."""
    timers = [c for c in enabled.values() if timer_delay(events.get(c.id)) is not None]
    return min(timers, key=lambda c: (c.due, c.seq)) if timers else None


def _busy(page: list[Candidate], user: Candidate, now: float, events: Mapping[EventId, Event]) -> bool:
    """Whether a page event that a person would wait for is due within :data:`QUIET_MS` of the
    user step ``user``."""
    until = max(now, user.due) + QUIET_MS
    return any(c.due <= until and _awaited(events[c.id], events) for c in page if c.id in events)


def _awaited(event: Event, events: Mapping[EventId, Event]) -> bool:
    """Whether a person waits for ``event`` before acting: for every page event but the next frame
    of an animation loop (a frame that a frame requested), which never ends. A frame that other
    code requested runs before the paint that shows what it sets up (Polymer's elements finish
    their set-up in one), so before anyone can act on it."""
    if event.type != _FRAME:
        return True
    creator = events.get(event.creator) if event.creator is not None else None
    return creator is not None and creator.type != _FRAME
