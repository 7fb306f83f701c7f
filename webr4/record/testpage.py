"""The page a Playwright test drives while webr4 writes down its flow: a test's ``page``, recorded.

Every call reaches the real page; the recording proxies of :mod:`webr4.record.scripted` write
the user actions (and, with a log that observes, the reads) down as session steps. The proxy
passes for the Playwright class it stands for, so that ``expect(page.locator(...))`` takes it.
The pytest plugin's marked tests and ``deflake`` (:mod:`webr4.deflake`) drive their tests on it.
"""

from __future__ import annotations

import inspect
import time
from typing import Any

from webr4.errors import Webr4Error
from webr4.record.scripted import RecordingLocator, RecordingPage, StepLog


class _Disguise:
    """A recording proxy of :mod:`webr4.record.scripted` that ``isinstance`` takes for the
    Playwright class it stands for, so that ``expect(page.locator(...))`` accepts it; the locators
    it hands out are disguised too."""

    def __init__(self, recording: Any, playwright_class: type) -> None:
        self._recording = recording
        self._class = playwright_class

    @property  # type: ignore[misc]  # isinstance() consults __class__
    def __class__(self) -> type:
        return self._class

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._recording, name)
        if inspect.ismethod(value):
            return lambda *args, **kwargs: _disguised(value(*args, **kwargs))
        return _disguised(value)


def _disguised(value: Any) -> Any:
    from playwright.sync_api import Locator

    return _Disguise(value, Locator) if type(value) is RecordingLocator else value


class NavigatedAfterAction(Webr4Error, RuntimeError):
    """A marked test navigated to another page after its first user action: webr4 explores one
    page load."""


class SeedPage(_Disguise):
    """The page a marked test drives: every call reaches the real page, user actions are written
    down as session steps, and ``seed_url``, the URL the session starts from, is kept."""

    def __init__(self, page: Any, url: str | None, log: StepLog | None = None) -> None:
        self.log = log if log is not None else StepLog()
        super().__init__(RecordingPage(page, self.log), type(page))
        self._page = page
        self.seed_url = url

    @property
    def steps(self) -> list[dict[str, Any]]:
        """The session steps written down so far."""
        return self.log.steps

    @classmethod
    def open(cls, page: Any, url: str | None, log: StepLog | None = None) -> SeedPage:
        """A recording page over ``page``, first taken to ``url`` when given, writing into ``log``
        (a new :class:`~webr4.record.scripted.StepLog` when None)."""
        if url is not None:
            page.goto(url)
        return cls(page, page.url if url is not None else None, log)

    def goto(self, url: str, **options: Any) -> Any:
        """Navigate; the session starts from the last page loaded before the first user action."""
        if self.steps:
            raise NavigatedAfterAction(f"webr4 explores one page load, but the test navigates to {url} after its "
                               "first action; split the test or leave it unmarked")
        called = time.monotonic()
        response = self._page.goto(url, **options)
        self.seed_url = self._page.url
        self.log.loaded(options.get("wait_until") or "load", called)
        return response
