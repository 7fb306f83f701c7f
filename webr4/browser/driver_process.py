"""Starting Playwright's driver out of the terminal's reach.

A terminal's Ctrl-C, GNU ``timeout``, CI runners and container stops signal a whole process
group. Playwright starts its driver (a Node process) in webr4's group, so the signal took the
driver down before webr4 had decided anything, and webr4 saw its browsers vanish: an error line,
or a sweep that went on recovering from "browser failures". Started here, the driver runs in a
session of its own (``start_new_session``: Playwright's API has no option for it, so the
subprocess call is given it while the driver starts); Playwright starts its browsers in process
groups of their own already. A signal to the group then reaches webr4 alone, which stops as an
interrupt and closes its browsers and the driver in order (:mod:`webr4.interrupts`). The driver
still ends with webr4 however webr4 ends: it exits when its pipe to webr4 closes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from playwright.async_api import Playwright, async_playwright
from playwright.sync_api import Playwright as SyncPlaywright
from playwright.sync_api import sync_playwright


@contextmanager
def _subprocesses_in_own_session() -> Iterator[None]:
    """While the block runs, every subprocess asyncio starts leads a session of its own."""
    original = asyncio.create_subprocess_exec

    async def in_own_session(*args: Any, **kwargs: Any) -> asyncio.subprocess.Process:
        kwargs.setdefault("start_new_session", True)
        return await original(*args, **kwargs)

    asyncio.create_subprocess_exec = in_own_session
    try:
        yield
    finally:
        asyncio.create_subprocess_exec = original


async def start_playwright() -> Playwright:
    """Playwright (asynchronous), its driver in a session of its own; ``stop()`` ends it."""
    with _subprocesses_in_own_session():
        return await async_playwright().start()


@asynccontextmanager
async def playwright_session() -> AsyncIterator[Playwright]:
    """:func:`start_playwright` for the block, stopped after it."""
    playwright = await start_playwright()
    try:
        yield playwright
    finally:
        await playwright.stop()


@contextmanager
def sync_playwright_session() -> Iterator[SyncPlaywright]:
    """Playwright's synchronous API for the block, its driver in a session of its own."""
    with _subprocesses_in_own_session():
        playwright = sync_playwright().start()
    try:
        yield playwright
    finally:
        playwright.stop()
