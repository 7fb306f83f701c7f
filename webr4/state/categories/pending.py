"""``pending``: labels of the events still pending at the end, sorted, compared as a multiset.

Items: ``left pending: setTimeout 100ms at app.js:3:1``, ``no longer pending: …``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from webr4.state.categories.multiset import MultisetCategory

if TYPE_CHECKING:
    from webr4.execution import Execution


class Pending(MultisetCategory):
    name = "pending"
    title = "Pending events"
    new = "left pending: "
    lost = "no longer pending: "

    def capture(self, execution: Execution) -> list[Any]:
        trace = execution.trace
        return sorted(trace.events[i].label if i in trace.events else i for i in trace.enabled_at_end)


PENDING = Pending()
