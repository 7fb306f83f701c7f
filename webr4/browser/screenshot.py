"""Full-page screenshots with one capture call.

Playwright's ``page.screenshot(full_page=True)`` makes several round trips to the page (hide the
carets in every frame, wait for fonts, measure the page, read the layout metrics, capture, put
the carets back). For a page with no child frame the harness does the same work in fewer:
``instrument_js/prepare_screenshot.js``, evaluated with the rest of the end-state capture, hides
the carets, waits for fonts and measures the page; :func:`capture` then asks Chromium for the
same clip Playwright asks for, encoded as Playwright has it encoded (Chromium's faster encoding
makes a TodoMVC page's picture six times larger, and every explored sequence keeps one).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any

from playwright.async_api import CDPSession, ViewportSize

from webr4.resources import javascript

RESTORE = "window.__webr4.afterScreenshot && window.__webr4.afterScreenshot()"
"""A statement that puts back the carets the preparation hid."""


def prepare_script() -> str:
    """The function expression that readies the page and measures it (see the module docstring)."""
    return javascript("prepare_screenshot.js")


@dataclass(frozen=True)
class PageSize:
    """The size of the whole page in CSS pixels, as the preparation measured it."""

    width: int
    height: int

    @classmethod
    def from_page(cls, raw: dict[str, Any]) -> PageSize:
        return cls(int(raw["width"]), int(raw["height"]))


async def capture(cdp: CDPSession, size: PageSize, viewport: ViewportSize) -> bytes:
    """The PNG of the whole page of ``size`` in a page prepared by :func:`prepare_script`: the
    clip, scale and beyond-viewport mode Playwright's full-page screenshot uses."""
    fits = size.width <= viewport["width"] and size.height <= viewport["height"]
    reply = await cdp.send("Page.captureScreenshot", {
        "format": "png",
        "clip": {"x": 0, "y": 0, "width": size.width, "height": size.height, "scale": 1},
        "captureBeyondViewport": not fits,
    })
    return base64.b64decode(reply["data"])
