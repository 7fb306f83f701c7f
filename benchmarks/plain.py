"""The baseline every cost ratio divides by: a plain Playwright session of the same page and steps.

A plain session runs in a Chromium launched as any Playwright script here launches it
(:func:`plain_browser`): Playwright's own switches and the machine's usual ones, none of the
switches webr4 adds to make its own contexts cheaper. The benchmarks also time plain sessions in
webr4's browser, so that what those switches save is not counted as webr4's gain.

A *cold* plain script (:func:`cold_script`, :func:`cold_script_seconds`) is what a user's own
script costs from nothing: a new Python process that imports Playwright, launches Chromium, runs
the steps once and exits; a whole ``webr4 record`` or ``check`` is measured against it.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from playwright.async_api import Browser, Page, async_playwright
from playwright.async_api import Error as PlaywrightError

from webr4.browser.actions import UserAction
from webr4.browser.driver import VIEWPORT
from webr4.browser.launch import chromium_path, sandbox_off_reason
from webr4.sweep.explore import SEED_REPLAYS
from webr4.useractions import ACTIONS

STEP_TIMEOUT_MS = 30_000
"""How long a plain step waits for its target: Playwright's default action timeout, as webr4's own
step wait. A shorter one failed Leaflet's first click on a loaded machine, where Playwright's first
action on a page (its injected script set up, two animation frames of the ``stable`` check) took
seconds."""
PLAIN_ARGS = ("--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--no-first-run")
"""The switches every Chromium on these machines is launched with (and ``--no-sandbox`` where the
sandbox cannot start, as for webr4's)."""
COLD_TIMEOUT_S = 120.0
T = TypeVar("T")
PLAIN_TRIES = 3
"""How often a plain session is tried, each time in a fresh context, before its failing step fails
the row: on a loaded machine a page's own animation can move a target between Playwright's stable
check and its click (Leaflet's marker as its zoom ends), so that plain Chromium itself misses a
step now and then, where webr4, on its virtual clock, does not."""


@asynccontextmanager
async def plain_browser() -> AsyncIterator[Browser]:
    """The same Chromium binary as webr4's, launched as a plain Playwright script launches it."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium_path(playwright), args=list(PLAIN_ARGS),
                                                   chromium_sandbox=sandbox_off_reason() is None)
        try:
            yield browser
        finally:
            await browser.close()


class PlainStepError(Exception):
    """A step of a plain session failed: the step, Playwright's error and what its call log last
    found, on one line."""


async def perform_session(page: Page, url: str, steps: Sequence[UserAction], until: str | None = None) -> None:
    """Load ``url`` in ``page`` (and, with ``until``, wait for that JavaScript expression to become
    true) and perform ``steps`` with Playwright, as a user's script does; :class:`PlainStepError`
    names a step that fails."""
    await page.goto(url, wait_until="load")
    if until is not None:
        await page.wait_for_function(until)
    for step in steps:
        try:
            await step.perform(page, STEP_TIMEOUT_MS)
        except PlaywrightError as error:
            raise PlainStepError(f"{step.step_text}: {_in_one_line(error)}") from error


def _in_one_line(error: PlaywrightError) -> str:
    """Playwright's message and, after it, the last thing its call log says it found (``element
    is not stable``, ``<div …> intercepts pointer events``), its own retries and pauses left out."""
    lines = [line.strip().lstrip("- ") for line in error.message.splitlines() if line.strip()]
    if not lines:
        return type(error).__name__
    found = [line for line in lines[1:] if not line.startswith(("Call log", "retrying", "waiting"))
             and " × " not in line]
    return f"{lines[0]} (last: {found[-1]})" if found else lines[0]


async def in_fresh_context(browser: Browser, work: Callable[[Page], Awaitable[T]]) -> tuple[T, float]:
    """What ``work`` gives on the page of a fresh context of ``browser``, and the seconds from the
    context's start to its close; tried again in a new context while a step fails
    (:class:`PlainStepError`), :data:`PLAIN_TRIES` times in all."""
    for tries_left in range(PLAIN_TRIES - 1, -1, -1):
        started = time.perf_counter()
        context = await browser.new_context(viewport=VIEWPORT)
        try:
            result = await work(await context.new_page())
        except PlainStepError:
            if not tries_left:
                raise
            continue
        finally:
            await context.close()
        return result, time.perf_counter() - started
    raise AssertionError("unreachable: the last try returns or raises")


async def plain_session(browser: Browser, url: str, steps: Sequence[UserAction] = (),
                        until: str | None = None) -> float:
    """The baseline of every cost ratio: seconds for a fresh context of ``browser`` to load
    ``url`` (and wait for ``until``), perform ``steps`` with Playwright and close (see
    :func:`in_fresh_context`). Without steps it is a plain load of the page."""
    _, seconds = await in_fresh_context(browser, lambda page: perform_session(page, url, steps, until))
    return seconds


class PerExecution:
    """The cost of a sweep's executions against the plain session, for a benchmark's row (a
    dataclass with ``plain_s``, ``sweep_s`` and ``sequences``, the seed included, as
    ``summary.json``'s ``sequences_explored``)."""

    plain_s: float
    sweep_s: float | None
    sequences: int | None

    @property
    def executions(self) -> int | None:
        """The seed replays, then one per explored child (``sequences`` counts the seed)."""
        return None if self.sequences is None else self.sequences - 1 + SEED_REPLAYS

    @property
    def per_execution_s(self) -> float | None:
        return None if self.sweep_s is None or not self.executions else self.sweep_s / self.executions

    @property
    def ratio(self) -> float | None:
        return None if self.per_execution_s is None else self.per_execution_s / self.plain_s


def cold_script(url: str, steps: Sequence[Mapping[str, Any]], chromium: str) -> str:
    """The Python source of the user's own script for ``steps`` (session steps as ``--actions``
    takes them): it imports Playwright alone, launches ``chromium`` with :func:`plain_browser`'s
    switches, loads ``url``, performs the steps with Playwright's locator methods and exits."""
    launch = (f"executable_path={chromium!r}, args={list(PLAIN_ARGS)!r}, "
              f"chromium_sandbox={sandbox_off_reason() is None}")
    lines = ["from playwright.sync_api import sync_playwright",
             "with sync_playwright() as playwright:",
             f"    browser = playwright.chromium.launch({launch})",
             f"    page = browser.new_page(viewport={dict(VIEWPORT)!r})",
             f"    page.goto({url!r}, wait_until='load')"]
    for step in steps:
        if "wait" in step:
            lines.append(f"    page.wait_for_timeout({float(step['wait'])!r})")
            continue
        kind = next(ACTIONS[name] for name in step if name in ACTIONS)
        arguments = "".join(f"{str(step[name])!r}, " for name in kind.arguments)
        lines.append(f"    page.locator({str(step[kind.name])!r}).first.{kind.method}({arguments}"
                     f"timeout={STEP_TIMEOUT_MS})")
    lines.append("    browser.close()")
    return "\n".join(lines) + "\n"


def cold_script_seconds(source: str) -> float:
    """Wall seconds of a new Python process running ``source``, from its start to its exit
    (``RuntimeError`` with the script's last line of error output when it fails)."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, timeout=COLD_TIMEOUT_S,
                          check=False)
    seconds = time.perf_counter() - started
    if done.returncode:
        raise RuntimeError(f"the plain script failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}")
    return seconds
