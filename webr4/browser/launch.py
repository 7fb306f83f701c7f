"""Finding and launching Chromium.

The browser is, in order: ``WEBR4_CHROMIUM`` (a path to a Chromium or Chrome binary), Debian's
``/usr/bin/chromium``, then the Chromium that ``python -m playwright install chromium`` put in
Playwright's cache.

Chromium runs with its sandbox wherever the system lets it (:func:`sandbox_off_reason`): not as
root (Chromium refuses), not where unprivileged user namespaces are disabled, and not when
``WEBR4_NO_SANDBOX`` is set (``webr4 --no-sandbox``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from playwright.async_api import Browser, Playwright
from playwright.async_api import Error as PlaywrightError
from playwright.sync_api import Playwright as SyncPlaywright

from webr4.errors import Webr4Error

PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin",
    "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch",
    "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion",
)
"""The features the installed Playwright launches Chromium without (its ``--disable-features``);
``tests/browser/test_launch.py`` checks that the browser webr4 launches keeps every one off."""

CHROMIUM_ARGS = (
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-features=" + ",".join((
        # Chromium reads only the last --disable-features switch, and Playwright passes one of its
        # own before webr4's: its features go here too, or a page would run with them on, unlike
        # in a plain Playwright session (HTTP navigations upgraded to HTTPS, paint holding,
        # partitioned third-party storage, CORS redirects aborted while requests are
        # intercepted, requests to search and sign-in services at start-up...).
        *PLAYWRIGHT_DISABLED_FEATURES,
        # The harness serves each document itself (route.fulfill), so Chromium cannot tell it came
        # from loopback and its Local Network Access checks refuse the page's WebSocket connections
        # to loopback, which the same page loaded natively may open.
        "LocalNetworkAccessChecks",
        # Each context's window would start two renderer processes besides its page's, which
        # nothing here uses and which double the CPU that making a context costs: the address
        # bar's suggestion popup (a WebUI page, made ahead)...
        "WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup",
        # ...and a spare renderer for the next navigation, which belongs to that context alone
        # and goes unused (a new page's first navigation stays in the page's own renderer).
        "SpareRendererForSitePerProcess",
    )),
)
_SYSTEM_CHROMIUM = Path("/usr/bin/chromium")
_USERNS_SWITCHES = (  # kernel settings that keep Chromium's namespace sandbox from starting: (file, value)
    ("/proc/sys/user/max_user_namespaces", "0"),
    ("/proc/sys/kernel/unprivileged_userns_clone", "0"),
    ("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "1"),
)


def sandbox_off_reason() -> str | None:
    """Why Chromium runs without its sandbox in this process, or ``None`` when it runs with it."""
    if os.environ.get("WEBR4_NO_SANDBOX"):
        return "asked (--no-sandbox or WEBR4_NO_SANDBOX)"
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return "running as root"
    if sys.platform.startswith("linux"):
        for path, blocking in _USERNS_SWITCHES:
            try:
                if Path(path).read_text().strip() == blocking:
                    return f"user namespaces are disabled ({path} is {blocking})"
            except OSError:
                continue
    return None


def sandbox_state() -> str:
    """``on``, or ``off (reason)``: what a run's metadata records."""
    reason = sandbox_off_reason()
    return "on" if reason is None else f"off ({reason})"


class BrowserNotFound(Webr4Error):
    """No usable Chromium (one-line message saying how to get one)."""


def chromium_path(playwright: Playwright | SyncPlaywright) -> str:
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
    hint = ("if its sandbox cannot start here, run webr4 --no-sandbox" if "sandbox" in text.lower() else
            "check that it is a Chromium binary that runs here, or point --browser at one")
    return BrowserNotFound(f"cannot start {path} as Chromium ({reason.removeprefix('BrowserType.launch: ')}); {hint}")


async def launch(playwright: Playwright) -> Browser:
    """A new Chromium; :class:`BrowserNotFound` when there is none or it does not start."""
    path = chromium_path(playwright)
    try:
        return await playwright.chromium.launch(executable_path=path, args=list(CHROMIUM_ARGS),
                                                chromium_sandbox=sandbox_off_reason() is None)
    except PlaywrightError as error:
        raise not_startable(path, error) from None
