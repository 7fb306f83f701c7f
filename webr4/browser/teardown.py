"""What is left of a browser that went away: work in flight that fails with it.

When a browser or its Playwright driver goes away (an interrupt, a signal to the process group,
a kill), every call still in flight fails with Playwright's "closed" errors. The calls a run
awaits raise where they are handled; those nobody awaits any more (a request the run had moved
on from, the tasks an interrupt cancels on its way out) would each make asyncio print "exception
was never retrieved" or "unhandled exception during shutdown" with a traceback.
:func:`quiet_lost_browser` installs a loop exception handler that lets the reports of
Playwright's errors (and of :class:`BrowserGone`) go, and hands every other report to asyncio's
default handler.
"""

from __future__ import annotations

import asyncio
from typing import Any

from playwright.async_api import Error as PlaywrightError

from webr4.errors import Webr4Error

_DRIVER_GONE = "Connection closed while reading from the driver"


class BrowserGone(Webr4Error):
    """Work failed because the browser it ran in went away; what a caller makes of that (run
    it again elsewhere, stop) is the caller's. Its reports are let go of as Playwright's are."""


def _lost_browser_work(context: dict[str, Any]) -> bool:
    """Whether ``context`` reports the failure of work in a browser that went away, which nobody
    awaited."""
    error = context.get("exception")
    return (isinstance(error, (PlaywrightError, BrowserGone))
            or (type(error) is Exception and str(error) == _DRIVER_GONE))


def quiet_lost_browser(loop: asyncio.AbstractEventLoop) -> None:
    """Make ``loop`` drop the reports of :func:`_lost_browser_work`, and only those."""
    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if not _lost_browser_work(context):
            loop.default_exception_handler(context)

    loop.set_exception_handler(handle)
