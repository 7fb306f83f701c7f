"""Near-identical verdicts, grouped for the overview.

Two reversals belong to one group when they have the same verdict, the same kinds of racing
events (category and type, in either order: a click against a parse chunk) and the same
difference items once numbers are taken out (``#row-3: "2 left" → "1 left"`` and ``#row-7: "5
left" → "4 left"`` are one item). A framework app's list of ten todos racing the same way then
reads as one group of ten, not ten lines. Within a group, reversals come by
:func:`realism_rank` (the smallest timing distance first: the likeliest race leads it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from webr4.rundir.summary import ReversalReport

_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _shapes(items: Iterable[str]) -> tuple[str, ...]:
    """Difference items with every number taken out."""
    return tuple(_NUMBER.sub("N", item) for item in items)


def group_key(reversal: ReversalReport, kinds: tuple[str, str]) -> tuple[Any, ...]:
    """What near-identical reversals share: the verdict, the racing events' kinds (unordered)
    and the difference items modulo numbers."""
    shapes = tuple((category, _shapes([items] if isinstance(items, str) else items))
                   for category, items in sorted(reversal.differences.items()))
    return reversal.verdict, tuple(sorted(kinds)), shapes


def realism_rank(reversal: ReversalReport) -> tuple[int, float, int]:
    """Sort key of the likeliest races first: realised orders by timing distance, then those
    without a distance, then unrealised ones."""
    if reversal.unrealised:
        return 2, 0.0, reversal.index
    timing = reversal.timing_ms
    return (0, float(timing), reversal.index) if timing is not None else (1, 0.0, reversal.index)


def groups(reversals: Iterable[ReversalReport],
           kinds: Callable[[ReversalReport], tuple[str, str]]) -> list[list[ReversalReport]]:
    """``reversals`` in groups of near-identical ones (see :func:`group_key`), each by
    :func:`realism_rank`; groups come in the order of their first member in ``reversals``."""
    grouped: dict[tuple[Any, ...], list[ReversalReport]] = {}
    for reversal in reversals:
        grouped.setdefault(group_key(reversal, kinds(reversal)), []).append(reversal)
    return [sorted(members, key=realism_rank) for members in grouped.values()]
