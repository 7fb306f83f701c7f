"""The approach users take today: replay the session with plain Playwright, many times, with
random network delays injected through ``page.route``, and watch for a bad outcome.

One run: a fresh browser context; every request held by ``page.route`` for a delay drawn from
``random.Random(f"{run}:{url}")`` (uniform 0–300 ms, so a run is reproducible per request URL),
``page.goto`` waiting for ``load``, the session's steps with ordinary locator calls (waits as
real milliseconds), then network idle plus :data:`SETTLE_MS`. Nothing of webr4's control is used.

**Harmful outcome.** Two undelayed reference runs are made first. A delayed run has a harmful
outcome when it raises an uncaught exception or unhandled rejection that the references did not
raise, or when an element with an ``id`` ends with a different text, form value, ``class``,
``src``, ``href`` or ``data-*`` attributes from the first reference (elements that already
differ between the two references, like a clock, are ignored).
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

from playwright.async_api import Browser, Route

from webr4.browser.actions import UserAction
from webr4.browser.driver import VIEWPORT

MAX_DELAY_S = 0.3
SETTLE_MS = 1_000
STEP_TIMEOUT_MS = 5_000
_ELEMENTS = """() => Object.fromEntries([...document.querySelectorAll('[id]')].map(el => ['#' + el.id, [
  el.textContent.trim().slice(0, 300), 'value' in el ? String(el.value) : '', el.className,
  el.getAttribute('src') || '', el.getAttribute('href') || '', JSON.stringify({...el.dataset})].join('\\u241f')]))"""


@dataclass(frozen=True)
class Outcome:
    """The end of one plain run: uncaught errors and the state of every element with an id."""

    errors: frozenset[str]
    elements: dict[str, str]
    failure: str | None = None  # a step that could not be performed, or a navigation that failed


@dataclass(frozen=True)
class Reference:
    """What an undelayed run ends in, and the elements that vary between undelayed runs."""

    outcome: Outcome
    unstable: frozenset[str] = field(default_factory=frozenset)

    def harmful(self, run: Outcome) -> bool:
        """A new uncaught error, a failed step, or a stable element ending differently."""
        if run.failure and not self.outcome.failure:
            return True
        if run.errors - self.outcome.errors:
            return True
        keys = (run.elements.keys() | self.outcome.elements.keys()) - self.unstable
        return any(run.elements.get(k) != self.outcome.elements.get(k) for k in keys)


async def plain_run(browser: Browser, url: str, actions: list[UserAction], delay_seed: int | None) -> Outcome:
    """One run of the session with plain Playwright; delays only when ``delay_seed`` is given."""
    context = await browser.new_context(viewport=VIEWPORT)
    try:
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        if delay_seed is not None:
            async def delay(route: Route) -> None:
                await asyncio.sleep(random.Random(f"{delay_seed}:{route.request.url}").uniform(0, MAX_DELAY_S))
                await route.continue_()
            await page.route("**/*", delay)
        failure = None
        try:
            await page.goto(url, wait_until="load")
            for action in actions:
                if action.delay:
                    await page.wait_for_timeout(action.delay)
                await action.perform(page, STEP_TIMEOUT_MS)
            await page.wait_for_load_state("networkidle")
        except Exception as error:  # a step that fails is an outcome, not a crash
            failure = str(error).splitlines()[0]
        await page.wait_for_timeout(SETTLE_MS)
        elements = await page.evaluate(_ELEMENTS)
        return Outcome(frozenset(errors), elements, failure)
    finally:
        await context.close()


async def reference(browser: Browser, url: str, actions: list[UserAction]) -> Reference:
    """Two undelayed runs: the first is the reference, what differs in the second is unstable."""
    first = await plain_run(browser, url, actions, None)
    second = await plain_run(browser, url, actions, None)
    unstable = {k for k in first.elements.keys() | second.elements.keys()
                if first.elements.get(k) != second.elements.get(k)}
    return Reference(first, frozenset(unstable))
