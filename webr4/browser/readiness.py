"""Whether a user step's target can be acted on now, and if not, why.

A step acts on the first element its selector matches (``locator.first``), once that element
passes the checks Playwright makes before the step's kind of action (the ``actionability`` of
:data:`webr4.useractions.USER_EVENTS`). The checks that need no waiting — attached (it matches
at all), visible, enabled, editable — are read here through Playwright's own ``is_*`` queries,
which run in Playwright's isolated world: the page's scripts cannot see or change them. The
others, ``stable`` and ``receives events``, need animation frames and hit testing: Playwright's
own action waits for those when the step is performed. Its wait for ``stable`` runs on the real
clock, though, while the ends of CSS transitions and animations are events on the virtual one: a
target that such a transition or animation still moves, its end event not yet run, is ``MOVING``
(asked of the page runtime), so the step waits for that event as Playwright waits for the end.
A target that another element covers (a splash screen, a banner, a dialog's backdrop) would wait
for the page's events that take the cover away, which only the virtual clock runs: a step whose
kind checks ``receives events`` asks, once every other check passes, Playwright's own trial of
its action (``trial=True``: the checks alone, in the isolated world), and its target is
``COVERED`` while that trial finds the pointer would land elsewhere.
"""

from __future__ import annotations

import asyncio
import contextlib
from enum import Enum

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError
from playwright.async_api import FloatRect, Page

from webr4.browser.actions import InvalidSelector, UserAction
from webr4.useractions import ACTION_OF_EVENT, USER_EVENTS


class TargetState(Enum):
    """The state of a step's target, by what stops it: ``READY`` when nothing does."""

    READY = "ready"
    MISSING = "no element matched its selector"
    HIDDEN = "its element was hidden"
    DISABLED = "its element was disabled"
    READ_ONLY = "its element was read-only"
    MOVING = "its element kept moving"
    COVERED = "another element stayed over it"
    UNMET = "its assertion never held"
    LOADING = "the page never finished loading"
    NO_RESPONSE = "no response it waited for came"


_QUERY_TIMEOUT_MS = 1_000  # the element was just found; this only bounds a page that went away
_MUTE_LOG = """() => {
  const log = window.__webr4 && window.__webr4.log;
  if (!log) return "absent";
  const was = log.enabled === undefined ? "unset" : log.enabled;
  log.enabled = false;
  return was;
}"""
_UNMUTE_LOG = """(was) => {
  const log = window.__webr4 && window.__webr4.log;
  if (!log || was === "absent") return;
  if (was === "unset") delete log.enabled; else log.enabled = was;
}"""
_TOPMOST_BOX = """([x, y]) => {
  const hit = document.elementFromPoint(x, y);
  if (!hit) return null;
  const box = hit.getBoundingClientRect();
  return [box.left, box.top, box.right, box.bottom];
}"""
_HIT_TIMEOUT_MS = 300  # Playwright retries its hit test after 0, 20, 100 and 100 ms, then every 500 ms
_MOVES_ANYTHING = "() => { const api = window.__webr4; return !!(api && api.movesAnything()); }"
_MOVES = "element => { const api = window.__webr4; return !!(api && api.movesElement(element)); }"


async def target_state(page: Page, action: UserAction, expected: TargetState = TargetState.READY) -> TargetState:
    """The state of ``action``'s target now; :class:`InvalidSelector` when its selector cannot be
    parsed (waiting for it would only end in "never matched").

    ``expected`` is a guess of the answer (the state last found), which only chooses the order
    of the queries so that the likely answer takes the fewest round trips to the page: a target
    last missing is counted first, and a target that is editable, as Playwright defines it, is
    also enabled, so that query alone stands for both. A target last ready is asked both of its
    questions at once (:func:`_ready_at_once`), since a step's target is looked at before every
    event that runs while the step waits; any other answer is found as before."""
    event = USER_EVENTS[action.kind]
    observation = action.observation
    if observation is not None and observation.kind == "expect":
        return await _assertion_state(page, action)
    if not event.needs_target or observation is not None and not observation.waits_for_element:
        return TargetState.READY
    state = await _state_at_rest(page, action, event.actionability, expected)
    if state is TargetState.READY and "stable" in event.actionability and await _moving(page, action.selector):
        return TargetState.MOVING
    if state is TargetState.READY and "receives events" in event.actionability and await _covered(page, action):
        return TargetState.COVERED
    return state


async def _state_at_rest(page: Page, action: UserAction, checks: tuple[str, ...],
                         expected: TargetState) -> TargetState:
    """The state of ``action``'s target by every check but ``stable`` (see :func:`target_state`)."""
    target = page.locator(action.selector)
    try:
        if expected in (TargetState.READY, TargetState.MOVING) and await _ready_at_once(page, action.selector, checks):
            return TargetState.READY
        count = await target.count() if expected is TargetState.MISSING or "visible" not in checks else None
        if count == 0:
            return TargetState.MISSING
        if "visible" in checks and not await target.first.is_visible():
            present = count if count is not None else await target.count()
            return TargetState.HIDDEN if present else TargetState.MISSING
        if "editable" in checks and await _editable(page, action.selector):
            return TargetState.READY
        if ("enabled" in checks or "editable" in checks) and not await target.first.is_enabled(
                timeout=_QUERY_TIMEOUT_MS):
            return TargetState.DISABLED
        if "editable" in checks:
            return TargetState.READ_ONLY
    except PlaywrightError as error:
        _refuse_invalid_selector(error, action)
        return TargetState.MISSING
    return TargetState.READY


