"""``console``: the ``console.error`` messages, compared as a set.

Items: ``new: Failed to load cart``, ``gone: …``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from webr4.state.categories.multiset import MultisetCategory
from webr4.state.categories.words import MAX_TEXT, clip

if TYPE_CHECKING:
    from webr4.execution import Execution


class Console(MultisetCategory):
    name = "console"
    title = "Console errors"
    distinct = True
    new = "new: "
    lost = "gone: "

    def capture(self, execution: Execution) -> list[Any]:
        return [e.message for e in execution.trace.errors if e.kind == "console"]

    def show(self, item: Any) -> str:
        return clip(item, 2 * MAX_TEXT)


CONSOLE = Console()
