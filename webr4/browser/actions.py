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

import json
import re
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Locator, Page, expect

from webr4.trace import Category, Event
from webr4.errors import Webr4Error
from webr4.places import short_name
from webr4.useractions import ACTION_OF_EVENT, ACTIONS, OBSERVATIONS, READS


class ActionError(Webr4Error, ValueError):
    """A list of user steps that is not one webr4 can perform (its message names the bad step)."""


class InvalidSelector(Webr4Error, ValueError):
    """A step's selector is not valid selector syntax (it could never match anything)."""


_USER_CHOOSES = ("el => { const log = window.__webr4 && window.__webr4.log; "
                 "if (log && log.userChooses) log.userChooses(el); }")
_USER_READS = ("([elements, idLocation]) => { const log = window.__webr4 && window.__webr4.log; "
               "if (log && log.userReads) log.userReads(elements, idLocation); }")
_ID_SELECTOR = re.compile(r"#[\w-]+")
PAGE_ASSERTION = "page."
"""The prefix of an ``expect`` step's assertion on the page itself (``expect(page).to_have_url(…)``:
``{"expect": "html", "assertion": "page.to_have_url", "args": [...]}``), and of a ``read`` step's
read of the page itself: ``{"read": "html", "method": "page.url", "args": []}``."""
PAGE_URL = f"{PAGE_ASSERTION}url"
_USER_READS_URL = ("() => { const log = window.__webr4 && window.__webr4.log; "
                   "if (log && log.userReadsLocation) log.userReadsLocation(); }")
RESPONSE = "response"
"""The ``expect`` a test's ``with page.expect_response(glob):`` is, once its block is done:
``{"expect": "html", "assertion": "response", "args": [glob]}``."""
LOAD_STATE = "load_state"
"""The ``expect`` a test's ``page.wait_for_load_state(state)`` (and the wait of its ``goto``) is:
``{"expect": "html", "assertion": "load_state", "args": [state]}``."""
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
        return f"step {self.step + 1} ({ACTION_OF_EVENT[self.kind].name} on {short_name(self.selector)})"

    @property
    def event_id(self) -> str:
        return f"u{self.index}:{self.kind}:{self.selector}"

    @property
    def observation(self) -> Observation | None:
        """What a test's ``read`` or ``expect`` step calls; None for a user's action."""
        return Observation.of_text(self.argument or "{}") if self.kind in OBSERVATIONS else None

    @property
    def loading_state(self) -> str | None:
        """The load state a test's ``wait_for_load_state`` (or ``goto``) step waits for; None for any other step."""
        observation = self.observation
        if observation is None or observation.call != LOAD_STATE:
            return None
        return str(observation.args[0]) if observation.args else "load"

    @property
    def awaited_response(self) -> str | None:
        """The URL glob a test's ``expect_response`` step waits for; None for any other step."""
        observation = self.observation
        if observation is None or observation.call != RESPONSE or not observation.args:
            return None
        return str(observation.args[0])

    def event(self, observed: Any = None) -> Event:
        """The trace's event of this user event; a ``read`` step's event keeps what it read in
        ``observed`` (JSON: what Playwright's method answered)."""
        observation = self.observation
        shown = observation.call_text if observation is not None else self.argument
        text = f"{self.kind} on {self.selector}" + (f" ({shown})" if observation is not None else
                                                    f" ({shown!r})" if shown is not None else "")
        params: dict[str, Any] = {"selector": self.selector, "index": self.index}
        if self.argument is not None:
            params["argument"] = self.argument
        if self.kind == "read":
            params["observed"] = observed
        return Event(self.event_id, Category.USER, self.kind, text, None, params)

    async def perform(self, page: Page, timeout_ms: float) -> Any:
        """Perform the user event; a ``read`` returns what it read, anything else None."""
        observation = self.observation
        if observation is not None:
            return await observation.perform(page, self.selector, timeout_ms)
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


