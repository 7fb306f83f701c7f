"""User actions of a session: what a person does to the page, as events the harness dispatches.

A session's actions come from JSON (``--actions FILE.json``): a list of steps, each one of
the kinds of :data:`webr4.useractions.ACTIONS` (``{"click": sel}``, ``{"fill": sel, "value": s}``,
``{"press": sel, "key": k}``, ``{"select": sel, "value": v}``, ``{"hover": sel}``) or
``{"wait": ms}`` (virtual milliseconds before the next action). Selectors are Playwright
selectors (CSS, ``text=…``, …).

A ``press`` is two user events, as a key is in a browser: ``keydown`` (focus, then the key goes
down: keydown, keypress, beforeinput, input) and ``keyup``, :data:`MIN_STEP_GAP_MS` later, so a
timer set in keydown can run before the key comes up. A combination such as ``Shift+A`` goes
down modifier first and comes up in reverse order.

The virtual clock moves between actions as a person's real clock would: by the waits, and by at
least :data:`MIN_STEP_GAP_MS` from one action to the next, since no one (and no Playwright
script) acts twice within the same millisecond. Two steps therefore never see the same
``Date.now()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.async_api import Locator, Page

from webr4.trace import Category, Event
from webr4.errors import Webr4Error
from webr4.useractions import ACTION_OF_EVENT, ACTIONS


class ActionError(Webr4Error, ValueError):
    """A list of user steps that is not one webr4 can perform (its message names the bad step)."""


class InvalidSelector(Webr4Error, ValueError):
    """A step's selector is not valid selector syntax (it could never match anything)."""


_USER_CHOOSES = ("el => { const log = window.__webr4 && window.__webr4.log; "
                 "if (log && log.userChooses) log.userChooses(el); }")
_USER_CHOOSES_NONE = ("() => { const log = window.__webr4 && window.__webr4.log; "
                      "if (log && log.userChooses) log.userChooses(null); }")
MIN_STEP_GAP_MS = 1.0
MAX_STEPS = 1_000
"""The most steps a session may have: every explored sequence replays all of them, at tens of
milliseconds each, so a longer flow is refused up front rather than cut by the run's time limit."""
"""The least virtual time between two user actions."""


@dataclass(frozen=True)
class UserAction:
    """One user event; ``delay`` is the virtual time the user waits after the previous one, and
    ``step`` the position (from 0) of the session step it comes from, waits not counted."""

    index: int
    kind: str
    selector: str
    argument: str | None = None
    delay: float = 0.0
    step: int = 0

    @property
    def starts_step(self) -> bool:
        """Whether it is the first event of its step (a key comes up without waiting for the page)."""
        return ACTION_OF_EVENT[self.kind].events[0].name == self.kind

    @property
    def step_text(self) -> str:
        """The session step it comes from, in words: ``step 2 (press on #name)``."""
        return f"step {self.step + 1} ({ACTION_OF_EVENT[self.kind].name} on {self.selector})"

    @property
    def event_id(self) -> str:
        return f"u{self.index}:{self.kind}:{self.selector}"

    def event(self) -> Event:
        text = f"{self.kind} on {self.selector}" + (f" ({self.argument!r})" if self.argument is not None else "")
        params: dict[str, Any] = {"selector": self.selector, "index": self.index}
        if self.argument is not None:
            params["argument"] = self.argument
        return Event(self.event_id, Category.USER, self.kind, text, None, params)

    async def perform(self, page: Page, timeout_ms: float) -> None:
        target = page.locator(self.selector).first
        if self.kind == "keydown":
            await target.focus(timeout=timeout_ms)
            for key in key_parts(self.argument or ""):
                await page.keyboard.down(key)
        elif self.kind == "keyup":
            for key in reversed(key_parts(self.argument or "")):
                await page.keyboard.up(key)
        elif self.kind == "select":
            # Playwright's choice fires untrusted input/change events: the DOM log is told that
            # this select's next ones are the user's (see instrument_js/dom_log/handlers.js).
            await target.evaluate(_USER_CHOOSES, timeout=timeout_ms)
            try:
                await self._perform_step(target, timeout_ms)
            finally:
                await page.evaluate(_USER_CHOOSES_NONE)
        else:
            await self._perform_step(target, timeout_ms)

    async def _perform_step(self, target: Locator, timeout_ms: float) -> None:
        """Perform a step of one user event the way the table says Playwright performs it."""
        kind = ACTION_OF_EVENT[self.kind]
        await kind.perform(target, dict(zip(kind.arguments, [self.argument or ""])), timeout_ms)


def key_parts(key: str) -> list[str]:
    """The keys of a Playwright key combination (``Control+Shift+A`` → ``Control``, ``Shift``,
    ``A``), modifiers first; ``+`` itself may be the last key (``Control++``)."""
    if key.endswith("++") or key == "+":
        return [*key[:-2].split("+"), "+"] if len(key) > 1 else ["+"]
    return key.split("+")


def parse_actions(raw: Any) -> list[UserAction]:
    """Validate a JSON list of steps; :class:`ActionError` names the first bad step."""
    if not isinstance(raw, list):
        raise ActionError("actions must be a JSON list of steps such as {\"click\": \"#add\"}")
    if len(raw) > MAX_STEPS:
        raise ActionError(f"{len(raw)} steps are more than a session may have ({MAX_STEPS}): every explored "
                         "sequence replays them all; keep the part of the flow around the race")
    actions: list[UserAction] = []
    delay = 0.0
    for position, step in enumerate(raw, 1):
        if not isinstance(step, dict):
            raise ActionError(f"action {position} is not an object: {step!r}")
        if set(step) == {"wait"}:
            if not isinstance(step["wait"], (int, float)) or step["wait"] < 0:
                raise ActionError(f"action {position}: wait takes a non-negative number of milliseconds")
            delay += float(step["wait"])
            continue
        kinds = [k for k in step if k in ACTIONS]
        if len(kinds) != 1 or not isinstance(step[kinds[0]], str) or not step[kinds[0]]:
            raise ActionError(
                f"action {position} must have exactly one of {', '.join(ACTIONS)} (or wait) with a selector: {step!r}"
            )
        kind = kinds[0]
        extra = ACTIONS[kind].arguments
        allowed = {kind, *extra}
        if set(step) - allowed or any(not isinstance(step.get(name), str) for name in extra):
            need = f" and {extra[0]!r}" if extra else ""
            raise ActionError(f"action {position}: {kind} takes a selector{need}, got {step!r}")
        argument = step[extra[0]] if extra else None
        gap = max(delay, MIN_STEP_GAP_MS) if actions else delay
        ordinal = actions[-1].step + 1 if actions else 0
        for number, event in enumerate(ACTIONS[kind].events):
            # The first event waits as the step says; the others follow as fast as a person can.
            wait = gap if number == 0 else MIN_STEP_GAP_MS
            actions.append(UserAction(len(actions), event.name, step[kind], argument, wait, ordinal))
        delay = 0.0
    return actions
