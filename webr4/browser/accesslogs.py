"""The two access logs the page script installs after the runtime, their parts and the order
each is joined in.

``instrument_js/access_log/`` is the log rewritten scripts call (variables and properties);
``instrument_js/dom_log/`` logs the accesses page code makes through browser APIs (DOM,
storage, cookies, event handlers) into the same buffer, so it is installed after it. As with
the runtime (:mod:`webr4.browser.runtime`), each part is a piece of one function body: a log's
parts share its closure and are joined in order inside one strict function that runs once per
document. A part may use what an earlier part declared while it is being installed; functions
may be called across parts in any direction once installed.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from webr4.resources import resource_dir

ACCESS_LOG_PARTS: tuple[str, ...] = (
    "natives",  # the entries' shape, the natives captured before any page script, sealed collections
    "objects",  # object ids, where each object was first stored or reached, value digests
    "buffer",  # the current event's buffer, location names, flushing it, what other logs share
    "holding",  # holding back the locations one event alone has touched
    "names",  # naming objects for people
    "accesses",  # the calls rewritten code makes; installs the log last
)
"""The parts of the access log, in the order they are installed."""

DOM_LOG_PARTS: tuple[str, ...] = (
    "natives",  # the locations, the natives captured first, recording into the access log's buffer
    "keys",  # element keys
    "wrapping",  # logging wrappers of native methods and accessors
    "lookups",  # lookups by id and selector; elements entering or leaving the document
    "state",  # element content, form state, focus, attributes
    "styles",  # class lists, inline styles, data attributes
    "tree",  # tree changes
    "handlers",  # event handlers, dispatch, the user's input and focus
    "storage",  # localStorage, sessionStorage, cookies
    "observed",  # what a test's read of the page depends on
)
"""The parts of the DOM log, in the order they are installed."""

_SLOPPY_WRITERS = (
    "  /* Defined outside the strict function: a failed write or delete is silently ignored. */\n"
    "  function (object, key, value) { object[key] = value; },\n"
    "  function (object, key) { return delete object[key]; }\n"
)


def _body(js: Path, log: str, parts: tuple[str, ...]) -> str:
    return "\n".join((js / log / f"{part}.js").read_text(encoding="utf-8") for part in parts)


def access_log_in(js: Path) -> str:
    """The access log of the ``instrument_js`` tree ``js`` as one classic script: its parts, in
    order, inside one strict function that is passed the two sloppy property writers (which is
    why it must not run as a module). It installs ``__webr4.log`` once ``__webr4`` exists."""
    body = _body(js, "access_log", ACCESS_LOG_PARTS)
    return (f'(function (root, sloppyAssign, sloppyDelete) {{\n"use strict";\n{body}}})(\n'
            f"  globalThis,\n{_SLOPPY_WRITERS});\n")


@cache
def access_log_source() -> str:
    """webr4's access log (:func:`access_log_in` its own ``instrument_js``)."""
    return access_log_in(resource_dir("js"))


@cache
def dom_log_source() -> str:
    """The DOM log as one script, to run after :func:`access_log_source`: its parts, in order,
    inside one strict function run at once."""
    return (f'(function (root) {{\n"use strict";\n{_body(resource_dir("js"), "dom_log", DOM_LOG_PARTS)}'
            "})(globalThis);\n//# sourceURL=__webr4_dom_log__.js\n")
