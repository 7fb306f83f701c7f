"""Capturing the abstract JavaScript heap of a page (``instrument_js/capture_heap.js``)."""

from __future__ import annotations

import asyncio
from typing import Any

from playwright.async_api import Page

from webr4.resources import javascript


async def capture_heap(page: Page, timeout_s: float = 10.0) -> dict[str, Any]:
    """The abstract heap of ``page``'s main frame: global name → abstract value.

    Call it at the end of an execution, after the trace and the DOM have been collected: the
    capture briefly inserts an ``about:blank`` frame to learn the browser's own globals.
    Raises ``asyncio.TimeoutError`` when the page does not answer within ``timeout_s`` and
    Playwright's ``Error`` when the page is gone.
    """
    return await asyncio.wait_for(page.evaluate(javascript("capture_heap.js")), timeout_s)
