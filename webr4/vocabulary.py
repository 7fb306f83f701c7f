"""The words webr4 writes down and compares: one definition of each, used everywhere.

Everything here is a plain string on disk (``trace.json``, ``summary.json``) and in memory, so a
value read back from a file compares equal to the constant. The page's runtime
(``instrument_js/runtime/``) sends some of them to Python; ``tests/test_vocabulary.py`` checks
that its literals match.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from webr4.trace import Trace


class StopReason(StrEnum):
    """Why a sweep (or :func:`webr4.engine.plans.run`) stopped: ``summary.json``'s ``stop_reason``.

    The budgets are spelled as the command-line options that set them.
    """

    EXHAUSTED = "exhausted"  # the strategy had nothing left to explore
    MAX_SEQUENCES = "max-sequences"  # --max-sequences explored
    TIME_LIMIT = "time-limit"  # --time-limit seconds spent


class Truncation(StrEnum):
    """Why one execution ended before the page had nothing left to run: ``Trace.truncated``."""

    MAX_EVENTS = "max-events"  # --max-events events ran
    HORIZON = "horizon"  # the next event is due after --horizon virtual milliseconds (sent by the page)
    RUN_TIMEOUT = "run-timeout"  # the whole run took longer than the session allows
    EVENT_TIMEOUT = "event-timeout"  # an event waited for something that never came
    ENDLESS_LOOP = "endless-loop"  # an event's script ran for --event-timeout and was stopped
    PAGE_LOST = "page-lost"  # the page stopped answering (crashed, closed)
    CAPTURE_FAILED = "capture-failed"  # the run ended, but reading its end state failed or came back empty


FAILED_RUNS = frozenset({Truncation.EVENT_TIMEOUT, Truncation.PAGE_LOST, Truncation.RUN_TIMEOUT,
                         Truncation.CAPTURE_FAILED})
"""Truncations of a run that failed rather than ended: its end state says nothing about the page."""

RETRIED_RUNS = frozenset({Truncation.PAGE_LOST, Truncation.RUN_TIMEOUT, Truncation.CAPTURE_FAILED})
"""Failed runs that may be the browser's fault rather than the page's: worth one more try."""


def failure(trace: Trace) -> str | None:
    """Why the execution of ``trace`` failed (its truncation is one of
    :data:`~webr4.vocabulary.FAILED_RUNS`), in words; ``None`` when it did not fail. The words
    are the harness's own error about it: the last one attributed to a step, else the last one
    (a run the browser never carried out has only that)."""
    if trace.truncated not in FAILED_RUNS:
        return None
    if trace.truncated == Truncation.RUN_TIMEOUT:
        return "the run took longer than the session's run timeout"
    harness = [error for error in trace.errors if error.kind == "harness"]
    placed = [error for error in harness if error.step is not None]
    said = placed or harness
    return said[-1].message if said else _FAILURES[trace.truncated]


_FAILURES: dict[str, str] = {Truncation.EVENT_TIMEOUT: "an event waited for something that never came",
                             Truncation.PAGE_LOST: "the page stopped answering",
                             Truncation.CAPTURE_FAILED: "the end state could not be read"}
"""A failed run's cause in words when the trace holds no error saying it."""

UNLOAD_TYPES = frozenset({"unload", "beforeunload", "pagehide"})
"""Event types that fire while the page is going away: their effects are never seen by the user."""
