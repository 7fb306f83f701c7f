"""One execution of a page as plain data: what it produced.

The browser's ``Driver.execute`` hands back an :class:`Execution`; the categories of final
state (:mod:`webr4.state.categories`) read it. None of this needs a browser.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from webr4.trace import Trace


@dataclass(frozen=True)
class Execution:
    """What one execution produced: the trace and the final state of the page."""

    trace: Trace
    dom: str
    screenshot: bytes | None = None
    heap: Any = None  # the abstract JS heap (instrument_js/capture_heap.js), when asked for
    captured: Mapping[str, Any] = field(default_factory=dict)  # name -> what its page script returned