@dataclass(frozen=True)
class Observation:
    """A test's look at the page: ``call`` is a method of :data:`~webr4.useractions.READS` (a
    ``read``) or an assertion of Playwright's ``LocatorAssertions`` (an ``expect``:
    ``to_have_text``, ``not_to_be_visible``, …), called with ``args`` and ``options`` as JSON
    values; a regular expression is ``{"regex": source, "flags": n}``."""

    kind: str
    call: str
    args: tuple[Any, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of_step(cls, kind: str, step: dict[str, Any]) -> Observation:
        call = step.get("method" if kind == "read" else "assertion")
        args, options = step.get("args", []), step.get("options", {})
        if not isinstance(args, list) or not isinstance(options, dict):
            raise ActionError(f"{kind}: args must be a list and options an object, got {_json(step)}")
        return cls(kind, str(call), tuple(args), tuple(sorted(options.items())))

    @classmethod
    def of_text(cls, text: str) -> Observation:
        raw = json.loads(text)
        return cls(raw["kind"], raw["call"], tuple(raw["args"]), tuple((k, v) for k, v in raw["options"]))

    def to_text(self) -> str:
        return json.dumps({"kind": self.kind, "call": self.call, "args": list(self.args),
                           "options": [list(pair) for pair in self.options]}, sort_keys=True)

    @property
    def waits_for_element(self) -> bool:
        """Whether Playwright waits for the selector to match before answering."""
        return self.kind == "read" and READS.get(self.call, not self.call.startswith(PAGE_ASSERTION))

    @property
    def call_text(self) -> str:
        """The call as Python writes it: ``inner_text()``, ``to_have_text('1')``."""
        parts = [repr(_python_value(a)) for a in self.args] + [f"{k}={_python_value(v)!r}" for k, v in self.options]
        return f"{self.call}({', '.join(parts)})"

    async def perform(self, page: Page, selector: str, timeout_ms: float) -> Any:
        """Read (or assert) on the page, then tell the page's log what the test looked at; an
        assertion that does not hold raises :class:`AssertionError`."""
        if self.call in (LOAD_STATE, RESPONSE):  # the controller enables the step once it has happened
            return None
        if self.call == PAGE_URL and self.kind == "read":  # the page's URL, a location of its own
            await page.evaluate(_USER_READS_URL)
            return page.url
        if self.call.startswith(PAGE_ASSERTION):  # the page's URL or title: no element was looked at
            await self.holds(page, selector, timeout_ms=1)
            return None
        locator = page.locator(selector)
        if self.kind == "read":
            answer = await getattr(locator, self.call)(*self.python_args, **self.python_options,
                                                       **({"timeout": timeout_ms} if self.waits_for_element else {}))
        else:
            answer = None
            await self.holds(page, selector, timeout_ms=1)
        id_location = f"dom:{selector}" if _ID_SELECTOR.fullmatch(selector) else None
        # found in Playwright's isolated world and handed to the page's (Playwright's script is
        # already installed there: see Controller._install_playwright_in_page)
        found = await locator.element_handles()
        try:
            await page.evaluate(_USER_READS, [found, id_location])
        finally:
            for handle in found:
                await handle.dispose()
        return answer

    async def holds(self, page: Page, selector: str, timeout_ms: float) -> None:
        """An ``expect`` step's assertion, checked once with Playwright's own ``expect``:
        :class:`AssertionError` when it does not hold."""
        on_page = self.call.startswith(PAGE_ASSERTION)
        assertion = getattr(expect(page) if on_page else expect(page.locator(selector)),
                            self.call.removeprefix(PAGE_ASSERTION))
        await assertion(*self.python_args, **self.python_options, timeout=timeout_ms)

    @property
    def python_args(self) -> list[Any]:
        return [_python_value(a) for a in self.args]

    @property
    def python_options(self) -> dict[str, Any]:
        return {k: _python_value(v) for k, v in self.options if k != "timeout"}


def _python_value(value: Any) -> Any:
    """A JSON argument as Playwright takes it: ``{"regex": …, "flags": n}`` is a compiled pattern."""
    if isinstance(value, dict) and set(value) == {"regex", "flags"}:
        return re.compile(value["regex"], value["flags"])
    if isinstance(value, list):
        return [_python_value(v) for v in value]
    return value


def url_glob_matches(glob: str, url: str) -> bool:
    """Whether ``url`` matches a Playwright URL glob: ``**`` any characters, ``*`` any but ``/``,
    ``?`` one; the query is part of the URL, as Playwright matches it."""
    pattern = ""
    at = 0
    while at < len(glob):
        if glob.startswith("**", at):
            pattern, at = pattern + ".*", at + 2
        elif glob[at] == "*":
            pattern, at = pattern + "[^/]*", at + 1
        elif glob[at] == "?":
            pattern, at = pattern + ".", at + 1
        else:
            pattern, at = pattern + re.escape(glob[at]), at + 1
    return re.fullmatch(pattern, url) is not None


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
            raise ActionError(f"action {position} is not an object: {_json(step)}")
        if set(step) == {"wait"}:
            if not isinstance(step["wait"], (int, float)) or step["wait"] < 0:
                raise ActionError(f"action {position}: wait takes a non-negative number of milliseconds")
            delay += float(step["wait"])
            continue
        kinds = [k for k in step if k in ACTIONS]
        if len(kinds) != 1 or not isinstance(step[kinds[0]], str) or not step[kinds[0]]:
            raise ActionError(
                f"action {position} must have exactly one of {', '.join(ACTIONS)} (or wait) with a selector: "
                f"{_json(step)}"
            )
        kind = kinds[0]
        argument = _observation_argument(position, kind, step) if kind in OBSERVATIONS else \
            _action_argument(position, kind, step)
        gap = max(delay, MIN_STEP_GAP_MS) if actions else delay
        ordinal = actions[-1].step + 1 if actions else 0
        for number, event in enumerate(ACTIONS[kind].events):
            # The first event waits as the step says; the others follow as fast as a person can.
            wait = gap if number == 0 else MIN_STEP_GAP_MS
            actions.append(UserAction(len(actions), event.name, step[kind], argument, wait, ordinal))
        delay = 0.0
    return actions


def _action_argument(position: int, kind: str, step: dict[str, Any]) -> str | None:
    extra = ACTIONS[kind].arguments
    if set(step) - {kind, *extra} or any(not isinstance(step.get(name), str) for name in extra):
        need = f" and {extra[0]!r}" if extra else ""
        raise ActionError(f"action {position}: {kind} takes a selector{need}, got {_json(step)}")
    return step[extra[0]] if extra else None


def _observation_argument(position: int, kind: str, step: dict[str, Any]) -> str:
    """A ``read`` or ``expect`` step's call as the :class:`Observation` text a user event carries."""
    name = "method" if kind == "read" else "assertion"
    if set(step) - {kind, name, "args", "options"} or not isinstance(step.get(name), str):
        raise ActionError(f"action {position}: {kind} takes a selector, {name!r}, and optionally 'args' and "
                          f"'options', got {_json(step)}")
    call = step[name]
    if kind == "read" and call not in READS and call != PAGE_URL:
        raise ActionError(f"action {position}: read cannot call {short_name(repr(call))}; it calls one of "
                          f"{', '.join(READS)}, or {PAGE_URL}")
    if kind == "expect" and call not in (LOAD_STATE, RESPONSE) and not re.fullmatch(r"(page\.)?(not_)?to_[a-z_]+",
                                                                                     call):
        raise ActionError(f"action {position}: {short_name(repr(call))} is not a Playwright locator assertion "
                          "(to_have_text, …)")
    try:
        return Observation.of_step(kind, step).to_text()
    except ActionError as error:
        raise ActionError(f"action {position}: {error}") from None


def _json(value: Any) -> str:
    """A step as the user wrote it (JSON), for an error line: as long as a message holds."""
    return short_name(json.dumps(value, ensure_ascii=False, default=str))
