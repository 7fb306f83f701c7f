"""A Chromium page with the access log and the DOM log installed, serving one HTML string."""

from __future__ import annotations

from typing import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from webr4.browser.accesslogs import access_log_source, dom_log_source
from webr4.browser.launch import CHROMIUM_ARGS, chromium_path, sandbox_off_reason

URL = "http://app.test/"

# Runs page code given as a function body, lets microtasks (MutationObserver deliveries) run, and
# returns the entries logged meanwhile.
LOGGED = """async (body) => {
  __webr4.log.flush();
  new Function(body)();
  await new Promise((resolve) => setTimeout(resolve));
  return __webr4.log.flush();
}"""


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(p), args=list(CHROMIUM_ARGS),
                              chromium_sandbox=sandbox_off_reason() is None)
        yield b
        b.close()


@pytest.fixture(scope="package")
def contexts(browser: Browser) -> Iterator[dict[bool, BrowserContext]]:
    """Two contexts shared by the tests, with and without the logs (tests clear what they store)."""
    plain = browser.new_context()
    instrumented = browser.new_context()
    instrumented.add_init_script(script="window.__webr4 = {};")
    instrumented.add_init_script(script=access_log_source())
    instrumented.add_init_script(script=dom_log_source())
    yield {False: plain, True: instrumented}
    plain.close()
    instrumented.close()


@pytest.fixture
def open_page(contexts: dict[bool, BrowserContext]) -> Iterator[Callable[..., Page]]:
    """open_page(html, logged=True): a new page showing `html`, instrumented unless logged=False."""
    pages = []

    def open_(html: str, logged: bool = True) -> Page:
        page = contexts[logged].new_page()
        pages.append(page)
        page.route(URL + "**", lambda route: route.fulfill(status=200, content_type="text/html", body=html))
        page.goto(URL)
        return page

    yield open_
    for page in pages:
        page.evaluate("localStorage.clear(); sessionStorage.clear()")
        page.context.clear_cookies()
        page.close()


def logged(page: Page, body: str) -> list[list]:
    """The entries logged while `body` (JS statements) runs in the page."""
    return page.evaluate(LOGGED, body)
