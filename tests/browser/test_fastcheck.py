"""The column-wise check of long flat lists agrees with the generic check of the records schema."""

from __future__ import annotations

import json
from typing import Any, Literal

from hypothesis import given
from hypothesis import strategies as st

from webr4.browser import records
from webr4.browser.fastcheck import FlatRows
from webr4.browser.records import AccessEntry, EventDescriptor, EventId, PromotedLocation

# Values of every JSON type, and near misses of the entry's own: other letters, a bool, an integral number.
_ANY = st.one_of(st.sampled_from(["r", "w", "x", "R", "", True, False, 0, 1, 2.5, None]), st.text(max_size=3),
                 st.lists(st.just("r"), max_size=2), st.dictionaries(st.just("k"), st.just("r"), max_size=1))
_GOOD = st.tuples(st.sampled_from(["r", "w"]), st.text(max_size=4), st.none() | st.text(max_size=4),
                  st.none() | st.text(max_size=4)).map(list)
_ODD: st.SearchStrategy[Any] = st.sampled_from(["x", "", True, False, 0, 1, 2.5, None, [], {}])
_NEAR_MISS = st.tuples(_GOOD, st.integers(0, 3), _ODD).map(lambda e: e[0][:e[1]] + [e[2]] + e[0][e[1] + 1:])
_WRONG = st.one_of(_NEAR_MISS, _GOOD.map(lambda e: e[:3]), _GOOD.map(lambda e: [*e, None]),
                   st.lists(_ANY, min_size=3, max_size=5), _ANY)


def _rows(kind: Any) -> FlatRows:
    """The fast check of ``kind``, which must have one."""
    rows = FlatRows.of(kind)
    assert rows is not None, kind
    return rows


@st.composite
def _entries(draw: st.DrawFn) -> list[Any]:
    """Good entries, and maybe one wrong one among them: a single wrong value anywhere must be seen."""
    entries: list[Any] = draw(st.lists(_GOOD, max_size=12))
    if draw(st.booleans()):
        entries.insert(draw(st.integers(0, len(entries))), draw(_WRONG))
    return entries


def _generic(kind: Any, raw: Any) -> tuple[Any, ...] | str:
    """What the value-by-value check makes of ``raw`` as a tuple of ``kind``: the tuple, or its error."""
    if not isinstance(raw, list):
        return "not a list"
    try:
        return tuple(records._convert(kind, item, f"[{i}]") for i, item in enumerate(raw))
    except records.RecordError as mismatch:
        return str(mismatch)


def test_the_access_entries_and_lists_of_ids_have_a_fast_check_and_objects_do_not():
    assert FlatRows.of(AccessEntry) is not None
    assert FlatRows.of(EventId) is not None
    assert FlatRows.of(PromotedLocation) is not None
    assert FlatRows.of(EventDescriptor) is None
    assert FlatRows.of(float) is None and FlatRows.of(tuple[str, float]) is None
    assert FlatRows.of(tuple[str, ...]) is None and FlatRows.of(tuple[str, tuple[str, ...]]) is None


@given(_entries())
def test_the_fast_check_of_access_entries_vouches_exactly_for_what_the_generic_check_accepts(entries):
    raw = json.loads(json.dumps(entries))  # as the page sends them
    fast = _rows(AccessEntry).convert(raw)
    generic = _generic(AccessEntry, raw)
    if isinstance(generic, str):
        assert fast is None
    else:
        assert fast == generic and all(type(row) is tuple for row in fast)


_GOOD_PROMOTED: st.SearchStrategy[list[Any]] = st.tuples(st.text(max_size=3), st.integers(0, 5), st.integers(0, 5),
                                                      st.lists(_GOOD, max_size=3)).map(list)
_WRONG_PROMOTED = st.one_of(
    st.tuples(_GOOD_PROMOTED, st.integers(0, 3), st.sampled_from(["x", True, 2.5, 2.0, None, [], {}, [["r"]]]))
    .map(lambda e: e[0][:e[1]] + [e[2]] + e[0][e[1] + 1:]),
    st.tuples(_GOOD_PROMOTED, _WRONG).map(lambda e: [*e[0][:3], [*e[0][3], e[1]]]),
    _GOOD_PROMOTED.map(lambda e: e[:3]), _ANY)


@given(st.lists(_GOOD_PROMOTED, max_size=6), st.none() | _WRONG_PROMOTED, st.integers(0, 6))
def test_the_fast_check_of_handed_over_locations_agrees_with_the_generic_check(locations, wrong, at):
    if wrong is not None:
        locations.insert(min(at, len(locations)), wrong)
    raw = json.loads(json.dumps(locations))
    fast = _rows(PromotedLocation).convert(raw)
    generic = _generic(PromotedLocation, raw)
    if isinstance(generic, str):
        assert fast is None
    else:
        assert fast is None or fast == generic
        if wrong is None:
            assert fast == generic and all(type(row) is tuple and type(row[3]) is tuple for row in fast)


@given(st.lists(_ANY, max_size=8))
def test_the_fast_check_of_a_list_of_optional_words_agrees_with_the_generic_check(values):
    kind = Literal["a", "b"] | None
    fast = _rows(kind).convert(values)
    generic = _generic(kind, values)
    assert fast == (None if isinstance(generic, str) else generic)


def test_a_list_the_fast_check_cannot_vouch_for_is_left_to_the_generic_check():
    class Word(str):
        pass

    assert _rows(AccessEntry).convert([[Word("r"), "global:a", None, None]]) is None
    assert _rows(AccessEntry).convert((("r", "global:a", None, None),)) is None
