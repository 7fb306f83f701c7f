"""One execution of a page as plain data: what it is asked to capture, and what it produced.

Every execution is asked for its :class:`Capture` explicitly (the browser's ``Driver.execute``
takes no default), and hands back an :class:`Execution`. The categories of final state
(:mod:`webr4.state.categories`) read an :class:`Execution`; none of this needs a browser.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Mapping

from webr4.trace import Trace


class AccessLog(Enum):
    """How much of the page's shared-memory accesses a run's steps carry."""

    SUMMARY = "summary"
    """Each step's accesses, summarised, without the reads no other step shares
    (:mod:`webr4.access_summary`): what exploration reads."""
    FULL = "full"
    """Every access of every step, for diagnostics."""
    OFF = "off"
    """None but the runtime's own accesses to its events' shadow locations, which
    happens-before reads: the same rewritten code runs, so every event keeps its identity, for a
    run that fixes the order of events, not their accesses (a recording)."""


@dataclass(frozen=True)
class Capture:
    """What one execution is asked to capture of the page.

    ``accesses`` is how much of the page's accesses the trace keeps; with ``logged_events``, only
    the steps of those events carry accesses but the runtime's own (a strategy that reads no
    other, :meth:`~webr4.engine.plans.Strategy.reads_accesses`). ``rewrite_scripts=False``
    serves the page's scripts as they are (then only the accesses made through browser APIs are
    logged: for comparing webr4's page with the page as served). ``screenshot`` and ``heap`` add
    those parts to the end state; ``page_scripts`` names function expressions evaluated in the
    page at the end, their results kept under the same names in :attr:`Execution.captured`.
    Every part asked for must come back non-empty, or the run fails (``capture-failed``).
    """

    accesses: AccessLog = AccessLog.SUMMARY
    logged_events: frozenset[str] | None = None
    rewrite_scripts: bool = True
    screenshot: bool = False
    heap: bool = False
    page_scripts: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Execution:
    """What one execution produced: the trace and the final state of the page, the parts its
    :class:`Capture` did not ask for left empty."""

    trace: Trace
    dom: str
    screenshot: bytes | None = None
    heap: Any = None  # the abstract JS heap (instrument_js/capture_heap.js), when asked for
    captured: Mapping[str, Any] = field(default_factory=dict)  # name -> what its page script returned
