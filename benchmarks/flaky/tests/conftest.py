"""Fixtures of the flaky-test corpus: the corpus site as ``base_url``, the machine's Chromium, and the adversary.

The adversary is off unless asked for: ``--slow GLOB=MS`` (repeatable) holds back every response
whose URL matches the Playwright glob ``GLOB`` (for example ``**/cart/api/add.json``) by ``MS``
milliseconds, in every test: the request is held that long before it goes on to the server, so its
response comes that much later; the page goes on meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, Route

from benchmarks.flaky.server import serve_corpus

CHROMIUM = "/usr/bin/chromium"


def pytest_addoption(parser: pytest.Parser) -> None:
    """Adds ``--slow GLOB=MS``."""
    parser.getgroup("flaky", "flaky-test corpus").addoption(
        "--slow", action="append", default=[], metavar="GLOB=MS",
        help="delay the response of every request whose URL matches GLOB by MS milliseconds (repeatable)")


def slow_rules(values: list[str]) -> list[tuple[str, int]]:
    """Parses the ``--slow`` values into (glob, milliseconds) pairs."""
    rules: list[tuple[str, int]] = []
    for value in values:
        glob, sep, ms = value.rpartition("=")
        if not sep or not glob or not ms.isdigit():
            raise pytest.UsageError(f"--slow expects GLOB=MS, got {value!r}")
        rules.append((glob, int(ms)))
    return rules


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    """The corpus site, served on loopback for the whole session."""
    with serve_corpus() as url:
        yield url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch arguments, on this machine's Chromium without its sandbox."""
    args = [*browser_type_launch_args.get("args", []), "--no-sandbox"]
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": args}


@pytest.fixture(autouse=True)
def adversary(request: pytest.FixtureRequest) -> Iterator[None]:
    """Delays the responses ``--slow`` names, in tests that use a page; does nothing without ``--slow``.

    The routes are on the page's context, so that popups are slowed too; at the end of the test the
    fixture waits for the handlers still holding a response, so that none is left pending when the
    context closes."""
    rules = slow_rules(request.config.getoption("--slow"))
    if not rules or "page" not in request.fixturenames:
        yield
        return
    page: Page = request.getfixturevalue("page")
    for glob, ms in rules:
        page.context.route(glob, _late(page, ms))
    yield
    page.context.unroute_all(behavior="wait")  # every held response is let through before the page closes


def _late(page: Page, ms: int) -> Callable[[Route], None]:
    """A route handler that lets the request through ``ms`` milliseconds late."""
    def handler(route: Route) -> None:
        try:
            page.wait_for_timeout(ms)
            route.continue_()
        except PlaywrightError:  # the test ended, and its page closed, first
            pass
    return handler
