"""``navigation``: where the page tried to take the user (:attr:`~webr4.trace.Navigation.target`),
``None`` when it stayed.

Compared as a multiset of at most one target: ``lost`` when only the parent left the page that
way, ``new`` when only the child did. Items: ``leaves for /next.html`` (only the reversal leaves
the page), ``stays instead of leaving for /next.html`` (only the parent left), ``leaves for /b
instead of /a``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from webr4.state.categories.base import StateCategory
from webr4.state.categories.multiset import MultisetDiff, diff_multiset
from webr4.state.categories.words import clip, where

if TYPE_CHECKING:
    from webr4.execution import Execution


class Navigation(StateCategory[str | None, MultisetDiff]):
    name = "navigation"
    title = "Navigation"
    section = "multiset"

    def empty(self) -> str | None:
        return None

    def capture(self, execution: Execution) -> str | None:
        navigation = execution.trace.navigation
        return navigation.target if navigation else None

    def no_difference(self) -> MultisetDiff:
        return MultisetDiff()

    def diff(self, before: str | None, after: str | None) -> MultisetDiff:
        return diff_multiset([before] if before is not None else [], [after] if after is not None else [])

    def dump_diff(self, part: MultisetDiff) -> dict[str, list[str]]:
        return {"lost": list(part.lost), "new": list(part.new)}

    def items(self, part: MultisetDiff) -> list[str]:
        """Where the reversal took the user instead of the parent (each side leaves at most once)."""
        went, left = [where(url) for url in part.new], [where(url) for url in part.lost]
        if went and left:
            return [clip(f"leaves for {went[0]} instead of {left[0]}")]
        if went:
            return [clip(f"leaves for {went[0]}")]
        return [clip(f"stays instead of leaving for {left[0]}")]


NAVIGATION = Navigation()