def _refuse_invalid_selector(error: PlaywrightError, action: UserAction) -> None:
    """Raise :class:`InvalidSelector` when Playwright's ``error`` says the step's selector cannot be parsed."""
    message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    if "SyntaxError" in message or "while parsing" in message:
        raise InvalidSelector(f"step {action.index + 1} ({action.kind}): {action.selector!r} is not a valid "
                              f"selector ({message.split(': ', 1)[-1]})") from None


async def _assertion_state(page: Page, action: UserAction) -> TargetState:
    """An ``expect`` step waits, as Playwright's web-first assertion retries, until its condition
    holds: checked once now, in Playwright's isolated world."""
    assert action.observation is not None
    try:
        await action.observation.holds(page, action.selector, timeout_ms=1)
    except AssertionError:
        return TargetState.UNMET
    except PlaywrightError as error:
        _refuse_invalid_selector(error, action)
        return TargetState.UNMET
    return TargetState.READY


async def _moving(page: Page, selector: str) -> bool:
    """Whether the target is moved by a transition or animation whose end event has not run."""
    try:
        # Only then find the element in the page's world: Playwright's script that finds it there
        # adds listeners of its own, which the page's log would take for the running event's.
        if not await page.evaluate(_MOVES_ANYTHING):
            return False
        return bool(await page.locator(selector).first.evaluate(_MOVES, timeout=_QUERY_TIMEOUT_MS))
    except PlaywrightError:
        return False  # gone since it was found: the step's own wait tells


async def _covered(page: Page, action: UserAction) -> bool:
    """Whether Playwright's trial of the step's action finds another element where the pointer
    would land (its retries of that check are bounded by :data:`_HIT_TIMEOUT_MS`).

    The trial takes two rendering updates, so it is only asked when a cheaper look leaves room
    for doubt: the topmost element at the middle of the target's box (the page's own
    ``elementFromPoint``) lies within that box, as the target itself or one of its descendants
    does, and an element over it does not. Both find the target in the page's own world, where
    Playwright's selector engine goes through the DOM functions the page's log wraps: the log is
    muted meanwhile, else those reads would be the next event's."""
    target = page.locator(action.selector).first
    muted = await page.evaluate(_MUTE_LOG)
    try:
        box = await target.bounding_box(timeout=_QUERY_TIMEOUT_MS)
        if box is not None:
            middle = [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]
            hit = await page.evaluate(_TOPMOST_BOX, middle)
            if hit is not None and _within(hit, box):
                return False
        await getattr(target, ACTION_OF_EVENT[action.kind].method)(trial=True, timeout=_HIT_TIMEOUT_MS)
    except PlaywrightTimeoutError:
        return True
    except PlaywrightError:
        return False  # gone or changed since it was found: the step's own wait tells
    finally:
        with contextlib.suppress(PlaywrightError):
            await page.evaluate(_UNMUTE_LOG, muted)
    return False


def _within(inner: list[float], box: FloatRect, slack: float = 0.5) -> bool:
    """Whether the rectangle ``inner`` (left, top, right, bottom) lies within Playwright's ``box``."""
    left, top, right, bottom = inner
    return (left >= box["x"] - slack and top >= box["y"] - slack
            and right <= box["x"] + box["width"] + slack and bottom <= box["y"] + box["height"] + slack)


async def _ready_at_once(page: Page, selector: str, checks: tuple[str, ...]) -> bool:
    """Whether the target is visible and, as ``checks`` ask, editable or enabled, asked in two
    concurrent queries (one round trip's wait instead of two). False means only "not known to
    be ready": the caller then finds the state query by query. The second query waits for a
    missing element, so it is dropped (and aborted) as soon as the first finds none visible."""
    if "visible" not in checks:
        return False
    if "editable" in checks:
        second = asyncio.ensure_future(_editable(page, selector))
    elif "enabled" in checks:
        second = asyncio.ensure_future(page.locator(selector).first.is_enabled(timeout=_QUERY_TIMEOUT_MS))
    else:
        return False
    try:
        visible = await page.locator(selector).first.is_visible()
    except BaseException:
        _drop(second)
        raise
    if not visible:
        _drop(second)
        return False
    return await second


def _drop(query: asyncio.Future[bool]) -> None:
    """Abort a query no one waits for any more; its outcome, whatever it is, is not reported."""
    query.cancel()
    query.add_done_callback(lambda done: done.cancelled() or done.exception())


async def _editable(page: Page, selector: str) -> bool:
    """Playwright's ``editable``; an element that cannot be edited at all (a button, a plain
    ``div``), which Playwright's query refuses, is not."""
    try:
        return await page.locator(selector).first.is_editable(timeout=_QUERY_TIMEOUT_MS)
    except PlaywrightError as error:
        if "Element is not" in str(error):
            return False
        raise
