"""``heap``: the abstract JavaScript heap of ``instrument_js/capture_heap.js``, ``None`` when not
captured.

Compared structurally (:class:`HeapDiff`, paths ``window.x.y``), only when both sides have a heap;
the first :data:`MAX_HEAP_CHANGES` changes are listed. Masked by heap paths (``heap_paths``: a
subtree). Items: ``window.app.total: 1 → 2``, ``window.app.cart added``, ``window.x removed``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Collection, Iterator, Mapping

from webr4.state.categories.base import StateCategory, MaskField
from webr4.state.categories.words import MAX_TEXT, clip
from webr4.state.heappaths import HeapPath, format_path, parse_path, without_paths

if TYPE_CHECKING:
    from webr4.execution import Execution

MAX_HEAP_CHANGES = 200
_CONTAINER_CHANGES = ("iterable_item_added", "iterable_item_removed")


@dataclass(frozen=True)
class HeapChange:
    """One heap difference: ``change`` is deepdiff's report type (``values_changed``,
    ``dictionary_item_added``, …); ``before``/``after`` are omitted (``None``) when absent."""

    path: str
    change: str
    before: Any = None
    after: Any = None


@dataclass(frozen=True)
class HeapDiff:
    changes: list[HeapChange] = field(default_factory=list)
    total: int = 0  # changes found; only the first MAX_HEAP_CHANGES are listed

    def __bool__(self) -> bool:
        return self.total > 0


def _present(value: Any) -> Any:
    from deepdiff.helper import NotPresent  # imported where heaps are compared: recording never compares
    return None if isinstance(value, NotPresent) else value


def heap_changes(before: Any, after: Any) -> list[tuple[HeapPath, HeapChange]]:
    """Every difference between two abstract heaps, with its path as keys, sorted by path: what
    deepdiff finds between them. Two executions' heaps are mostly the same, and deepdiff's time
    grows with all it reads, so the objects both heaps have are compared property by property
    here, as deepdiff compares them (:func:`_changes`), and deepdiff reads only what differs."""
    changes = list(_changes(before, after, ()))
    changes.sort(key=lambda c: c[1].path)
    return changes


_DIFF_DEEPER = 0.33
"""deepdiff's ``threshold_to_diff_deeper``: two objects sharing a smaller part of their
properties are one changed value, not properties added and removed."""


def _changes(before: Any, after: Any, at: HeapPath) -> Iterator[tuple[HeapPath, HeapChange]]:
    """The changes deepdiff finds between ``before`` and ``after``, the values at ``at``.

    Equal values have none (:func:`_same`; deepdiff passes over a value compared with itself).
    Two objects are compared as deepdiff's ``_diff_dict`` compares them: properties whose names
    begin with ``__`` are left out; when they share less than :data:`_DIFF_DEEPER` of their
    properties they are one changed value; otherwise each property only one of them has is added
    or removed, and the shared ones are compared in turn. Anything else goes to deepdiff whole.
    The heap is a tree (the capture writes a second path to an object as a ``$ref``), so
    deepdiff's guard against cycles never applies."""
    if before is after or _same(before, after):
        return
    if type(before) is not dict or type(after) is not dict:
        from deepdiff import DeepDiff  # a tenth of a second to import, which only comparing pays
        for report, levels in DeepDiff(before, after, view="tree").items():
            for level in levels:
                keys = at + tuple(level.path(output_format="list"))
                yield keys, HeapChange(format_path(keys), report, _present(level.t1), _present(level.t2))
        return
    old = [key for key in before if not _private(key)]
    new = [key for key in after if not _private(key)]
    shared = [key for key in new if key in before]
    union = len(set(old) | set(new))
    if union > 1 and len(shared) / union < _DIFF_DEEPER:
        yield at, HeapChange(format_path(at), "values_changed", before, after)
        return
    for key in new:
        if key not in before:
            yield at + (key,), HeapChange(format_path(at + (key,)), "dictionary_item_added", None, after[key])
    for key in old:
        if key not in after:
            yield at + (key,), HeapChange(format_path(at + (key,)), "dictionary_item_removed", before[key], None)
    for key in shared:
        yield from _changes(before[key], after[key], at + (key,))


def _private(key: Any) -> bool:
    """Whether deepdiff leaves the property ``key`` out (``ignore_private_variables``)."""
    return isinstance(key, str) and key.startswith("__")


def _same(before: Any, after: Any) -> bool:
    """Whether deepdiff would find nothing between two JSON values, judged by their JSON text
    (which, unlike ``==``, tells ``1`` from ``true`` and ``1.0``); ``False`` when that cannot
    say (a NaN, which deepdiff finds different from itself, or a value that is not JSON), and
    for objects whose properties come in another order, which deepdiff does not mind."""
    try:
        return json.dumps(before, allow_nan=False) == json.dumps(after, allow_nan=False)
    except (TypeError, ValueError):
        return False


def diff_heap(before: Any, after: Any) -> HeapDiff:
    """Structural diff of two abstract heaps; nothing when either is ``None``."""
    if before is None or after is None:
        return HeapDiff()
    changes = [change for _keys, change in heap_changes(before, after)]
    return HeapDiff(changes[:MAX_HEAP_CHANGES], len(changes))


def _heap_value(value: Any) -> str:
    return clip(json.dumps(value, ensure_ascii=False, default=str), MAX_TEXT // 2)


class Heap(StateCategory[Any, HeapDiff]):
    name = "heap"
    title = "Heap"
    section = "heap"
    mask_fields = (MaskField("heap_paths", dump=format_path, load=parse_path),)

    def empty(self) -> Any:
        return None

    def capture(self, execution: Execution) -> Any:
        return execution.heap

    def no_difference(self) -> HeapDiff:
        return HeapDiff()

    def diff(self, before: Any, after: Any) -> HeapDiff:
        return diff_heap(before, after)

    def dump_diff(self, part: HeapDiff) -> dict[str, Any]:
        return {"total": part.total, "changes": [vars(c) for c in part.changes]}

    def items(self, part: HeapDiff) -> list[str]:
        items = []
        for change in part.changes:
            if change.change.endswith("_added"):
                items.append(f"{change.path} added")
            elif change.change.endswith("_removed"):
                items.append(f"{change.path} removed")
            else:
                items.append(f"{change.path}: {_heap_value(change.before)} → {_heap_value(change.after)}")
        return items

    def unlisted(self, part: HeapDiff) -> int:
        return max(0, part.total - len(part.changes))

    def noise(self, first: Any, second: Any) -> dict[str, Collection[Any]]:
        if first is None or second is None:
            return {"heap_paths": frozenset()}
        # an array that grew or shrank is masked whole: next time it may be another index
        return {"heap_paths": frozenset(keys[:-1] if change.change in _CONTAINER_CHANGES else keys
                                        for keys, change in heap_changes(first, second))}

    def mask(self, value: Any, fields: Mapping[str, Collection[Any]]) -> Any:
        return without_paths(value, set(fields["heap_paths"])) if value is not None else None


HEAP = Heap()
