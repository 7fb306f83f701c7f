"""Plain Chromium as the judge: a test run as it is, with one response slowed down.

The adversary is what a slow network does: the response to one URL (the page event the test
raced with: a fetch, a script) reaches the page :data:`DELAY_MS` later than the server sent it.
The route's handler waits on Playwright's own timer, so the test goes on meanwhile, as it would
against a slow server. No webr4 runtime is in the page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from webr4.deflake.fixtures import given
from webr4.deflake.oracle import Outcome, failing_line, message_of

DELAY_MS = 2_500
"""How late the slowed response comes: longer than the fixed waits tests guess, and well within
the 5 s a web-first assertion waits by default."""


def run_slowed(test: Callable[..., Any], arguments: dict[str, Any], source: str, new_page: Callable[[], Any],
               url: str | None, delay_ms: float = DELAY_MS) -> Outcome:
    """Run ``test`` on a fresh plain page (``new_page``) whose response to ``url`` comes
    ``delay_ms`` late (None: nothing slowed); how it ended."""
    from playwright.sync_api import Error as PlaywrightError

    page = new_page()
    try:
        if url is not None:
            def slow(route: Any) -> None:
                try:
                    page.wait_for_timeout(delay_ms)
                    route.continue_()
                except PlaywrightError:
                    pass  # the test ended and its page closed while the response was held
            page.route(lambda requested: requested.split("#")[0] == url, slow)
        try:
            test(**given(arguments, page))
        except (AssertionError, PlaywrightError) as failure:
            return Outcome(False, failing_line(failure, source), message_of(failure))
        return Outcome(True)
    finally:
        try:
            page.unroute_all(behavior="ignoreErrors")
            page.context.close()
        except PlaywrightError:
            pass
