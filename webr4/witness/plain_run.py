"""Running a plain schedule in a stock Chromium context, and its end state in webr4's categories.

:func:`webr4.witness.plain.drive` does the running (nothing of webr4's in the page). The end
state is read without instrumentation, in webr4's own categories
(:mod:`webr4.state.categories`): the DOM serialised at the end (the serialiser the harness uses,
evaluated once), a full-page screenshot, uncaught exceptions and unhandled rejections
(Playwright's ``pageerror``), ``console.error`` messages, the requests the page made, where it
tried to navigate (refused at the network, as the harness refuses it), storage (web storage,
IndexedDB, Cache Storage) and the keyboard focus. The JS heap and the pending events cannot be
read without webr4's code in the page and stay empty.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from playwright.async_api import Browser

from webr4.resources import javascript
from webr4.state.categories.focus import FOCUS
from webr4.state.categories.storage import STORAGE
from webr4.state.snapshot import StateSnapshot
from webr4.witness.plain import drive
from webr4.witness.schedule import PlainSchedule

RUN_TIMEOUT_S = 90.0
"""The longest a plain run may take, end state included (its waits for signs are bounded by
:data:`~webr4.witness.plain.ORDER_TIMEOUT_S` each): a page that hangs is given up."""


@dataclass
class PlainRun:
    """What one plain run of a schedule left: the end ``state``, whether the order was ``forced``
    (every sign the schedule waited for was seen), and if not, ``problem`` in words; the ``signs``
    it saw and its ``reads`` (:func:`webr4.witness.plain.read_page`)."""

    state: StateSnapshot
    forced: bool
    problem: str | None = None
    seconds: float = 0.0
    signs: list[str] = field(default_factory=list)  # the signs seen, in the order they came
    reads: list[Any] = field(default_factory=list)  # what each read asked for showed at the end


async def run_plain(browser: Browser, schedule: PlainSchedule, har: Path, *, trace_to: Path | None = None,
                    reads: Sequence[dict[str, str]] = ()) -> PlainRun:
    """Run ``schedule`` in a fresh context of ``browser``, the responses served from ``har``, and
    read ``reads`` at the end; with ``trace_to``, a Playwright trace (screenshots and snapshots)
    of the run is written there. ``asyncio.TimeoutError`` after :data:`RUN_TIMEOUT_S`."""
    started = time.monotonic()
    end = await asyncio.wait_for(drive(browser, schedule.to_json(), har, dom_script=javascript("capture_dom.js"),
                                       storage_script=STORAGE.page_script or "() => ({})",
                                       focus_script=FOCUS.page_script, trace_to=trace_to, reads=reads),
                                 RUN_TIMEOUT_S)
    state = StateSnapshot(dom=end["dom"], screenshot=end["screenshot"],
                          exceptions=[(message, site) for message, site in end["exceptions"]],
                          console=list(end["console"]), requests=end["requests"], navigation=end["navigation"],
                          storage=dict(end["storage"] or {}), focus=end["focus"] or None)
    problem = end["problem"]
    return PlainRun(state, problem is None, problem, round(time.monotonic() - started, 2), list(end["signs"]),
                    list(end["reads"]))
