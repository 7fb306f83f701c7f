"""A Chromium page with the access log and the DOM log installed, serving one HTML string."""

from __future__ import annotations

from typing import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from webr4.resources import javascript

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
URL = "http://app.test/"

# Runs page code given as a function body, lets microtasks (MutationObserver deliveries) run, and
# returns the entries logged meanwhile.
LOGGED = """async (body) => {
  __webr4.log.flush();
  new Function(body)();
  await new Promise((resolve) => setTimeout(resolve));
  return __webr4.log.flush();
}"""


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        yield b
        b.close()


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """open_page(html, logged=True): a new page showing `html`, instrumented unless logged=False."""
    contexts = []

    def open_(html: str, logged: bool = True) -> Page:
        context = browser.new_context()
        contexts.append(context)
        if logged:
            context.add_init_script(script="window.__webr4 = {};")
            context.add_init_script(script=javascript("access_log.js"))
            context.add_init_script(script=javascript("dom_log.js"))
        page = context.new_page()
        page.route(URL + "**", lambda route: route.fulfill(status=200, content_type="text/html", body=html))
        page.goto(URL)
        return page

    yield open_
    for context in contexts:
        context.close()


def logged(page: Page, body: str) -> list[list]:
    """The entries logged while `body` (JS statements) runs in the page."""
    return page.evaluate(LOGGED, body)
