"""pytest-playwright's Chromium where Playwright's own is not installed: the one webr4 drives.

Registered by :mod:`webr4.pytest_plugin` when pytest-playwright is there, after it, so that this
``browser_type_launch_args`` wraps pytest-playwright's (a project's ``conftest.py`` still wraps
both). It changes nothing when the launch names a binary or a channel, when the browser is not
Chromium, or when Playwright's own Chromium is installed; otherwise the tests launch the Chromium
:func:`~webr4.browser.launch.chromium_path` finds (``WEBR4_CHROMIUM``, ``/usr/bin/chromium``), the
same one ``webr4 check`` and ``deflake`` use, with the switches webr4 starts it with.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any], playwright: Any,
                             browser_name: str | None) -> dict[str, Any]:
    from webr4.browser.launch import CHROMIUM_ARGS, BrowserNotFound, chromium_path

    given = dict(browser_type_launch_args)
    if given.get("executable_path") or given.get("channel") or (browser_name or "chromium") != "chromium":
        return given
    own = playwright.chromium.executable_path
    if own and Path(own).is_file():
        return given
    try:
        path = chromium_path(playwright)
    except BrowserNotFound:
        return given  # Playwright's own error then says how to install its browser
    args = list(given.get("args") or [])
    return {**given, "executable_path": path, "args": args + [arg for arg in CHROMIUM_ARGS if arg not in args]}
