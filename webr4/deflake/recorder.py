"""Running a test once, as it is, on a page that writes down what it does and what it looks at.

The test's ``page`` is replaced by a :class:`~webr4.record.testpage.SeedPage` over a
:class:`~webr4.deflake.testlog.TestLog`: every call reaches the real page, actions and reads are
written down as session steps, and so are web-first assertions: while the test runs, Playwright's
``expect`` hands out assertions on the recording locators that write down each one that passed
(:func:`assertions_written_down`). Nothing of the test's source changes.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from webr4.browser.actions import PAGE_ASSERTION
from webr4.deflake.testlog import TestLog


def json_argument(value: Any) -> Any:
    """An assertion's argument as a step keeps it (a compiled pattern as ``{"regex", "flags"}``);
    raises :class:`TypeError` for one a step cannot hold."""
    if isinstance(value, re.Pattern):
        return {"regex": value.pattern, "flags": value.flags & ~re.UNICODE}
    if isinstance(value, (list, tuple)):
        return [json_argument(v) for v in value]
    json.dumps(value)
    return value


class RecordingAssertions:
    """Playwright's assertions on a recording locator: each assertion that passes is a step."""

    def __init__(self, real: Any, selector: str | None, log: TestLog) -> None:
        self._real, self._selector, self._log = real, selector, log

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._real, name)
        if not re.fullmatch(r"(not_)?to_[a-z_]+", name) or self._selector is None:
            return method

        def assertion(*args: Any, **options: Any) -> Any:
            called = time.monotonic()
            answer = method(*args, **options)
            on_page = self._selector == PAGE_ASSERTION
            try:
                step = {"expect": "html" if on_page else self._selector,
                        "assertion": f"{PAGE_ASSERTION}{name}" if on_page else name, "args": json_argument(list(args)),
                        "options": {k: json_argument(v) for k, v in options.items() if k != "timeout"}}
            except TypeError:
                return answer  # an argument no step can hold: the assertion is not explored
            self._log.expectation(step, called)
            return answer
        return assertion


@contextmanager
def assertions_written_down(unwrap: Callable[[Any], tuple[Any, str | None, TestLog] | None]) -> Iterator[None]:
    """While the block runs, ``expect(x)`` on an ``x`` that ``unwrap`` recognises (it returns the
    real locator or page, its selector — ``page.`` for the page — and the log) hands out
    :class:`RecordingAssertions`."""
    from playwright.sync_api import expect

    kind = type(expect)
    dispatch = kind._dispatch

    def recording(self: Any, actual: Any, message: str | None, is_soft: bool) -> Any:
        known = unwrap(actual)
        if known is None:
            return dispatch(self, actual, message, is_soft)
        real, selector, log = known
        return RecordingAssertions(dispatch(self, real, message, is_soft), selector, log)

    kind._dispatch = recording  # type: ignore[method-assign]
    try:
        yield
    finally:
        kind._dispatch = dispatch  # type: ignore[method-assign]
