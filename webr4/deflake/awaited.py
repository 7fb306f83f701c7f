"""What the page shows once one of its events has run, as a web-first assertion a test can wait on.

A test that acts before the page's event it needs (a key press before the suggestions came) is
fixed best by waiting for what that event leaves on the page, not for the response behind it: the
page reads a response's body in a later task than Playwright's response event, and a fixed sleep
after the response guesses how long that takes. The event's writes to the DOM, as the access log
names them (``dom:#city.aria-expanded`` written ``s:true``), say what to wait for:

* an attribute set to a short string: ``to_have_attribute(name, value)``;
* text, a form field's value, the class list set to a short string: ``to_have_text``,
  ``to_have_value``, ``to_have_class``;
* ``disabled`` or ``checked`` set: ``to_be_enabled``/``to_be_disabled``, ``to_be_checked``/
  ``not_to_be_checked``.

Only writes whose whole value the log kept qualify (it keeps 32 characters of a string), on an
element the log names by a CSS path from the document (an id, or ``body>ul>li:nth-of-type(2)``):
not in a shadow tree, not detached. An event may span tasks of the page (a response, then its
body read), so the write waited for must come no earlier in the event than its last access to
what the test's step touches; and a value the location already held earlier in the run proves
nothing, so it is left out.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from webr4.trace import Access, AccessKind, EventId, Trace

_LONGEST = 32
"""How many characters of a string the access log keeps (``instrument_js/access_log/objects.js``)."""

_CONTENT = {"textContent": "to_have_text", "value": "to_have_value", "className": "to_have_class"}
_STATES = {("disabled", "b:true"): "to_be_disabled()", ("disabled", "b:false"): "to_be_enabled()",
           ("checked", "b:true"): "to_be_checked()", ("checked", "b:false"): "not_to_be_checked()"}
_PROPERTIES = frozenset({"children", "style", "hidden", "open", "selected", "checked", "disabled", "readonly",
                         "src", "href", *_CONTENT})
"""Locations after an element's key that are not attributes set with ``setAttribute``."""

_ID = re.compile(r"#[A-Za-z_][\w-]*")
_TAG = re.compile(r"[a-z][a-z0-9-]*(:nth-of-type\(\d+\))?")
_ROOTS = frozenset({"html", "head", "body"})
"""The elements a key starts from when no ancestor has an id."""


@dataclass(frozen=True)
class Awaited:
    """A web-first assertion on ``selector`` (CSS) that holds once the event has run:
    ``assertion`` is its call as Python source (``to_have_attribute("aria-expanded", "true")``)."""

    selector: str
    assertion: str

    @property
    def words(self) -> str:
        """The assertion in a summary: ``#city to_have_attribute("aria-expanded", "true")``."""
        return f"{self.selector} {self.assertion}"


def css_of(key: str) -> str | None:
    """The CSS selector of an element key of the access log, or None when it names no element a
    selector can reach from the document (a detached tree, a shadow root, ``document``)."""
    first, *rest = key.split(">")
    if not (_ID.fullmatch(first) or first in _ROOTS) or not all(_TAG.fullmatch(part) for part in rest):
        return None
    return " > ".join((first, *rest))


def assertion_of(access: Access) -> Awaited | None:
    """The assertion that holds once ``access`` (a write of the DOM) has been made, or None when
    none can say it exactly."""
    if access.kind is not AccessKind.WRITE or not access.location.startswith("dom:") or access.value is None:
        return None
    key, _, name = access.location.removeprefix("dom:").rpartition(".")
    selector = css_of(key) if key else None
    if selector is None:
        return None
    if (name, access.value) in _STATES:
        return Awaited(selector, _STATES[name, access.value])
    if not access.value.startswith("s:") or len(access.value) - 2 >= _LONGEST:
        return None
    value = json.dumps(access.value[2:], ensure_ascii=False)
    if name in _CONTENT:
        return Awaited(selector, f"{_CONTENT[name]}({value})")
    if name in _PROPERTIES or not re.fullmatch(r"[a-z][a-z0-9_.:-]*", name):
        return None
    return Awaited(selector, f"to_have_attribute({json.dumps(name)}, {value})")


def awaited_state(trace: Trace, event: EventId, needed_by: EventId) -> Awaited | None:
    """What the page shows once ``event`` has run in ``trace``, that a test can wait for before
    its step ``needed_by`` (which runs after ``event`` in ``trace``); None when none of the
    event's writes can be said as an assertion, or none comes late enough in the event."""
    position = {step.event: n for n, step in enumerate(trace.steps)}
    if event not in position or needed_by not in position:
        return None
    accesses = trace.steps[position[event]].accesses
    touched = {access.location for access in trace.steps[position[needed_by]].accesses}
    shared = [n for n, access in enumerate(accesses) if access.location in touched]
    since = max(shared, default=0)
    earlier = {(access.location, access.value) for step in trace.steps[:position[event]]
               for access in step.accesses if access.kind is AccessKind.WRITE}
    last: dict[str, int] = {}
    for n, access in enumerate(accesses):
        if access.kind is AccessKind.WRITE:
            last[access.location] = n
    for location, n in sorted(last.items(), key=lambda item: item[1]):
        access = accesses[n]
        awaited = assertion_of(access)
        if n >= since and awaited is not None and (location, access.value) not in earlier:
            return awaited
    return None
