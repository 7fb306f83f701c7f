"""The in-page runtime (``instrument_js/runtime/``): its parts and the one order they are joined in.

Each part is a piece of one function body: the parts share a closure (its private state, the
natives captured first), so they are joined in :data:`RUNTIME_PARTS` order inside one function
that runs once per document. A part may use what an earlier part declared while it is being
installed; functions may be called across parts in any direction once installed.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from webr4.resources import javascript

RUNTIME_PARTS: tuple[str, ...] = (
    "natives",  # configuration, guards, the page's natives captured before any page script
    "access_summary",  # the per-event access summary
    "events",  # the pending set, event identity, creation and cancellation
    "determinism",  # seeded randomness, virtual Date and performance.now
    "errors",  # exceptions, rejections, console errors, attempts to leave the page
    "timers",  # setTimeout, setInterval, animation frames, idle callbacks
    "channels",  # postMessage, MessageChannel, workers, WebSockets
    "serviceworkers",  # service worker registrations and what their container delivers
    "network",  # XMLHttpRequest, fetch
    "lifecycle",  # element loads, DOMContentLoaded, window load
    "frames",  # a same-origin child frame's timers, fetch and XHR, under the top frame's control
    "parsing",  # parse chunks, held scripts, the head event
    "animations",  # the ends of CSS transitions and animations
    "selection",  # selectionchange
    "resize",  # ResizeObserver callbacks, after the rendering update's animation frames
    "scheduler",  # running one event and settling it
    "replay",  # following a plan approximately (the page's copy of webr4/browser/replay.py)
    "autorun",  # events the page chooses and runs by itself
    "bridge",  # the step report and the API Python calls
)
"""The parts of the runtime, in the order they are installed."""

AS_JSON = "window.__webr4.asJson"
"""The runtime's function an evaluation hands a large answer through: as JSON text, which reaches
Python many times faster than the object as Playwright serializes it (``bridge.js``)."""

RUNTIME_URL = "__webr4_runtime__.js"
"""The source URL the runtime runs under: stack frames there are webr4's, not the page's."""


@cache
def runtime_source() -> str:
    """The runtime as one script: every part, in order, inside one strict function run at once."""
    body = "\n".join(javascript(f"runtime/{part}.js") for part in RUNTIME_PARTS)
    return f'(function installWebr4Runtime() {{\n"use strict";\n{body}}})();\n//# sourceURL={RUNTIME_URL}\n'


def parsed_answer(answer: Any) -> Any:
    """The value an evaluation handed over through :data:`AS_JSON` (its JSON text parsed); ``None``
    for an evaluation that had nothing to hand over."""
    return None if answer is None else json.loads(answer)
