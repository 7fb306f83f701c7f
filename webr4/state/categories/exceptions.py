"""``exceptions``: uncaught exceptions and unhandled rejections, as ``(message, site)``.

Compared as a set. Items: ``new TypeError: Cannot set properties of null (setting 'value') at
app.js:12:5``, ``gone …`` for one only the parent raised.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from webr4.places import short_site
from webr4.state.categories.multiset import MultisetCategory, MultisetDiff
from webr4.state.categories.words import MAX_TEXT, clip

if TYPE_CHECKING:
    from webr4.execution import Execution

EXCEPTION_KINDS = ("exception", "unhandledrejection")


class Exceptions(MultisetCategory):
    name = "exceptions"
    title = "Uncaught exceptions"
    distinct = True

    def capture(self, execution: Execution) -> list[Any]:
        return [(e.message, e.site) for e in execution.trace.errors if e.kind in EXCEPTION_KINDS]

    def dump(self, value: list[Any]) -> list[Any]:
        return [list(e) for e in value]

    def load(self, raw: Any, base: Any) -> list[Any]:
        return [(message, site) for message, site in raw]

    def dump_diff(self, part: MultisetDiff) -> dict[str, list[Any]]:
        return {"lost": [list(e) for e in part.lost], "new": [list(e) for e in part.new]}

    def show(self, item: Any) -> str:
        message, site = item
        return f"{clip(message, 2 * MAX_TEXT)} at {short_site(site)}" if site else clip(message, 2 * MAX_TEXT)


EXCEPTIONS = Exceptions()
