"""What differs between a parent's and a child's end state, as short items people can act on.

:func:`describe_differences` turns a :class:`~webr4.state.diff.StateDiff` into ``differences``
of ``summary.json``: category → a list of short strings, at most :data:`MAX_ITEMS` per category
(a last item says how many more the witness's ``diff.json`` holds). Everything that shows a
verdict (the report, JUnit, SARIF, ``--progress json``, the pytest plugin, ``replay``) prints
these items; :func:`differences_line` puts them on one line. Each category words its own items
(:meth:`~webr4.state.categories.base.StateCategory.items`; its module shows examples), and texts are
cut to :data:`~webr4.state.categories.words.MAX_TEXT` characters.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from webr4.state.categories import CATEGORIES
from webr4.state.diff import StateDiff

MAX_ITEMS = 5

_MORE = re.compile(r"^… (\d+) more in diff\.json$")


def _more(count: int) -> list[str]:
    return [f"… {count} more in diff.json"] if count > 0 else []


def _split(items: list[str]) -> tuple[list[str], int]:
    """The items proper and how many more the witness holds (the closing "… n more" item)."""
    more = _MORE.match(items[-1]) if items else None
    return (items[:-1], int(more.group(1))) if more else (items, 0)


def describe_differences(difference: StateDiff) -> dict[str, list[str]]:
    """Category → at most :data:`MAX_ITEMS` items (and one saying how many more), for every
    category that differs, in the order of :data:`~webr4.state.categories.CATEGORIES`."""
    described: dict[str, list[str]] = {}
    for category in CATEGORIES:
        part = difference[category.name]
        if part:
            items = category.items(part)
            more = max(0, len(items) - MAX_ITEMS) + category.unlisted(part)
            described[category.name] = items[:MAX_ITEMS] + _more(more)
    return described


def differences_lines(differences: Mapping[str, Any]) -> list[str]:
    """One line per category of ``differences``: ``dom: #log: "a" → "b"; #c1: …``."""
    return [f"{category}: {items if isinstance(items, str) else '; '.join(items)}"
            for category, items in differences.items()]


def differences_line(differences: Mapping[str, Any], *, per_category: int = 2) -> str:
    """``differences`` of ``summary.json`` on one line: ``exceptions: new TypeError: … at
    app.js:12:5; dom: #log: "a" → "b" (+2 more)``; at most ``per_category`` items each.
    A category written as one string (runs from before items existed) is shown as it is."""
    parts = []
    for category, items in differences.items():
        if isinstance(items, str):
            parts.append(f"{category}: {items}")
            continue
        listed, unlisted = _split(list(items))
        more = max(0, len(listed) - per_category) + unlisted
        shown = ", ".join(listed[:per_category]) + (f" (+{more} more)" if more else "")
        parts.append(f"{category}: {shown}")
    return "; ".join(parts) or "none"
