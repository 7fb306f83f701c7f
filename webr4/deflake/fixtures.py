"""The fixture through which a test reaches its page: pytest-playwright's ``page``, or its
``context`` for a test that opens the page itself (``page = context.new_page()``).

deflake follows one page per test. Wherever it runs the test (recording its flow, replaying it
against an explored order, or in plain Chromium with a response slowed), it hands the test the
page it follows through the fixture the test asked for.
"""

from __future__ import annotations

from typing import Any

from webr4.errors import Webr4Error


class SecondPage(Webr4Error):
    """The test opened a second page: deflake follows one."""


def given(arguments: dict[str, Any], page: Any) -> dict[str, Any]:
    """``arguments`` (a test's fixtures' values) with its page fixture standing for ``page``: the
    ``page`` itself, or for a test that takes ``context`` and no ``page``, a context whose
    ``new_page()`` opens ``page``."""
    if "context" in arguments and "page" not in arguments:
        return {**arguments, "context": OnePageContext(page)}
    return {**arguments, "page": page}


class OnePageContext:
    """A browser context in which the test opens one page, the one deflake follows. Everything
    else the test does with the context (a route, cookies, a default timeout) reaches the real
    context of that page."""

    def __init__(self, page: Any) -> None:
        self._page = page
        self._opened = False

    @property  # type: ignore[misc]  # isinstance() consults __class__, as Playwright's own checks do
    def __class__(self) -> type:
        from playwright.sync_api import BrowserContext

        return BrowserContext

    def new_page(self) -> Any:
        """The followed page, the first time; a second page is refused."""
        if self._opened:
            raise SecondPage("the test opens a second page with context.new_page(): deflake follows one page "
                             "per test; split the test, one page each")
        self._opened = True
        return self._page

    @property
    def pages(self) -> list[Any]:
        return [self._page] if self._opened else []

    def close(self, **_options: Any) -> None:
        """The context is closed by whoever opened it, once deflake is done with the page."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self._page.context, name)
