"""Confirming verdicts in plain Chromium while the sweep goes on, on a core the sweep leaves spare.

The rule (:func:`overlaps`): a sweep of ``workers`` workers in this machine's processes overlaps
its confirmation when the process may use at least ``workers + 1`` cores, and then runs one
witness at a time. Each worker keeps about a core busy (its page, and the Python that drives it),
so the witness takes the one left; with no core left it would take time from the sweep, and
nothing is confirmed until the sweep ends (:func:`~webr4.sweep.confirm.confirm_run`, as before).
A cluster's workers run elsewhere, on cores this rule cannot count: its sweep never overlaps.

A reversal's witness starts as soon as the sweep judged it (:meth:`EarlyWitness.offer`), or
waits in line behind the one running. The sweep takes the confirmations that are done into its
summary before each time it writes it (:meth:`EarlyWitness.settle`), with the time each took in
``confirm_seconds``; the witnesses still waiting or running when the sweep ends are the
confirming phase (:meth:`EarlyWitness.finish`). A witness whose browser went away meanwhile
judges nothing: its reversal is left for :func:`~webr4.sweep.confirm.confirm_run`, which confirms
every wanted reversal that has no confirmation yet, in a browser of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import deque
from dataclasses import dataclass
from typing import Protocol

from playwright.async_api import Browser, Playwright
from playwright.async_api import Error as PlaywrightError

from webr4.browser.driver_process import start_playwright
from webr4.browser.driver import Driver
from webr4.browser.launch import launch

from webr4.record.session import Session
from webr4.rundir.run import RunDir
from webr4.rundir.summary import ReversalReport, Summary
from webr4.state.noise import NoiseMask
from webr4.sweep.confirm import confirm_reversal, keep_confirmation, wanted
from webr4.sweep.progress import CONFIRMING, Progress
from webr4.trace import Trace
from webr4.witness.confirm import Confirmation
from webr4.witness.pagefacts import PageFacts


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def overlaps(workers: int, cores: int | None = None) -> bool:
    """Whether a sweep of ``workers`` workers leaves a core (of ``cores``, by default this
    process's) for confirming while it runs."""
    return (usable_cores() if cores is None else cores) >= workers + 1


class BrowserSource(Protocol):
    """Where a witness gets its browser: a connected one, or None when it went away."""

    async def browser(self) -> Browser | None: ...


@dataclass(frozen=True)
class _Job:
    reversal: ReversalReport
    parent: Trace
    child: Trace


@dataclass(frozen=True)
class _Done:
    reversal: int
    confirmation: Confirmation
    seconds: float


class EarlyWitness:
    """Confirms the reversals ``which`` asks for (see :data:`~webr4.sweep.confirm.CONFIRM_CHOICES`)
    of the sweep of ``session`` into ``run``, one at a time in ``source``'s browser, while the
    sweep goes on; the comparison masks the run's noise and ``mask`` (the user's)."""

    def __init__(self, source: BrowserSource, session: Session, run: RunDir, which: str, mask: NoiseMask,
                 progress: Progress) -> None:
        self._source, self._session, self._run, self._which = source, session, run, which
        self._mask, self._progress = mask, progress
        self._page = PageFacts.of_session(session.url, session.actions, session.files.network,
                                          session.run_limits.chunking)
        self._waiting: deque[_Job] = deque()
        self._done: list[_Done] = []
        self._task: asyncio.Task[None] | None = None

    def offer(self, reversal: ReversalReport, parent: Trace, child: Trace) -> None:
        """A reversal the sweep has just judged, with its parent's and its own trace: its witness
        starts now if it is wanted and none is running, else after those before it. Raises what
        stopped the witness before, if anything did (a full disk, say): the sweep stops on it."""
        self._raise_failure()
        if not wanted(reversal, self._which) or reversal.confirmation is not None:
            return
        self._waiting.append(_Job(reversal, parent, child))
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._work())

    def settle(self, summary: Summary) -> None:
        """Put the confirmations done since the last call into ``summary`` (the caller writes it)."""
        by_id = {reversal.id: number for number, reversal in enumerate(summary.reversals)}
        for done in self._done:
            keep_confirmation(self._run, summary, by_id[done.reversal], done.confirmation)
            summary.confirm_seconds = round(summary.confirm_seconds + done.seconds, 2)
            self._progress.confirmed(done.reversal, done.confirmation.to_json())
        self._done.clear()

    async def finish(self, summary: Summary) -> None:
        """Once the sweep has ended: wait for the witnesses still to run (the confirming phase,
        when there are any), put them into ``summary`` and write it; then raise what stopped the
        witness early, if anything did (a full disk, say)."""
        pending = len(self._waiting) + (self._task is not None and not self._task.done())
        if pending:
            self._progress.phase(CONFIRMING, pending)
        if self._task is not None:
            await asyncio.wait([self._task])
        self.settle(summary)
        self._run.write_summary(summary)
        self._raise_failure()

    async def cancel(self) -> None:
        """Stop the witness under way, if any, and drop those waiting (an interrupted sweep, or one
        that failed: what stopped the sweep is its error, not what may have stopped the witness)."""
        self._waiting.clear()
        if self._task is None:
            return
        if not self._task.done():
            self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task

    def _raise_failure(self) -> None:
        """Raise the error that ended the witness's task, if one did, so the sweep stops on it
        instead of starting another witness and losing it."""
        if self._task is not None and self._task.done() and not self._task.cancelled():
            failure = self._task.exception()
            if failure is not None:
                self._task = None
                raise failure

    async def _work(self) -> None:
        mask = self._run.read_noise() | self._mask  # the sweep learnt the noise before its first verdict
        while self._waiting:
            job = self._waiting.popleft()
            browser = await self._source.browser()
            if browser is None:
                continue
            started = time.monotonic()
            try:
                confirmation = await confirm_reversal(browser, self._page, self._session, self._run, job.reversal,
                                                      job.parent, job.child, mask)
            except PlaywrightError:  # the browser went away under it: left for the confirmation after
                continue
            if browser.is_connected():  # else the browser's end, not the page, may have decided it
                self._done.append(_Done(job.reversal.id, confirmation, time.monotonic() - started))


class DriverBrowser:
    """The browser of the sweep's own driver, while it is connected (a sweep in this process)."""

    def __init__(self, driver: Driver) -> None:
        self._driver = driver

    async def browser(self) -> Browser | None:
        return self._driver.browser if self._driver.connected else None


class LaunchedBrowser:
    """A Chromium of the witness's own, launched when it is first asked for (a sweep whose
    workers are other processes); :meth:`close` ends it."""

    def __init__(self) -> None:
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    async def browser(self) -> Browser | None:
        if self._browser is None:
            self._playwright = await start_playwright()
            self._browser = await launch(self._playwright)
        return self._browser if self._browser.is_connected() else None

    async def close(self) -> None:
        if self._browser is not None:
            await self._browser.close()
        if self._playwright is not None:
            await self._playwright.stop()
