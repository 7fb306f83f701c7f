"""What a test did to the page and looked at, in order: the session's steps and, beside them, each
call as the test made it (its line, its answer), so that the test can be run again against
another order's answers (:mod:`webr4.deflake.oracle`) and its source changed at the right line
(:mod:`webr4.deflake.fixes`)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webr4.browser.actions import LOAD_STATE, PAGE_ASSERTION, RESPONSE
from webr4.record.scripted import StepLog


@dataclass
class TestCall:
    """One call the test made on the page: an ``action``, a ``read``, an ``expect``, a ``sleep``
    (``wait_for_timeout``) or an ``answer`` (the page's ``url``, ``title()``, …: no step); ``step``
    is its position among the session's steps (waits not counted; None for a sleep or an answer),
    ``line`` the line of the test's source it was called from (0: not from the test's file),
    ``answer`` what a read or the page returned."""

    __test__ = False  # not a pytest test class, whatever its name

    kind: str
    step: int | None
    line: int
    selector: str = ""
    call: str = ""
    answer: Any = None
    args: list[Any] = field(default_factory=list)


class TestLog(StepLog):
    """A :class:`~webr4.record.scripted.StepLog` that also keeps the test's reads as steps, and
    every call with the line of ``source`` it came from."""

    __test__ = False  # not a pytest test class, whatever its name

    observes = True

    def __init__(self, source: Path) -> None:
        super().__init__()
        self.source = str(source.resolve())
        self.calls: list[TestCall] = []

    @property
    def ordinal(self) -> int:
        """The number of non-wait steps written down so far."""
        return sum(1 for step in self.steps if set(step) != {"wait"})

    def action(self, step: dict[str, Any], called: float) -> None:
        kind = next(iter(step))
        if kind not in ("read", "expect"):
            self.calls.append(TestCall("action", self.ordinal, self.caller_line(), step[kind], kind))
        super().action(step, called)

    def read(self, step: dict[str, Any], called: float, answer: Any) -> None:
        self.calls.append(TestCall("read", self.ordinal, self.caller_line(), step["read"], step["method"], answer,
                                   list(step.get("args", []))))
        super().read(step, called, answer)

    def expectation(self, step: dict[str, Any], called: float) -> None:
        """Write down a web-first assertion that has just passed."""
        self.calls.append(TestCall("expect", self.ordinal, self.caller_line(), step["expect"],
                                   step["assertion"].removeprefix(PAGE_ASSERTION), None, list(step.get("args", []))))
        super().action(step, called)

    def loaded(self, state: str, called: float) -> None:
        self.calls.append(TestCall("expect", self.ordinal, self.caller_line(), "html", LOAD_STATE, None, [state]))
        super().action({"expect": "html", "assertion": LOAD_STATE, "args": [state]}, called)

    def responded(self, glob: str, called: float) -> None:
        self.calls.append(TestCall("expect", self.ordinal, self.caller_line(), "html", RESPONSE, None, [glob]))
        super().action({"expect": "html", "assertion": RESPONSE, "args": [glob]}, called)

    def not_followed(self, call: str) -> None:
        super().not_followed(f"{call} (line {self.caller_line()})")

    def answered(self, name: str, answer: Any) -> None:
        self.calls.append(TestCall("answer", None, self.caller_line(), call=name, answer=answer))

    def wait(self, ms: float) -> None:
        self.calls.append(TestCall("sleep", None, self.caller_line(), call="wait_for_timeout", args=[ms]))
        super().wait(ms)

    def caller_line(self) -> int:
        """The line of the test's source the current call came from (0 when none)."""
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename == self.source:
                return frame.f_lineno
            frame = frame.f_back  # type: ignore[assignment]
        return 0
