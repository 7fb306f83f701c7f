"""The classification rules, after R4 §2.4 and §5, each with the reason code it reports.

Rules are tried in groups, in this order; the first group with a match decides:

1. **error** — ``child-failed``: the child execution did not finish (``truncated`` is
   ``event-timeout``, ``page-lost`` or ``run-timeout``), or its end state could not be read
   (``capture-failed``), or the caller says it failed; ``parent-failed``: the same for the
   parent. Nothing else can be trusted.
1a. **unrealised** — ``order-not-realised``: the child did not run the reversed pair in the planned
   order (approximate replay skipped the event planned first, or it ran after the other; see
   :func:`webr4.engine.realism.unrealised`). Whatever its state shows came from some other
   order, so it is no verdict on this pair; the race that did change the state has a reversal
   of its own.
1b. **harmful** — ``endless-loop``: the child ended in an endless loop (``truncated`` is
   ``endless-loop``) and the parent did not: this order hangs the page, whatever its state shows.
2. **harmless** — ``polling-timer``: ad-hoc synchronisation; only pending events differ in the
   state (or nothing does), and every event that ran in one execution but not the other, or is
   pending in one but not the other, is a polling timer (see :func:`polling_timer`). Tried before
   ``commute`` because it is the more specific explanation of a pair that runs different events.
3. **harmless** — ``commute``: no category of the state differs; the events commute.
4. **harmless**, race-pattern filters from EventRacer that R4 applies whatever the states:
   ``unload-race``: one of the racing events is ``unload``, ``beforeunload`` or ``pagehide``;
   ``late-handler-attach``: a user event raced with the parse, script or load event that attaches
   its handler, and the only effect is the user event doing nothing (see :func:`late_handler_attach`);
   a user event that navigates instead (a link followed because the handler that cancels the
   navigation did not exist yet) is not "nothing", and is judged by ``navigation-diff``.
5. **harmful**, every matching one reported: ``initialization-race`` (see
   :func:`initialization_race`), ``exception-diff`` (the uncaught exceptions differ),
   ``dom-and-render-diff`` (the DOM differs and so does the screenshot — or the screenshots
   could not be compared, in which case a DOM difference is taken to be visible),
   ``network-diff`` (a request was skipped or is new), ``navigation-diff`` (one execution
   takes the user off the page and the other does not, or elsewhere), ``storage-diff`` (the
   page leaves other data in ``localStorage`` or ``sessionStorage``), ``focus-diff`` (the keyboard
   focus ends on another element: the user's next keystrokes land elsewhere).
6. **heap-only** — ``heap-only``: the heap differs and nothing else does (pending events aside).
7. Otherwise **harmless** — ``other-diff``: the states differ, but only in ways no enabled rule
   calls harmful (console messages, pending events, a DOM change that renders identically).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

from webr4.classify.verdict import Kind
from webr4.engine.realism import unrealised
from webr4.errors import Webr4Error
from webr4.state.diff import StateDiff
from webr4.state.dom_lines import FORM_STATE
from webr4.trace import AccessKind, Category, Event, Trace
from webr4.useractions import USER_EVENTS
from webr4.vocabulary import FAILED_RUNS, UNLOAD_TYPES, Truncation

POLLING_TIMER_TYPES = frozenset({"setInterval"})
FOCUS_LOCATION = "dom:document.activeElement"  # the focused element (instrument_js/dom_log/state.js)
_UNINITIALISED = re.compile(
    r"ReferenceError|is not defined|is not a function|is not a constructor"
    r"|Cannot read propert(?:y|ies) of (?:undefined|null)|undefined is not an object")
_NAME = re.compile(r"([A-Za-z_$][\w$]*) is not (?:defined|a function|a constructor)|\(reading '([^']+)'\)")


@dataclass(frozen=True)
class Case:
    """Everything a rule may look at: the two traces, their state difference, the two reversed
    events (in parent order), and whether the caller saw the child fail."""

    parent: Trace
    child: Trace
    diff: StateDiff
    events: tuple[Event, Event]
    child_failed: bool = False


@dataclass(frozen=True)
class Rule:
    """A named rule: ``test`` says whether it matches; ``kind`` is the verdict it supports."""

    name: str
    kind: Kind
    test: Callable[[Case], bool]


def child_failed(case: Case) -> bool:
    """The child execution did not complete."""
    return case.child_failed or case.child.truncated in FAILED_RUNS


def parent_failed(case: Case) -> bool:
    """The parent execution did not complete."""
    return case.parent.truncated in FAILED_RUNS


def order_not_realised(case: Case) -> bool:
    """The child did not run the second racing event before the first, as planned."""
    first, second = case.events
    return unrealised(case.child, first.id, second.id) is not None


def commute(case: Case) -> bool:
    """No difference at all between the two final states."""
    return not case.diff.categories


def unload_race(case: Case) -> bool:
    """One racing event is an unload-type event: its effects are not observable by the user."""
    return any(e.type in UNLOAD_TYPES for e in case.events)


def _is_script_run(event: Event) -> bool:
    return event.category is Category.PARSE or (event.category is Category.NETWORK and event.type == "script")


def step_writes(trace: Trace, event_id: str) -> list[str] | None:
    """What the step of ``event_id`` in ``trace`` wrote (``None`` when it did not run): the
    locations it lists, then ``.<name>`` for each name in its ``unlisted_writes`` (writes to its
    own objects that no other step touched: only their names matter here)."""
    for step in trace.steps:
        if step.event == event_id:
            listed = [a.location for a in step.accesses if a.kind is AccessKind.WRITE]
            return listed + ["." + name for name in step.unlisted_writes]
    return None


def wrote_name(writes: list[str], name: str) -> bool:
    """Whether one of ``writes`` (see :func:`step_writes`) is a location called ``name``:
    ``global:name``, ``prop:7.name``, ``scope:3:name``."""
    return any(re.search(rf"[:.]{re.escape(name)}$", location) for location in writes)


def _ran_before(trace: Trace, first: str, second: str) -> bool:
    order = trace.sequence
    return first in order and (second not in order or order.index(first) < order.index(second))


def late_handler_attach(case: Case) -> bool:
    """A user event raced with the event that attaches its handler, and did nothing without it.

    Matches when one racing event is a user event that does not change form state natively (the
    action table's ``form_state``: ``fill`` and ``select`` do, so losing them is not "doing
    nothing") and the other runs page code that can attach handlers: a parse chunk, a script,
    ``load`` or ``DOMContentLoaded``. The effect
    must be the user event doing nothing: no exception differs, no form state
    (``(value)``, ``(checked)``, ``(selected)``) appears in the DOM difference, and in the
    execution where the user event ran first it wrote nothing (when accesses were logged) but
    the focus its own click or key moved, which it moves with or without a handler.
    """
    users = [e for e in case.events if e.category is Category.USER]
    if len(users) != 1 or users[0].type not in USER_EVENTS or USER_EVENTS[users[0].type].form_state:
        return False
    user = users[0]
    other = case.events[1] if case.events[0] is user else case.events[0]
    if not (_is_script_run(other) or other.category is Category.LIFECYCLE):
        return False
    if case.diff.exceptions or case.diff.navigation:
        return False
    lines = (line for hunk in case.diff.dom.hunks for line in hunk.before + hunk.after)
    if any(marker in line for line in lines for marker in FORM_STATE):
        return False
    early = case.child if _ran_before(case.child, user.id, other.id) else case.parent
    writes = step_writes(early, user.id)
    return not [location for location in writes or () if location != FOCUS_LOCATION]


def _initialised_name(message: str) -> str | None:
    found = _NAME.search(message)
    return (found.group(1) or found.group(2)) if found else None


def initialization_race(case: Case) -> bool:
    """The child throws a new "not initialised yet" exception because a script had not run.

    Matches when one racing event runs a script (a parse chunk or a script load) and the other
    is a user, timer, network, message or lifecycle event, and the child has a new exception
    whose message reads like a use before initialisation (``ReferenceError``, ``… is not
    defined``, ``… is not a function``, ``Cannot read properties of undefined|null``). When the
    message names the missing binding and the script event's accesses were logged, the script
    must have written a location of that name (``global:addToCart``, ``prop:7.addToCart``).
    """
    scripts = [e for e in case.events if _is_script_run(e)]
    others = [e for e in case.events if not _is_script_run(e)]
    if len(scripts) != 1 or len(others) != 1 or others[0].category is Category.OTHER:
        return False
    new = [message for message, _site in case.diff.exceptions.new if _UNINITIALISED.search(message)]
    if not new:
        return False
    writes = step_writes(case.parent, scripts[0].id) or step_writes(case.child, scripts[0].id)
    if not writes:
        return True
    found = {_initialised_name(message) for message in new}
    if None in found:
        return True
    names = {name for name in found if name is not None}
    return any(wrote_name(writes, name) for name in names)


def exception_diff(case: Case) -> bool:
    """The uncaught exceptions (message and site) differ."""
    return bool(case.diff.exceptions)


def dom_and_render_diff(case: Case) -> bool:
    """The DOM differs and so does the rendering (or the rendering could not be compared)."""
    return bool(case.diff.dom) and (case.diff.screenshot.differs or not case.diff.screenshot.compared)


def network_diff(case: Case) -> bool:
    """A request the parent made is missing from the child, or the child made a new one."""
    return bool(case.diff.network)


def navigation_diff(case: Case) -> bool:
    """One execution navigates away (or opens a window) and the other does not, or they go to
    different places: the user is taken off the page by one order only."""
    return bool(case.diff.navigation)


def storage_diff(case: Case) -> bool:
    """The page leaves other data in localStorage or sessionStorage: the next visit (or, for
    sessionStorage, a reload) starts from it, whatever the page shows now."""
    return bool(case.diff.storage)


def focus_diff(case: Case) -> bool:
    """The keyboard focus ends on another element (or on none): what the user types next lands
    elsewhere, although the page may look the same."""
    return bool(case.diff.focus)


def _is_polling_timer(event: Event, traces: tuple[Trace, Trace]) -> bool:
    """An interval (any firing), a repeated firing, or a retry: a one-shot timer created by an event
    that ran in both executions but scheduled it in only one (it found what it waited for missing)."""
    if event.category is not Category.TIMER:
        return False
    if event.type in POLLING_TIMER_TYPES or (event.params.get("firing") or 0) > 0:
        return True
    return event.creator is not None and all(event.creator in trace.sequence for trace in traces)


def polling_timer(case: Case) -> bool:
    """Ad-hoc synchronisation: the states are equal apart from pending events, and the events
    that differ between the two executions (run in one only, or pending in one only) are all
    polling timers."""
    if case.diff.categories - {"pending"}:
        return False
    parent, child = case.parent, case.child
    differing = (set(parent.sequence) ^ set(child.planned_sequence)) | (parent.enabled_at_end ^ child.enabled_at_end)
    if not differing:
        return False
    traces = (parent, child)
    for event_id in differing:
        event = parent.events.get(event_id) or child.events.get(event_id)
        if event is None or not _is_polling_timer(event, traces):
            return False
    return True


def endless_loop(case: Case) -> bool:
    """The child's run ended in an endless loop, the parent's did not."""
    return case.child.truncated == Truncation.ENDLESS_LOOP and case.parent.truncated != Truncation.ENDLESS_LOOP


def heap_only(case: Case) -> bool:
    """The heap differs, and nothing else does apart from pending events."""
    categories = case.diff.categories
    return "heap" in categories and not categories - {"heap", "pending"}


RULES: dict[str, Rule] = {rule.name: rule for rule in (
    Rule("child-failed", "error", child_failed),
    Rule("parent-failed", "error", parent_failed),
    Rule("order-not-realised", "unrealised", order_not_realised),
    Rule("endless-loop", "harmful", endless_loop),
    Rule("polling-timer", "harmless", polling_timer),
    Rule("commute", "harmless", commute),
    Rule("unload-race", "harmless", unload_race),
    Rule("late-handler-attach", "harmless", late_handler_attach),
    Rule("initialization-race", "harmful", initialization_race),
    Rule("exception-diff", "harmful", exception_diff),
    Rule("dom-and-render-diff", "harmful", dom_and_render_diff),
    Rule("network-diff", "harmful", network_diff),
    Rule("navigation-diff", "harmful", navigation_diff),
    Rule("storage-diff", "harmful", storage_diff),
    Rule("focus-diff", "harmful", focus_diff),
    Rule("heap-only", "heap-only", heap_only),
)}
"""Every rule by reason code, in the order they are tried."""

GROUPS: tuple[tuple[str, ...], ...] = (
    ("child-failed", "parent-failed"),
    ("order-not-realised",),
    ("endless-loop",),
    ("polling-timer",),
    ("commute",),
    ("unload-race", "late-handler-attach"),
    ("initialization-race", "exception-diff", "dom-and-render-diff", "network-diff", "navigation-diff",
     "storage-diff", "focus-diff"),
    ("heap-only",),
)
"""Rules in one group are all evaluated; the first group with a match decides the verdict."""

FALLBACK = "other-diff"


class UnknownRule(Webr4Error, ValueError):
    """A rule name that is none of :data:`RULES`."""


def known_rules(names: Iterable[str]) -> list[str]:
    """``names`` as a list, once each is known to be one of :data:`RULES`; raises
    :class:`UnknownRule` naming every unknown one and listing the known ones."""
    names = list(names)
    unknown = sorted(set(names) - set(RULES))
    if unknown:
        raise UnknownRule(f"unknown rule(s) {', '.join(unknown)}; known: {', '.join(RULES)}")
    return names
