"""A fast check of a long list of flat JSON values, derived from their type.

Some messages of the page runtime carry long homogeneous lists: an event's access summary holds
up to 10^5 entries. The generic check of :mod:`webr4.browser.records` walks the type once per
value, a few microseconds each. A *flat* type — ``str``, ``int``, ``None``, a ``Literal`` of
strings, a union of these, or a fixed-length ``tuple`` of them (a row), whose columns may also be
lists of flat rows (the locations a step hands over, each with its entries) — needs no walk:
:class:`FlatRows` looks at the whole list a column at a time with set operations that run in C.

Contract: :meth:`FlatRows.convert` returns exactly what the generic check returns for the same
list, or ``None`` when it cannot vouch for the list (a value that does not fit, or a fitting
value the generic check would treat differently, such as a subclass of ``str``). It never
accepts what the generic check refuses, so a caller runs the generic check after ``None`` and
gets its one-line account of what is wrong.
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from collections.abc import Callable, Iterable
from functools import cache, partial
from operator import itemgetter
from typing import Any, Literal, Union, get_args, get_origin

_NONE = type(None)


@dataclass(frozen=True)
class _Column:
    """What every value of one column must be: of one of ``types`` (``str`` or ``None``, both
    hashable), and when ``words`` is set, a string among them (a ``Literal``)."""

    types: frozenset[type]
    words: frozenset[str] | None = None

    def fits(self, values: Callable[[], Iterable[Any]]) -> bool:
        """Whether every value fits; ``values`` gives a fresh iterator over them each call."""
        if not set(map(type, values())) <= self.types:
            return False
        return self.words is None or set(values()).difference((None,)) <= self.words


def _column(kind: Any) -> _Column | None:
    """The column check of a flat scalar type, or None when ``kind`` is not one."""
    if kind is str:
        return _Column(frozenset({str}))
    if kind is int:  # a bool is no int here, as for the generic check
        return _Column(frozenset({int}))
    if kind is _NONE:
        return _Column(frozenset({_NONE}))
    origin = get_origin(kind)
    if origin is Literal:
        words = get_args(kind)
        return _Column(frozenset({str}), frozenset(words)) if all(type(w) is str for w in words) else None
    if origin in (Union, types.UnionType):
        parts = [_column(option) for option in get_args(kind)]
        if any(part is None for part in parts):
            return None
        strings = [part for part in parts if part is not None and str in part.types]
        if len(strings) > 1:  # str | Literal[...]: rare, and left to the generic check
            return None
        return _Column(frozenset().union(*(part.types for part in parts if part is not None)),
                       strings[0].words if strings else None)
    return None


@dataclass(frozen=True)
class FlatRows:
    """The check of a list of values of one flat type: rows of ``columns`` when ``width`` is
    set (a fixed-length tuple type), else single values of ``columns[0]``. A column that is
    itself a :class:`FlatRows` holds lists of its rows."""

    columns: tuple[_Column | FlatRows, ...]
    width: int | None

    @staticmethod
    @cache
    def of(kind: Any) -> FlatRows | None:
        """The check for lists of ``kind``, or None when ``kind`` is not flat."""
        if get_origin(kind) is tuple:
            args = get_args(kind)
            if not args or Ellipsis in args:
                return None
            columns = [_column(arg) or _rows_column(arg) for arg in args]
            if any(column is None for column in columns):
                return None
            return FlatRows(tuple(column for column in columns if column is not None), len(args))
        column = _column(kind)
        return None if column is None else FlatRows((column,), None)

    def convert(self, raw: Any) -> tuple[Any, ...] | None:
        """``raw`` as the generic check converts it (a tuple, rows as tuples), or None when
        this check cannot vouch for it."""
        if type(raw) is not list:
            return None
        if self.width is None:
            column = self.columns[0]
            return tuple(raw) if isinstance(column, _Column) and column.fits(lambda: raw) else None
        if not set(map(type, raw)) <= {list} or not set(map(len, raw)) <= {self.width}:
            return None
        nested: dict[int, list[Any]] = {}
        for index, column in enumerate(self.columns):
            values = partial(map, itemgetter(index), raw)
            if isinstance(column, FlatRows):
                converted = [column.convert(value) for value in values()]
                if any(rows is None for rows in converted):
                    return None
                nested[index] = converted
            elif not column.fits(values):
                return None
        if not nested:
            return tuple(map(tuple, raw))
        return tuple(zip(*(nested[index] if index in nested else list(map(itemgetter(index), raw))
                           for index in range(self.width))))


def _rows_column(kind: Any) -> FlatRows | None:
    """The check of a column of ``tuple[Row, ...]`` values, ``Row`` a flat row type; else None."""
    args = get_args(kind)
    if get_origin(kind) is not tuple or len(args) != 2 or args[1] is not Ellipsis:
        return None
    rows = FlatRows.of(args[0])
    return rows if rows is not None and rows.width is not None else None
