"""Categories compared as multisets of items: what only the parent has, what only the child has."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Hashable, Iterable

from webr4.state.categories.base import StateCategory
from webr4.state.categories.words import clip


@dataclass(frozen=True)
class MultisetDiff:
    """Items only in the parent (``lost``) and only in the child (``new``), with multiplicity."""

    lost: list[Any] = field(default_factory=list)
    new: list[Any] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.lost or self.new)


def diff_multiset(before: Iterable[Hashable], after: Iterable[Hashable]) -> MultisetDiff:
    """What only ``before`` has and what only ``after`` has, counting repeats."""
    a, b = Counter(before), Counter(after)
    return MultisetDiff(sorted((a - b).elements(), key=repr), sorted((b - a).elements(), key=repr))


class MultisetCategory(StateCategory[list[Any], MultisetDiff]):
    """A list of items per execution, compared as a multiset (as a set when ``distinct``).

    Items read ``<new><item>`` for those only the child has and ``<lost><item>`` for those only
    the parent has, the item shown by :meth:`show`. The reversal page lists both sides.
    """

    section = "multiset"
    distinct = False
    new = "new "
    lost = "gone "

    def empty(self) -> list[Any]:
        return []

    def load(self, raw: Any, base: Any) -> list[Any]:
        return list(raw)

    def no_difference(self) -> MultisetDiff:
        return MultisetDiff()

    def diff(self, before: list[Any], after: list[Any]) -> MultisetDiff:
        if self.distinct:
            return diff_multiset(set(before), set(after))
        return diff_multiset(before, after)

    def dump_diff(self, part: MultisetDiff) -> dict[str, list[Any]]:
        return {"lost": list(part.lost), "new": list(part.new)}

    def show(self, item: Any) -> str:
        """One item in words."""
        return clip(item)

    def items(self, part: MultisetDiff) -> list[str]:
        return [f"{self.new}{self.show(item)}" for item in part.new] + \
            [f"{self.lost}{self.show(item)}" for item in part.lost]
