"""Make sure a Chromium is available: ``python -m webr4.browser.install``.

Uses ``WEBR4_CHROMIUM`` or ``/usr/bin/chromium`` or Playwright's cached Chromium when present;
otherwise installs one — Debian's ``chromium`` package with apt-get when running as root, else
``python -m playwright install chromium``. Prints the path on success; one line and exit status
1 on failure. Idempotent: a second run only checks.
"""

from __future__ import annotations

import os
import subprocess
import sys

from playwright.sync_api import sync_playwright


def _found() -> str | None:
    from webr4.browser.launch import BrowserNotFound, chromium_path

    with sync_playwright() as playwright:
        try:
            return chromium_path(playwright)
        except BrowserNotFound:
            return None


def _install() -> None:
    if hasattr(os, "geteuid") and os.geteuid() == 0 and not os.environ.get("WEBR4_CHROMIUM"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True, env=env,
                       stdout=subprocess.DEVNULL)
    else:
        subprocess.run([sys.executable, "-m", "playwright", "install", "chromium"], check=True)


def main() -> int:
    path = _found()
    if path is None:
        try:
            _install()
        except (OSError, subprocess.CalledProcessError) as error:
            print(f"webr4: could not install Chromium ({error}); set WEBR4_CHROMIUM to a Chromium binary",
                  file=sys.stderr)
            return 1
        path = _found()
    if path is None:
        print("webr4: Chromium is still missing after installing it; set WEBR4_CHROMIUM to a Chromium binary",
              file=sys.stderr)
        return 1
    print(f"chromium: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
