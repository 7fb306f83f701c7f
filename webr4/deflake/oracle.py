"""The test as the oracle of an explored order: it runs again against what its reads saw there.

:func:`outcome` calls the test function once more with a :class:`ReplayPage` for its ``page``.
Nothing reaches a browser: each call the test makes is matched, in order, with the call it made
when it was recorded (:class:`~webr4.deflake.testlog.TestCall`), and answered from the order's
trace. A read returns what the read step saw in that order; an action or read whose step never
happened there raises Playwright's ``TimeoutError`` with the reason; a web-first assertion whose
step never happened (its condition never held) raises ``AssertionError``. So the test's own
``assert``, its ``expect`` and its use of what it read decide, exactly as they would in a browser
that ran the events in that order.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from webr4.browser.actions import LOAD_STATE, PAGE_URL, RESPONSE, UserAction, parse_actions
from webr4.deflake.fixtures import given
from webr4.deflake.testlog import TestCall
from webr4.errors import Webr4Error
from webr4.record.scripted import PAGE_ANSWERS
from webr4.trace import Trace
from webr4.useractions import BY_METHOD, READS


class Diverged(Webr4Error):
    """The test made another call than it made when recorded: its path depends on what it read."""


@dataclass(frozen=True)
class Outcome:
    """How the test ended against one order: ``passed``, else the ``line`` of its source it failed
    at, and the ``message`` pytest would print (its exception's type and text). ``diverged``:
    the test took another path than when recorded, so the order says nothing of it."""

    passed: bool
    line: int = 0
    message: str = ""
    diverged: bool = False


class Answers:
    """The answers one order's trace gives to the test's calls, in the order it made them."""

    def __init__(self, calls: list[TestCall], steps: list[dict[str, Any]], trace: Trace) -> None:
        self.calls = calls
        self.trace = trace
        self._next = 0
        self._first: dict[int, UserAction] = {}
        for action in parse_actions(steps):
            self._first.setdefault(action.step, action)
        self._ran = set(trace.sequence)

    def take(self, kind: str, call: str) -> TestCall:
        """The next recorded call, which must be of ``kind`` (and ``call``, the method)."""
        if self._next >= len(self.calls):
            raise Diverged(f"the test called {call} after its last recorded call")
        recorded = self.calls[self._next]
        if recorded.kind != kind or recorded.call != call:
            raise Diverged(f"the test called {call} where it had called {recorded.call}")
        self._next += 1
        return recorded

    def happened(self, recorded: TestCall) -> bool:
        action = self._first.get(recorded.step) if recorded.step is not None else None
        return action is None or action.event_id in self._ran

    def why_not(self, recorded: TestCall) -> str:
        """Why the step of ``recorded`` never happened, as the trace says."""
        action = self._first[recorded.step] if recorded.step is not None else None
        if action is not None:
            for error in self.trace.errors:
                if error.kind == "harness" and error.message.startswith(f"step {action.step + 1} "):
                    return error.message
            return f"{action.step_text} never happened: the run ended first"
        return "it never happened"

    def read(self, recorded: TestCall) -> Any:
        action = self._first[recorded.step]  # type: ignore[index]
        return self.trace.events[action.event_id].params.get("observed")


class Replayed:
    """A page or locator of the replayed test: chains of locators are followed, and the calls
    that matter are answered by :class:`Answers`."""

    def __init__(self, answers: Answers, playwright_class: type) -> None:
        self._answers, self._class = answers, playwright_class

    @property  # type: ignore[misc]  # isinstance() consults __class__, so that expect() takes it
    def __class__(self) -> type:
        return self._class

    @property
    def first(self) -> Replayed:
        return self._locator()

    @property
    def last(self) -> Replayed:
        return self._locator()

    def _locator(self) -> Replayed:
        from playwright.sync_api import Locator

        return Replayed(self._answers, Locator)

    @property
    def keyboard(self) -> Replayed:
        """``page.keyboard``: its presses were recorded as presses on the focused step's target."""
        return self._locator()

    def wait_for_timeout(self, timeout: float) -> None:
        self._answers.take("sleep", "wait_for_timeout")

    def press_sequentially(self, text: str, *, delay: float | None = None, **_options: Any) -> None:
        """As recorded (:mod:`webr4.record.scripted`): a press per key, the delay between them."""
        for number, _key in enumerate(text):
            if number and delay:
                self._answers.take("sleep", "wait_for_timeout")
            self._acting("press")()

    def expect_response(self, *_args: Any, **_options: Any) -> _ReplayedWait:
        return _ReplayedWait(self._answers)

    def goto(self, *_args: Any, **_options: Any) -> None:
        self.wait_for_load_state()

    def wait_for_load_state(self, *_args: Any, **_options: Any) -> None:
        recorded = self._answers.take("expect", LOAD_STATE)
        if not self._answers.happened(recorded):
            raise _timeout(f"Page.wait_for_load_state: {self._answers.why_not(recorded)}")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if name in BY_METHOD:
            return self._acting(name)
        if name in READS:
            return self._reading(name)
        if name == "url" and self._class.__name__ == "Page":
            recorded = self._answers.take("read", PAGE_URL)
            if not self._answers.happened(recorded):
                raise _timeout(f"Page.url: {self._answers.why_not(recorded)}")
            return self._answers.read(recorded)
        if name in PAGE_ANSWERS and self._class.__name__ == "Page":
            recorded = self._answers.take("answer", name)
            return lambda *_args, **_options: recorded.answer
        return lambda *_args, **_options: self._locator()

    def _acting(self, method: str) -> Callable[..., None]:
        kind = BY_METHOD[method].name

        def act(*_args: Any, **_options: Any) -> None:
            recorded = self._answers.take("action", kind)
            if not self._answers.happened(recorded):
                raise _timeout(f"Locator.{method}: {self._answers.why_not(recorded)}")
        return act

    def _reading(self, method: str) -> Callable[..., Any]:
        def read(*_args: Any, **_options: Any) -> Any:
            recorded = self._answers.take("read", method)
            if not self._answers.happened(recorded):
                raise _timeout(f"Locator.{method}: {self._answers.why_not(recorded)}")
            return self._answers.read(recorded)
        return read


class _ReplayedWait:
    """``with page.expect_response(…):`` replayed: at the end of its block the response's step
    must have happened in the order, else Playwright's timeout."""

    value = None

    def __init__(self, answers: Answers) -> None:
        self._answers = answers

    def __enter__(self) -> _ReplayedWait:
        return self

    def __exit__(self, *failed: Any) -> None:
        if failed[0] is not None:
            return
        recorded = self._answers.take("expect", RESPONSE)
        if not self._answers.happened(recorded):
            raise _timeout(f"Page.expect_response: {self._answers.why_not(recorded)}")


class ReplayedAssertions:
    """``expect(x)`` of a replayed locator: an assertion passes when its step ran in the order."""

    def __init__(self, answers: Answers) -> None:
        self._answers = answers

    def __getattr__(self, name: str) -> Callable[..., None]:
        def assertion(*args: Any, **_options: Any) -> None:
            recorded = self._answers.take("expect", name)
            if not self._answers.happened(recorded):
                shown = ", ".join(repr(a) for a in args)
                raise AssertionError(f"Locator expected {name}({shown}) on {recorded.selector}: "
                                     f"{self._answers.why_not(recorded)}")
        return assertion


def _timeout(message: str) -> Exception:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    return PlaywrightTimeout(message)


@contextmanager
def replayed_assertions() -> Iterator[None]:
    """While the block runs, ``expect(x)`` on a :class:`Replayed` hands out :class:`ReplayedAssertions`."""
    from playwright.sync_api import expect

    kind = type(expect)
    dispatch = kind._dispatch

    def replaying(self: Any, actual: Any, message: str | None, is_soft: bool) -> Any:
        if type(actual) is Replayed:
            return ReplayedAssertions(actual._answers)
        return dispatch(self, actual, message, is_soft)

    kind._dispatch = replaying  # type: ignore[method-assign]
    try:
        yield
    finally:
        kind._dispatch = dispatch  # type: ignore[method-assign]


def outcome(test: Callable[..., Any], arguments: dict[str, Any], source: str, calls: list[TestCall],
            steps: list[dict[str, Any]], trace: Trace) -> Outcome:
    """How ``test`` (called with ``arguments``, its ``page`` replaced) ends against ``trace``;
    ``source`` is the path of its file, for the failing line."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import Page

    answers = Answers(calls, steps, trace)
    try:
        with replayed_assertions():
            test(**given(arguments, Replayed(answers, Page)))
    except Diverged as diverged:
        return Outcome(False, 0, str(diverged), diverged=True)
    except (AssertionError, PlaywrightError) as failure:
        return Outcome(False, failing_line(failure, source), message_of(failure))
    return Outcome(True)


def failing_line(error: BaseException, source: str) -> int:
    """The innermost line of ``source`` that ``error`` passed through (0: none)."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == source]
    return frames[-1].lineno or 0 if frames else 0


def message_of(error: BaseException) -> str:
    """An exception as pytest's short summary shows it: its type and its first lines."""
    text = str(error).strip()
    # a plain assert's first line is pytest's comparison; its "where" lines name the replay's own objects
    lines = text.splitlines()[:1 if isinstance(error, AssertionError) else 3]
    return f"{type(error).__name__}: {' '.join(line.strip() for line in lines)}" if lines else type(error).__name__
