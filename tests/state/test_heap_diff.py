"""The heap difference, found part by part, is what deepdiff finds between the whole heaps."""

from __future__ import annotations

from functools import partial
from typing import Any

from deepdiff import DeepDiff
from hypothesis import given, settings
from hypothesis import strategies as st

from webr4.state.categories.heap import HeapChange, _present, heap_changes
from webr4.state.heappaths import format_path

KEYS = st.sampled_from(["a", "b", "c", "d", "odd key", "0", "__proto"])
LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from([1.0, 0.5, float("nan")]),
                   st.sampled_from(["", "x", "$ref:window.a"]))
HEAPS = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=4),
                     max_leaves=20)


@st.composite
def heap_pairs(draw: st.DrawFn) -> tuple[Any, Any]:
    """Two heaps, the second mostly the first: a few values replaced, removed or added."""
    before = draw(st.dictionaries(KEYS, HEAPS, max_size=5))
    return before, draw(_edited(before))


def _in_order(order: list[Any], kept: dict[Any, Any]) -> dict[Any, Any]:
    return {k: kept[k] for k in order if k in kept}


def _extended(base: dict[Any, Any], extra: dict[Any, Any]) -> dict[Any, Any]:
    return {**base, **extra}


def _edited(value: Any) -> st.SearchStrategy[Any]:
    if isinstance(value, dict):
        edits = [st.fixed_dictionaries({}, optional={key: _edited(v) for key, v in value.items()})
                 .map(partial(_in_order, list(value))),
                 st.fixed_dictionaries({key: _edited(v) for key, v in value.items()}),
                 st.dictionaries(KEYS, HEAPS, max_size=2).map(partial(_extended, value))]
        return st.one_of(st.just(value), *edits)
    return st.one_of(st.just(value), HEAPS)


def whole_heap_changes(before: Any, after: Any) -> list[tuple[tuple, HeapChange]]:
    """deepdiff over the whole heaps, as the changes were always found."""
    changes = []
    for report, levels in DeepDiff(before, after, view="tree").items():
        for level in levels:
            keys = tuple(level.path(output_format="list"))
            changes.append((keys, HeapChange(format_path(keys), report, _present(level.t1), _present(level.t2))))
    changes.sort(key=lambda c: c[1].path)
    return changes


@settings(max_examples=400, deadline=None)
@given(heap_pairs())
def test_the_changes_are_deepdiffs_over_the_whole_heaps(pair: tuple[Any, Any]) -> None:
    before, after = pair
    assert repr(heap_changes(before, after)) == repr(whole_heap_changes(before, after))  # repr: NaN is not == NaN
