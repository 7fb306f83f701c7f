"""The user actions a session can hold: the one table every part of webr4 reads about them.

A session step is an action kind with a Playwright selector and the kind's arguments
(``{"fill": "#name", "value": "Ada"}``). Each row of :data:`ACTIONS` says

* which arguments the step takes: they are named as the Playwright parameter they become;
* which Playwright ``Locator`` method performs it on a plain page, and is recorded as it when a
  Playwright script calls it (``--script``);
* which *user events* it is performed as under control (a ``press`` is ``keydown`` then
  ``keyup``): a trace names a user event by its type;
* whether automatic exploration (``--auto``) tries it, and on which handlers and elements.

Each row of :data:`USER_EVENTS` says, for one user event type, which DOM events the browser
dispatches for it, what Playwright checks of its target before acting (``actionability``,
Playwright's own words: https://playwright.dev/docs/actionability), and whether it changes form
state by itself, with or without a page handler.

Nothing here drives a browser, so the engine's filters and the classifier read it too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_FOCUS = frozenset({"focus", "focusin", "blur", "focusout"})
_POINTER_MOVES = frozenset(
    f"{device}{what}" for device in ("mouse", "pointer") for what in ("over", "enter", "move", "out", "leave")
)
_KEYS_AND_INPUT = frozenset({"keydown", "keyup", "keypress", "input", "beforeinput", "change"})
_PRESSES = frozenset({"click", "dblclick", "auxclick", "mousedown", "mouseup", "pointerdown", "pointerup",
                      "touchstart", "touchend", "change", "input", "focus", "focusin"})

NEUTRAL_OPTIONS = frozenset({"timeout", "force", "no_wait_after", "delay"})
"""Options of a Playwright action call that change when or how hard it tries, not what it does:
a call with any other option (``button="right"``, ``trial=True``, ``label=…``) is no session step."""


@dataclass(frozen=True)
class UserEventKind:
    """One user event type, as the trace names it."""

    name: str
    dispatches: frozenset[str]
    """DOM event types the browser dispatches natively for it (whoever listens)."""
    actionability: tuple[str, ...]
    """What Playwright waits for in its target before acting: ``attached`` (it matches an
    element), then ``visible``, ``stable``, ``receives events``, ``enabled``, ``editable``.
    Empty: it acts wherever the focus is, without a target."""
    form_state: bool = False
    """Whether it changes form state (a value, a selection) natively, handler or not."""

    @property
    def needs_target(self) -> bool:
        return bool(self.actionability)


@dataclass(frozen=True)
class Exploration:
    """When ``--auto`` tries an action kind: on a visible, enabled element with a handler of one
    of ``handlers`` (an element's handler types count for the first kind that claims them), of
    the sort ``elements`` names: ``any``, ``typable`` (a text field, a text area or an editable
    element) or ``select``."""

    handlers: frozenset[str]
    elements: str = "any"


@dataclass(frozen=True)
class ActionKind:
    """One kind of session step."""

    name: str
    arguments: tuple[str, ...]
    """The step's keys besides the kind; each is the Playwright parameter of the same name."""
    method: str
    """The Playwright ``Locator`` method that performs the step on a plain page."""
    events: tuple[UserEventKind, ...]
    """The user events the step is performed as under control, in order."""
    explored: Exploration | None = None

    def perform(self, locator: Any, arguments: Mapping[str, str], timeout_ms: float) -> Any:
        """Call the Playwright method on ``locator`` (sync or async: the caller awaits an async
        one) with the step's ``arguments``."""
        return getattr(locator, self.method)(*(arguments[name] for name in self.arguments), timeout=timeout_ms)

    def step_of_call(self, selector: str, args: tuple[Any, ...], options: Mapping[str, Any]) -> dict[str, str] | None:
        """The step that a script's call ``locator.<method>(*args, **options)`` stands for, or
        None when a step cannot say it (an argument that is not one string, a non-neutral option)."""
        named = dict(zip(self.arguments, args))
        for name in self.arguments:
            if name in options:
                named[name] = options[name]
        if len(args) > len(self.arguments) or set(options) - set(self.arguments) - NEUTRAL_OPTIONS:
            return None
        step = {self.name: selector}
        for name in self.arguments:
            value = named.get(name)
            if isinstance(value, list) and len(value) == 1:
                value = value[0]
            if not isinstance(value, str):
                return None
            step[name] = value
        return step


def _event(name: str, dispatches: frozenset[str], actionability: tuple[str, ...], form_state: bool = False
           ) -> UserEventKind:
    return UserEventKind(name, dispatches, actionability, form_state)


_CLICK = _event("click", _POINTER_MOVES | _FOCUS
                | {"mousedown", "mouseup", "pointerdown", "pointerup", "click", "input", "change", "submit"},
                ("attached", "visible", "stable", "receives events", "enabled"))
_CHECK = _event("check", _CLICK.dispatches, _CLICK.actionability)
_UNCHECK = _event("uncheck", _CLICK.dispatches, _CLICK.actionability)
_HOVER = _event("hover", _POINTER_MOVES, ("attached", "visible", "stable", "receives events"))
_FILL = _event("fill", _FOCUS | {"beforeinput", "input", "change"},
               ("attached", "visible", "enabled", "editable"), form_state=True)
_CLEAR = _event("clear", _FILL.dispatches | {"keydown", "keyup"}, _FILL.actionability, form_state=True)  # Delete
_KEYDOWN = _event("keydown", _FOCUS | {"keydown", "keypress", "beforeinput", "input", "change", "submit", "click"},
                  ("attached",))
_KEYUP = _event("keyup", frozenset({"keyup", "click"}), ())
_SELECT = _event("select", _FOCUS | {"input", "change"}, ("attached", "visible", "enabled"), form_state=True)

_READ = _event("read", frozenset(), ("attached",))
_EXPECT = _event("expect", frozenset(), ("attached",))

READS: Mapping[str, bool] = {
    "inner_text": True, "text_content": True, "input_value": True, "get_attribute": True, "inner_html": True,
    "is_checked": True, "is_enabled": True, "is_disabled": True, "is_editable": True,
    "is_visible": False, "is_hidden": False, "count": False, "all_inner_texts": False, "all_text_contents": False,
}
"""The Playwright ``Locator`` methods that read the page, which a test's ``read`` step calls, and
whether each waits for its selector to match an element (True) or answers at once (False)."""

READ, EXPECT = "read", "expect"
OBSERVATIONS = frozenset({READ, EXPECT})
"""The step kinds a test observes the page by rather than acts on it: ``read`` calls a method of
:data:`READS` and keeps its answer; ``expect`` is a web-first assertion (``expect(locator).to_…``),
which waits until its condition holds. Neither dispatches anything to the page."""

ACTIONS: Mapping[str, ActionKind] = {kind.name: kind for kind in (
    ActionKind("hover", (), "hover", (_HOVER,), Exploration(_POINTER_MOVES)),
    ActionKind("fill", ("value",), "fill", (_FILL,), Exploration(_KEYS_AND_INPUT, "typable")),
    ActionKind("press", ("key",), "press", (_KEYDOWN, _KEYUP)),
    ActionKind("select", ("value",), "select_option", (_SELECT,),
               Exploration(frozenset({"change", "input"}), "select")),
    ActionKind("click", (), "click", (_CLICK,), Exploration(_PRESSES)),
    ActionKind("check", (), "check", (_CHECK,)),
    ActionKind("uncheck", (), "uncheck", (_UNCHECK,)),
    ActionKind("clear", (), "clear", (_CLEAR,)),
    ActionKind("read", ("method", "args"), "", (_READ,)),
    ActionKind("expect", ("assertion", "args"), "", (_EXPECT,)),
)}
"""Every step kind, in the order automatic exploration tries them (mouse moves, typing, choices,
clicks, as in the R4 paper)."""

USER_EVENTS: Mapping[str, UserEventKind] = {event.name: event for kind in ACTIONS.values() for event in kind.events}
"""Every user event type, by name."""

ACTION_OF_EVENT: Mapping[str, ActionKind] = {event.name: kind for kind in ACTIONS.values() for event in kind.events}
"""The step kind each user event type belongs to."""

BY_METHOD: Mapping[str, ActionKind] = {kind.method: kind for kind in ACTIONS.values() if kind.method}
"""The step kinds by the Playwright method that performs them."""
