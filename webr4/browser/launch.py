"""Finding and launching Chromium.

The browser is, in order: ``WEBR4_CHROMIUM`` (a path to a Chromium or Chrome binary), Debian's
``/usr/bin/chromium``, then the Chromium that ``python -m playwright install chromium`` put in
Playwright's cache.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.async_api import Browser, Playwright
from playwright.async_api import Error as PlaywrightError

CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)
_SYSTEM_CHROMIUM = Path("/usr/bin/chromium")


class BrowserNotFound(Exception):
    """No usable Chromium (one-line message saying how to get one)."""


def chromium_path(playwright: Playwright) -> str:
    """The Chromium to launch; raises :class:`BrowserNotFound` when there is none."""
    override = os.environ.get("WEBR4_CHROMIUM")
    if override:
        if not Path(override).is_file():
            raise BrowserNotFound(f"WEBR4_CHROMIUM={override} is not a file: point it at a Chromium binary")
        return override
    if _SYSTEM_CHROMIUM.is_file():
        return str(_SYSTEM_CHROMIUM)
    bundled = playwright.chromium.executable_path
    if bundled and Path(bundled).is_file():
        return bundled
    raise BrowserNotFound(
        "no Chromium found: install Debian's 'chromium' package, run 'python -m playwright install chromium', "
        "or set WEBR4_CHROMIUM to a Chromium binary"
    )


def not_startable(path: str, error: Exception) -> BrowserNotFound:
    """The one-line error for a binary that Playwright could not start as Chromium."""
    text = str(error).strip()
    reason = text.splitlines()[0] if text else type(error).__name__
    return BrowserNotFound(f"cannot start {path} as Chromium ({reason.removeprefix('BrowserType.launch: ')}); "
                           "check that it is a Chromium binary that runs here, or point --browser at one")


async def launch(playwright: Playwright) -> Browser:
    """A new Chromium; :class:`BrowserNotFound` when there is none or it does not start."""
    path = chromium_path(playwright)
    try:
        return await playwright.chromium.launch(executable_path=path, args=list(CHROMIUM_ARGS))
    except PlaywrightError as error:
        raise not_startable(path, error) from None
