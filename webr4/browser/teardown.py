"""What is left of a browser that went away: work in flight that fails with it.

When a browser or its Playwright driver goes away (an interrupt, a signal to the process group,
a kill), every call still in flight fails with Playwright's "closed" errors. The calls a run
awaits raise where they are handled; those nobody awaits any more (a request the run had moved
on from, the tasks an interrupt cancelled around) would each make asyncio print "exception was
never retrieved" with a traceback. :func:`quiet_lost_browser` installs a loop exception handler
that lets those go, and hands every other report to asyncio's default handler.
"""

from __future__ import annotations

import asyncio
from typing import Any

from playwright.async_api import Error as PlaywrightError

_DRIVER_GONE = "Connection closed while reading from the driver"


def _lost_browser_work(context: dict[str, Any]) -> bool:
    """Whether ``context`` reports an unretrieved failure of a call to a browser that went away."""
    error = context.get("exception")
    if error is None or "never retrieved" not in str(context.get("message", "")):
        return False
    return isinstance(error, PlaywrightError) or str(error) == _DRIVER_GONE


def quiet_lost_browser(loop: asyncio.AbstractEventLoop) -> None:
    """Make ``loop`` drop the reports of :func:`_lost_browser_work`, and only those."""
    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if not _lost_browser_work(context):
            loop.default_exception_handler(context)

    loop.set_exception_handler(handle)
